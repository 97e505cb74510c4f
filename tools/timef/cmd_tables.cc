// `timef tasks DIR --table`: the reader's task table (docs/format.md §11.6) as JSON lines,
// one object per row with the table's columns in order; NULL cells are JSON null.
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "cmd_dataset.h"
#include "commands.h"
#include "release_dir.h"
#include "timef/arrow_table.h"
#include "timef/reader.h"

namespace timef::cli {
namespace {

nlohmann::ordered_json CellJson(const ArrowTable& table, const std::string& column, int64_t row) {
  if (table.IsNull(column, row)) return nullptr;
  const std::string_view format = table.ColumnFormat(column);
  if (format == "l") return *table.Int64(column, row);
  if (format == "g") return *table.Double(column, row);
  if (format == "b") return *table.Bool(column, row);
  if (format == "U") return std::string(*table.String(column, row));
  if (table.ListElementFormat(column) == "l") return *table.Int64List(column, row);
  return *table.StringList(column, row);
}

}  // namespace

int RunTaskTable(const TasksArgs& args) {
  Reader reader = OpenRelease(args.release);
  TaskQuery query;
  // The CLI checked both names against the lists, so the parses succeed.
  if (args.split) query.split = model::ParseSplit(*args.split);
  if (args.type) query.type = model::ParseTaskType(*args.type);
  const ArrowTable table = reader.ReadTaskTable(query);
  const std::vector<std::string> columns = table.ColumnNames();
  for (int64_t row = 0; row < table.num_rows(); ++row) {
    if (args.limit && row >= *args.limit) break;
    nlohmann::ordered_json line = nlohmann::ordered_json::object();
    for (const std::string& column : columns) line[column] = CellJson(table, column, row);
    fmt::print("{}\n", line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  }
  return kExitOk;
}

}  // namespace timef::cli
