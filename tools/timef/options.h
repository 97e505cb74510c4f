// Option checks shared by every command, with messages a user can act on ("--limit: expected a
// whole number >= 0, got '-1'"), and the --format option of the listing commands.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "table.h"
#include "timef/write_options.h"

namespace timef::cli {

// A whole number >= `min` that fits int64 (CLI11's own range checks print a 300-digit bound).
CLI::Validator WholeNumberAtLeast(int64_t min);
// A dataset ID: a whole number >= 1.
CLI::Validator IdNumber();

// A whole-number write option (timef/write_options.h) as a flag: `--<name>` with '-' for '_'
// unless `names` is given, its doc (after `help` when given), range and default in the help, and
// its range checked ("expected a whole number from 1 to 22, got '30'"). The default shown is
// `value` as it is when the option is added (the option's own default unless the command starts
// it elsewhere, as `timef import` does for the compression level).
void AddWriteNumberOption(CLI::App& command, const write_option::Number& option, int& value,
                          const std::string& names = "", const std::string& help = "");

// --threads N for the commands that write a release: WriteOptions::threads, its range, default and
// doc from timef/write_options.h. `names` and `help` replace the option's names and the start of
// its description (e.g. "-j,--jobs,--threads").
void AddThreadsOption(CLI::App& command, int& threads, const std::string& names = "--threads",
                      const std::string& help = "");

// --format text|json (default text).
void AddFormatOption(CLI::App& command, OutputFormat& format);

}  // namespace timef::cli
