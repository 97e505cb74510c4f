// CatalogReader: lazy read-only opens, the first-access checks of FORMAT.md §6.1 on corrupted
// catalogs (each test breaks one thing of a valid catalog), and byte-for-byte unchanged files.
#include "catalog/catalog_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "catalog/write/catalog_writer.h"
#include "catalog_test_util.h"
#include "core/checksum.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using testing::MakeValidCatalog;
using testing::QueryRows;
using testing::RunSql;
using testing::ScratchDir;
using testing::ValidIdentity;

class CatalogReaderTest : public ::testing::Test {
 protected:
  void SetUp() override { MakeValidCatalog(path_); }

  // Opens a reader with `identity` and returns the FormatError of its first lease.
  FormatError FirstLeaseError(const CatalogIdentity& identity = ValidIdentity()) {
    CatalogReader reader(path_, identity);
    try {
      reader.Lease();
    } catch (const FileError& e) {
      ADD_FAILURE() << "unexpected FileError: " << e.what();
      throw;
    } catch (const FormatError& e) {
      EXPECT_FALSE(reader.is_open());
      return e;
    }
    ADD_FAILURE() << "the first lease did not fail";
    return FormatError("no error");
  }

  void Break(const std::string& sql) { RunSql(path_, {sql}); }

  ScratchDir dir_;
  std::filesystem::path path_ = dir_ / "control.duckdb";
};

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(CatalogReaderTest, ValidCatalogOpensLazilyAndReads) {
  CatalogReader reader(path_, ValidIdentity());
  EXPECT_FALSE(reader.is_open());
  CatalogLease lease = reader.Lease();
  EXPECT_TRUE(reader.is_open());
  EXPECT_EQ(QueryRows(lease.connection(), "SELECT record_id FROM records ORDER BY read_order"),
            (std::vector<std::string>{"1", "2", "3"}));
  PreparedStatement statement = lease.Prepare(
      "SELECT signal_id FROM signal_refs WHERE record_key = $1 ORDER BY 1", "signals");
  statement.BindInt64(1, 2);
  Result result = statement.Execute();
  auto chunk = result.Next();
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->size(), 2u);
}

TEST_F(CatalogReaderTest, ReadingLeavesTheFileUnchangedAndCreatesNoWal) {
  const std::string before = FileChecksum(path_);
  {
    CatalogReader reader(path_, ValidIdentity());
    for (int round = 0; round < 3; ++round) {
      CatalogLease lease = reader.Lease();
      QueryRows(lease.connection(), "SELECT * FROM annotation_refs");
      QueryRows(lease.connection(), "SELECT * FROM tasks");
      EXPECT_FALSE(std::filesystem::exists(WalPath(path_)));
      reader.Close();
    }
  }
  EXPECT_EQ(FileChecksum(path_), before);
  std::vector<std::string> entries;
  for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
    entries.push_back(e.path().filename().string());
  }
  EXPECT_EQ(entries, std::vector<std::string>{"control.duckdb"});
}

TEST_F(CatalogReaderTest, CloseThenLeaseReopens) {
  CatalogReader reader(path_, ValidIdentity());
  { CatalogLease lease = reader.Lease(); }
  reader.Close();
  EXPECT_FALSE(reader.is_open());
  CatalogLease lease = reader.Lease();
  EXPECT_EQ(QueryRows(lease.connection(), "SELECT count(*) FROM signals"),
            std::vector<std::string>{"4"});
}

TEST_F(CatalogReaderTest, LeaseFromClosedGenerationRaisesReaderError) {
  CatalogReader reader(path_, ValidIdentity());
  CatalogLease old = reader.Lease();
  Result pending = old.Query("SELECT record_id FROM records", "records");
  reader.Close();
  EXPECT_THROW(pending.Next(), ReaderError);
  EXPECT_THROW(old.Query("SELECT 1", "records"), ReaderError);
  // A new lease opens a new connection while the old one is still referenced.
  CatalogLease fresh = reader.Lease();
  EXPECT_EQ(QueryRows(fresh.connection(), "SELECT count(*) FROM records"),
            std::vector<std::string>{"3"});
}

TEST_F(CatalogReaderTest, WrongSchemaVersionNamesFoundAndSupported) {
  Break("UPDATE control_metadata SET \"value\" = '2' WHERE \"key\" = 'schema_version'");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "control_metadata.schema_version");
  EXPECT_TRUE(Contains(e.what(), "'2'")) << e.what();
  EXPECT_TRUE(Contains(e.what(), "supported: 1")) << e.what();
}

TEST_F(CatalogReaderTest, MissingSchemaVersion) {
  Break("DELETE FROM control_metadata WHERE \"key\" = 'schema_version'");
  EXPECT_EQ(FirstLeaseError().where(), "control_metadata.schema_version");
}

TEST_F(CatalogReaderTest, NewerSchemaIsRejectedBeforeItsTablesAreChecked) {
  // A future version may have other tables: the version message wins over a missing table.
  Break(
      "UPDATE control_metadata SET \"value\" = '7' WHERE \"key\" = 'schema_version'; "
      "DROP VIEW signal_refs; DROP TABLE signals");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "control_metadata.schema_version");
  EXPECT_TRUE(Contains(e.what(), "'7'")) << e.what();
}

TEST_F(CatalogReaderTest, MissingTableNamesTable) {
  Break("DROP TABLE task_dependencies");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "task_dependencies");
  EXPECT_TRUE(Contains(e.what(), "table missing")) << e.what();
}

TEST_F(CatalogReaderTest, MissingColumnNamesTableAndColumn) {
  Break("ALTER TABLE signal_chunks DROP COLUMN chunk_minor_index");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "signal_chunks.chunk_minor_index");
  EXPECT_TRUE(Contains(e.what(), "column missing")) << e.what();
}

