// `timef cat DIR --signal ID [--steps A:B] [--format csv|json]`: a signal's values, one step per
// line. Only the chunks that hold the window are decoded (Signal::ReadSteps on a lazy handle).
// The window is clamped to the signal; only a malformed or reversed window is a usage error.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cmd_dataset.h"
#include "commands.h"
#include "dataset_text.h"
#include "release_dir.h"
#include "timef/json.h"
#include "timef/reader.h"

namespace timef::cli {
namespace {

std::string JsonString(const std::string& text) {
  return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// RFC 4180 quoting; an empty string is quoted so that it differs from a null (empty cell).
std::string CsvCell(const std::string& text, bool is_text) {
  if (!is_text) return text;
  if (!text.empty() && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

bool IsTextual(model::DType dtype) {
  return dtype == model::DType::kStr || dtype == model::DType::kEnum;
}

// One scalar for JSON: numbers stay numbers; NaN and infinities become the strings "NaN",
// "Infinity", "-Infinity" (JSON has no such numbers), as `timef parquet dump` writes them.
std::string JsonScalar(const model::ValueArray& values, int64_t index, const model::Spec& spec) {
  std::string text = FormatScalar(values, index, spec);
  if (IsTextual(values.dtype())) return JsonString(text);
  if (text == "nan") return "\"NaN\"";
  if (text == "inf") return "\"Infinity\"";
  if (text == "-inf") return "\"-Infinity\"";
  return text;
}

// Scalars [first, first + ∏ shape[dim:]) of `values` as nested lists following shape[dim:].
void AppendNested(const model::ValueArray& values, int64_t first, const model::Spec& spec,
                  size_t dim, std::string& out) {
  const std::vector<int64_t>& shape = spec.value_shape;
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  out += '[';
  for (int64_t k = 0; k < shape[dim]; ++k) {
    if (k > 0) out += ',';
    if (dim + 1 == shape.size()) {
      out += JsonScalar(values, first + k, spec);
    } else {
      AppendNested(values, first + k * inner, spec, dim + 1, out);
    }
  }
  out += ']';
}

// The value of step `step` of `values` (StepWidth() scalars per step); a shaped step renders
// as nested lists in the spec's value_shape ([2, 8] → two lists of eight).
std::string StepValue(const model::ValueArray& values, int64_t step, const model::Spec& spec,
                      bool json) {
  const int64_t width = spec.StepWidth();
  if (!values.IsValid(step)) return json ? "null" : "";
  if (width == 1) {
    return json ? JsonScalar(values, step, spec)
                : CsvCell(FormatScalar(values, step, spec), IsTextual(values.dtype()));
  }
  std::string list;
  AppendNested(values, step * width, spec, 0, list);
  return json ? list : CsvCell(list, /*is_text=*/true);
}

}  // namespace

int RunCat(const CatArgs& args) {
  std::optional<int64_t> begin;
  std::optional<int64_t> end;
  if (!ParseStepWindow(args.steps, begin, end)) {
    fmt::print(stderr,
               "timef: error: --steps: expected A:B, A:, :B or : with whole numbers >= 0, got "
               "'{}'\n",
               args.steps);
    return kExitUsage;
  }
  if (begin && end && *begin > *end) {
    fmt::print(stderr, "timef: error: --steps: the start {} is after the end {}\n", *begin, *end);
    return kExitUsage;
  }
  Reader reader = OpenRelease(args.release);
  std::shared_ptr<model::Signal> signal = reader.GetSignal(args.signal);
  const int64_t n = signal->n_values();
  const int64_t first = std::min(begin.value_or(0), n);
  const model::ValueArray values = signal->ReadSteps(first, std::min(end.value_or(n), n));
  const model::Spec& spec = *signal->spec();
  const model::TimeAxis& axis = *signal->axis();
  const int64_t steps = spec.StepWidth() == 0 ? 0 : values.size() / spec.StepWidth();
  std::shared_ptr<const std::vector<int64_t>> offsets;
  if (axis.is_irregular() && steps > 0) offsets = axis.LoadOffsets();
  auto time_of = [&](int64_t step) {
    return offsets ? (*offsets)[static_cast<size_t>(step)] : axis.TimeOfStep(step);
  };

  const bool json = args.format == "json";
  const bool timed = !axis.is_ordinal();
  // A shaped spec names its shape in the CSV header: value[2x8] for value_shape [2, 8].
  std::string value_header = "value";
  if (!spec.value_shape.empty()) {
    value_header += '[';
    for (size_t d = 0; d < spec.value_shape.size(); ++d) {
      value_header += (d > 0 ? "x" : "") + std::to_string(spec.value_shape[d]);
    }
    value_header += ']';
  }
  if (!json) fmt::print("{}{}\n", timed ? "step,offset_us," : "step,", value_header);
  for (int64_t i = 0; i < steps; ++i) {
    const int64_t step = first + i;
    const std::string value = StepValue(values, i, spec, json);
    if (json) {
      if (timed) {
        fmt::print("{{\"step\":{},\"offset_us\":{},\"value\":{}}}\n", step, time_of(step), value);
      } else {
        fmt::print("{{\"step\":{},\"value\":{}}}\n", step, value);
      }
    } else if (timed) {
      fmt::print("{},{},{}\n", step, time_of(step), value);
    } else {
      fmt::print("{},{}\n", step, value);
    }
  }
  return kExitOk;
}

}  // namespace timef::cli
