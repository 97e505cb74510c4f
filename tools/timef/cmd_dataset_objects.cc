// `timef records` and `timef tasks`: one line per object, streamed batch by batch, reading no
// signal values and no packed text.
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cmd_dataset.h"
#include "commands.h"
#include "dataset_text.h"
#include "release_dir.h"
#include "table.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef::cli {
namespace {

// Texts up to this many bytes are shown when they are already in memory.
constexpr int64_t kShownTextBytes = 32;

int64_t CountSources(const model::Source& source) {
  int64_t n = 1;
  for (const auto& child : source.children()) n += CountSources(*child);
  return n;
}

int64_t CountAnnotations(const model::Source& source) {
  int64_t n = static_cast<int64_t>(source.annotations().size());
  for (const auto& signal : source.signals())
    n += static_cast<int64_t>(signal->annotations().size());
  for (const auto& child : source.children()) n += CountAnnotations(*child);
  return n;
}

std::string IdOf(const std::optional<int64_t>& id) { return id ? std::to_string(*id) : "?"; }

// Objects read from a release always carry IDs.
template <class Range>
std::vector<int64_t> IdsOf(const Range& objects) {
  std::vector<int64_t> ids;
  for (const auto& object : objects) ids.push_back(object->id().value_or(0));
  return ids;
}

std::vector<int64_t> SortedIds(std::vector<int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

template <class Range, class Render>
std::string JoinIds(const Range& items, Render render) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ',';
    out += render(item);
  }
  return out.empty() ? "-" : out;
}

std::string SignalIds(const model::ScopedSpan& span) {
  return JoinIds(span.signals, [](const auto& signal) { return IdOf(signal->id()); });
}

std::string DescribeSpan(const model::ScopedSpan& span) {
  const std::string kind(model::ToString(span.kind()));
  std::string where;
  if (span.end()) {
    where = fmt::format("[{}, {})", span.start(), *span.end());
  } else {
    where = std::to_string(span.start());
  }
  if (span.is_time()) {
    where += " us";
    if (!span.signals.empty()) where += " on signals " + SignalIds(span);
  } else {
    where += " on signal " + SignalIds(span);
  }
  return kind + " " + where;
}

std::string DescribeTarget(const model::TaskTarget& target) {
  switch (target.kind()) {
    case model::TargetKind::kText: {
      const model::Text& text = target.text();
      if (const std::string* value = text.inline_value(); value && text.size() <= kShownTextBytes) {
        return Json(*value).dump();
      }
      return fmt::format("text ({} B)", text.size());
    }
    case model::TargetKind::kInteger:
      return std::to_string(target.integer());
    case model::TargetKind::kFloat:
      return FormatFloat(target.float_value());
    case model::TargetKind::kBoolean:
      return target.boolean() ? "true" : "false";
    case model::TargetKind::kRecord:
      return "record " + IdOf(target.record()->id());
    case model::TargetKind::kSignal:
      return "signal " + IdOf(target.signal()->id());
    default:
      return DescribeSpan(target.span());
  }
}

std::string DescribeTargets(const model::Task& task) {
  if (!task.targets()) {
    std::string keys;
    for (const auto& ref : task.target_annotations()) {
      if (!keys.empty()) keys += ", ";
      keys += ref->key();
    }
    return "by annotation " + keys;
  }
  if (task.targets()->empty()) return "() (explicit empty answer)";
  std::string out;
  for (const model::TaskTarget& target : *task.targets()) {
    if (!out.empty()) out += "; ";
    out += DescribeTarget(target);
  }
  return out;
}

}  // namespace

int RunRecords(const RecordsArgs& args) {
  Reader reader = OpenRelease(args.release);
  RecordQuery query;
  // No --id means every record (RecordQuery: an empty list would read none).
  if (!args.ids.empty()) query.ids = args.ids;
  if (!query.ids && args.limit) {
    // Build only the records that will be printed.
    std::vector<int64_t> ids = reader.RecordIds();
    if (static_cast<int64_t>(ids.size()) > *args.limit)
      ids.resize(static_cast<size_t>(*args.limit));
    if (ids.empty()) return kExitOk;
    query.ids = std::move(ids);
  }
  std::vector<Column> columns{{"id", true, 8},
                              {"start", false, 27},
                              {"sources", true, 7},
                              {"signals", true, 7},
                              {"annotations", true, 11}};
  if (args.signal_ids) columns.push_back({"signal_ids"});
  Table table(std::move(columns), args.format, {});
  RecordStream stream = reader.IterRecords(query);
  // The first batch is read before anything is printed, so an unknown ID prints nothing on stdout.
  int64_t printed = 0;
  for (auto batch = stream.Next(); batch; batch = stream.Next()) {
    for (const auto& record : *batch) {
      if (args.limit && printed >= *args.limit) break;
      int64_t sources = 0;
      int64_t annotations = static_cast<int64_t>(record->annotations().size());
      for (const auto& root : record->sources()) {
        sources += CountSources(*root);
        annotations += CountAnnotations(*root);
      }
      const std::optional<int64_t> start = record->start_time_us();
      std::vector<Cell> row{Cell::OptInt(record->id()),
                            start ? Cell::Str(FormatUnixMicros(start)) : Cell::OptStr(std::nullopt),
                            Cell::Int(sources),
                            Cell::Int(static_cast<int64_t>(record->Signals().size())),
                            Cell::Int(annotations)};
      if (args.signal_ids) row.push_back(Cell::Ids(SortedIds(IdsOf(record->Signals()))));
      table.Add(std::move(row));
      ++printed;
    }
    table.Flush();
    if (args.limit && printed >= *args.limit) break;
  }
  table.Flush();
  return kExitOk;
}

int RunTasks(const TasksArgs& args) {
  Reader reader = OpenRelease(args.release);
  TaskQuery query;
  // The CLI checked both names against the lists, so the parses succeed.
  if (args.split) query.split = model::ParseSplit(*args.split);
  if (args.type) query.type = model::ParseTaskType(*args.type);
  Table table({{"id", true, 8},
               {"type", false, 21},
               {"split", false, 10},
               {"inputs", false, 10},
               {"prompt", true, 6, "prompt_bytes"},
               {"targets"}},
              args.format, {});
  TaskStream stream = reader.IterTasks(query);
  int64_t printed = 0;
  for (auto batch = stream.Next(); batch; batch = stream.Next()) {
    for (const auto& task : *batch) {
      if (args.limit && printed >= *args.limit) break;
      const auto& split = task->split();
      const auto& prompt = task->prompt();
      table.Add(
          {Cell::OptInt(task->id()), Cell::Str(std::string(model::ToString(task->type()))),
           Cell::OptStr(split ? std::optional<std::string>(model::ToString(*split)) : std::nullopt),
           Cell::Ids(IdsOf(task->inputs())),
           Cell::OptInt(prompt ? std::optional<int64_t>(prompt->size()) : std::nullopt),
           Cell::Str(DescribeTargets(*task))});
      ++printed;
    }
    table.Flush();
    if (args.limit && printed >= *args.limit) break;
  }
  table.Flush();
  return kExitOk;
}

}  // namespace timef::cli
