// The write options, each declared once (issue 32): name, type, default, range and doc. Everything
// else is made from these lists: the fields and defaults of timef::WriteOptions (timef/writer.h),
// the defaults of the values, payload and Parquet writers' own option structs, their range checks
// (CheckedOption below), the CLI flags that set a write option (tools/timef/options.cc) and the
// Python keywords of timef.write (python/src/writer_py.cc, timef._write_option_names).
//
// The lists are X-macros: TIMEF_WRITE_NUMBER_OPTIONS(X) calls
// X(name, type, default, min, max, doc) for each whole-number option (checked min..max;
// kNoLimit = no upper bound), TIMEF_WRITE_CHOICE_OPTIONS(X) calls
// X(name, type, default, default_text, doc) for each option chosen by a word or a flag. The type
// and default of a choice option are C++ tokens that name timef::manifest (timef/manifest.h) and
// are used only where that header is included.
//
// Plain constants and pure functions: no state, safe from any thread.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

// clang-format off
#define TIMEF_WRITE_NUMBER_OPTIONS(X)                                                             \
  X(chunk_max_bytes, std::int64_t, 1024 * 1024, 1, ::timef::write_option::kNoLimit,              \
    "largest uncompressed chunk of one signal's values, bytes (docs/format.md §7.3)")            \
  X(row_group_target_bytes, std::int64_t, 4 * 1024 * 1024, 1, ::timef::write_option::kNoLimit,  \
    "a values or payload row group is closed once it holds this many bytes (§7.3)")              \
  X(shard_target_bytes, std::int64_t, 128 * 1024 * 1024, 1, ::timef::write_option::kNoLimit,    \
    "a values shard or payload file is closed once it holds this many bytes (§7.3)")             \
  X(data_page_target_bytes, std::int64_t, 16 * 1024, 1, ::timef::write_option::kNoLimit,        \
    "a data page is closed before a row that would take it past this many bytes; a row of at "   \
    "least a quarter of it gets a page of its own (§7.3, §7.4)")                                 \
  X(compression_level, int, 19, 1, 22,                                                            \
    "zstd level of the values and payload pages (checked only with zstd compression)")          \
  X(threads, int, 1, 1, 256,                                                                      \
    "threads of a write (1 = the calling thread alone; more: a row group of values is encoded " \
    "ahead and its pages compressed on that many threads in the background while the next is "  \
    "loaded); the release's bytes are the same for every count")                                 \
  X(zarr_compression_level, int, 9, 0, 9, "blosc level of the Zarr inner chunks (§8.4)")         \
  X(text_pack_threshold_bytes, std::int64_t, 256, 0, ::timef::write_option::kNoLimit,           \
    "texts longer than this many UTF-8 bytes (lists: summed element bytes) go to payload files")

#define TIMEF_WRITE_CHOICE_OPTIONS(X)                                                             \
  X(compression, std::string, "zstd", "zstd",                                                     \
    "codec of the values and payload pages: zstd or uncompressed (docs/format.md §7.3)")          \
  X(values_backend, ::timef::manifest::ValuesBackend, ::timef::manifest::ValuesBackend::kParquet, \
    "parquet",                                                                                    \
    "where the values go: parquet shards (§7) or the Zarr v3 store time_series.zarr/ (§8: N-D "   \
    "specs, no str spec; uses chunk_max_bytes and shard_target_bytes only)")                      \
  X(audit, bool, true, "true",                                                                    \
    "re-check the staged catalog with the SQL audit before publishing (§3.3 step 6)")
// clang-format on

namespace timef::write_option {

inline constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

// A whole-number option: `default_value` and the inclusive range [min, max].
struct Number {
  std::string_view name;
  std::int64_t default_value;
  std::int64_t min;
  std::int64_t max;
  std::string_view doc;

  constexpr bool Contains(std::int64_t value) const { return value >= min && value <= max; }
  // "1..256" or "at least 1".
  std::string RangeText() const {
    return max == kNoLimit ? "at least " + std::to_string(min)
                           : std::to_string(min) + ".." + std::to_string(max);
  }
  // "must be 1..256, got 300" (empty when `value` is in range).
  std::string Problem(std::int64_t value) const {
    return Contains(value) ? std::string()
                           : "must be " + RangeText() + ", got " + std::to_string(value);
  }
};

// An option chosen by a word or a flag; `default_text` is its default as the CLI and Python
// spell it.
struct Choice {
  std::string_view name;
  std::string_view default_text;
  std::string_view doc;
};

// write_option::threads, write_option::chunk_max_bytes, ...: one constant per option.
#define TIMEF_WRITE_OPTION_NUMBER(name, type, default_value, min, max, doc) \
  inline constexpr Number name{#name, default_value, min, max, doc};
#define TIMEF_WRITE_OPTION_CHOICE(name, type, default_value, default_text, doc) \
  inline constexpr Choice name{#name, default_text, doc};
TIMEF_WRITE_NUMBER_OPTIONS(TIMEF_WRITE_OPTION_NUMBER)
TIMEF_WRITE_CHOICE_OPTIONS(TIMEF_WRITE_OPTION_CHOICE)
#undef TIMEF_WRITE_OPTION_NUMBER
#undef TIMEF_WRITE_OPTION_CHOICE

// Every option's name, in list order (numbers, then choices).
#define TIMEF_WRITE_OPTION_NAME(name, ...) std::string_view(#name),
inline constexpr std::string_view kNames[] = {TIMEF_WRITE_NUMBER_OPTIONS(
    TIMEF_WRITE_OPTION_NAME) TIMEF_WRITE_CHOICE_OPTIONS(TIMEF_WRITE_OPTION_NAME)};
#undef TIMEF_WRITE_OPTION_NAME

}  // namespace timef::write_option
