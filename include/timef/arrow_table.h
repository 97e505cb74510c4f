// A table in the Arrow C Data Interface (https://arrow.apache.org/docs/format/CDataInterface.html
// and CStreamInterface.html): what the Reader's task, target and annotation tables return, so
// that pyarrow, pandas, polars or DuckDB take the columns over without a copy.
//
// The three structs below are the ABI the Arrow spec defines. They are declared here behind the
// spec's own include guards, so this header coexists with arrow/c/abi.h, nanoarrow or any other
// header that declares them the same way (duckdb.h only forward-declares ArrowSchema/ArrowArray).
//
// Column types a timef table uses (Arrow format strings): "l" int64, "g" float64, "b" boolean,
// "U" large UTF-8 string, "+L" large list (of "l" or "U"). Large (64-bit offset) strings and lists
// are used throughout so that one batch never overflows 32-bit offsets, however much text a
// dataset packs; pyarrow maps them to pa.large_string()/pa.large_list() and pandas to str/object.
// A table is one record batch: a "+s" struct array whose children are the columns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Callbacks providing stream functionality
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);

  // Release callback
  void (*release)(struct ArrowArrayStream*);

  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

#ifdef __cplusplus
}
#endif

namespace timef {

// Owns one record batch (a "+s" schema and its struct array) and releases it on destruction,
// unless it was exported. Move-only. The accessors are for C++ callers and tests; Python and other
// consumers take the batch with ExportStream() / Export().
class ArrowTable {
 public:
  // A table with no columns and no rows.
  ArrowTable();
  // Takes ownership of `schema` (format "+s") and `array` (its struct array): their release
  // callbacks run when the table is destroyed. ValidationError when the two do not match.
  ArrowTable(ArrowSchema schema, ArrowArray array);
  ArrowTable(ArrowTable&& other) noexcept;
  ArrowTable& operator=(ArrowTable&& other) noexcept;
  ArrowTable(const ArrowTable&) = delete;
  ArrowTable& operator=(const ArrowTable&) = delete;
  ~ArrowTable();

  int64_t num_rows() const;
  int64_t num_columns() const;
  std::vector<std::string> ColumnNames() const;
  // The Arrow format string of a column ("l", "U", "+L", …).
  std::string_view ColumnFormat(std::string_view column) const;
  // ValidationError naming the column when the table has none of that name.
  int64_t ColumnIndex(std::string_view column) const;
  // The child format of a list column ("l" or "U"), "" for other columns.
  std::string_view ListElementFormat(std::string_view column) const;

  // The batch itself, still owned by the table (empty after an export).
  const ArrowSchema& schema() const { return schema_; }
  const ArrowArray& array() const { return array_; }
  bool exported() const { return schema_.release == nullptr; }

  // Typed cell reads; nullopt for NULL. ValidationError when the column's type differs or `row`
  // is out of range.
  bool IsNull(std::string_view column, int64_t row) const;
  std::optional<int64_t> Int64(std::string_view column, int64_t row) const;
  std::optional<double> Double(std::string_view column, int64_t row) const;
  std::optional<bool> Bool(std::string_view column, int64_t row) const;
  // The view lives as long as the table holds the batch.
  std::optional<std::string_view> String(std::string_view column, int64_t row) const;
  std::optional<std::vector<int64_t>> Int64List(std::string_view column, int64_t row) const;
  std::optional<std::vector<std::string>> StringList(std::string_view column, int64_t row) const;

  // Moves the batch out: the caller owns `*schema` and `*array` and must call their release
  // callbacks (C Data Interface rules). The table is empty afterwards. ValidationError when it
  // was already exported.
  void Export(ArrowSchema* schema, ArrowArray* array);
  // Moves the batch into a stream that yields it once (also when it has no rows, so that the
  // schema travels), then ends. The caller owns `*stream` and must call stream->release.
  // get_schema may be called any number of times; each call hands out a fresh copy.
  void ExportStream(ArrowArrayStream* stream);

 private:
  const ArrowArray& Column(std::string_view column, std::string_view want_format,
                           int64_t row) const;
  void Reset() noexcept;

  ArrowSchema schema_{};
  ArrowArray array_{};
};

}  // namespace timef
