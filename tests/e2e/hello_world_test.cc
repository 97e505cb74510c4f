// End to end on the hello-world demo: write, read back equal in every field (FORMAT.md §13),
// layout rules (§3.1, §7.1), DuckDB as an independent reader of our shards, fork behaviour.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <memory>
#include <set>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "parquet/file_reader.h"
#include "release_fixture.h"
#include "timef/demo.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {
namespace fs = std::filesystem;

class HelloWorldTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = std::make_unique<testing::TempDir>();
    expected_ = demo::BuildHelloWorld();
    result_ = std::make_unique<WriteResult>(WriteRelease(
        *expected_, demo::HelloWorldCard(), root_->path(), demo::HelloWorldWriteOptions()));
  }
  static void TearDownTestSuite() {
    result_.reset();
    expected_.reset();
    root_.reset();
  }
  static inline std::unique_ptr<testing::TempDir> root_;
  static inline std::unique_ptr<model::Dataset> expected_;
  static inline std::unique_ptr<WriteResult> result_;
};

TEST_F(HelloWorldTest, ReadsBackEqualInEveryField) {
  Reader reader = Reader::Open(result_->release_dir);
  const Json expected = model::DumpDataset(*expected_, {.values = true});
  // A JSON patch from what was written to what was read: empty when equal, short when not.
  const Json lazy = Json::diff(expected, model::DumpDataset(*reader.Read(), {.values = true}));
  EXPECT_TRUE(lazy.empty()) << lazy.dump();
  const Json eager = Json::diff(
      expected, model::DumpDataset(*reader.Read(LoadPlan::AllEager()), {.values = true}));
  EXPECT_TRUE(eager.empty()) << eager.dump();
  EXPECT_EQ(demo::HelloWorldCard().name, reader.manifest().metadata.name);
  EXPECT_NO_THROW(reader.Verify());
}

TEST_F(HelloWorldTest, SpecialValuesAndNullsSurviveBitExact) {
  Reader reader = Reader::Open(result_->release_dir);
  auto lead = reader.GetSignal(demo::kSpecialSignalId);
  ASSERT_EQ(lead->name(), demo::kSpecialSignalName);
  const auto loaded = lead->LoadValues();
  auto v = loaded->values<float>();
  EXPECT_TRUE(std::isnan(v[demo::kNanStep]));
  EXPECT_EQ(v[demo::kPosInfStep], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[demo::kNegInfStep], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(std::bit_cast<uint32_t>(v[demo::kNegZeroStep]), 0x8000'0000u);
  auto hr = reader.GetSignal(demo::kHeartRateSignalId)->LoadValues();
  for (int64_t step : demo::kHeartRateNullSteps) EXPECT_FALSE(hr->IsValid(step));
  EXPECT_TRUE(hr->IsValid(demo::kHeartRateNanStep));
  EXPECT_TRUE(std::isnan(hr->values<double>()[demo::kHeartRateNanStep]));
}

TEST_F(HelloWorldTest, LayoutHoldsExactlyTheListedFilesOneSpecTypePerShard) {
  const manifest::Manifest& m = result_->manifest;
  std::vector<std::string> listed{"manifest.json", m.files.control.path};
  for (const auto& p : m.files.time_series) listed.push_back(p.path);
  for (const auto& p : m.files.payloads) listed.push_back(p.path);
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(testing::ListFiles(result_->release_dir), listed);
  EXPECT_GT(m.files.time_series.size(), 2u);
  EXPECT_GT(m.counts.signal_chunks, m.counts.signals);
  std::set<std::string> text_files, offsets_files;
  for (const auto& p : m.files.payloads) {
    (p.path.find("/text-") != std::string::npos ? text_files : offsets_files).insert(p.path);
  }
  EXPECT_FALSE(text_files.empty());
  EXPECT_FALSE(offsets_files.empty());
  for (const auto& part : m.files.time_series) {
    auto file = parquet::FileReader::OpenFile(result_->release_dir / part.path);
    parquet::ColumnData spec_types;
    std::set<std::string> seen;
    const int column = file.ColumnIndex("spec_type");
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      file.ReadColumnChunk(rg, column, spec_types);
      for (int64_t i = 0; i < spec_types.num_rows; ++i) {
        const auto* bytes = reinterpret_cast<const char*>(spec_types.values.data());
        seen.insert(std::string(bytes + spec_types.byte_offsets[i],
                                bytes + spec_types.byte_offsets[i + 1]));
      }
    }
    EXPECT_EQ(seen.size(), 1u) << part.path;
  }
}

TEST_F(HelloWorldTest, DuckDBReadsOurShardsWithTheSameValues) {
  catalog::Database db =
      catalog::Database::Open(root_->path() / "peer.duckdb", catalog::AccessMode::kReadWrite);
  catalog::Connection connection(db);
  Reader reader = Reader::Open(result_->release_dir);
  auto lead = reader.GetSignal(demo::kSpecialSignalId);
  // The shards of the lead's spec_type (each shard names its one spec_type in its footer).
  std::string files;
  for (const auto& part : result_->manifest.files.time_series) {
    const fs::path path = result_->release_dir / part.path;
    const auto kv = parquet::FileReader::OpenFile(path).metadata().key_value_metadata;
    ASSERT_TRUE(kv.has_value());
    bool ecg = false;
    for (const auto& entry : *kv) ecg |= entry.key == "timef.spec_type" && entry.value == "ecg";
    if (ecg) files += (files.empty() ? "'" : ", '") + path.string() + "'";
  }
  ASSERT_FALSE(files.empty());
  // DuckDB stitches the chunks of one signal in chunk_idx order; sum of non-NaN finite values
  // and the count of values must equal ours.
  catalog::Result result = connection.Query(
      "SELECT count(*)::BIGINT, sum(CASE WHEN isfinite(v) THEN v::DOUBLE END) FROM "
      "(SELECT unnest(\"values\") v FROM read_parquet([" +
          files + "]) WHERE signal_id = " + std::to_string(demo::kSpecialSignalId) + ")",
      "read_parquet");
  auto chunk = result.Next();
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->Int64(0).Get(0), lead->n_values());
  double ours = 0;
  const auto loaded = lead->LoadValues();
  for (float x : loaded->values<float>()) {
    if (std::isfinite(x)) ours += static_cast<double>(x);
  }
  EXPECT_NEAR(chunk->Double(1).Get(0), ours, 1e-6 * std::abs(ours) + 1e-9);
}

TEST_F(HelloWorldTest, ForkedChildReopensAndReads) {
  Reader reader = Reader::Open(result_->release_dir);
  const auto ids = reader.RecordIds();  // the parent's catalog is open before the fork
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 0;
    try {
      auto dataset = reader.Read(LoadPlan::AllEager());
      code = dataset->records().size() == ids.size() ? 0 : 3;
    } catch (...) {
      code = 4;
    }
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(reader.RecordIds(), ids);  // the parent reopens too
}

}  // namespace
}  // namespace timef
