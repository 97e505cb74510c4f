// The write options are declared once (include/timef/write_options.h, issue 32): WriteOptions'
// defaults are the table's, the values/payload/Parquet option structs start from the same
// defaults, and every whole-number option is checked against the table's range before anything
// is written. The cases are made from the table, so an option added there is covered here.
#include "timef/write_options.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>

#include "parquet/writer_options.h"
#include "payload/payload_options.h"
#include "release_fixture.h"
#include "scratch_dir.h"
#include "timef/error.h"
#include "timef/writer.h"
#include "values/values_options.h"
#include "writer/write_options.h"

namespace timef {
namespace {
namespace fs = std::filesystem;

TEST(WriteOptionsTableTest, WriteOptionsStartFromTheTableDefaults) {
  const WriteOptions options;
#define TIMEF_EXPECT_DEFAULT(name, ...) \
  EXPECT_EQ(options.name, write_option::name.default_value) << #name;
  TIMEF_WRITE_NUMBER_OPTIONS(TIMEF_EXPECT_DEFAULT)
#undef TIMEF_EXPECT_DEFAULT
  EXPECT_EQ(options.compression, write_option::compression.default_text);
  EXPECT_EQ(manifest::ToString(options.values_backend), write_option::values_backend.default_text);
  EXPECT_EQ(options.audit ? "true" : "false", write_option::audit.default_text);
}

TEST(WriteOptionsTableTest, ThePlanesStartFromTheSameDefaults) {
  const WriteOptions options;
  const values::ValuesOptions from_write = writer::ToValuesOptions(options, std::nullopt);
  const values::ValuesOptions values;
  EXPECT_EQ(values.chunk_max_bytes, from_write.chunk_max_bytes);
  EXPECT_EQ(values.row_group_target_bytes, from_write.row_group_target_bytes);
  EXPECT_EQ(values.shard_target_bytes, from_write.shard_target_bytes);
  EXPECT_EQ(values.data_page_target_bytes, from_write.data_page_target_bytes);
  EXPECT_EQ(values.compression, from_write.compression);
  EXPECT_EQ(values.compression_level, from_write.compression_level);
  EXPECT_EQ(values.compression_threads, from_write.compression_threads);
  EXPECT_EQ(values.backend, from_write.backend);
  EXPECT_EQ(values.zarr_compression_level, from_write.zarr_compression_level);
  const payload::PayloadOptions payload;
  const payload::PayloadOptions payload_from_write = writer::ToPayloadOptions(options);
  EXPECT_EQ(payload.row_group_target_bytes, payload_from_write.row_group_target_bytes);
  EXPECT_EQ(payload.shard_target_bytes, payload_from_write.shard_target_bytes);
  EXPECT_EQ(payload.data_page_target_bytes, payload_from_write.data_page_target_bytes);
  EXPECT_EQ(payload.compression, payload_from_write.compression);
  EXPECT_EQ(payload.compression_level, payload_from_write.compression_level);
  const parquet::WriterOptions parquet;
  EXPECT_EQ(parquet.compression_level, options.compression_level);
  EXPECT_EQ(parquet.compression_threads, options.threads);
  EXPECT_EQ(parquet.data_page_target_bytes, options.data_page_target_bytes);
}

// The write raises ValidationError naming `option` and leaves nothing behind.
void ExpectRejected(const WriteOptions& options, const std::string& option,
                    const std::string& value) {
  testing::ScratchDir scratch;
  const fs::path release_dir = scratch.path() / "acme" / "demo" / "1.0.0";
  testing::Fixture f = testing::MakeFixture();
  try {
    WriteReleaseTo(*f.dataset, testing::FixtureCard(), release_dir, options);
    ADD_FAILURE() << option << " = " << value << " was accepted";
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), option) << e.what();
    EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(release_dir)) << option;
}

// Just outside an option's range (called only for a bound that has a value outside it).
std::int64_t Below(const write_option::Number& option) { return option.min - 1; }
std::int64_t Above(const write_option::Number& option) { return option.max + 1; }

TEST(WriteOptionsTableTest, EveryNumberOptionIsCheckedAgainstItsRange) {
  int checked = 0;
#define TIMEF_EXPECT_RANGE(name, ...)                                \
  {                                                                  \
    const write_option::Number& option = write_option::name;         \
    using Field = decltype(WriteOptions::name);                      \
    if (option.min > std::numeric_limits<Field>::min()) {            \
      WriteOptions options;                                          \
      options.name = static_cast<Field>(Below(option));              \
      ExpectRejected(options, #name, std::to_string(Below(option))); \
      ++checked;                                                     \
    }                                                                \
    if (option.max != write_option::kNoLimit) {                      \
      WriteOptions options;                                          \
      options.name = static_cast<Field>(Above(option));              \
      ExpectRejected(options, #name, std::to_string(Above(option))); \
      ++checked;                                                     \
    }                                                                \
  }
  TIMEF_WRITE_NUMBER_OPTIONS(TIMEF_EXPECT_RANGE)
#undef TIMEF_EXPECT_RANGE
  EXPECT_GE(checked, 11);  // 8 lower bounds, 3 upper bounds
}

TEST(WriteOptionsTableTest, TheZstdLevelIsCheckedOnlyWithZstd) {
  WriteOptions options;
  options.compression = "uncompressed";
  options.compression_level = 0;
  testing::ScratchDir scratch;
  testing::Fixture f = testing::MakeFixture();
  const fs::path release_dir = scratch.path() / "acme" / "demo" / "1.0.0";
  EXPECT_NO_THROW(WriteReleaseTo(*f.dataset, testing::FixtureCard(), release_dir, options));
  EXPECT_TRUE(fs::exists(release_dir / "manifest.json"));
}

TEST(WriteOptionsTableTest, TheParquetWriterChecksThreadsAgainstTheSameRange) {
  parquet::WriterOptions options;
  options.compression_threads = static_cast<int>(write_option::threads.max + 1);
  const std::vector<parquet::ColumnDescriptor> schema = {
      {.name = "x", .physical_type = parquet::Type::kInt64}};
  try {
    parquet::ValidateWriterSetup(schema, options);
    ADD_FAILURE() << "compression_threads above the range was accepted";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("compression_threads must be " +
                                         write_option::threads.RangeText()),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace timef
