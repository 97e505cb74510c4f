// The writer-side audit checks the staged catalog against the manifest that will be published
// (writer::AuditFactsOf): a manifest that disagrees with the catalog in counts, schema or files
// lists is rejected, and the dataset is validated before anything is staged.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "catalog/audit/audit.h"
#include "release_fixture.h"
#include "timef/error.h"
#include "timef/writer.h"
#include "writer/audit_facts.h"

namespace timef {
namespace {
namespace fs = std::filesystem;

class AuditManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteOptions options;
    options.compression_level = 3;
    written_ = testing::WriteFixture(options);
  }
  fs::path Control() const {
    return written_->result.release_dir / written_->result.manifest.files.control.path;
  }
  // The audit of the published catalog against the published manifest changed by `change`.
  void Audit(const std::function<void(manifest::Manifest&)>& change) const {
    manifest::Manifest m = written_->result.manifest;
    change(m);
    catalog::Audit(Control(), writer::AuditFactsOf(m));
  }

  std::unique_ptr<testing::WrittenFixture> written_;
};

TEST_F(AuditManifestTest, PublishedManifestAgreesWithItsCatalog) {
  EXPECT_NO_THROW(Audit([](manifest::Manifest&) {}));
}

TEST_F(AuditManifestTest, CountsThatDisagreeAreRejected) {
  EXPECT_THROW(Audit([](manifest::Manifest& m) { ++m.counts.records; }), catalog::AuditError);
  EXPECT_THROW(Audit([](manifest::Manifest& m) { ++m.counts.signal_chunks; }), catalog::AuditError);
  EXPECT_THROW(Audit([](manifest::Manifest& m) { m.counts.tasks.clear(); }), catalog::AuditError);
}

TEST_F(AuditManifestTest, SchemaThatDisagreesIsRejected) {
  EXPECT_THROW(Audit([](manifest::Manifest& m) { m.schema.time_series_specs[0].name += "x"; }),
               catalog::AuditError);
  EXPECT_THROW(Audit([](manifest::Manifest& m) { m.schema.annotations.pop_back(); }),
               catalog::AuditError);
  EXPECT_THROW(Audit([](manifest::Manifest& m) { m.schema.tasks.pop_back(); }),
               catalog::AuditError);
}

TEST_F(AuditManifestTest, FilesListsThatDisagreeAreRejected) {
  EXPECT_THROW(Audit([](manifest::Manifest& m) { m.files.time_series.pop_back(); }),
               catalog::AuditError);
  EXPECT_THROW(Audit([](manifest::Manifest& m) { m.files.payloads.clear(); }), catalog::AuditError);
}

TEST(WriterValidationTest, InvalidDatasetFailsBeforeTheDiskIsTouched) {
  testing::TempDir root;
  testing::Fixture f = testing::MakeFixture();
  f.answer->AddInput(std::make_shared<model::Record>());  // not in the dataset
  WriteOptions options;
  options.compression_level = 3;
  EXPECT_THROW(WriteRelease(*f.dataset, testing::FixtureCard(), root.path(), options),
               ValidationError);
  EXPECT_FALSE(fs::exists(root.path() / f.dataset->dataset_id()));
}

}  // namespace
}  // namespace timef
