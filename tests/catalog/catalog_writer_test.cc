// CatalogWriter: schema + data transactions, creation-order appenders, CHECKPOINT without a .wal,
// and deletion of the file on every failure path.
#include "catalog/write/catalog_writer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "catalog/catalog_reader.h"
#include "catalog_test_util.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using testing::QueryRows;
using testing::ScratchDir;

std::vector<std::string> Entries(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void AppendDataset(CatalogWriter& writer) {
  writer.Append(CatalogTable::kDatasets).Int64(1).Varchar("acme/demo").Varchar("1.0.0").EndRow();
}

TEST(CatalogWriterTest, WritesRowsCommitsAndLeavesNoWal) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  CatalogWriter writer = CatalogWriter::Create(
      path, HighWaterMarks{.max_record_id = 2, .max_signal_id = 0, .max_task_id = 0});
  AppendDataset(writer);
  writer.Append(CatalogTable::kClocks).Int64(1).Null().EndRow();
  Appender& records = writer.Append(CatalogTable::kRecords);
  for (int64_t id = 1; id <= 2; ++id) {
    records.Int64(id + 1).Int64(id).Int64(1).Null().Null().Varchar("{}").Int64(id - 1).EndRow();
  }
  writer.Append(CatalogTable::kTasks);  // empty tables may be skipped or opened without rows
  writer.Finish();
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"control.duckdb"});

  Database db = Database::Open(path, AccessMode::kReadOnly);
  Connection connection(db);
  EXPECT_EQ(QueryRows(connection, "SELECT record_key, record_id, read_order FROM records"),
            (std::vector<std::string>{"2|1|0", "3|2|1"}));
  EXPECT_EQ(QueryRows(connection,
                      "SELECT \"value\" FROM control_metadata WHERE \"key\" = "
                      "'max_record_id'"),
            std::vector<std::string>{"2"});
  // A finished catalog passes the reader's first-access checks.
  EXPECT_NO_THROW(CheckCatalog(connection, CatalogIdentity{"acme/demo", "1.0.0", {}}));
}

std::string BlockSizeOf(const std::filesystem::path& path) {
  Database db = Database::Open(path, AccessMode::kReadOnly);
  Connection connection(db);
  return QueryRows(connection, "SELECT block_size FROM pragma_database_size()").at(0);
}

// DECIDE (catalog block size): 16 KiB blocks up to kSmallCatalogObjects records + signals +
// tasks, so an almost empty catalog stays far below DuckDB's 256 KiB-block 4 MB, and 64 KiB
// blocks above; both open read-only.
TEST(CatalogWriterTest, BlockSizeFollowsTheCatalogSize) {
  EXPECT_EQ(CatalogBlockSize(HighWaterMarks{}), 16 * 1024);
  EXPECT_EQ(CatalogBlockSize(HighWaterMarks{.max_record_id = 1'000,
                                            .max_signal_id = 1'000,
                                            .max_task_id = kSmallCatalogObjects - 2'000}),
            16 * 1024);
  EXPECT_EQ(CatalogBlockSize(HighWaterMarks{.max_task_id = kSmallCatalogObjects + 1}), 64 * 1024);

  ScratchDir dir;
  const auto small = dir / "small.duckdb";
  CatalogWriter writer = CatalogWriter::Create(small, HighWaterMarks{});
  AppendDataset(writer);
  writer.Finish();
  EXPECT_LT(std::filesystem::file_size(small), 1024u * 1024u);
  EXPECT_EQ(BlockSizeOf(small), "16384");

  const auto large = dir / "large.duckdb";
  CatalogWriter large_writer =
      CatalogWriter::Create(large, HighWaterMarks{.max_task_id = kSmallCatalogObjects + 1});
  AppendDataset(large_writer);
  large_writer.Finish();
  EXPECT_EQ(BlockSizeOf(large), "65536");
}

TEST(CatalogWriterTest, ManyRowsStayInOneTransactionUntilFinish) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  CatalogWriter writer = CatalogWriter::Create(path, HighWaterMarks{});
  AppendDataset(writer);
  Appender& signals = writer.Append(CatalogTable::kSignals);
  std::vector<std::string> categories = {"a", "b"};
  std::vector<int64_t> shape = {2, 3};
  std::vector<std::string> dims = {"x", "y"};
  for (int64_t i = 1; i <= 10000; ++i) {
    signals.Int64(i).Int64(i).Int64(1).Varchar("s").Int64(1).Varchar("t").Varchar("T");
    signals.Null().Varchar("enum").VarcharList(categories).Int64List(shape).VarcharList(dims);
    signals.Bool(false).Int64(i).Varchar("{}").Varchar("time_series").Null().EndRow();
  }
  // The writer's own connection sees the rows before the commit.
  Result inside =
      writer.Query("SELECT count(*), sum(len(categories))::BIGINT FROM signals", "signals");
  auto chunk = inside.Next();
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->Int64(0).Get(0), 10000);
  EXPECT_EQ(chunk->Int64(1).Get(0), 20000);
  { Result drop = std::move(inside); }  // results must be gone before Finish() closes the file
  writer.Finish();
  Database db = Database::Open(path, AccessMode::kReadOnly);
  Connection connection(db);
  EXPECT_EQ(QueryRows(connection,
                      "SELECT value_shape, dimension_names FROM signals "
                      "WHERE signal_key = 9999"),
            std::vector<std::string>{"[2,3]|[x,y]"});
  EXPECT_FALSE(std::filesystem::exists(WalPath(path)));
}

