// Reading manifests from disk, and gathering every problem of a bad one.
#include <gtest/gtest.h>

#include <fstream>

#include "manifest/manifest_fixtures.h"
#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

std::filesystem::path ScratchDir() {
  std::filesystem::path dir = testing::ProducedManifestDir().parent_path() / "manifest-scratch";
  std::filesystem::create_directories(dir);
  return dir;
}

void WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(ReadManifestTest, MissingFileIsFileErrorWithCode) {
  std::filesystem::path path = ScratchDir() / "no-such" / "manifest.json";
  try {
    ReadManifest(path);
    FAIL() << "read a missing file";
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::make_error_code(std::errc::no_such_file_or_directory));
    EXPECT_EQ(e.path(), path);
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
  }
}

TEST(ReadManifestTest, ReadsAGoodFile) {
  std::filesystem::path path = ScratchDir() / "good.json";
  Manifest full = testing::FullManifest();
  WriteFile(path, WriteManifest(full));
  EXPECT_EQ(ReadManifest(path), full);
}

TEST(ReadManifestTest, BadFileErrorNamesTheFileAndPointer) {
  std::filesystem::path path = ScratchDir() / "bad.json";
  Json doc = Json::parse(WriteManifest(testing::MinimalManifest()));
  doc["counts"]["records"] = true;
  WriteFile(path, doc.dump());
  try {
    ReadManifest(path);
    FAIL() << "accepted";
  } catch (const ManifestError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(e.where(), "/counts/records");
    EXPECT_EQ(std::string(e.what()),
              path.string() + ": /counts/records: expected an integer, got boolean");
  }
}

TEST(ReadManifestTest, DirectoryIsFileError) {
  EXPECT_THROW(ReadManifest(ScratchDir()), FileError);
}

TEST(CheckManifestTest, GathersEveryShapeProblem) {
  Json doc = Json::parse(WriteManifest(testing::FullManifest()));
  doc["extra"] = 1;
  doc["schema"] = nullptr;
  doc["metadata"]["license"] = "WTFPL";
  doc["files"]["payloads"][1]["size"] = -1.5;
  ManifestCheck check = CheckManifest(doc.dump());
  EXPECT_FALSE(check.manifest.has_value());
  std::vector<std::string> pointers;
  for (const auto& problem : check.problems) pointers.push_back(problem.pointer);
  EXPECT_EQ(pointers, (std::vector<std::string>{"/extra", "/metadata/license", "/schema",
                                                "/files/payloads/1/size"}));
  // The thrown error is the first, and says how many more there are.
  try {
    ParseManifest(doc.dump(), "m.json");
    FAIL();
  } catch (const ManifestError& e) {
    EXPECT_EQ(e.where(), "/extra");
    EXPECT_NE(std::string(e.what()).find("(and 3 more problems)"), std::string::npos) << e.what();
  }
}

TEST(CheckManifestTest, GathersEveryRuleProblemAndKeepsTheirKinds) {
  Manifest bad = testing::FullManifest();
  bad.files.time_series[0].path = "../x";
  bad.files.control.checksum = "nope";
  bad.metadata.license_url.reset();
  Json doc = Json::parse(WriteManifest(testing::FullManifest()));
  doc["files"]["time_series"][0]["path"] = "../x";
  doc["files"]["control"]["checksum"] = "nope";
  doc["metadata"]["license_url"] = nullptr;
  ManifestCheck check = CheckManifest(doc.dump());
  ASSERT_EQ(check.problems.size(), 3u);
  EXPECT_EQ(check.problems[0].pointer, "/metadata/license_url");
  EXPECT_EQ(check.problems[0].kind, ManifestProblem::Kind::kManifest);
  EXPECT_EQ(check.problems[1].pointer, "/files/control/checksum");
  EXPECT_EQ(check.problems[2].pointer, "/files/time_series/0/path");
  EXPECT_EQ(check.problems[2].kind, ManifestProblem::Kind::kPath);
  // The model check finds the same three.
  EXPECT_EQ(ValidateManifest(bad).size(), 3u);
}

TEST(CheckManifestTest, OtherFormatVersionIsTheOnlyProblemReported) {
  // A newer manifest may have other keys; it is rejected for its version, not for its shape.
  Json doc = Json::parse(WriteManifest(testing::MinimalManifest()));
  doc["timef_format_version"] = 2;
  doc["new_block"] = Json::object();
  doc.erase("files");
  ManifestCheck check = CheckManifest(doc.dump());
  ASSERT_EQ(check.problems.size(), 1u);
  EXPECT_EQ(check.problems[0].pointer, "/timef_format_version");
  EXPECT_EQ(check.problems[0].message, "unsupported format version 2 (this reader supports 1)");
}

TEST(CheckManifestTest, PointerTokensAreEscaped) {
  Json doc = Json::parse(WriteManifest(testing::FullManifest()));
  doc["value_encoding"]["a/b~c"] = "plain";
  try {
    ParseManifest(doc.dump());
    FAIL();
  } catch (const ManifestError& e) {
    EXPECT_EQ(e.where(), "/value_encoding/a~1b~0c");
  }
}

TEST(CheckManifestTest, GoodBytesGiveAManifestAndNoProblems) {
  ManifestCheck check = CheckManifest(WriteManifest(testing::ZarrManifest()));
  EXPECT_TRUE(check.problems.empty());
  ASSERT_TRUE(check.manifest.has_value());
  EXPECT_EQ(*check.manifest, testing::ZarrManifest());
}

}  // namespace
}  // namespace timef::manifest
