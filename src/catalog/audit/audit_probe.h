// Building blocks of the catalog audit: the context shared by the checks, and the "probe" that
// runs one set-based query returning the offending keys and turns a non-empty answer into an
// AuditError with the count and up to five examples.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/audit/audit.h"
#include "catalog/catalog_schema.h"
#include "catalog/duckdb/duckdb_database.h"

namespace timef::catalog::audit {

inline constexpr size_t kMaxExamples = 5;

struct Context {
  Connection& connection;
  const AuditFacts& facts;
  const std::filesystem::path& path;
  Relations relations;
  std::set<std::string, std::less<>> views;
};

[[noreturn]] void Fail(const Context& ctx, std::string_view invariant, std::string_view where,
                       int64_t count, std::string_view what,
                       const std::vector<std::string>& examples);

// Raises when `offenders` is not empty (C++-side checks); the examples are the first five.
void FailIfAny(const Context& ctx, std::string_view invariant, std::string_view where,
               std::string_view what, const std::vector<std::string>& offenders);

// The probes of one invariant. Each probe's SQL returns one column that names an offending row (a
// key, an ID or a short label); Run() raises "<invariant>: <count> <what> (e.g. a, b)" at `where`
// for the first probe, in Add() order, that returns any row. A probe first asks for one row
// (LIMIT 1); only a probe that finds one is run again for its examples (DISTINCT, ORDER BY) and its
// count. Tried and dropped: one UNION ALL statement per invariant (no faster, and it tripped an
// intermittent DuckDB 1.4.4 internal error in window operators over empty inputs), and one
// statement of EXISTS (...) per batch (DuckDB's join-order search over the combined plan cost what
// the saved statements did).
class ProbeBatch {
 public:
  ProbeBatch(const Context& ctx, std::string_view invariant) : ctx_(ctx), invariant_(invariant) {}
  ProbeBatch& Add(std::string_view where, std::string_view what, std::string_view sql);
  void Run();

 private:
  struct Item {
    std::string where;
    std::string what;
    std::string sql;
  };
  const Context& ctx_;
  std::string invariant_;
  std::vector<Item> items_;
};

// A batch of one.
void Probe(const Context& ctx, std::string_view invariant, std::string_view where,
           std::string_view what, std::string_view sql);

// Rows of a query whose columns are all VARCHAR/BIGINT/BOOLEAN/lists, rendered as strings (nullopt
// for NULL, lists as [a,b]), for checks that compare catalog rows with manifest facts in C++.
using Cell = std::optional<std::string>;
using Row = std::vector<Cell>;
std::vector<Row> Rows(const Context& ctx, std::string_view sql, std::string_view what);

// "c IS NULL AND ..." over the `columns` not in `keep` (the value columns a row leaves unset).
std::string AllNullExcept(const std::vector<std::string>& columns,
                          const std::vector<std::string>& keep);

// One inline/packed pair of columns: exactly one side set.
std::string ExactlyOne(const std::string& a, const std::string& b);

// 'a', 'b', ... as a SQL list of literals.
std::string SqlList(const std::vector<std::string>& values);

// "NOT coalesce(<condition>, false)": true for rows where the condition does not hold or is
// unknown because of a NULL.
std::string Violates(std::string_view condition);

// One function per invariant of docs/format.md §14; each raises AuditError for its first violation.
// audit_control.cc
void CheckC1(const Context& ctx);
void CheckC2(const Context& ctx);
void CheckC3(const Context& ctx);
void CheckC9(const Context& ctx);
// audit_keys.cc
void CheckC4(const Context& ctx);
void CheckC5(const Context& ctx);
void CheckC6(const Context& ctx);
void CheckC7(const Context& ctx);
void CheckC8(const Context& ctx);
// audit_records.cc
void CheckC10(const Context& ctx);
void CheckH1(const Context& ctx);
void CheckH2(const Context& ctx);
void CheckH3(const Context& ctx);
void CheckA1(const Context& ctx);
void CheckA2(const Context& ctx);
// audit_locators.cc
void CheckV1(const Context& ctx);
void CheckV2(const Context& ctx);
void CheckP2(const Context& ctx);
// audit_annotations.cc
void CheckN1(const Context& ctx);
void CheckN2(const Context& ctx);
// audit_tasks.cc
void CheckT1(const Context& ctx);
void CheckT2(const Context& ctx);
void CheckT3(const Context& ctx);
void CheckX1(const Context& ctx);
void CheckP1(const Context& ctx);

}  // namespace timef::catalog::audit
