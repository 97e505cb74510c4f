#include "catalog/audit/audit_probe.h"

#include <algorithm>
#include <string>

#include "catalog/catalog_schema.h"
#include "catalog/duckdb/duckdb_result.h"

namespace timef::catalog::audit {

void Fail(const Context& ctx, std::string_view invariant, std::string_view where, int64_t count,
          std::string_view what, const std::vector<std::string>& examples) {
  std::string problem = std::to_string(count) + " " + std::string(what);
  if (!examples.empty()) {
    problem += " (e.g. ";
    for (size_t i = 0; i < examples.size() && i < kMaxExamples; ++i) {
      if (i > 0) problem += ", ";
      problem += examples[i];
    }
    problem += ")";
  }
  throw AuditError(ErrorSite{.file = ctx.path, .where = std::string(where)}, std::string(invariant),
                   problem);
}

void FailIfAny(const Context& ctx, std::string_view invariant, std::string_view where,
               std::string_view what, const std::vector<std::string>& offenders) {
  if (offenders.empty()) return;
  Fail(ctx, invariant, where, static_cast<int64_t>(offenders.size()), what, offenders);
}

ProbeBatch& ProbeBatch::Add(std::string_view where, std::string_view what, std::string_view sql) {
  items_.push_back(Item{std::string(where), std::string(what), std::string(sql)});
  return *this;
}

void ProbeBatch::Run() {
  for (const Item& item : items_) {
    // The common case is a clean catalog: one cheap query per probe. Counting runs only for a
    // probe that found something.
    // Does the probe find anything? Most do not. DISTINCT and ORDER BY would build a hash table
    // and a sort for every probe (DuckDB sizes and zeroes a hash aggregate's table for large
    // inputs, about a third of a clean audit's time on a small catalog), so they run only below.
    {
      Result any = ctx_.connection.Query("SELECT 1 FROM (" + item.sql + ") LIMIT 1",
                                         invariant_ + " " + item.where);
      auto chunk = any.Next();
      if (!chunk || chunk->size() == 0) continue;
    }
    std::vector<std::string> examples;
    {
      Result result =
          ctx_.connection.Query("SELECT DISTINCT CAST(x AS VARCHAR), x FROM (" + item.sql +
                                    ") t(x) ORDER BY x LIMIT " + std::to_string(kMaxExamples),
                                invariant_ + " " + item.where);
      while (auto chunk = result.Next()) {
        auto example = chunk->Varchar(0);
        for (idx_t row = 0; row < chunk->size(); ++row) {
          examples.push_back(example.IsNull(row) ? "NULL" : std::string(example.Get(row)));
        }
      }
    }
    if (examples.empty()) continue;
    Result counted = ctx_.connection.Query("SELECT count(*) FROM (" + item.sql + ")",
                                           invariant_ + " " + item.where);
    auto chunk = counted.Next();
    int64_t count = chunk ? chunk->Int64(0).Get(0) : static_cast<int64_t>(examples.size());
    Fail(ctx_, invariant_, item.where, count, item.what, examples);
  }
}

void Probe(const Context& ctx, std::string_view invariant, std::string_view where,
           std::string_view what, std::string_view sql) {
  ProbeBatch(ctx, invariant).Add(where, what, sql).Run();
}

std::vector<Row> Rows(const Context& ctx, std::string_view sql, std::string_view what) {
  Result result = ctx.connection.Query(sql, what);
  std::vector<Row> rows;
  while (auto chunk = result.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) {
      Row cells;
      cells.reserve(result.column_count());
      for (idx_t c = 0; c < result.column_count(); ++c) {
        cells.push_back(chunk->Text(c, row));
      }
      rows.push_back(std::move(cells));
    }
  }
  return rows;
}

std::string AllNullExcept(const std::vector<std::string>& columns,
                          const std::vector<std::string>& keep) {
  std::string out;
  for (const std::string& c : columns) {
    if (std::find(keep.begin(), keep.end(), c) != keep.end()) continue;
    if (!out.empty()) out += " AND ";
    out += c + " IS NULL";
  }
  return out;
}

std::string ExactlyOne(const std::string& a, const std::string& b) {
  return "((" + a + " IS NOT NULL)::INTEGER + (" + b + " IS NOT NULL)::INTEGER) = 1";
}

std::string SqlList(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += SqlQuote(values[i]);
  }
  return out;
}

std::string Violates(std::string_view condition) {
  return "NOT coalesce((" + std::string(condition) + "), false)";
}

}  // namespace timef::catalog::audit
