// Reader::ReadTaskTable / ReadTargetTable / ReadAnnotationTable: the catalog builds the Arrow
// tables (all SQL stays in src/catalog); the reader supplies the lease and its ValueResolver, so
// packed text is read through the reader's payload files, cache and locator checks.
#include "catalog/export/table_export.h"
#include "reader/reader_state.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {

// Tables hold strings, not handles: packed text is read while the table is built.
constexpr LoadPlan kTextLoaded{.text = Loading::kEager};

}  // namespace

ArrowTable Reader::ReadTaskTable(const TaskQuery& query) {
  const catalog::TaskFilter filter = FilterOf(query);
  catalog::CatalogLease lease = state_->catalog().Lease();
  return catalog::TaskTable(lease.connection(), filter, *state_->catalog().Resolver(kTextLoaded));
}

ArrowTable Reader::ReadTargetTable(const TaskQuery& query) {
  const catalog::TaskFilter filter = FilterOf(query);
  catalog::CatalogLease lease = state_->catalog().Lease();
  return catalog::TargetTable(lease.connection(), filter, *state_->catalog().Resolver(kTextLoaded));
}

ArrowTable Reader::ReadAnnotationTable() {
  catalog::CatalogLease lease = state_->catalog().Lease();
  return catalog::AnnotationTable(lease.connection(), *state_->catalog().Resolver(kTextLoaded));
}

}  // namespace timef
