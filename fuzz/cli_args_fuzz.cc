// The CLI's parsing of user-typed ranges, IDs and numbers: the input is split at NUL bytes into
// arguments for a command shaped like `timef cat`/`records` (--steps A:B, --ids 1,2,..., --limit N,
// --format), parsed with CLI11 and the validators of tools/timef/options.h, then the step window
// with ParseStepWindow. Besides crashes it checks what the parsers promise: accepted IDs are >= 1,
// an accepted limit is >= 0, an accepted window has bounds >= 0 and renders back to itself, and
// FormatFloat round-trips any double.
#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dataset_text.h"
#include "options.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

std::string Window(const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
  return (a ? std::to_string(*a) : "") + ":" + (b ? std::to_string(*b) : "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  args.push_back(current);

  CLI::App app("fuzz");
  std::string steps = ":";
  std::vector<int64_t> ids;
  int64_t limit = 20;
  timef::cli::OutputFormat format = timef::cli::OutputFormat::kText;
  app.add_option("--steps", steps);
  app.add_option("--ids", ids)->delimiter(',')->check(timef::cli::IdNumber());
  app.add_option("--limit", limit)->check(timef::cli::WholeNumberAtLeast(0));
  timef::cli::AddFormatOption(app, format);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::Error&) {
    return 0;  // a usage error is a fine answer
  }
  for (int64_t id : ids) Check(id >= 1);
  Check(limit >= 0);

  std::optional<int64_t> begin, end;
  if (timef::cli::ParseStepWindow(steps, begin, end)) {
    Check(!begin || *begin >= 0);
    Check(!end || *end >= 0);
    std::optional<int64_t> again_begin, again_end;
    Check(timef::cli::ParseStepWindow(Window(begin, end), again_begin, again_end));
    Check(again_begin == begin && again_end == end);
  }

  // Any 8 bytes as a double: the rendering parses back to the same value (NaN to a NaN).
  if (size >= 8) {
    double value;
    std::memcpy(&value, data, 8);
    const std::string text = timef::cli::FormatFloat(value);
    if (std::isnan(value)) {
      Check(text == "nan");
    } else if (std::isinf(value)) {
      Check(text == (value > 0 ? "inf" : "-inf"));
    } else {
      double back = 0;
      auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), back);
      Check(error == std::errc() && ptr == text.data() + text.size());
      Check(std::memcmp(&back, &value, 8) == 0);
    }
  }
  return 0;
}
