#include "catalog/signal_locators.h"

#include <map>
#include <string>

#include "catalog/duckdb_result.h"
#include "catalog/duckdb_statement.h"
#include "catalog/spec_row.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

// Signals without chunk rows (no values) come out once with NULL chunk columns.
std::string LocatorSql(bool by_ids) {
  return std::string("SELECT s.signal_id, r.record_id, s.n_values, sc.chunk_index, ") +
         "sc.payload_source, sc.value_path, sc.chunk_major_index, sc.chunk_minor_index, " +
         "sc.n_values, " + std::string(kSpecColumns) +
         " FROM signals s JOIN sources so ON so.source_key = s.source_key "
         "JOIN records r ON r.record_key = so.record_key " +
         (by_ids ? "JOIN (SELECT DISTINCT unnest($1::BIGINT[]) AS id) q ON q.id = s.signal_id "
                 : "") +
         "LEFT JOIN signal_chunks sc ON sc.signal_key = s.signal_key "
         "ORDER BY s.signal_id, sc.chunk_index";
}

[[noreturn]] void BadChunks(int64_t signal_id, const std::string& problem) {
  throw FormatError({.object = "signal_chunks", .where = "chunk_index"},
                    "signal " + std::to_string(signal_id) + ": " + problem);
}

}  // namespace

void ForEachSignalLocator(Connection& connection, std::optional<std::span<const int64_t>> ids,
                          const std::function<void(SignalLocatorRow&&)>& row) {
  Result result = [&] {
    if (!ids) return connection.Query(LocatorSql(false), "signal_chunks");
    PreparedStatement statement = connection.Prepare(LocatorSql(true), "signal_chunks");
    statement.BindInt64List(1, std::vector<int64_t>(ids->begin(), ids->end()));
    return statement.Execute();
  }();

  std::map<std::string, std::shared_ptr<const model::Spec>> specs;
  std::optional<SignalLocatorRow> current;
  int64_t total = 0;
  auto finish = [&] {
    if (!current) return;
    if (!current->chunks.empty() && total != current->n_values) {
      BadChunks(current->signal_id, "chunks hold " + std::to_string(total) +
                                        " values, signals.n_values is " +
                                        std::to_string(current->n_values));
    }
    row(std::move(*current));
    current.reset();
    total = 0;
  };
  while (std::optional<Chunk> chunk = result.Next()) {
    const Chunk& c = *chunk;
    auto signal_id = c.Int64(0);
    auto chunk_index = c.Int64(3);
    for (idx_t i = 0; i < c.size(); ++i) {
      const int64_t id = signal_id.Get(i);
      if (!current || current->signal_id != id) {
        finish();
        current.emplace();
        current->signal_id = id;
        current->record_id = c.Int64(1).Get(i);
        current->n_values = c.Int64(2).Get(i);
        model::Spec spec = SpecAt(c, i, 9);
        std::shared_ptr<const model::Spec>& cached = specs[spec.spec_type];
        if (!cached || !(*cached == spec)) cached = model::Spec::Make(std::move(spec));
        current->spec = cached;
      }
      const std::optional<int64_t> index = chunk_index.Optional(i);
      if (!index) continue;
      if (*index != static_cast<int64_t>(current->chunks.size())) {
        BadChunks(id, "chunk_index " + std::to_string(*index) + " where " +
                          std::to_string(current->chunks.size()) +
                          " was expected (indexes run 0..k-1 without gaps)");
      }
      ChunkLocator locator;
      if (auto source = c.Varchar(4).Optional(i)) locator.payload_source = std::string(*source);
      locator.value_path = c.Varchar(5).Get(i);
      locator.major = c.Int64(6).Get(i);
      locator.minor = c.Int64(7).Optional(i);
      locator.n_values = c.Int64(8).Get(i);
      total += locator.n_values;
      current->chunks.push_back(std::move(locator));
    }
  }
  finish();
}

}  // namespace timef::catalog
