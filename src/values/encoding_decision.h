// The value encoding of a spec_type (docs/format.md §7.5): fixed for bool and enum, forced by the
// per-spec_type map or the global override, else measured on the spec_type's leading chunks.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "timef/manifest.h"
#include "timef/model.h"
#include "values/buffered_chunk.h"
#include "values/values_options.h"

namespace timef::values {

// Bytes of leading chunks the measurement looks at, values it samples, and the distinct count up
// to which a dictionary is chosen.
inline constexpr std::int64_t kMeasureWindowBytes = std::int64_t{4} << 20;
inline constexpr std::int64_t kMeasureSampleValues = 200'000;
inline constexpr std::int64_t kDictionaryMaxDistinct = 65'536;

// The encoding `spec`'s spec_type gets without measuring, or std::nullopt when it must be
// measured. Throws ValidationError naming the spec_type when a forced encoding does not fit its
// dtype (byte_stream_split on an integer or str spec_type; via the per-spec_type map, anything
// but the fixed encoding of a bool or enum spec_type, or byte_stream_split on a non-float).
std::optional<manifest::ValueEncoding> FixedOrForcedEncoding(const model::Spec& spec,
                                                             const ValuesOptions& options);

// The §7.4 measurement over `chunks` (the spec_type's leading chunks, nulls dropped, sampled):
// dictionary when at most 65,536 distinct bit patterns, else byte_stream_split for floats and
// plain for the rest.
manifest::ValueEncoding MeasureEncoding(model::DType dtype,
                                        const std::deque<BufferedChunk>& chunks);

}  // namespace timef::values
