// The one table printer of the CLI: every listing and summary table goes through Table, which
// prints aligned text columns or, with OutputFormat::kJson, one JSON object per row. Text that
// comes from a release or the file system (names, keys, paths) never reaches the terminal raw:
// text cells and every other such string the CLI prints go through Shown (JSON output is escaped
// by the JSON encoder).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace timef::cli {

enum class OutputFormat { kText, kJson };

// `text` with control characters (escape sequences, newlines, ...) and ill-formed UTF-8 bytes
// written as \xNN and `\` doubled (core::PrintableForMessage): one line that cannot drive the
// terminal.
std::string Shown(std::string_view text);

// One cell: how it reads in a text table and as a JSON value.
struct Cell {
  std::string text;
  nlohmann::ordered_json json;

  static Cell Int(int64_t value);
  static Cell Str(std::string value);
  // "-" and null when absent.
  static Cell OptInt(const std::optional<int64_t>& value);
  static Cell OptStr(const std::optional<std::string>& value);
  // "1,2,3" ("-" when empty) and [1,2,3].
  static Cell Ids(const std::vector<int64_t>& ids);
};

struct Column {
  std::string name;
  bool right = false;    // right-aligned in text
  size_t min_width = 0;  // text width before any row is seen
  std::string json_key;  // the key in JSON rows; empty = `name`
};

class Table {
 public:
  struct Style {
    bool header = true;  // text only: print the column names first
    int indent = 0;      // text only: spaces before each row
  };

  Table(std::vector<Column> columns, OutputFormat format, Style style);

  // `row` has one cell per column; text cells are printed through Shown.
  void Add(std::vector<Cell> row);
  // Prints the rows added since the last Flush on stdout. A column is as wide as its widest cell
  // seen so far, so a listing flushed batch by batch streams and stays aligned unless a later
  // batch brings a wider cell. The last text column is not padded unless right-aligned.
  void Flush();

 private:
  void PrintText(const std::vector<std::string>& cells);

  std::vector<Column> columns_;
  OutputFormat format_;
  Style style_;
  std::vector<size_t> widths_;
  std::vector<std::vector<Cell>> pending_;
  bool header_printed_ = false;
};

}  // namespace timef::cli
