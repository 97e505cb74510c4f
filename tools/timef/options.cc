#include "options.h"

#include <algorithm>
#include <cctype>
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

void AddWriteNumberOption(CLI::App& command, const write_option::Number& option, int& value,
                          const std::string& names, const std::string& help) {
  std::string flag = "--" + std::string(option.name);
  std::replace(flag.begin(), flag.end(), '_', '-');
  const std::string range = option.RangeText();
  command
      .add_option(names.empty() ? flag : names, value,
                  (help.empty() ? std::string(1, static_cast<char>(std::toupper(option.doc[0]))) +
                                      std::string(option.doc.substr(1))
                                : help + " (" + std::string(option.doc) + ")") +
                      "; " + range + ", default " + std::to_string(value))
      ->check(CLI::Validator(
          [option](std::string& text) -> std::string {
            std::int64_t parsed = 0;
            const char* end = text.data() + text.size();
            auto [ptr, error] = std::from_chars(text.data(), end, parsed);
            if (text.empty() || error != std::errc() || ptr != end || !option.Contains(parsed)) {
              return (option.max == write_option::kNoLimit
                          ? "expected a whole number >= " + std::to_string(option.min)
                          : "expected a whole number from " + std::to_string(option.min) + " to " +
                                std::to_string(option.max)) +
                     ", got '" + text + "'";
            }
            return "";
          },
          "", range));
}

void AddThreadsOption(CLI::App& command, int& threads, const std::string& names,
                      const std::string& help) {
  AddWriteNumberOption(command, write_option::threads, threads, names,
                       help.empty() ? "Threads that compress values pages" : help);
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
