// ResolveColumns: the reader's view of a file schema. Only the shapes schema.h lists are accepted;
// everything else (structs, maps, nested lists, repeated groups without a LIST annotation) is
// rejected with the offending field's name, so a caller never gets a silently flattened column.
#include <cstddef>
#include <string>
#include <vector>

#include "parquet/encoding_error.h"
#include "parquet/schema.h"

namespace timef::parquet {
namespace {

[[noreturn]] void Fail(const std::string& field, const std::string& problem) {
  throw DecodeError("schema field '" + field + "': " + problem);
}

bool IsGroup(const SchemaElement& e) { return !e.type.has_value(); }

bool IsListAnnotated(const SchemaElement& e) {
  return (e.logical_type && e.logical_type->kind == LogicalType::Kind::kList) ||
         e.converted_type == ConvertedType::kList;
}

// Walks the depth-first schema vector, handing out elements with bounds checks.
class SchemaCursor {
 public:
  explicit SchemaCursor(const std::vector<SchemaElement>& schema) : schema_(schema) {}

  const SchemaElement& Next(const std::string& parent) {
    if (pos_ >= schema_.size()) Fail(parent, "the schema ends inside this group");
    return schema_[pos_++];
  }
  std::size_t position() const { return pos_; }

 private:
  const std::vector<SchemaElement>& schema_;
  std::size_t pos_ = 0;
};

// The repetition of a non-root element; absent is an error (only the root may omit it).
FieldRepetitionType RepetitionOf(const SchemaElement& e, const std::string& field) {
  if (!e.repetition_type) Fail(field, "has no repetition type");
  const auto r = *e.repetition_type;
  if (r != FieldRepetitionType::kRequired && r != FieldRepetitionType::kOptional &&
      r != FieldRepetitionType::kRepeated) {
    Fail(field, "unknown repetition type " + ToString(r));
  }
  return r;
}

int ChildCount(const SchemaElement& e, const std::string& field) {
  if (!e.num_children) Fail(field, "is a group without num_children");
  if (*e.num_children <= 0) Fail(field, "is a group without children");
  return *e.num_children;
}

// Fills the leaf's type fields from a primitive element.
void SetLeafType(const SchemaElement& leaf, const std::string& field, ColumnDescriptor& column) {
  const auto type = *leaf.type;
  if (static_cast<std::int32_t>(type) < 0 ||
      static_cast<std::int32_t>(type) > static_cast<std::int32_t>(Type::kFixedLenByteArray)) {
    Fail(field, "unknown physical type " + ToString(type));
  }
  column.physical_type = type;
  if (type == Type::kFixedLenByteArray) {
    if (!leaf.type_length || *leaf.type_length <= 0) {
      Fail(field, "FIXED_LEN_BYTE_ARRAY without a positive type_length");
    }
    column.type_length = *leaf.type_length;
  }
  column.logical_type = leaf.logical_type;
  column.converted_type = leaf.converted_type;
}

// The element of a LIST-annotated group `list` whose repeated child `repeated` has been read.
void ResolveListElement(SchemaCursor& cursor, const SchemaElement& repeated,
                        const std::string& name, ColumnDescriptor& column) {
  const std::string repeated_path = name + "." + repeated.name;
  if (!IsGroup(repeated)) {
    // Two-level form: the repeated primitive is the element itself.
    SetLeafType(repeated, repeated_path, column);
    column.element_nullable = false;
    column.path_in_schema = {name, repeated.name};
    return;
  }
  // Three-level form (repeated group "list" { element }) and the legacy two-level forms whose
  // repeated group is a one-field struct ("array", "<name>_tuple") have the same levels: the
  // group's single primitive child holds the values.
  if (ChildCount(repeated, repeated_path) != 1) {
    Fail(repeated_path, "a list whose elements are structs is not supported");
  }
  const SchemaElement& element = cursor.Next(repeated_path);
  const std::string element_path = repeated_path + "." + element.name;
  const auto repetition = RepetitionOf(element, element_path);
  if (IsGroup(element)) Fail(element_path, "nested groups inside a list are not supported");
  if (repetition == FieldRepetitionType::kRepeated) {
    Fail(element_path, "a repeated field inside a list is not supported");
  }
  SetLeafType(element, element_path, column);
  column.element_nullable = repetition == FieldRepetitionType::kOptional;
  column.path_in_schema = {name, repeated.name, element.name};
}

ColumnDescriptor ResolveTopLevel(SchemaCursor& cursor) {
  const SchemaElement& field = cursor.Next("<root>");
  const std::string& name = field.name;
  const auto repetition = RepetitionOf(field, name);
  ColumnDescriptor column;
  column.name = name;
  if (!IsGroup(field)) {
    SetLeafType(field, name, column);
    column.path_in_schema = {name};
    if (repetition == FieldRepetitionType::kRepeated) {
      // A bare repeated primitive is a required list of required elements.
      column.is_list = true;
    } else {
      column.nullable = repetition == FieldRepetitionType::kOptional;
    }
    return column;
  }
  if (!IsListAnnotated(field)) {
    Fail(name, "groups other than LIST (structs, maps) are not supported");
  }
  if (repetition == FieldRepetitionType::kRepeated) Fail(name, "a repeated LIST is not supported");
  if (ChildCount(field, name) != 1) Fail(name, "a LIST group must have exactly one child");
  const SchemaElement& repeated = cursor.Next(name);
  if (RepetitionOf(repeated, name + "." + repeated.name) != FieldRepetitionType::kRepeated) {
    Fail(name + "." + repeated.name, "the child of a LIST group must be repeated");
  }
  column.is_list = true;
  column.nullable = repetition == FieldRepetitionType::kOptional;
  ResolveListElement(cursor, repeated, name, column);
  return column;
}

}  // namespace

std::vector<ColumnDescriptor> ResolveColumns(const std::vector<SchemaElement>& schema) {
  if (schema.empty()) throw DecodeError("schema: no elements");
  const SchemaElement& root = schema.front();
  if (!IsGroup(root)) throw DecodeError("schema: the root element is not a group");
  if (!root.num_children || *root.num_children < 0) {
    throw DecodeError("schema: the root element has no valid num_children");
  }
  SchemaCursor cursor(schema);
  cursor.Next("<root>");
  std::vector<ColumnDescriptor> columns;
  // Each top-level field takes at least one element, so this cannot reserve more than the file
  // holds.
  const auto fields = static_cast<std::size_t>(*root.num_children);
  if (fields > schema.size() - 1) {
    throw DecodeError("schema: the root claims " + std::to_string(fields) + " fields but only " +
                      std::to_string(schema.size() - 1) + " elements follow");
  }
  columns.reserve(fields);
  for (std::size_t i = 0; i < fields; ++i) columns.push_back(ResolveTopLevel(cursor));
  if (cursor.position() != schema.size()) {
    throw DecodeError("schema: " + std::to_string(schema.size() - cursor.position()) +
                      " elements follow the root's last field");
  }
  return columns;
}

}  // namespace timef::parquet
