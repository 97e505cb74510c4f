// The SQL of a TaskFilter: one place for the conditions that select tasks, so object reads
// (CatalogHydrator::Tasks) and tables (table_export) always select the same tasks.
#pragma once

#include <string>
#include <vector>

#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/hydrate/hydrate.h"

namespace timef::catalog {

class TaskFilterSql {
 public:
  // Conditions over `tasks t`, with parameters numbered from `first_param`.
  TaskFilterSql(const TaskFilter& filter, int first_param);

  // " AND …" for every set field of the filter; empty when nothing is set.
  const std::string& conditions() const { return conditions_; }
  // The first parameter number after the filter's own.
  int next_param() const { return next_param_; }
  void Bind(PreparedStatement& statement) const;

 private:
  const TaskFilter& filter_;
  int first_param_;
  int next_param_;
  std::string conditions_;
  std::vector<std::string> required_;
  std::vector<std::string> supported_;
};

}  // namespace timef::catalog