TEST_F(CatalogReaderTest, WrongTypeNamesExpectedAndFound) {
  Break("ALTER TABLE records ALTER COLUMN metadata TYPE VARCHAR");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "records.metadata");
  EXPECT_TRUE(Contains(e.what(), "expected type JSON, found VARCHAR")) << e.what();
}

TEST_F(CatalogReaderTest, WrongListTypeNamesColumn) {
  Break("ALTER TABLE tasks ALTER COLUMN scope_signal_keys TYPE INTEGER[]");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "tasks.scope_signal_keys");
  EXPECT_TRUE(Contains(e.what(), "found INTEGER[]")) << e.what();
}

TEST_F(CatalogReaderTest, MissingViewNamesView) {
  Break("DROP VIEW import_refs");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "import_refs");
  EXPECT_TRUE(Contains(e.what(), "view missing")) << e.what();
}

TEST_F(CatalogReaderTest, DatasetMismatchNamesBoth) {
  CatalogIdentity other = ValidIdentity();
  other.dataset_version = "1.0.1";
  FormatError e = FirstLeaseError(other);
  EXPECT_EQ(e.where(), "datasets");
  EXPECT_TRUE(Contains(e.what(), "acme/demo@1.0.0")) << e.what();
  EXPECT_TRUE(Contains(e.what(), "acme/demo@1.0.1")) << e.what();
}

TEST_F(CatalogReaderTest, DatasetsMustHoldExactlyOneRow) {
  Break("INSERT INTO datasets VALUES (99, 'acme/demo', '1.0.0')");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "datasets");
  EXPECT_TRUE(Contains(e.what(), "found 2")) << e.what();
}

TEST_F(CatalogReaderTest, ParentsMustEqualTheManifestInOrder) {
  CatalogIdentity none = ValidIdentity();
  none.parents.clear();
  EXPECT_EQ(FirstLeaseError(none).where(), "dataset_parents");

  CatalogIdentity other = ValidIdentity();
  other.parents[0].version = "2.0.0";
  FormatError e = FirstLeaseError(other);
  EXPECT_EQ(e.where(), "dataset_parents");
  EXPECT_TRUE(Contains(e.what(), "base=acme/base@1.0.0")) << e.what();
  EXPECT_TRUE(Contains(e.what(), "base=acme/base@2.0.0")) << e.what();

  Break("INSERT INTO dataset_parents VALUES ('extra', 'acme/x', '0.1.0', 1)");
  CatalogIdentity two = ValidIdentity();
  two.parents.push_back(model::ParentRelease{"extra", "acme/x", "0.1.0"});
  {
    CatalogReader reader(path_, two);
    EXPECT_NO_THROW(reader.Lease());
  }
  std::swap(two.parents[0], two.parents[1]);
  EXPECT_EQ(FirstLeaseError(two).where(), "dataset_parents");
}

TEST_F(CatalogReaderTest, ParentPositionsMustBeContiguous) {
  Break("UPDATE dataset_parents SET position = 3");
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "dataset_parents.position");
}

TEST_F(CatalogReaderTest, ForeignDuckDBFileIsNotATimeFCatalog) {
  std::filesystem::remove(path_);
  RunSql(path_, {"CREATE TABLE measurements (id BIGINT, value DOUBLE)",
                 "INSERT INTO measurements VALUES (1, 2.0)"});
  FormatError e = FirstLeaseError();
  EXPECT_EQ(e.where(), "control_metadata");
  EXPECT_TRUE(Contains(e.what(), "not a TimeF catalog")) << e.what();
  ASSERT_TRUE(e.path().has_value());
  EXPECT_EQ(*e.path(), path_);
}

TEST_F(CatalogReaderTest, NonDuckDBFileNamesTheFile) {
  std::filesystem::remove(path_);
  { std::ofstream(path_) << "{\"not\": \"a database\"}"; }
  FormatError e = FirstLeaseError();
  ASSERT_TRUE(e.path().has_value());
  EXPECT_EQ(*e.path(), path_);
  EXPECT_TRUE(Contains(e.what(), "not a DuckDB database")) << e.what();
}

TEST_F(CatalogReaderTest, MissingFileIsFileError) {
  std::filesystem::remove(path_);
  CatalogReader reader(path_, ValidIdentity());
  try {
    reader.Lease();
    FAIL();
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::make_error_code(std::errc::no_such_file_or_directory));
  }
}

TEST_F(CatalogReaderTest, FailedCheckClosesAndTheNextLeaseChecksAgain) {
  Break("UPDATE datasets SET dataset_version = '9.9.9'");
  CatalogReader reader(path_, ValidIdentity());
  EXPECT_THROW(reader.Lease(), FormatError);
  EXPECT_FALSE(reader.is_open());
  // The failed open released the file: a writer can fix it, and the reader checks again.
  Break("UPDATE datasets SET dataset_version = '1.0.0'");
  CatalogLease lease = reader.Lease();
  EXPECT_EQ(QueryRows(lease.connection(), "SELECT dataset_version FROM datasets"),
            std::vector<std::string>{"1.0.0"});
}

TEST_F(CatalogReaderTest, MissingTableQueriedLaterIsFormatError) {
  // The checks passed; a query naming a table outside the schema still reports a format problem.
  CatalogReader reader(path_, ValidIdentity());
  CatalogLease lease = reader.Lease();
  EXPECT_THROW(lease.Query("SELECT * FROM no_such_table", "no_such_table"), FormatError);
}

}  // namespace
}  // namespace timef::catalog
