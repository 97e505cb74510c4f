#include "catalog/task_filter_sql.h"

namespace timef::catalog {

TaskFilterSql::TaskFilterSql(const TaskFilter& filter, int first_param)
    : filter_(filter), first_param_(first_param), next_param_(first_param) {
  // (std::string("$").append(...) rather than "$" + ...: GCC 12 warns falsely on the latter.)
  auto param = [this] { return std::string("$").append(std::to_string(next_param_++)); };
  if (filter.split) conditions_ += " AND t.split = " + param();
  if (filter.type) conditions_ += " AND t.task_type = " + param();
  // An empty ID list selects nothing (binding an empty list would too, at the cost of a join).
  if ((filter.inputs && filter.inputs->empty()) || (filter.ids && filter.ids->empty())) {
    conditions_ += " AND false";
  }
  if (filter.inputs && !filter.inputs->empty()) {
    conditions_ +=
        " AND t.task_key IN (SELECT rr.task_key FROM task_record_refs rr JOIN records r ON "
        "r.record_key = rr.record_key JOIN (SELECT unnest(" +
        param() + "::BIGINT[]) AS id) q ON r.record_id = q.id WHERE rr.field = 'inputs')";
  }
  if (filter.ids && !filter.ids->empty()) {
    conditions_ += " AND t.task_id IN (SELECT unnest(" + param() + "::BIGINT[]))";
  }
  if (!filter.required_modalities.empty()) {
    conditions_ += " AND list_has_all(t.input_modalities, " + param() + "::VARCHAR[])";
    for (auto m : filter.required_modalities) required_.emplace_back(model::ToString(m));
  }
  if (!filter.supported_modalities.empty()) {
    conditions_ += " AND list_has_all(" + param() + "::VARCHAR[], t.input_modalities)";
    for (auto m : filter.supported_modalities) supported_.emplace_back(model::ToString(m));
  }
}

void TaskFilterSql::Bind(PreparedStatement& statement) const {
  idx_t param = static_cast<idx_t>(first_param_);
  if (filter_.split) statement.BindVarchar(param++, model::ToString(*filter_.split));
  if (filter_.type) statement.BindVarchar(param++, model::ToString(*filter_.type));
  if (filter_.inputs && !filter_.inputs->empty()) statement.BindInt64List(param++, *filter_.inputs);
  if (filter_.ids && !filter_.ids->empty()) statement.BindInt64List(param++, *filter_.ids);
  if (!required_.empty()) statement.BindVarcharList(param++, required_);
  if (!supported_.empty()) statement.BindVarcharList(param++, supported_);
}

}  // namespace timef::catalog
