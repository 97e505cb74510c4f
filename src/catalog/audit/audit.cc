#include "catalog/audit/audit.h"

#include <functional>
#include <utility>

#include "catalog/audit/audit_probe.h"
#include "catalog/duckdb/duckdb_database.h"

namespace timef::catalog {

AuditError::AuditError(ErrorSite site, std::string invariant, std::string_view problem)
    : FormatError(std::move(site), invariant + ": " + std::string(problem)),
      invariant_(std::move(invariant)) {}

namespace {

struct Check {
  const char* id;
  void (*run)(const audit::Context&);
};

// docs/format.md §14 order, which is also the order failures are reported in. Deep checks (A2
// offsets, V3, V4, X1 payload rows) and the file-level ones (L1–L4, P3) live outside the catalog
// audit.
constexpr Check kChecks[] = {
    {"C1", audit::CheckC1},   {"C2", audit::CheckC2}, {"C3", audit::CheckC3},
    {"C4", audit::CheckC4},   {"C5", audit::CheckC5}, {"C6", audit::CheckC6},
    {"C7", audit::CheckC7},   {"C8", audit::CheckC8}, {"C9", audit::CheckC9},
    {"C10", audit::CheckC10}, {"H1", audit::CheckH1}, {"H2", audit::CheckH2},
    {"H3", audit::CheckH3},   {"A1", audit::CheckA1}, {"A2", audit::CheckA2},
    {"V1", audit::CheckV1},   {"V2", audit::CheckV2}, {"N1", audit::CheckN1},
    {"N2", audit::CheckN2},   {"T1", audit::CheckT1}, {"T2", audit::CheckT2},
    {"T3", audit::CheckT3},   {"X1", audit::CheckX1}, {"P1", audit::CheckP1},
    {"P2", audit::CheckP2},
};

void LoadRelations(audit::Context& ctx) {
  ctx.relations = ReadRelations(ctx.connection);
  Result views = ctx.connection.Query(
      "SELECT view_name FROM duckdb_views() WHERE database_name = current_database() "
      "AND schema_name = 'main' AND NOT internal",
      "duckdb_views()");
  while (auto chunk = views.Next()) {
    auto name = chunk->Varchar(0);
    for (idx_t row = 0; row < chunk->size(); ++row) ctx.views.emplace(name.Get(row));
  }
}

}  // namespace

std::vector<std::string> AuditedInvariants() {
  std::vector<std::string> out;
  for (const Check& check : kChecks) out.emplace_back(check.id);
  return out;
}

void Audit(const std::filesystem::path& catalog, const AuditFacts& facts) {
  Database db = Database::Open(catalog, AccessMode::kReadOnly);
  Connection connection(db);
  audit::Context ctx{connection, facts, catalog, {}, {}};
  LoadRelations(ctx);
  for (const Check& check : kChecks) check.run(ctx);
}

}  // namespace timef::catalog
