#include "table.h"

#include <fmt/core.h>

#include <algorithm>
#include <utility>

#include "core/text.h"

namespace timef::cli {

std::string Shown(std::string_view text) { return core::PrintableForMessage(text); }

Cell Cell::Int(int64_t value) { return {std::to_string(value), value}; }

Cell Cell::Str(std::string value) {
  nlohmann::ordered_json json = value;
  return {std::move(value), std::move(json)};
}

Cell Cell::OptInt(const std::optional<int64_t>& value) {
  return value ? Int(*value) : Cell{"-", nullptr};
}

Cell Cell::OptStr(const std::optional<std::string>& value) {
  return value ? Str(*value) : Cell{"-", nullptr};
}

Cell Cell::Ids(const std::vector<int64_t>& ids) {
  std::string text;
  for (int64_t id : ids) {
    if (!text.empty()) text += ',';
    text += std::to_string(id);
  }
  return {text.empty() ? "-" : text, ids};
}

Table::Table(std::vector<Column> columns, OutputFormat format, Style style)
    : columns_(std::move(columns)), format_(format), style_(style) {
  for (const Column& column : columns_) {
    widths_.push_back(std::max(column.min_width, style_.header ? column.name.size() : 0));
  }
}

void Table::Add(std::vector<Cell> row) {
  row.resize(columns_.size(), Cell{"", nullptr});
  for (size_t i = 0; i < row.size(); ++i) {
    row[i].text = Shown(row[i].text);
    widths_[i] = std::max(widths_[i], row[i].text.size());
  }
  pending_.push_back(std::move(row));
}

void Table::PrintText(const std::vector<std::string>& cells) {
  std::string line(static_cast<size_t>(style_.indent), ' ');
  for (size_t i = 0; i < cells.size(); ++i) {
    const bool last = i + 1 == cells.size();
    if (columns_[i].right) {
      line += fmt::format("{:>{}}", cells[i], widths_[i]);
    } else {
      line += last ? cells[i] : fmt::format("{:<{}}", cells[i], widths_[i]);
    }
    if (!last) line += "  ";
  }
  fmt::print("{}\n", line);
}

void Table::Flush() {
  if (format_ == OutputFormat::kJson) {
    for (const auto& row : pending_) {
      nlohmann::ordered_json object = nlohmann::ordered_json::object();
      for (size_t i = 0; i < row.size(); ++i) {
        const Column& column = columns_[i];
        object[column.json_key.empty() ? column.name : column.json_key] = row[i].json;
      }
      fmt::print("{}\n",
                 object.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    }
  } else {
    if (style_.header && !header_printed_) {
      std::vector<std::string> names;
      for (const Column& column : columns_) names.push_back(column.name);
      PrintText(names);
      header_printed_ = true;
    }
    for (const auto& row : pending_) {
      std::vector<std::string> texts;
      for (const Cell& cell : row) texts.push_back(cell.text);
      PrintText(texts);
    }
  }
  pending_.clear();
}

}  // namespace timef::cli
