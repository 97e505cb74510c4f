// `timef signals DIR [--record ID]`: one line per signal with the ID that `timef cat --signal`
// takes, its record and source path, and its spec and axis. Records are built batch by batch with
// lazy values, so no signal value is read.
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cmd_dataset.h"
#include "commands.h"
#include "release_dir.h"
#include "table.h"
#include "timef/reader.h"

namespace timef::cli {
namespace {

std::string DescribeAxis(const model::TimeAxis& axis) {
  switch (axis.type()) {
    case model::AxisType::kRegular: {
      std::string text = "regular " + std::to_string(axis.period_numerator_us());
      if (axis.period_denominator() != 1) text += "/" + std::to_string(axis.period_denominator());
      text += " us";
      if (axis.offset_us() != 0) text += fmt::format(", offset {} us", axis.offset_us());
      if (axis.start_index() != 0) text += fmt::format(", from step {}", axis.start_index());
      return text;
    }
    case model::AxisType::kIrregular:
      return fmt::format("irregular, {} offsets", axis.n_values());
    case model::AxisType::kOrdinal:
      break;
  }
  return "ordinal";
}

std::string DescribeDType(const model::Spec& spec) {
  std::string text(model::ToString(spec.dtype));
  if (spec.value_shape.empty()) return text;
  text += "[";
  for (size_t i = 0; i < spec.value_shape.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(spec.value_shape[i]);
  }
  return text + "]";
}

struct SignalRow {
  int64_t id;
  std::vector<Cell> cells;
};

// Collects the signals of `source` and its children, each with the '/'-joined source names from
// the record's root.
void CollectSignals(const model::Source& source, const std::string& parent, int64_t record_id,
                    std::vector<SignalRow>& rows) {
  const std::string path = parent.empty() ? source.name() : parent + "/" + source.name();
  for (const auto& signal : source.signals()) {
    const model::Spec& spec = *signal->spec();
    rows.push_back(
        {signal->id().value_or(0),
         {Cell::OptInt(signal->id()), Cell::Int(record_id), Cell::Str(path),
          Cell::Str(signal->name()), Cell::Str(spec.spec_type), Cell::Str(DescribeDType(spec)),
          Cell::Int(signal->n_values()), Cell::Str(DescribeAxis(*signal->axis()))}});
  }
  for (const auto& child : source.children()) CollectSignals(*child, path, record_id, rows);
}

}  // namespace

int RunSignals(const SignalsArgs& args) {
  Reader reader = OpenRelease(args.release);
  Table table({{"id", true, 8},
               {"record", true, 8},
               {"source"},
               {"name"},
               {"spec_type"},
               {"dtype"},
               {"n_values", true},
               {"axis"}},
              args.format, {});
  // A record's signals in ID order: the order its sources come back in need not be.
  auto add_record = [&table](const model::Record& record) {
    std::vector<SignalRow> rows;
    for (const auto& root : record.sources()) {
      CollectSignals(*root, "", record.id().value_or(0), rows);
    }
    std::sort(rows.begin(), rows.end(),
              [](const SignalRow& a, const SignalRow& b) { return a.id < b.id; });
    for (SignalRow& row : rows) table.Add(std::move(row.cells));
  };
  if (args.record) {
    add_record(*reader.GetRecord(*args.record));
  } else {
    RecordStream stream = reader.IterRecords();
    for (auto batch = stream.Next(); batch; batch = stream.Next()) {
      for (const auto& record : *batch) add_record(*record);
      table.Flush();
    }
  }
  table.Flush();
  return kExitOk;
}

}  // namespace timef::cli
