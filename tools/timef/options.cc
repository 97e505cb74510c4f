#include "options.h"

#include <charconv>
#include <map>
#include <string>

#include "timef/write_options.h"

namespace timef::cli {

CLI::Validator WholeNumberAtLeast(int64_t min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        int64_t value = 0;
        const char* end = text.data() + text.size();
        auto [ptr, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc() || ptr != end || value < min) {
          return "expected a whole number >= " + std::to_string(min) + ", got '" + text + "'";
        }
        return "";
      },
      "", "whole number");
}

CLI::Validator IdNumber() {
  CLI::Validator check = WholeNumberAtLeast(1);
  return CLI::Validator(
      [check](std::string& text) -> std::string {
        return check(text).empty() ? ""
                                   : "expected an ID (a whole number >= 1), got '" + text + "'";
      },
      "", "ID");
}

void AddThreadsOption(CLI::App& command, int& threads, const std::string& names,
                      const std::string& help) {
  const write_option::Number& option = write_option::threads;
  const std::string range = std::to_string(option.min) + ".." + std::to_string(option.max);
  command
      .add_option(names, threads,
                  (help.empty() ? "Threads that compress values pages" : help) + "; " + range +
                      ", default " + std::to_string(option.default_value) + " (" +
                      std::string(option.doc) + ")")
      ->check(CLI::Validator(
          [option](std::string& text) -> std::string {
            std::int64_t value = 0;
            const char* end = text.data() + text.size();
            auto [ptr, error] = std::from_chars(text.data(), end, value);
            if (text.empty() || error != std::errc() || ptr != end || !option.Contains(value)) {
              return "expected a whole number from " + std::to_string(option.min) + " to " +
                     std::to_string(option.max) + ", got '" + text + "'";
            }
            return "";
          },
          "", range));
}

void AddFormatOption(CLI::App& command, OutputFormat& format) {
  const std::map<std::string, OutputFormat> names{{"text", OutputFormat::kText},
                                                  {"json", OutputFormat::kJson}};
  command
      .add_option("--format", format,
                  "text (default, aligned columns) or json (one object per line)")
      ->transform(CLI::CheckedTransformer(names, CLI::ignore_case).description(""));
}

}  // namespace timef::cli
