// A release is data from whoever published it (issue 31, item 5): files the manifest does not list,
// a crafted catalog, special files and links, files that change under a reader, absurd arguments.
// Every case is a typed error or a correct read, never a changed read, a crash or a hang.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "catalog/catalog_schema.h"
#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "core/checksum.h"
#include "core/release_files.h"
#include "release_fixture.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {
namespace fs = std::filesystem;

class HostileReleaseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { written_ = testing::WriteFixture(); }
  static void TearDownTestSuite() { written_.reset(); }

  // A private copy of the fixture's release, which the test may damage.
  void SetUp() override { FreshCopy(); }
  void FreshCopy() {
    release_ = scratch_.path() / "release";
    fs::remove_all(release_);
    fs::copy(written_->result.release_dir, release_, fs::copy_options::recursive);
  }

  fs::path Catalog() const { return release_ / "control.duckdb"; }
  static std::int64_t SomeSignalId() { return *written_->fixture.lead->id(); }

  // Runs `sql` on a copy of the catalog without checkpointing and returns the write-ahead log
  // DuckDB leaves: a WAL that this release's catalog would replay.
  fs::path MakeWal(const std::string& sql) const {
    const fs::path copy = scratch_.path() / "wal-source.duckdb";
    fs::copy_file(Catalog(), copy);
    {
      catalog::Database db = catalog::Database::Open(copy, catalog::AccessMode::kReadWrite);
      catalog::Connection connection(db);
      connection.Execute("SET checkpoint_threshold = '1TB'", "test");
      connection.Execute("PRAGMA disable_checkpoint_on_shutdown", "test");
      connection.Execute(sql, "test");
    }
    const fs::path wal = fs::path(copy.string() + ".wal");
    EXPECT_TRUE(fs::exists(wal)) << "DuckDB left no WAL for the test";
    return wal;
  }

  // Runs `sql` on the release's catalog, then lists the catalog's new size and checksum in
  // manifest.json, as a hostile publisher would: every listed byte matches again.
  void RewriteCatalog(const std::string& sql) const {
    {
      catalog::Database db = catalog::Database::Open(Catalog(), catalog::AccessMode::kReadWrite);
      catalog::Connection connection(db);
      connection.Execute(sql, "test");
    }
    ASSERT_FALSE(fs::exists(Catalog().string() + ".wal"));
    const fs::path manifest_file = release_ / manifest::kManifestFileName;
    manifest::Manifest m = manifest::ReadManifest(manifest_file);
    m.files.control.size = static_cast<std::int64_t>(fs::file_size(Catalog()));
    m.files.control.checksum = FileChecksum(Catalog());
    std::ofstream(manifest_file, std::ios::binary | std::ios::trunc) << manifest::WriteManifest(m);
  }

  // Opens the release and makes its first catalog request; returns the FormatError it raised.
  std::string FirstCatalogError() const {
    Reader reader = Reader::Open(release_);
    EXPECT_NO_THROW(reader.Verify());  // every listed byte matches the manifest
    try {
      const std::string name = reader.GetSignal(SomeSignalId())->name();
      ADD_FAILURE() << "the catalog was read; the signal reads as " << name;
    } catch (const FormatError& e) {
      return e.what();
    }
    return "";
  }

  static inline std::unique_ptr<testing::WrittenFixture> written_;
  testing::TempDir scratch_;
  fs::path release_;
};

std::string RunCommand(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed");
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  *status = ::pclose(pipe);
  return out;
}

// (a) A WAL that renames a signal: today DuckDB replayed it and the read returned the new name
// while verify said ok. The reader refuses the release at open and names the file.
TEST_F(HostileReleaseTest, UnlistedWalBesideTheCatalogIsRefused) {
  const fs::path wal = MakeWal("UPDATE signals SET name = 'altered' WHERE signal_id = " +
                               std::to_string(SomeSignalId()));
  fs::copy_file(wal, release_ / "control.duckdb.wal");
  try {
    Reader reader = Reader::Open(release_);
    FAIL() << "opened; the signal reads as " << reader.GetSignal(SomeSignalId())->name();
  } catch (const FileError& e) {
    FAIL() << "a FileError, expected a FormatError: " << e.what();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("control.duckdb.wal"), std::string::npos) << e.what();
  }
  // The catalog layer refuses it as well, for every opener (CLI tables, audit, derive).
  EXPECT_THROW(catalog::Database::Open(Catalog(), catalog::AccessMode::kReadOnly), FormatError);
  int status = 0;
  const std::string out =
      RunCommand(std::string(TIMEF_CLI) + " verify " + release_.string(), &status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  EXPECT_NE(out.find("control.duckdb.wal"), std::string::npos) << out;
}

