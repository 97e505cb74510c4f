// Reader::ReadTaskTable / ReadTargetTable / ReadAnnotationTable: the catalog builds the Arrow
// tables (all SQL stays in src/catalog); the reader supplies the lease and the text hooks, so
// packed text is read through the reader's payload files, cache and locator checks.
#include "catalog/table_export.h"
#include "reader/reader_state.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {

catalog::TaskFilter TableFilter(const TaskQuery& query) {
  for (std::int64_t id : query.inputs) {
    if (id <= 0) {
      throw ValidationError({.object = "record", .where = "id"},
                            "IDs are positive int64, got " + std::to_string(id));
    }
  }
  catalog::TaskFilter filter;
  filter.inputs = query.inputs;
  filter.split = query.split;
  filter.type = query.type;
  filter.required_modalities = query.required_modalities;
  filter.supported_modalities = query.supported_modalities;
  return filter;
}

// Tables hold strings, not handles: packed text is read while the table is built.
constexpr LoadPlan kTextLoaded{.text = Loading::kEager};

}  // namespace

ArrowTable Reader::ReadTaskTable(const TaskQuery& query) {
  const catalog::TaskFilter filter = TableFilter(query);
  catalog::CatalogLease lease = state_->Lease();
  return catalog::TaskTable(lease.connection(), filter, state_->HydrateOptionsFor(kTextLoaded));
}

ArrowTable Reader::ReadTargetTable(const TaskQuery& query) {
  const catalog::TaskFilter filter = TableFilter(query);
  catalog::CatalogLease lease = state_->Lease();
  return catalog::TargetTable(lease.connection(), filter, state_->HydrateOptionsFor(kTextLoaded));
}

ArrowTable Reader::ReadAnnotationTable() {
  catalog::CatalogLease lease = state_->Lease();
  return catalog::AnnotationTable(lease.connection(), state_->HydrateOptionsFor(kTextLoaded));
}

}  // namespace timef