TEST(CatalogWriterTest, RefusesAnExistingFileAndLeavesIt) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  { std::ofstream(path) << "keep me"; }
  EXPECT_THROW(CatalogWriter::Create(path, HighWaterMarks{}), ValidationError);
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "keep me");
}

TEST(CatalogWriterTest, DestructorWithoutFinishDeletesTheFile) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  {
    CatalogWriter writer = CatalogWriter::Create(path, HighWaterMarks{});
    AppendDataset(writer);
    EXPECT_TRUE(std::filesystem::exists(path));
  }
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{});
}

TEST(CatalogWriterTest, AppendOutOfOrderRaisesAndTheFileGoes) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  {
    CatalogWriter writer = CatalogWriter::Create(path, HighWaterMarks{});
    writer.Append(CatalogTable::kRecords);
    try {
      writer.Append(CatalogTable::kDatasets);
      FAIL() << "appending datasets after records must fail";
    } catch (const Error& e) {
      EXPECT_EQ(e.where(), "datasets");
    }
    EXPECT_THROW(writer.Append(CatalogTable::kControlMetadata), Error);
  }
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{});
}

TEST(CatalogWriterTest, FailingFinishDeletesTheFile) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  CatalogWriter writer = CatalogWriter::Create(path, HighWaterMarks{});
  // A NOT NULL violation surfaces when the appender flushes inside Finish().
  writer.Append(CatalogTable::kDatasets).Int64(1).Null().Varchar("1.0.0").EndRow();
  EXPECT_THROW(writer.Finish(), Error);
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{});
  EXPECT_THROW(writer.Finish(), Error);  // a discarded writer stays discarded
}

TEST(CatalogWriterTest, MidStreamErrorThenDestructionDeletesTheFile) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  try {
    CatalogWriter writer = CatalogWriter::Create(path, HighWaterMarks{});
    AppendDataset(writer);
    writer.Append(CatalogTable::kClocks).Varchar("not a bigint");
    FAIL() << "type mismatch must raise";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("clocks.clock_id"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{});
}

TEST(CatalogWriterTest, MovedWriterOwnsTheFile) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  CatalogWriter a = CatalogWriter::Create(path, HighWaterMarks{});
  CatalogWriter b = std::move(a);
  AppendDataset(b);
  b.Finish();
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(WalPath(path)));
}

}  // namespace
}  // namespace timef::catalog