// Any other unlisted file (§3.1) is refused the same way, and one that appears after open is
// reported by verify.
TEST_F(HostileReleaseTest, UnlistedFilesAreRefusedAtOpenAndByVerify) {
  std::ofstream(release_ / "time_series" / "part-99999999.parquet") << "x";
  EXPECT_THROW(Reader::Open(release_), FormatError);
  fs::remove(release_ / "time_series" / "part-99999999.parquet");
  Reader reader = Reader::Open(release_);
  EXPECT_NO_THROW(reader.Verify());
  fs::create_symlink("/etc/hostname", release_ / "notes.txt");
  try {
    reader.Verify();
    FAIL() << "verify passed with an unlisted link";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
  }
}

// (b) A table replaced by a view that rewrites its rows: today the view's SQL ran at query time and
// the read returned its rows. The first catalog access refuses any table, view or macro that is not
// exactly the one docs/format.md defines.
TEST_F(HostileReleaseTest, TableReplacedByAViewIsRefused) {
  std::string signal_refs;
  for (const catalog::ViewSpec& view : catalog::CatalogViews()) {
    if (view.name == "signal_refs") signal_refs = std::string(view.select);
  }
  RewriteCatalog(
      "CREATE TABLE signals_data AS SELECT * FROM signals; DROP VIEW signal_refs; "
      "DROP TABLE signals; "
      "CREATE VIEW signals AS SELECT * REPLACE ('altered' AS name) FROM signals_data; "
      "CREATE VIEW signal_refs AS " +
      signal_refs);
  const std::string error = FirstCatalogError();
  EXPECT_NE(error.find("signals"), std::string::npos) << error;
}

TEST_F(HostileReleaseTest, ExtraViewsAndMacrosAreRefused) {
  RewriteCatalog("CREATE VIEW spin AS SELECT count(*) AS n FROM range(1000000000000)");
  std::string error = FirstCatalogError();
  EXPECT_NE(error.find("spin"), std::string::npos) << error;

  FreshCopy();
  RewriteCatalog("CREATE MACRO grow(n) AS repeat('x', n)");
  error = FirstCatalogError();
  EXPECT_NE(error.find("grow"), std::string::npos) << error;

  FreshCopy();
  RewriteCatalog("CREATE MACRO rows_of(n) AS TABLE SELECT * FROM range(n)");
  error = FirstCatalogError();
  EXPECT_NE(error.find("rows_of"), std::string::npos) << error;
}

// A view's definition is compared too: one named like a §6.8 view but with other SQL is refused.
TEST_F(HostileReleaseTest, ViewWithAnotherDefinitionIsRefused) {
  RewriteCatalog(
      "CREATE OR REPLACE VIEW signal_refs AS SELECT s.signal_key, s.signal_id, src.record_key "
      "FROM signals s JOIN sources src ON src.source_key = s.source_key, range(2)");
  const std::string error = FirstCatalogError();
  EXPECT_NE(error.find("signal_refs"), std::string::npos) << error;
}

// Read-only opens carry a memory limit (docs/format.md §6.12).
TEST_F(HostileReleaseTest, ReadOnlyCatalogHasAMemoryLimit) {
  catalog::Database db = catalog::Database::Open(Catalog(), catalog::AccessMode::kReadOnly);
  catalog::Connection connection(db);
  catalog::Result result =
      connection.Query("SELECT current_setting('memory_limit')", "memory_limit");
  auto chunk = result.Next();
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->Varchar(0).Get(0), "1.0 GiB");
}

