// ArrowTable (include/timef/arrow_table.h): ownership, typed reads and the C stream export.
#include "timef/arrow_table.h"

#include <cerrno>
#include <cstring>
#include <new>

#include "catalog/export/arrow_builder.h"
#include "timef/error.h"

namespace timef {
namespace {

[[noreturn]] void Bad(std::string_view column, const std::string& problem) {
  throw ValidationError({.object = "arrow table", .where = std::string(column)}, problem);
}

bool BitAt(const void* bits, int64_t index) {
  return (static_cast<const uint8_t*>(bits)[index / 8] >> (index % 8)) & 1;
}

bool ValidAt(const ArrowArray& array, int64_t index) {
  return array.null_count == 0 || array.buffers[0] == nullptr || BitAt(array.buffers[0], index);
}

// What the stream hands out: the batch once, then the end.
struct StreamData {
  ArrowSchema schema{};
  ArrowArray array{};
  std::string error;
};

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    *out = catalog::CopyArrowSchema(data->schema);
    return 0;
  } catch (const std::bad_alloc&) {
    data->error = "out of memory copying the schema";
    return ENOMEM;
  }
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  // Moving a C struct: copy it and mark the source released (C Data Interface "moving").
  *out = data->array;
  data->array.release = nullptr;
  return 0;
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  return data->error.empty() ? nullptr : data->error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  if (data->schema.release != nullptr) data->schema.release(&data->schema);
  if (data->array.release != nullptr) data->array.release(&data->array);
  delete data;
  stream->release = nullptr;
}

}  // namespace

ArrowTable::ArrowTable() : ArrowTable(catalog::ArrowTableBuilder().Finish()) {}

ArrowTable::ArrowTable(ArrowSchema schema, ArrowArray array) : schema_(schema), array_(array) {
  const bool ok = schema.release != nullptr && array.release != nullptr &&
                  std::strcmp(schema.format, "+s") == 0 && schema.n_children == array.n_children;
  if (!ok) {
    Reset();
    Bad("", "expected a struct schema and array with the same columns");
  }
}

ArrowTable::ArrowTable(ArrowTable&& other) noexcept : schema_(other.schema_), array_(other.array_) {
  other.schema_.release = nullptr;
  other.array_.release = nullptr;
}

ArrowTable& ArrowTable::operator=(ArrowTable&& other) noexcept {
  if (this != &other) {
    Reset();
    schema_ = other.schema_;
    array_ = other.array_;
    other.schema_.release = nullptr;
    other.array_.release = nullptr;
  }
  return *this;
}

ArrowTable::~ArrowTable() { Reset(); }

void ArrowTable::Reset() noexcept {
  if (schema_.release != nullptr) schema_.release(&schema_);
  if (array_.release != nullptr) array_.release(&array_);
  schema_ = {};
  array_ = {};
}

int64_t ArrowTable::num_rows() const { return exported() ? 0 : array_.length; }
int64_t ArrowTable::num_columns() const { return exported() ? 0 : schema_.n_children; }

std::vector<std::string> ArrowTable::ColumnNames() const {
  std::vector<std::string> names;
  for (int64_t i = 0; i < num_columns(); ++i) names.emplace_back(schema_.children[i]->name);
  return names;
}

int64_t ArrowTable::ColumnIndex(std::string_view column) const {
  for (int64_t i = 0; i < num_columns(); ++i) {
    if (column == schema_.children[i]->name) return i;
  }
  Bad(column, exported() ? "the table was exported" : "no such column");
}

std::string_view ArrowTable::ColumnFormat(std::string_view column) const {
  return schema_.children[ColumnIndex(column)]->format;
}

std::string_view ArrowTable::ListElementFormat(std::string_view column) const {
  const ArrowSchema& field = *schema_.children[ColumnIndex(column)];
  if (std::strcmp(field.format, "+L") != 0 || field.n_children != 1) return "";
  return field.children[0]->format;
}

