#include "values/encoding_decision.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "timef/error.h"
#include "values/shard_schema.h"

namespace timef::values {
namespace {

[[noreturn]] void RejectForced(const model::Spec& spec, const std::string& option,
                               manifest::ValueEncoding encoding) {
  throw ValidationError(ErrorSite{std::nullopt, "spec_type '" + spec.spec_type + "'", option},
                        "cannot force value encoding " + std::string(ToString(encoding)) +
                            " on a " + std::string(model::ToString(spec.dtype)) + " spec_type");
}

std::optional<manifest::ValueEncoding> FromChoice(manifest::ValueEncodingChoice choice) {
  switch (choice) {
    case manifest::ValueEncodingChoice::kAuto:
      return std::nullopt;
    case manifest::ValueEncodingChoice::kDictionary:
      return manifest::ValueEncoding::kDictionary;
    case manifest::ValueEncodingChoice::kByteStreamSplit:
      return manifest::ValueEncoding::kByteStreamSplit;
    case manifest::ValueEncodingChoice::kPlain:
      return manifest::ValueEncoding::kPlain;
  }
  return std::nullopt;
}

// Positions of the present values of a chunk (all of them when it has no validity).
std::vector<std::int64_t> PresentPositions(const model::ValueArray& values) {
  std::vector<std::int64_t> present;
  const std::int64_t n = values.size();
  present.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    if (values.IsValid(i)) present.push_back(i);
  }
  return present;
}

// Counts distinct keys of the sampled values, stopping once the dictionary limit is passed.
class DistinctCounter {
 public:
  bool Add(std::uint64_t key) {
    numbers_.insert(key);
    return numbers_.size() + texts_.size() <= kDictionaryMaxDistinct;
  }
  bool Add(std::string_view key) {
    texts_.insert(key);
    return numbers_.size() + texts_.size() <= kDictionaryMaxDistinct;
  }
  std::size_t count() const { return numbers_.size() + texts_.size(); }

 private:
  std::unordered_set<std::uint64_t> numbers_;
  std::unordered_set<std::string_view> texts_;  // views into the chunks, alive meanwhile
};

template <class T>
std::uint64_t BitKey(T value) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(value);
  } else {
    return static_cast<std::uint64_t>(
        static_cast<std::make_unsigned_t<T>>(value));  // same-width bit pattern
  }
}

// Samples one chunk into `counter`; false once the limit is passed. §7.4 takes indices ⌊j·m/s⌋,
// j < min(s, m); read literally, a chunk with m < s would sample only its first m²/s values
// (repeating each), against "at most s values, spread over the chunk". The divisor is therefore
// min(s, m): all present values when m ≤ s, exactly the §7.4 indices when m > s.
bool SampleChunk(const model::ValueArray& values, std::int64_t per_chunk,
                 DistinctCounter& counter) {
  const std::vector<std::int64_t> present = PresentPositions(values);
  const auto m = static_cast<std::int64_t>(present.size());
  const std::int64_t take = std::min(per_chunk, m);
  return std::visit(
      [&](const auto& data) {
        for (std::int64_t j = 0; j < take; ++j) {
          // j·m < 2^63 for any chunk that fits in memory: j < 200,000 and m < 2^40.
          const std::int64_t index = present[static_cast<std::size_t>(j * m / take)];
          const auto& value = data[static_cast<std::size_t>(index)];
          using T = std::decay_t<decltype(value)>;
          bool ok;
          if constexpr (std::is_same_v<T, std::string>) {
            ok = counter.Add(std::string_view(value));
          } else {
            ok = counter.Add(BitKey(value));
          }
          if (!ok) return false;
        }
        return true;
      },
      values.data());
}

}  // namespace

std::optional<manifest::ValueEncoding> FixedOrForcedEncoding(const model::Spec& spec,
                                                             const ValuesOptions& options) {
  const bool is_float = IsFloat(spec.dtype);
  std::optional<manifest::ValueEncoding> fixed;
  if (spec.dtype == model::DType::kBool) fixed = manifest::ValueEncoding::kPlain;
  if (spec.dtype == model::DType::kEnum) fixed = manifest::ValueEncoding::kDictionary;

  if (auto entry = options.value_encoding_by_spec.find(spec.spec_type);
      entry != options.value_encoding_by_spec.end()) {
    const manifest::ValueEncoding forced = entry->second;
    const std::string option = "value_encoding_by_spec[" + spec.spec_type + "]";
    if (fixed.has_value() && forced != *fixed) RejectForced(spec, option, forced);
    if (forced == manifest::ValueEncoding::kByteStreamSplit && !is_float)
      RejectForced(spec, option, forced);
    return forced;
  }
  if (fixed.has_value()) return fixed;  // the global override leaves bool and enum alone
  const std::optional<manifest::ValueEncoding> global = FromChoice(options.value_encoding);
  if (global == manifest::ValueEncoding::kByteStreamSplit && !is_float) {
    RejectForced(spec, "value_encoding", *global);
  }
  return global;
}

manifest::ValueEncoding MeasureEncoding(model::DType dtype,
                                        const std::deque<BufferedChunk>& chunks) {
  const manifest::ValueEncoding many =
      IsFloat(dtype) ? manifest::ValueEncoding::kByteStreamSplit : manifest::ValueEncoding::kPlain;
  if (chunks.empty()) return manifest::ValueEncoding::kDictionary;
  const auto k = static_cast<std::int64_t>(chunks.size());
  const std::int64_t per_chunk = std::max<std::int64_t>(1, kMeasureSampleValues / k);
  DistinctCounter counter;
  for (const BufferedChunk& chunk : chunks) {
    if (!SampleChunk(chunk.values, per_chunk, counter)) return many;
  }
  return manifest::ValueEncoding::kDictionary;
}

}  // namespace timef::values