// (c) manifest.json that is /dev/zero, a FIFO or huge: today `info`, `manifest validate` and the
// reader read /dev/zero without bound and waited on a FIFO forever. A manifest must be a regular
// file, not a link, of at most kMaxManifestBytes.
TEST_F(HostileReleaseTest, ManifestMustBeABoundedRegularFile) {
  const fs::path manifest_file = release_ / manifest::kManifestFileName;
  auto expect_refused = [&](std::string_view what, std::string_view words) {
    try {
      Reader::Open(release_);
      ADD_FAILURE() << what << ": opened";
    } catch (const FileError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << what << ": " << e.what();
    }
    int status = 0;
    for (const char* command : {" info ", " manifest validate "}) {
      const std::string target =
          std::string(command) == " info " ? release_.string() : manifest_file.string();
      const std::string out =
          RunCommand("timeout 20 " + std::string(TIMEF_CLI) + command + target, &status);
      EXPECT_EQ(WEXITSTATUS(status), 1) << what << command << out;
      EXPECT_NE(out.find(words), std::string::npos) << what << command << out;
    }
  };
  std::string bytes;
  {
    std::ifstream in(manifest_file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }

  fs::remove(manifest_file);
  fs::create_symlink("/dev/zero", manifest_file);
  expect_refused("/dev/zero", "symbolic link");

  fs::remove(manifest_file);
  ASSERT_EQ(::mkfifo(manifest_file.c_str(), 0600), 0);
  expect_refused("FIFO", "not a regular file (a FIFO)");

  // A listed-looking manifest of kMaxManifestBytes + 1 bytes (JSON whitespace after the object).
  fs::remove(manifest_file);
  {
    std::ofstream out(manifest_file, std::ios::binary);
    out << bytes;
  }
  fs::resize_file(manifest_file, static_cast<std::uintmax_t>(kMaxManifestBytes) + 1);
  expect_refused("huge", "a reader accepts");

  // A symbolic link to the genuine manifest inside the release is refused too: release files are
  // regular files.
  fs::remove(manifest_file);
  std::ofstream(release_ / "real.json", std::ios::binary) << bytes;
  fs::create_symlink("real.json", manifest_file);
  EXPECT_THROW(Reader::Open(release_), FileError);
}

// (d) A shard that is a link to a host file: today verify hashed /etc/passwd and printed its size
// and sha256. Open refuses the link; no message shows the target's size or hash.
TEST_F(HostileReleaseTest, ListedFileThatIsALinkIsRefusedWithoutShowingTheTarget) {
  const manifest::FilePart& shard = written_->result.manifest.files.time_series.at(0);
  const fs::path file = release_ / shard.path;
  const fs::path host = scratch_.path() / "host-secret";
  std::ofstream(host) << "secret host file";
  const std::string host_sum = FileChecksum(host);
  fs::remove(file);
  fs::create_symlink(host, file);
  auto check = [&](const std::string& message) {
    EXPECT_NE(message.find(shard.path), std::string::npos) << message;
    EXPECT_NE(message.find("symbolic link"), std::string::npos) << message;
    EXPECT_EQ(message.find(host_sum), std::string::npos) << message;
    EXPECT_EQ(message.find("found 16"), std::string::npos) << message;  // the host file's size
  };
  try {
    Reader::Open(release_);
    ADD_FAILURE() << "opened a release whose shard is a link";
  } catch (const FileError& e) {
    check(e.what());
  }
  int status = 0;
  const std::string out =
      RunCommand(std::string(TIMEF_CLI) + " verify " + release_.string(), &status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  check(out);

  // A link of the right size (to a copy of the shard itself) is refused as well.
  fs::remove(file);
  fs::copy_file(written_->result.release_dir / shard.path, host,
                fs::copy_options::overwrite_existing);
  fs::create_symlink(host, file);
  EXPECT_THROW(Reader::Open(release_), FileError);
  // And so is a directory of the release replaced by a link (an unlisted entry, §3.1).
  fs::remove(file);
  fs::rename(release_ / "time_series", scratch_.path() / "elsewhere");
  fs::create_symlink(scratch_.path() / "elsewhere", release_ / "time_series");
  EXPECT_THROW(Reader::Open(release_), FormatError);
}

// (e) Shards truncated under an open reader: today the next read of a mapped page killed the
// process with SIGBUS. Now the read raises a FileError naming the shard.
TEST_F(HostileReleaseTest, ShardTruncatedUnderAnOpenReaderIsAFileError) {
  Reader reader = Reader::Open(release_);
  std::vector<std::int64_t> ids;
  for (std::int64_t id : reader.SignalIds()) {
    if (reader.GetSignal(id)->has_values()) ids.push_back(id);
  }
  ASSERT_FALSE(ids.empty());
  // Every shard is mapped now.
  for (std::int64_t id : ids) (void)reader.GetSignal(id)->LoadValues();
  for (const manifest::FilePart& shard : written_->result.manifest.files.time_series) {
    fs::resize_file(release_ / shard.path, static_cast<std::uintmax_t>(shard.size) / 3);
  }
  int errors = 0;
  for (std::int64_t id : ids) {
    try {
      (void)reader.GetSignal(id)->LoadValues();
    } catch (const FileError& e) {
      ++errors;
      EXPECT_NE(std::string(e.what()).find("time_series/"), std::string::npos) << e.what();
    }
  }
  EXPECT_GT(errors, 0);
}

// Decompression bombs (issue 31, item 5): eight shards, each one page of a million float32 zeros,
// some hundred bytes of zstd that declare 4 MiB decoded. Decoded buffers come out of one budget
// per reader (ReaderOptions::decode_budget_bytes): a page that does not fit is a FormatError naming
// its shard, and open shards do not keep their large buffers between reads.
class DecodeBombTest : public ::testing::Test {
 protected:
  static constexpr std::int64_t kSteps = std::int64_t{1} << 20;
  static constexpr std::uint64_t kPageBytes = kSteps * sizeof(float);
  static constexpr int kShards = 8;

  static void SetUpTestSuite() {
    root_ = std::make_unique<testing::TempDir>();
    auto dataset = std::make_shared<model::Dataset>("test/bombs", "1.0.0");
    auto spec = model::Spec::Make({.spec_type = "zeros", .name = "Zeros", .unit = "mV"});
    for (int r = 0; r < kShards; ++r) {
      auto record = dataset->AddRecord();
      record->AddSource("device")->AddSignal(
          std::make_shared<model::Signal>("zeros", spec, model::TimeAxis::RegularFromRate(500),
                                          model::ValueArray::Of(std::vector<float>(kSteps, 0.0f))));
    }
    WriteOptions options;
    options.compression_level = 1;
    options.chunk_max_bytes = std::int64_t{64} << 20;
    options.row_group_target_bytes = 1;  // a row group per signal
    options.data_page_target_bytes = std::int64_t{64} << 20;
    options.value_encoding = manifest::ValueEncodingChoice::kPlain;  // no dictionary of one zero
    options.shard_target_bytes = 1;  // one row group, so one signal, per shard
    WriteOptions zarr;
    zarr.values_backend = manifest::ValuesBackend::kZarr;  // inner chunks of 1 MiB
    zarr_release_ =
        WriteReleaseTo(*dataset, testing::FixtureCard(), root_->path() / "zarr", zarr).release_dir;
    const WriteResult written =
        WriteRelease(*dataset, testing::FixtureCard(), root_->path(), options);
    release_ = written.release_dir;
    ASSERT_EQ(written.manifest.files.time_series.size(), static_cast<std::size_t>(kShards));
    for (const auto& part : written.manifest.files.time_series) {
      ASSERT_LT(part.size, 64 * 1024) << part.path << " is not a bomb";
    }
  }
  static void TearDownTestSuite() { root_.reset(); }

  static Reader Open(std::int64_t budget, int threads = 1, bool zarr = false) {
    ReaderOptions options;
    options.decode_budget_bytes = budget;
    options.decode_threads = threads;
    return Reader::Open(zarr ? zarr_release_ : release_, options);
  }

  static inline std::unique_ptr<testing::TempDir> root_;
  static inline fs::path release_;
  static inline fs::path zarr_release_;
};

TEST_F(DecodeBombTest, DefaultBudgetIsDocumented) {
  EXPECT_EQ(ReaderOptions{}.decode_budget_bytes, std::int64_t{256} << 20);
  EXPECT_THROW(Open(0), ValidationError);
}

TEST_F(DecodeBombTest, APageBeyondTheBudgetIsAFormatErrorNamingTheShard) {
  Reader reader = Open(static_cast<std::int64_t>(kPageBytes / 2));
  const std::int64_t id = reader.SignalIds().front();
  try {
    reader.GetSignalValues(id).LoadValues();
    ADD_FAILURE() << "a page larger than the budget was decoded";
  } catch (const FormatError& e) {
    const std::string message = e.what();
    ASSERT_TRUE(e.path().has_value()) << message;
    EXPECT_EQ(e.path()->parent_path().filename(), "time_series") << message;
    EXPECT_NE(message.find("decode budget"), std::string::npos) << message;
    EXPECT_NE(message.find("at most " + std::to_string(kPageBytes / 2)), std::string::npos)
        << message;
  }
  EXPECT_LE(reader.counters().decode_budget_peak, kPageBytes / 2);
}

// Each shard's page fits, but not two of them at once: every shard is opened and kept open, and
// none keeps its page buffer after its read (they held kShards × 4 MiB before).
TEST_F(DecodeBombTest, OpenShardsDoNotHoldTheirPagesBetweenReads) {
  const std::uint64_t budget = kPageBytes + kPageBytes / 2;
  for (int threads : {1, 2}) {
    Reader reader = Open(static_cast<std::int64_t>(threads * budget), threads);
    const std::vector<std::int64_t> ids = reader.SignalIds();
    ASSERT_EQ(ids.size(), static_cast<std::size_t>(kShards));
    for (std::int64_t id : ids) {
      const auto values = reader.GetSignalValues(id).LoadValues();
      ASSERT_EQ(values->size(), kSteps);
      EXPECT_EQ(values->values<float>()[kSteps - 1], 0.0f);
    }
    const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
    for (const auto& values : reader.LoadValues(refs)) ASSERT_EQ(values->size(), kSteps);
    const ReaderCounters counters = reader.counters();
    EXPECT_GE(counters.values_files_opened, static_cast<std::uint64_t>(kShards));
    EXPECT_GE(counters.decode_budget_peak, kPageBytes);
    EXPECT_LE(counters.decode_budget_peak, threads * budget);
  }
}

// The Zarr reader keeps up to 16 decoded inner chunks per array; they come out of the same budget:
// kept chunks are dropped to make room, and a chunk larger than the budget is refused naming the
// array's zarr.json.
TEST_F(DecodeBombTest, ZarrChunksComeOutOfTheSameBudget) {
  constexpr std::uint64_t kChunkBytes = std::uint64_t{1} << 20;  // WriteOptions::chunk_max_bytes
  {
    Reader reader = Open(static_cast<std::int64_t>(kChunkBytes + kChunkBytes / 2), 1, true);
    for (std::int64_t id : reader.SignalIds()) {
      const auto values = reader.GetSignalValues(id).LoadValues();
      ASSERT_EQ(values->size(), kSteps);
      EXPECT_EQ(values->values<float>()[kSteps / 2], 0.0f);
    }
    EXPECT_GE(reader.counters().decode_budget_peak, kChunkBytes);
    EXPECT_LE(reader.counters().decode_budget_peak, kChunkBytes + kChunkBytes / 2);
  }
  Reader reader = Open(static_cast<std::int64_t>(kChunkBytes / 2), 1, true);
  try {
    reader.GetSignalValues(reader.SignalIds().front()).LoadValues();
    ADD_FAILURE() << "a Zarr chunk larger than the budget was decoded";
  } catch (const FormatError& e) {
    ASSERT_TRUE(e.path().has_value()) << e.what();
    EXPECT_EQ(e.path()->filename(), "zarr.json") << e.what();
    EXPECT_NE(std::string(e.what()).find("decode budget"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace timef