const ArrowArray& ArrowTable::Column(std::string_view column, std::string_view want_format,
                                     int64_t row) const {
  const int64_t index = ColumnIndex(column);
  const ArrowSchema& field = *schema_.children[index];
  // A list reads as "+L:<element format>".
  std::string format = field.format;
  if (format == "+L" && field.n_children == 1)
    format += std::string(":") + field.children[0]->format;
  if (format != want_format) {
    Bad(column, "has format '" + std::string(field.format) + "', read as '" +
                    std::string(want_format) + "'");
  }
  if (row < 0 || row >= array_.length) {
    Bad(column, "row " + std::to_string(row) + " out of range (" + std::to_string(array_.length) +
                    " rows)");
  }
  return *array_.children[index];
}

bool ArrowTable::IsNull(std::string_view column, int64_t row) const {
  const int64_t index = ColumnIndex(column);
  if (row < 0 || row >= array_.length) Bad(column, "row out of range");
  const ArrowArray& c = *array_.children[index];
  return !ValidAt(c, array_.offset + c.offset + row);
}

std::optional<int64_t> ArrowTable::Int64(std::string_view column, int64_t row) const {
  const ArrowArray& c = Column(column, "l", row);
  const int64_t i = array_.offset + c.offset + row;
  if (!ValidAt(c, i)) return std::nullopt;
  return static_cast<const int64_t*>(c.buffers[1])[i];
}

std::optional<double> ArrowTable::Double(std::string_view column, int64_t row) const {
  const ArrowArray& c = Column(column, "g", row);
  const int64_t i = array_.offset + c.offset + row;
  if (!ValidAt(c, i)) return std::nullopt;
  return static_cast<const double*>(c.buffers[1])[i];
}

std::optional<bool> ArrowTable::Bool(std::string_view column, int64_t row) const {
  const ArrowArray& c = Column(column, "b", row);
  const int64_t i = array_.offset + c.offset + row;
  if (!ValidAt(c, i)) return std::nullopt;
  return BitAt(c.buffers[1], i);
}

std::optional<std::string_view> ArrowTable::String(std::string_view column, int64_t row) const {
  const ArrowArray& c = Column(column, "U", row);
  const int64_t i = array_.offset + c.offset + row;
  if (!ValidAt(c, i)) return std::nullopt;
  const auto* offsets = static_cast<const int64_t*>(c.buffers[1]);
  const auto* chars = static_cast<const char*>(c.buffers[2]);
  return std::string_view(chars + offsets[i],
                          static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
}

std::optional<std::vector<int64_t>> ArrowTable::Int64List(std::string_view column,
                                                          int64_t row) const {
  const ArrowArray& c = Column(column, "+L:l", row);
  const int64_t i = array_.offset + c.offset + row;
  if (!ValidAt(c, i)) return std::nullopt;
  const auto* offsets = static_cast<const int64_t*>(c.buffers[1]);
  const ArrowArray& child = *c.children[0];
  const auto* values = static_cast<const int64_t*>(child.buffers[1]) + child.offset;
  return std::vector<int64_t>(values + offsets[i], values + offsets[i + 1]);
}

std::optional<std::vector<std::string>> ArrowTable::StringList(std::string_view column,
                                                               int64_t row) const {
  const ArrowArray& c = Column(column, "+L:U", row);
  const int64_t i = array_.offset + c.offset + row;
  if (!ValidAt(c, i)) return std::nullopt;
  const auto* offsets = static_cast<const int64_t*>(c.buffers[1]);
  const ArrowArray& child = *c.children[0];
  const auto* element_offsets = static_cast<const int64_t*>(child.buffers[1]);
  const auto* chars = static_cast<const char*>(child.buffers[2]);
  std::vector<std::string> out;
  for (int64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
    const int64_t at = child.offset + e;
    out.emplace_back(chars + element_offsets[at],
                     static_cast<std::size_t>(element_offsets[at + 1] - element_offsets[at]));
  }
  return out;
}

void ArrowTable::Export(ArrowSchema* schema, ArrowArray* array) {
  if (exported()) Bad("", "the table was already exported");
  *schema = schema_;
  *array = array_;
  schema_ = {};
  array_ = {};
}

void ArrowTable::ExportStream(ArrowArrayStream* stream) {
  if (exported()) Bad("", "the table was already exported");
  auto data = std::make_unique<StreamData>();
  Export(&data->schema, &data->array);
  stream->get_schema = &StreamGetSchema;
  stream->get_next = &StreamGetNext;
  stream->get_last_error = &StreamGetLastError;
  stream->release = &StreamRelease;
  stream->private_data = data.release();
}

}  // namespace timef
