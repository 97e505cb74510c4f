// The column shapes this engine writes and reads: a top-level primitive column that is required or
// optional, or a top-level LIST of a primitive in Parquet's three-level structure
//   <optional|required> group <name> (LIST) { repeated group list { <optional|required> <type>
//   element; } }
// The reader also accepts the legacy two-level list forms other writers emit (a repeated primitive
// directly under the LIST group, or a repeated group named "array"/"<name>_tuple" with one child).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parquet/metadata.h"

namespace timef::parquet {

struct ColumnDescriptor {
  std::string name;  // top-level field name
  Type physical_type = Type::kInt32;
  std::int32_t type_length = 0;                 // FIXED_LEN_BYTE_ARRAY width; 0 otherwise
  std::optional<LogicalType> logical_type;      // e.g. STRING, INTEGER(16, signed), UUID
  std::optional<ConvertedType> converted_type;  // written alongside logical types for old readers
  bool nullable = false;  // the top-level value (the list itself for lists) may be null
  bool is_list = false;
  bool element_nullable = false;  // lists only: elements may be null

  // Levels implied by the shape (the reader checks the file's levels against these).
  std::int16_t max_definition_level() const {
    return static_cast<std::int16_t>((nullable ? 1 : 0) +
                                     (is_list ? 1 + (element_nullable ? 1 : 0) : 0));
  }
  std::int16_t max_repetition_level() const { return is_list ? 1 : 0; }

  // The leaf's path in the schema ("name" or "name.list.element"; for legacy lists as found).
  std::vector<std::string> path_in_schema;

  bool operator==(const ColumnDescriptor&) const = default;
};

// Writer side: the flattened schema (root first) for these columns. Lists get the three-level
// structure with the names "list" and "element"; the leaf carries the descriptor's logical and
// converted types as given (plus scale/precision for DECIMAL), the list group LIST annotations.
std::vector<SchemaElement> BuildSchemaElements(const std::vector<ColumnDescriptor>& columns);

// The leaf path the writer gives `column`: {name} or {name, "list", "element"}.
std::vector<std::string> StandardPathInSchema(const ColumnDescriptor& column);

// Reader side: one descriptor per leaf column of the file, in leaf order. Throws DecodeError (the
// file layer adds context) for schemas outside the shapes above, naming the offending field.
std::vector<ColumnDescriptor> ResolveColumns(const std::vector<SchemaElement>& schema);

}  // namespace timef::parquet
