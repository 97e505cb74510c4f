// The dataset commands (docs/cli.md "Datasets"): each Run* function is one command's action and
// returns its exit code. Registration is in cmd_dataset.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "table.h"

namespace timef::cli {

int RunDemo(const std::string& registry);
int RunInfo(const std::string& release);
int RunVerify(const std::string& release);

struct RecordsArgs {
  std::string release;
  std::optional<int64_t> limit;
  std::vector<int64_t> ids;
  bool signal_ids = false;  // --signals: a column of each record's signal IDs
  OutputFormat format = OutputFormat::kText;
};
int RunRecords(const RecordsArgs& args);

struct TasksArgs {
  std::string release;
  std::optional<std::string> split;
  std::optional<std::string> type;
  std::optional<int64_t> limit;
  bool table = false;  // --table: the task table as JSON lines (cmd_tables.cc)
  OutputFormat format = OutputFormat::kText;
};
int RunTasks(const TasksArgs& args);
int RunTaskTable(const TasksArgs& args);

struct SignalsArgs {
  std::string release;
  std::optional<int64_t> record;  // only this record's signals
  OutputFormat format = OutputFormat::kText;
};
int RunSignals(const SignalsArgs& args);  // cmd_dataset_signals.cc

struct CatArgs {
  std::string release;
  int64_t signal = 0;
  std::string steps = ":";
  std::string format = "csv";
};
int RunCat(const CatArgs& args);

}  // namespace timef::cli
