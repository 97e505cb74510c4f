// The columns of a values shard (docs/format.md §7.1) and how each is encoded for a spec_type's
// value encoding (§7.3 fallback, §7.4).
#pragma once

#include <cstddef>
#include <vector>

#include "parquet/schema.h"
#include "parquet/writer_options.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef::values {

// Column positions in a shard written by timef (readers find columns by name instead).
enum ShardColumn : std::size_t {
  kSignalIdColumn = 0,
  kSpecTypeColumn,
  kSignalColumn,
  kChunkIdxColumn,
  kNValuesColumn,
  kValuesColumn,
  kShardColumnCount,
};

inline constexpr const char* kValuesColumnName = "values";
inline constexpr const char* kSpecTypeKey = "timef.spec_type";

// The `values` leaf for a dtype: physical type plus logical and converted types (§7.1 table).
parquet::ColumnDescriptor ValuesLeaf(const model::Spec& spec);

// The six shard columns in §7.1 order.
std::vector<parquet::ColumnDescriptor> ShardSchema(const model::Spec& spec);

// Per-column write options: fixed encodings for the five key columns, the spec_type's value
// encoding for `values` (dictionary falls back to BYTE_STREAM_SPLIT for floats, PLAIN otherwise;
// enum: the categories as the dictionary, never falling back).
std::vector<parquet::ColumnWriteOptions> ShardColumnOptions(const model::Spec& spec,
                                                            manifest::ValueEncoding encoding);

bool IsFloat(model::DType dtype);

}  // namespace timef::values
