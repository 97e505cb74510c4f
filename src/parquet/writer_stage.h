// The rows one column has received since the last FlushRowGroup, held until the column chunk is
// written. Pages are cut only then, once the chunk's encoding is final: a dictionary column falls
// back to its fallback encoding as soon as its dictionary outgrows the limit, and the page sizes
// depend on which encoding won.
//
// The shape is kept the way the batches describe it (list offsets, list and slot validity), the
// values compacted to the non-null ones: as dictionary indices while the dictionary holds,
// otherwise as fixed-width bytes or byte arrays. Nothing else is copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/encoding_decoder.h"
#include "parquet/encoding_dictionary.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"

namespace timef::parquet {

class ColumnStage {
 public:
  ColumnStage(const ColumnDescriptor& column, const ColumnWriteOptions& options,
              std::int64_t dictionary_limit_bytes, std::string output_name);

  // Checks `batch` against the column (timef::ValidationError naming the column; nothing is
  // appended then) and appends its rows.
  void Append(const ColumnView& batch);
  // Drops the rows after the chunk was written; the next chunk starts with the configured
  // encoding (and the dictionary preset) again.
  void Reset();

  const ColumnDescriptor& column() const { return column_; }
  std::int64_t num_rows() const { return num_rows_; }
  // Lists: row r's slots are [row_offsets[r], row_offsets[r + 1]), row_offsets[0] = 0. Empty for
  // flat columns, whose slot r is row r.
  std::span<const std::int64_t> row_offsets() const { return row_offsets_; }
  // Nullable lists: 1 where the row's list is present; empty otherwise.
  std::span<const std::uint8_t> row_present() const { return row_present_; }
  // Nullable slots (a nullable flat column, or nullable list elements): 1 where the slot holds a
  // value; empty otherwise.
  std::span<const std::uint8_t> slot_present() const { return slot_present_; }
  std::int64_t num_values() const { return num_values_; }

  // The encoding the chunk gets: the configured one, or the fallback after the dictionary grew
  // past the limit.
  Encoding encoding() const { return encoding_; }
  bool dictionary_encoded() const { return encoding_ == Encoding::kRleDictionary; }

  // The non-null values in slot order, as indices into the dictionary when dictionary_encoded(),
  // else as fixed-width bytes (BOOLEAN: one 0/1 byte each) or byte arrays.
  std::span<const std::uint32_t> indices() const { return indices_; }
  std::span<const std::byte> fixed_values() const { return fixed_; }
  ByteArraysView byte_array_values() const { return byte_arrays_.view(); }

  // The dictionary (dictionary_encoded() only): its size, PLAIN page body, and entries for
  // statistics (fixed-width bytes, or byte arrays for BYTE_ARRAY).
  std::size_t dictionary_size() const;
  void AppendDictionaryPage(std::vector<std::byte>& out) const;
  std::span<const std::byte> fixed_dictionary() const;
  ByteArraysView byte_array_dictionary() const;

 private:
  struct SlotRange {
    std::int64_t begin = 0;
    std::int64_t end = 0;
  };
  using Dictionary =
      std::variant<std::monostate, DictionaryBuilder<std::int32_t>, DictionaryBuilder<std::int64_t>,
                   DictionaryBuilder<float>, DictionaryBuilder<double>, ByteArrayDictionaryBuilder,
                   FixedLenDictionaryBuilder>;

  SlotRange Validate(const ColumnView& batch) const;
  [[noreturn]] void Fail(const std::string& problem) const;
  bool SlotPresent(const ColumnView& batch, std::int64_t slot) const {
    return batch.validity.empty() || batch.validity[static_cast<std::size_t>(slot)] != 0;
  }
  void StartDictionary();
  // Dictionary mode: adds slots [begin, end) and returns where it stopped, `end` unless the
  // dictionary outgrew its limit (the chunk has then fallen back).
  std::int64_t PutDictionary(const ColumnView& batch, std::int64_t begin, std::int64_t end);
  void PutValues(const ColumnView& batch, std::int64_t begin, std::int64_t end);
  void FallBack();
  bool OverLimit() const;

  ColumnDescriptor column_;
  ColumnWriteOptions options_;
  std::int64_t dictionary_limit_bytes_;
  std::string output_name_;
  std::size_t width_;  // fixed-width slot size; 0 for BYTE_ARRAY

  std::int64_t num_rows_ = 0;
  std::int64_t num_values_ = 0;
  std::vector<std::int64_t> row_offsets_;
  std::vector<std::uint8_t> row_present_;
  std::vector<std::uint8_t> slot_present_;

  Encoding encoding_;
  Dictionary dictionary_;
  std::vector<std::uint32_t> indices_;
  std::vector<std::byte> fixed_;
  ByteArrays byte_arrays_;
  std::vector<std::byte> scratch_;  // gathered values for the dictionary
};

}  // namespace timef::parquet
