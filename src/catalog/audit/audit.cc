#include "catalog/audit/audit.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

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

void Audit(const std::filesystem::path& catalog, const AuditFacts& facts, int threads) {
  Database db = Database::Open(catalog, AccessMode::kReadOnly);
  Connection connection(db);
  audit::Context ctx{connection, facts, catalog, {}, {}};
  LoadRelations(ctx);
  constexpr std::size_t kCount = std::size(kChecks);
  const auto lanes = static_cast<std::size_t>(std::clamp<int>(threads, 1, kCount));
  if (lanes == 1) {
    for (const Check& check : kChecks) check.run(ctx);
    return;
  }
  // The checks are taken in order by whichever lane is free; a lane skips the checks after the
  // earliest one known to have failed, and the earliest failure is raised once all have stopped.
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> first_failed{kCount};
  std::array<std::exception_ptr, kCount> failures;
  auto run = [&](const audit::Context& lane) {
    for (std::size_t i = next++; i < kCount; i = next++) {
      if (i > first_failed.load()) continue;
      try {
        kChecks[i].run(lane);
      } catch (...) {
        failures[i] = std::current_exception();
        std::size_t seen = first_failed.load();
        while (i < seen && !first_failed.compare_exchange_weak(seen, i)) {
        }
      }
    }
  };
  {
    std::vector<std::jthread> helpers;
    helpers.reserve(lanes - 1);
    for (std::size_t k = 1; k < lanes; ++k) {
      helpers.emplace_back([&] {
        try {
          Connection own(db);
          run(audit::Context{own, facts, catalog, ctx.relations, ctx.views});
        } catch (...) {
          // A connection that cannot be made: its share of the checks runs on the other lanes.
        }
      });
    }
    run(ctx);
  }  // helpers joined
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace timef::catalog
