#include "catalog/export/arrow_builder.h"

#include <cstring>
#include <stdexcept>

namespace timef::catalog {
namespace {

// Bit i of a little-endian bitmap (the Arrow validity and boolean layout).
void PushBit(std::vector<uint64_t>& bits, int64_t index, bool value) {
  if (static_cast<std::size_t>(index / 64) >= bits.size()) bits.push_back(0);
  if (value) bits[index / 64] |= uint64_t{1} << (index % 64);
}

// Arrow asks for non-null buffer pointers; an empty vector may have none.
template <class T>
const void* BufferOf(std::vector<T>& v) {
  if (v.capacity() == 0) v.reserve(1);
  return v.data();
}

struct SchemaData {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;
};

void ReleaseSchema(ArrowSchema* schema) {
  auto* data = static_cast<SchemaData*>(schema->private_data);
  // A consumer may have moved a child out (its release is then null); release the rest.
  for (ArrowSchema& child : data->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (data->dictionary && data->dictionary->release != nullptr) {
    data->dictionary->release(data->dictionary.get());
  }
  delete data;
  schema->release = nullptr;
}

// The metadata blob's size: int32 count, then per pair int32 length + bytes, twice.
std::size_t MetadataSize(const char* metadata) {
  if (metadata == nullptr) return 0;
  auto read = [&](std::size_t at) {
    int32_t v;
    std::memcpy(&v, metadata + at, sizeof v);
    return static_cast<std::size_t>(v);
  };
  const std::size_t pairs = read(0);
  std::size_t at = 4;
  for (std::size_t i = 0; i < 2 * pairs; ++i) at += 4 + read(at);
  return at;
}

// Buffers and children of one exported array, kept at stable addresses until release.
struct ArrayData {
  std::vector<uint64_t> validity;
  std::vector<int64_t> offsets;
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<uint64_t> bits;
  std::vector<char> chars;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseArray(ArrowArray* array) {
  auto* data = static_cast<ArrayData*>(array->private_data);
  for (ArrowArray& child : data->children) {
    if (child.release != nullptr) child.release(&child);
  }
  delete data;
  array->release = nullptr;
}

// Wraps `data` (buffers already filled in) as an array of `length` cells.
ArrowArray MakeArray(std::unique_ptr<ArrayData> data, int64_t length, int64_t null_count) {
  for (ArrowArray& child : data->children) data->child_pointers.push_back(&child);
  ArrowArray array{};
  array.length = length;
  array.null_count = null_count;
  array.offset = 0;
  array.n_buffers = static_cast<int64_t>(data->buffers.size());
  array.n_children = static_cast<int64_t>(data->children.size());
  array.buffers = data->buffers.data();
  array.children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
  array.dictionary = nullptr;
  array.release = &ReleaseArray;
  array.private_data = data.release();
  return array;
}

std::string_view FormatOf(ArrowType type) {
  switch (type) {
    case ArrowType::kInt64:
      return "l";
    case ArrowType::kDouble:
      return "g";
    case ArrowType::kBool:
      return "b";
    case ArrowType::kString:
      return "U";
    case ArrowType::kInt64List:
    case ArrowType::kStringList:
      return "+L";
  }
  return "";
}

}  // namespace

ArrowSchema MakeArrowSchema(std::string_view format, std::string_view name, int64_t flags,
                            std::vector<ArrowSchema> children, std::string metadata) {
  auto data = std::make_unique<SchemaData>();
  data->format = format;
  data->name = name;
  data->metadata = std::move(metadata);
  data->children = std::move(children);
  for (ArrowSchema& child : data->children) data->child_pointers.push_back(&child);
  ArrowSchema schema{};
  schema.format = data->format.c_str();
  schema.name = data->name.c_str();
  schema.metadata = data->metadata.empty() ? nullptr : data->metadata.data();
  schema.flags = flags;
  schema.n_children = static_cast<int64_t>(data->children.size());
  schema.children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
  schema.dictionary = nullptr;
  schema.release = &ReleaseSchema;
  schema.private_data = data.release();
  return schema;
}

ArrowSchema CopyArrowSchema(const ArrowSchema& schema) {
  std::vector<ArrowSchema> children;
  children.reserve(static_cast<std::size_t>(schema.n_children));
  try {
    for (int64_t i = 0; i < schema.n_children; ++i) {
      children.push_back(CopyArrowSchema(*schema.children[i]));
    }
    std::string metadata;
    if (schema.metadata != nullptr) metadata.assign(schema.metadata, MetadataSize(schema.metadata));
    ArrowSchema copy = MakeArrowSchema(schema.format, schema.name ? schema.name : "", schema.flags,
                                       std::move(children), std::move(metadata));
    if (schema.dictionary != nullptr) {
      auto* data = static_cast<SchemaData*>(copy.private_data);
      try {
        data->dictionary = std::make_unique<ArrowSchema>(CopyArrowSchema(*schema.dictionary));
      } catch (...) {
        copy.release(&copy);
        throw;
      }
      copy.dictionary = data->dictionary.get();
    }
    return copy;
  } catch (...) {
    for (ArrowSchema& child : children) {
      if (child.release != nullptr) child.release(&child);
    }
    throw;
  }
}

struct ArrowTableBuilder::Column {
  std::string name;
  ArrowType type;
  int64_t length = 0;
  int64_t null_count = 0;
  std::vector<uint64_t> validity;
  std::vector<int64_t> ints;              // kInt64; list elements of kInt64List
  std::vector<double> doubles;            // kDouble
  std::vector<uint64_t> bits;             // kBool
  std::vector<int64_t> offsets{0};        // kString; the list offsets of list columns
  std::vector<char> chars;                // kString; element bytes of kStringList
  std::vector<int64_t> child_offsets{0};  // kStringList element offsets
  int64_t child_length = 0;

  void Valid(bool valid) {
    PushBit(validity, length, valid);
    if (!valid) ++null_count;
    ++length;
  }
};

ArrowTableBuilder::ArrowTableBuilder() = default;
ArrowTableBuilder::~ArrowTableBuilder() = default;

std::size_t ArrowTableBuilder::AddColumn(std::string name, ArrowType type) {
  auto column = std::make_unique<Column>();
  column->name = std::move(name);
  column->type = type;
  columns_.push_back(std::move(column));
  return columns_.size() - 1;
}

ArrowTableBuilder::Column& ArrowTableBuilder::At(std::size_t column, ArrowType type) {
  Column& c = *columns_.at(column);
  if (c.type != type) throw std::logic_error("ArrowTableBuilder: wrong type for " + c.name);
  return c;
}

void ArrowTableBuilder::AppendNull(std::size_t column) {
  Column& c = *columns_.at(column);
  switch (c.type) {
    case ArrowType::kInt64:
      c.ints.push_back(0);
      break;
    case ArrowType::kDouble:
      c.doubles.push_back(0);
      break;
    case ArrowType::kBool:
      PushBit(c.bits, c.length, false);
      break;
    case ArrowType::kString:
    case ArrowType::kInt64List:
    case ArrowType::kStringList:
      c.offsets.push_back(c.offsets.back());
      break;
  }
  c.Valid(false);
}

void ArrowTableBuilder::AppendInt64(std::size_t column, int64_t value) {
  Column& c = At(column, ArrowType::kInt64);
  c.ints.push_back(value);
  c.Valid(true);
}

void ArrowTableBuilder::AppendDouble(std::size_t column, double value) {
  Column& c = At(column, ArrowType::kDouble);
  c.doubles.push_back(value);
  c.Valid(true);
}

void ArrowTableBuilder::AppendBool(std::size_t column, bool value) {
  Column& c = At(column, ArrowType::kBool);
  PushBit(c.bits, c.length, value);
  c.Valid(true);
}

void ArrowTableBuilder::AppendString(std::size_t column, std::string_view value) {
  Column& c = At(column, ArrowType::kString);
  c.chars.insert(c.chars.end(), value.begin(), value.end());
  c.offsets.push_back(static_cast<int64_t>(c.chars.size()));
  c.Valid(true);
}

void ArrowTableBuilder::AppendInt64List(std::size_t column, std::span<const int64_t> values) {
  Column& c = At(column, ArrowType::kInt64List);
  c.ints.insert(c.ints.end(), values.begin(), values.end());
  c.offsets.push_back(static_cast<int64_t>(c.ints.size()));
  c.Valid(true);
}

void ArrowTableBuilder::AppendStringList(std::size_t column, std::span<const std::string> values) {
  Column& c = At(column, ArrowType::kStringList);
  for (const std::string& value : values) {
    c.chars.insert(c.chars.end(), value.begin(), value.end());
    c.child_offsets.push_back(static_cast<int64_t>(c.chars.size()));
  }
  c.child_length += static_cast<int64_t>(values.size());
  c.offsets.push_back(c.child_length);
  c.Valid(true);
}

ArrowTable ArrowTableBuilder::Finish() {
  const int64_t rows = columns_.empty() ? 0 : columns_.front()->length;
  for (const auto& c : columns_) {
    if (c->length != rows) {
      throw std::logic_error("ArrowTableBuilder: column " + c->name + " has " +
                             std::to_string(c->length) + " cells, expected " +
                             std::to_string(rows));
    }
  }
  std::vector<ArrowSchema> fields;
  auto table = std::make_unique<ArrayData>();
  table->buffers.push_back(nullptr);  // a struct has only a validity buffer; no row is null
  try {
    for (const auto& owned : columns_) {
      Column& c = *owned;
      auto data = std::make_unique<ArrayData>();
      data->validity = std::move(c.validity);
      data->buffers.push_back(c.null_count == 0 ? nullptr : BufferOf(data->validity));
      std::vector<ArrowSchema> element;
      switch (c.type) {
        case ArrowType::kInt64:
          data->ints = std::move(c.ints);
          data->buffers.push_back(BufferOf(data->ints));
          break;
        case ArrowType::kDouble:
          data->doubles = std::move(c.doubles);
          data->buffers.push_back(BufferOf(data->doubles));
          break;
        case ArrowType::kBool:
          data->bits = std::move(c.bits);
          data->buffers.push_back(BufferOf(data->bits));
          break;
        case ArrowType::kString:
          data->offsets = std::move(c.offsets);
          data->chars = std::move(c.chars);
          data->buffers.push_back(BufferOf(data->offsets));
          data->buffers.push_back(BufferOf(data->chars));
          break;
        case ArrowType::kInt64List: {
          data->offsets = std::move(c.offsets);
          data->buffers.push_back(BufferOf(data->offsets));
          auto child = std::make_unique<ArrayData>();
          child->ints = std::move(c.ints);
          const auto n = static_cast<int64_t>(child->ints.size());
          child->buffers = {nullptr, BufferOf(child->ints)};
          data->children.push_back(MakeArray(std::move(child), n, 0));
          element.push_back(MakeArrowSchema("l", "item", 0, {}));
          break;
        }
        case ArrowType::kStringList: {
          data->offsets = std::move(c.offsets);
          data->buffers.push_back(BufferOf(data->offsets));
          auto child = std::make_unique<ArrayData>();
          child->offsets = std::move(c.child_offsets);
          child->chars = std::move(c.chars);
          child->buffers = {nullptr, BufferOf(child->offsets), BufferOf(child->chars)};
          data->children.push_back(MakeArray(std::move(child), c.child_length, 0));
          element.push_back(MakeArrowSchema("U", "item", 0, {}));
          break;
        }
      }
      table->children.push_back(MakeArray(std::move(data), c.length, c.null_count));
      fields.push_back(
          MakeArrowSchema(FormatOf(c.type), c.name, ARROW_FLAG_NULLABLE, std::move(element)));
    }
  } catch (...) {
    for (ArrowArray& child : table->children) child.release(&child);
    for (ArrowSchema& field : fields) field.release(&field);
    throw;
  }
  columns_.clear();
  ArrowSchema schema = MakeArrowSchema("+s", "", 0, std::move(fields));
  ArrowArray array = MakeArray(std::move(table), rows, 0);
  return ArrowTable(schema, array);
}

}  // namespace timef::catalog
