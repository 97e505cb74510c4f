#include "parquet/writer_stage.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "parquet/encoding_bytes.h"
#include "parquet/writer_options.h"

namespace timef::parquet {

static_assert(std::endian::native == std::endian::little,
              "the writer stages values in their little-endian PLAIN layout");

namespace {

// Values are added to a dictionary in groups this large, so that the limit is checked often
// enough to bound the memory a runaway dictionary takes.
constexpr std::int64_t kDictionaryGroup = 4096;

constexpr std::int64_t kMaxSlotsPerRow = std::numeric_limits<std::int32_t>::max();

}  // namespace

ColumnStage::ColumnStage(const ColumnDescriptor& column, const ColumnWriteOptions& options,
                         std::int64_t dictionary_limit_bytes, std::string output_name)
    : column_(column),
      options_(options),
      dictionary_limit_bytes_(dictionary_limit_bytes),
      output_name_(std::move(output_name)),
      width_(static_cast<std::size_t>(SlotWidth(column.physical_type, column.type_length))),
      encoding_(options.encoding) {
  if (column_.is_list) row_offsets_.push_back(0);
  StartDictionary();
}

void ColumnStage::Fail(const std::string& problem) const {
  throw WriterError(output_name_, column_.name, problem);
}

void ColumnStage::StartDictionary() {
  encoding_ = options_.encoding;
  if (encoding_ != Encoding::kRleDictionary) {
    dictionary_ = std::monostate{};
    return;
  }
  switch (column_.physical_type) {
    case Type::kInt32:
      dictionary_.emplace<DictionaryBuilder<std::int32_t>>();
      break;
    case Type::kInt64:
      dictionary_.emplace<DictionaryBuilder<std::int64_t>>();
      break;
    case Type::kFloat:
      dictionary_.emplace<DictionaryBuilder<float>>();
      break;
    case Type::kDouble:
      dictionary_.emplace<DictionaryBuilder<double>>();
      break;
    case Type::kByteArray: {
      auto& builder = dictionary_.emplace<ByteArrayDictionaryBuilder>();
      for (const std::string& entry : options_.dictionary_preset) {
        builder.Put(std::as_bytes(std::span<const char>(entry.data(), entry.size())));
      }
      break;
    }
    case Type::kFixedLenByteArray:
      dictionary_.emplace<FixedLenDictionaryBuilder>(width_);
      break;
    default:
      break;  // excluded by ValidateColumnOptions
  }
}

void ColumnStage::Reset() {
  num_rows_ = 0;
  num_values_ = 0;
  row_offsets_.clear();
  if (column_.is_list) row_offsets_.push_back(0);
  row_present_.clear();
  slot_present_.clear();
  indices_.clear();
  fixed_.clear();
  byte_arrays_.Clear();
  StartDictionary();
}

ColumnStage::SlotRange ColumnStage::Validate(const ColumnView& batch) const {
  if (batch.physical_type != column_.physical_type) {
    Fail("batch has physical type " + ToString(batch.physical_type) + ", the column " +
         ToString(column_.physical_type));
  }
  if (column_.physical_type == Type::kFixedLenByteArray &&
      batch.type_length != column_.type_length) {
    Fail("batch has type_length " + std::to_string(batch.type_length) + ", the column " +
         std::to_string(column_.type_length));
  }
  if (batch.num_rows < 0) Fail("negative num_rows");
  const auto rows = static_cast<std::size_t>(batch.num_rows);

  SlotRange slots{0, batch.num_rows};
  if (column_.is_list) {
    if (batch.list_offsets.empty() && batch.num_rows > 0) Fail("list batch without list_offsets");
    if (!batch.list_offsets.empty()) {
      if (batch.list_offsets.size() != rows + 1) {
        Fail("list_offsets has " + std::to_string(batch.list_offsets.size()) + " entries for " +
             std::to_string(rows) + " rows");
      }
      if (batch.list_offsets[0] < 0) Fail("negative list offset");
      for (std::size_t r = 0; r < rows; ++r) {
        const std::int64_t length = batch.list_offsets[r + 1] - batch.list_offsets[r];
        if (length < 0) Fail("list_offsets decrease at row " + std::to_string(r));
        if (length > kMaxSlotsPerRow) Fail("row " + std::to_string(r) + " has too many elements");
      }
      slots = {batch.list_offsets.front(), batch.list_offsets.back()};
    } else {
      slots = {0, 0};
    }
    if (!batch.list_validity.empty()) {
      if (batch.list_validity.size() != rows) {
        Fail("list_validity has " + std::to_string(batch.list_validity.size()) + " entries for " +
             std::to_string(rows) + " rows");
      }
      for (std::size_t r = 0; r < rows; ++r) {
        if (batch.list_validity[r] != 0) continue;
        if (!column_.nullable)
          Fail("null list at row " + std::to_string(r) + " of a required column");
        if (batch.list_offsets[r + 1] != batch.list_offsets[r]) {
          Fail("null list at row " + std::to_string(r) + " has elements");
        }
      }
    }
  } else if (!batch.list_offsets.empty() || !batch.list_validity.empty()) {
    Fail("list_offsets or list_validity given for a column that is not a list");
  }

  const auto end = static_cast<std::size_t>(slots.end);
  const bool slots_nullable = column_.is_list ? column_.element_nullable : column_.nullable;
  if (!batch.validity.empty()) {
    if (batch.validity.size() < end) {
      Fail("validity has " + std::to_string(batch.validity.size()) + " entries, the batch needs " +
           std::to_string(end));
    }
    if (!slots_nullable) {
      for (std::size_t s = static_cast<std::size_t>(slots.begin); s < end; ++s) {
        if (batch.validity[s] == 0) {
          Fail(std::string("null ") + (column_.is_list ? "element" : "value") + " at slot " +
               std::to_string(s) + " of a column whose " +
               (column_.is_list ? "elements are" : "values are") + " required");
        }
      }
    }
  }

  if (column_.physical_type == Type::kByteArray) {
    if (slots.end > slots.begin && batch.byte_offsets.size() < end + 1) {
      Fail("byte_offsets has " + std::to_string(batch.byte_offsets.size()) +
           " entries, the batch needs " + std::to_string(end + 1));
    }
    const auto size = static_cast<std::int64_t>(batch.values.size());
    for (std::int64_t s = slots.begin; s < slots.end; ++s) {
      if (!SlotPresent(batch, s)) continue;
      const std::int64_t first = batch.byte_offsets[static_cast<std::size_t>(s)];
      const std::int64_t last = batch.byte_offsets[static_cast<std::size_t>(s) + 1];
      if (first < 0 || last < first || last > size) {
        Fail("byte_offsets of slot " + std::to_string(s) + " lie outside the values");
      }
      if (last - first > std::numeric_limits<std::int32_t>::max()) {
        Fail("value at slot " + std::to_string(s) + " is longer than 2^31 - 1 bytes");
      }
    }
  } else if (batch.values.size() < end * width_) {
    Fail("values has " + std::to_string(batch.values.size()) + " bytes, the batch needs " +
         std::to_string(end * width_));
  }
  return slots;
}

void ColumnStage::Append(const ColumnView& batch) {
  const SlotRange slots = Validate(batch);
  const auto rows = static_cast<std::size_t>(batch.num_rows);

  if (column_.is_list) {
    std::int64_t offset = row_offsets_.back();
    for (std::size_t r = 0; r < rows; ++r) {
      offset += batch.list_offsets[r + 1] - batch.list_offsets[r];
      row_offsets_.push_back(offset);
    }
    if (column_.nullable) {
      if (batch.list_validity.empty()) {
        row_present_.insert(row_present_.end(), rows, 1);
      } else {
        for (std::uint8_t v : batch.list_validity) row_present_.push_back(v != 0 ? 1 : 0);
      }
    }
  }
  if (column_.is_list ? column_.element_nullable : column_.nullable) {
    const auto count = static_cast<std::size_t>(slots.end - slots.begin);
    if (batch.validity.empty()) {
      slot_present_.insert(slot_present_.end(), count, 1);
    } else {
      for (std::size_t i = 0; i < count; ++i) {
        slot_present_.push_back(batch.validity[static_cast<std::size_t>(slots.begin) + i] != 0);
      }
    }
  }

  std::int64_t next = slots.begin;
  if (dictionary_encoded()) next = PutDictionary(batch, slots.begin, slots.end);
  PutValues(batch, next, slots.end);
  num_rows_ += batch.num_rows;
}

std::int64_t ColumnStage::PutDictionary(const ColumnView& batch, std::int64_t begin,
                                        std::int64_t end) {
  for (std::int64_t group = begin; group < end; group += kDictionaryGroup) {
    const std::int64_t group_end = std::min(end, group + kDictionaryGroup);
    const std::size_t before = indices_.size();
    // The builders reserve exactly what a call adds; growing geometrically here keeps repeated
    // calls from reallocating every time.
    const std::size_t needed = before + static_cast<std::size_t>(group_end - group);
    if (needed > indices_.capacity()) indices_.reserve(std::max(needed, 2 * indices_.capacity()));
    if (auto* strings = std::get_if<ByteArrayDictionaryBuilder>(&dictionary_)) {
      for (std::int64_t s = group; s < group_end; ++s) {
        if (!SlotPresent(batch, s)) continue;
        const auto first = static_cast<std::size_t>(batch.byte_offsets[s]);
        const auto last = static_cast<std::size_t>(batch.byte_offsets[s + 1]);
        indices_.push_back(strings->Put(batch.values.subspan(first, last - first)));
      }
    } else {
      // Gather the group's non-null values so the builders see whole aligned arrays.
      scratch_.clear();
      for (std::int64_t s = group; s < group_end;) {
        if (!SlotPresent(batch, s)) {
          ++s;
          continue;
        }
        std::int64_t run_end = s + 1;
        while (run_end < group_end && SlotPresent(batch, run_end)) ++run_end;
        const auto bytes = batch.values.subspan(static_cast<std::size_t>(s) * width_,
                                                static_cast<std::size_t>(run_end - s) * width_);
        scratch_.insert(scratch_.end(), bytes.begin(), bytes.end());
        s = run_end;
      }
      std::visit(
          [&](auto& builder) {
            using Builder = std::decay_t<decltype(builder)>;
            if constexpr (std::is_same_v<Builder, FixedLenDictionaryBuilder>) {
              builder.Put(scratch_, indices_);
            } else if constexpr (std::is_same_v<Builder, DictionaryBuilder<std::int32_t>>) {
              builder.Put(As<std::int32_t>(scratch_), indices_);
            } else if constexpr (std::is_same_v<Builder, DictionaryBuilder<std::int64_t>>) {
              builder.Put(As<std::int64_t>(scratch_), indices_);
            } else if constexpr (std::is_same_v<Builder, DictionaryBuilder<float>>) {
              builder.Put(As<float>(scratch_), indices_);
            } else if constexpr (std::is_same_v<Builder, DictionaryBuilder<double>>) {
              builder.Put(As<double>(scratch_), indices_);
            }
          },
          dictionary_);
    }
    num_values_ += static_cast<std::int64_t>(indices_.size() - before);
    if (OverLimit()) {
      FallBack();
      return group_end;
    }
  }
  return end;
}

bool ColumnStage::OverLimit() const {
  if (!options_.dictionary_fallback) return false;
  const std::size_t bytes = std::visit(
      [](const auto& builder) -> std::size_t {
        if constexpr (std::is_same_v<std::decay_t<decltype(builder)>, std::monostate>) {
          return 0;
        } else {
          return builder.dictionary_bytes();
        }
      },
      dictionary_);
  return bytes > static_cast<std::size_t>(dictionary_limit_bytes_);
}

void ColumnStage::FallBack() {
  // Rebuild the values from dictionary and indices, exactly as they came in.
  if (column_.physical_type == Type::kByteArray) {
    const ByteArraysView entries = byte_array_dictionary();
    for (std::uint32_t index : indices_) byte_arrays_.Append(entries[index]);
  } else {
    const std::span<const std::byte> entries = fixed_dictionary();
    fixed_.reserve(fixed_.size() + indices_.size() * width_);
    for (std::uint32_t index : indices_) {
      const auto value = entries.subspan(std::size_t{index} * width_, width_);
      fixed_.insert(fixed_.end(), value.begin(), value.end());
    }
  }
  indices_.clear();
  indices_.shrink_to_fit();
  dictionary_ = std::monostate{};
  encoding_ = *options_.dictionary_fallback;
}

void ColumnStage::PutValues(const ColumnView& batch, std::int64_t begin, std::int64_t end) {
  if (begin >= end) return;
  if (column_.physical_type == Type::kByteArray) {
    for (std::int64_t s = begin; s < end; ++s) {
      if (!SlotPresent(batch, s)) continue;
      const auto first = static_cast<std::size_t>(batch.byte_offsets[s]);
      const auto last = static_cast<std::size_t>(batch.byte_offsets[s + 1]);
      byte_arrays_.Append(batch.values.subspan(first, last - first));
      ++num_values_;
    }
    return;
  }
  if (column_.physical_type == Type::kBoolean) {
    for (std::int64_t s = begin; s < end; ++s) {
      if (!SlotPresent(batch, s)) continue;
      fixed_.push_back(batch.values[static_cast<std::size_t>(s)] != std::byte{0} ? std::byte{1}
                                                                                 : std::byte{0});
      ++num_values_;
    }
    return;
  }
  // Copy runs of non-null slots in one piece.
  for (std::int64_t s = begin; s < end;) {
    if (!SlotPresent(batch, s)) {
      ++s;
      continue;
    }
    std::int64_t run_end = s + 1;
    while (run_end < end && SlotPresent(batch, run_end)) ++run_end;
    const auto bytes = batch.values.subspan(static_cast<std::size_t>(s) * width_,
                                            static_cast<std::size_t>(run_end - s) * width_);
    fixed_.insert(fixed_.end(), bytes.begin(), bytes.end());
    num_values_ += run_end - s;
    s = run_end;
  }
}

std::size_t ColumnStage::dictionary_size() const {
  return std::visit(
      [](const auto& builder) -> std::size_t {
        if constexpr (std::is_same_v<std::decay_t<decltype(builder)>, std::monostate>) {
          return 0;
        } else {
          return builder.size();
        }
      },
      dictionary_);
}

void ColumnStage::AppendDictionaryPage(std::vector<std::byte>& out) const {
  std::visit(
      [&](const auto& builder) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(builder)>, std::monostate>) {
          builder.AppendDictionaryPage(out);
        }
      },
      dictionary_);
}

std::span<const std::byte> ColumnStage::fixed_dictionary() const {
  return std::visit(
      [](const auto& builder) -> std::span<const std::byte> {
        using Builder = std::decay_t<decltype(builder)>;
        if constexpr (std::is_same_v<Builder, std::monostate> ||
                      std::is_same_v<Builder, ByteArrayDictionaryBuilder>) {
          return {};
        } else if constexpr (std::is_same_v<Builder, FixedLenDictionaryBuilder>) {
          return builder.entries();
        } else {
          return std::as_bytes(builder.entries());
        }
      },
      dictionary_);
}

ByteArraysView ColumnStage::byte_array_dictionary() const {
  if (const auto* strings = std::get_if<ByteArrayDictionaryBuilder>(&dictionary_)) {
    return strings->entries();
  }
  return {};
}

}  // namespace timef::parquet
