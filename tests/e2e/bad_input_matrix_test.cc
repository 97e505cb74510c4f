// Bad bytes in a release never crash the reader and never come back as wrong values: every kind of
// file of the hello-world release (manifest, catalog, a values shard of each end, both payload
// files) is truncated at 10 offsets and has one byte flipped at 100 seeded positions spread over
// the whole file (so every DuckDB block of the catalog is hit). Each mutation is read with Open,
// Verify, a full eager Read and `timef cat` (run in-process): the only acceptable outcomes are a
// typed FormatError (FileError, ManifestError) or a dataset whose dump equals the pristine one.
//
// A truncation is tried twice: as downloaded (the manifest still lists the old size, so Open must
// refuse it) and "re-listed" (the manifest is rewritten with the truncated size, so the damage
// reaches the decoders).
//
// ZarrBadInputMatrixTest runs the same matrix, sampled, over every file of hello-zarr's Zarr store.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "commands.h"
#include "support/scratch_dir.h"
#include "timef/demo.h"
#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/model/dump.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

namespace fs = std::filesystem;

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Counts of how each mutation ended, for the failure message and to show the matrix did work.
struct Tally {
  int cases = 0;
  int refused_at_open = 0;
  int refused_by_verify = 0;
  int refused_by_read = 0;
  int read_equal = 0;
  int cat_runs = 0;
};

class BadInputMatrixTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    WritePristine(*demo::BuildHelloWorld(), demo::HelloWorldCard(), demo::HelloWorldWriteOptions());
  }
  static void WritePristine(model::Dataset& dataset, manifest::Card card, WriteOptions options) {
    scratch_ = std::make_unique<testing::ScratchDir>();
    release_ =
        WriteRelease(dataset, std::move(card), scratch_->path() / "pristine", options).release_dir;
    Reader reader = Reader::Open(release_);
    pristine_dump_ = DumpOf(reader);
  }
  static void TearDownTestSuite() { scratch_.reset(); }

  static std::string DumpOf(Reader& reader) {
    auto dataset = reader.Read(LoadPlan::AllEager());
    return model::DumpDataset(*dataset, {.values = true}).dump();
  }

  // Opens, verifies, reads eagerly. Verify may pass only when the listed files are unchanged (a
  // manifest flip in free text); the dump is compared wherever the manifest is intact.
  void ReadMutated(const std::string& label, bool verify_may_pass, bool compare_dump,
                   Tally& tally) {
    ++tally.cases;
    std::optional<Reader> reader;
    try {
      reader.emplace(Reader::Open(release_));
    } catch (const FormatError&) {
      ++tally.refused_at_open;
      return;
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << ": Open raised an untyped error: " << e.what();
      return;
    }
    try {
      reader->Verify();
      if (!verify_may_pass) ADD_FAILURE() << label << ": Verify passed on a changed file";
    } catch (const FormatError&) {
      ++tally.refused_by_verify;
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << ": Verify raised an untyped error: " << e.what();
    }
    try {
      const std::string dump = DumpOf(*reader);
      ++tally.read_equal;
      if (compare_dump && dump != pristine_dump_) {
        ADD_FAILURE() << label
                      << ": a full read returned values that differ from the pristine ones";
      }
    } catch (const FormatError&) {
      ++tally.refused_by_read;
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << ": Read raised an untyped error: " << e.what();
    }
  }

  // `timef cat` must exit 0 or 1: never a crash, never the usage code for a well-formed call. It
  // runs in this process (timef::cli::Run, what the executable's main calls) with stdout and
  // stderr sent to /dev/null: a crash there fails the whole test binary.
  void CatMutated(const std::string& label, Tally& tally) {
    for (const int signal : {1, 2, 5}) {
      ++tally.cat_runs;
      std::vector<std::string> args = {
          "timef", "cat", release_.string(), "--signal", std::to_string(signal), "--steps", "0:64"};
      std::vector<char*> argv;
      for (std::string& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      const int code = RunSilenced(static_cast<int>(args.size()), argv.data());
      EXPECT_LE(code, 1) << label << ": timef cat --signal " << signal;
      EXPECT_GE(code, 0) << label << ": timef cat --signal " << signal;
    }
  }

  // cli::Run with file descriptors 1 and 2 pointed at /dev/null for the call.
  static int RunSilenced(int argc, char** argv) {
    std::fflush(stdout);
    std::fflush(stderr);
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    const int saved_out = ::dup(1);
    const int saved_err = ::dup(2);
    if (null_fd < 0 || saved_out < 0 || saved_err < 0) {
      ADD_FAILURE() << "cannot redirect the CLI's output";
      return -1;
    }
    ::dup2(null_fd, 1);
    ::dup2(null_fd, 2);
    const int code = cli::Run(argc, argv);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
    ::dup2(saved_out, 1);
    ::dup2(saved_err, 2);
    ::close(saved_out);
    ::close(saved_err);
    ::close(null_fd);
    return code;
  }

  // Rewrites the manifest so that `rel` is listed with `size` (checksum unchanged).
  void Relist(const std::string& rel, std::int64_t size) {
    manifest::Manifest m = manifest::ReadManifest(release_ / manifest::kManifestFileName);
    auto patch = [&](manifest::FilePart& part) {
      if (part.path == rel) part.size = size;
    };
    patch(m.files.control);
    for (auto& part : m.files.time_series) patch(part);
    for (auto& part : m.files.payloads) patch(part);
    WriteBytes(release_ / manifest::kManifestFileName, manifest::WriteManifest(m));
  }

  // The whole matrix for one file (`flips` single-bit flips, one per stretch of size/flips bytes);
  // restores the file (and the manifest) after each case.
  // `max_cuts` < 10 keeps that many of the ten truncation points, spread over them; `timef cat`
  // runs on the first `cut_cats` truncations (both forms) and on `flip_cats` flips spread out.
  Tally RunMatrix(const std::string& rel, int flips = 100, int max_cuts = 10, int cut_cats = 3,
                  int flip_cats = 4) {
    const fs::path file = release_ / rel;
    const fs::path manifest_path = release_ / manifest::kManifestFileName;
    const std::string original = ReadBytes(file);
    const std::string original_manifest = ReadBytes(manifest_path);
    const auto size = static_cast<std::int64_t>(original.size());
    const bool is_manifest = rel == manifest::kManifestFileName;
    EXPECT_GT(size, 4) << rel;
    Tally tally;

    // Ten truncation points: the empty file, a few bytes, fractions, and just short of the end.
    const std::vector<std::int64_t> all_cuts = {
        0, 1, 4, size / 8, size / 4, size / 2, 3 * size / 4, size - 8, size - 4, size - 1};
    std::set<std::int64_t> cuts;
    for (int i = 0; i < max_cuts; ++i) {
      cuts.insert(all_cuts[static_cast<std::size_t>((2 * i + 1) * 10 / (2 * max_cuts))]);
    }
    int index = 0;
    int expected_open_refusals_skipped = 0;
    for (const std::int64_t cut : cuts) {
      const std::string label = rel + " truncated to " + std::to_string(cut);
      WriteBytes(file, original.substr(0, static_cast<std::size_t>(cut)));
      // Cutting only the manifest's final LF leaves the same JSON document.
      const bool same_document =
          is_manifest &&
          original.find_first_not_of(" \n", static_cast<std::size_t>(cut)) == std::string::npos;
      if (same_document) ++expected_open_refusals_skipped;
      ReadMutated(label, /*verify_may_pass=*/same_document, /*compare_dump=*/!is_manifest, tally);
      if (index++ < cut_cats) CatMutated(label, tally);
      if (!is_manifest) {
        Relist(rel, cut);
        ReadMutated(label + " (re-listed)", false, true, tally);
        if (index < cut_cats) CatMutated(label + " (re-listed)", tally);
        WriteBytes(manifest_path, original_manifest);
      }
      WriteBytes(file, original);
    }
    EXPECT_EQ(tally.refused_at_open, static_cast<int>(cuts.size()) - expected_open_refusals_skipped)
        << rel << ": a truncated file still listed with its old size must be refused at Open";

    // A hundred single-byte flips, stratified so that every stretch of size/100 bytes gets one.
    std::mt19937_64 rng(std::hash<std::string>{}(rel));
    const int kFlips = flips;
    const int cat_every = flip_cats > 0 ? std::max(1, kFlips / flip_cats) : kFlips + 1;
    for (int i = 0; i < kFlips; ++i) {
      const std::int64_t lo = size * i / kFlips;
      const std::int64_t hi = std::max(lo + 1, size * (i + 1) / kFlips);
      const std::int64_t at =
          lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo));
      const auto mask = static_cast<char>(1u << (rng() % 8));
      std::string bytes = original;
      bytes[static_cast<std::size_t>(at)] =
          static_cast<char>(bytes[static_cast<std::size_t>(at)] ^ mask);
      WriteBytes(file, bytes);
      const std::string label = rel + " with a bit flipped at byte " + std::to_string(at);
      ReadMutated(label, /*verify_may_pass=*/is_manifest, /*compare_dump=*/!is_manifest, tally);
      if (i % cat_every == 0) CatMutated(label, tally);
      WriteBytes(file, original);
    }
    // The matrix left the release as it found it.
    Reader reader = Reader::Open(release_);
    EXPECT_NO_THROW(reader.Verify());
    return tally;
  }

  static std::string Describe(const Tally& t) {
    return std::to_string(t.cases) + " cases: " + std::to_string(t.refused_at_open) +
           " refused at Open, " + std::to_string(t.refused_by_verify) + " by Verify, " +
           std::to_string(t.refused_by_read) + " by Read, " + std::to_string(t.read_equal) +
           " read equal; " + std::to_string(t.cat_runs) + " timef cat runs";
  }

  static inline std::unique_ptr<testing::ScratchDir> scratch_;
  static inline fs::path release_;
  static inline std::string pristine_dump_;
};

TEST_F(BadInputMatrixTest, Manifest) {
  const Tally t = RunMatrix(std::string(manifest::kManifestFileName));
  std::cout << Describe(t) << "\n";
  EXPECT_EQ(t.cases, 110);
}

TEST_F(BadInputMatrixTest, Catalog) {
  const Tally t = RunMatrix(std::string(manifest::kControlFileName));
  std::cout << Describe(t) << "\n";
  EXPECT_EQ(t.cases, 120);
  // Every flip changes the file, so Verify refuses every case that Open let through.
  EXPECT_EQ(t.refused_at_open + t.refused_by_verify, t.cases);
}

TEST_F(BadInputMatrixTest, FirstAndLastValuesShard) {
  const manifest::Manifest m = manifest::ReadManifest(release_ / manifest::kManifestFileName);
  ASSERT_GE(m.files.time_series.size(), 2u);
  for (const auto* part : {&m.files.time_series.front(), &m.files.time_series.back()}) {
    const Tally t = RunMatrix(part->path);
    std::cout << part->path << ": " << Describe(t) << "\n";
    EXPECT_EQ(t.cases, 120);
    // Page CRCs make a silently different value impossible: a flip inside the data is refused.
    EXPECT_GT(t.refused_by_read, 0) << part->path;
  }
}

TEST_F(BadInputMatrixTest, PayloadFiles) {
  const manifest::Manifest m = manifest::ReadManifest(release_ / manifest::kManifestFileName);
  ASSERT_GE(m.files.payloads.size(), 2u) << "hello-world has a text and an offsets payload";
  for (const auto& part : m.files.payloads) {
    const Tally t = RunMatrix(part.path);
    std::cout << part.path << ": " << Describe(t) << "\n";
    EXPECT_EQ(t.cases, 120);
    EXPECT_GT(t.refused_by_read, 0) << part.path;
  }
}

// The same matrix over every file of a Zarr store (hello-zarr: the group and array zarr.json
// files, every shard file of the values and validity arrays: 29 files). Sampled to keep the suite
// near 40 s: every file gets 2 of the ten truncation points (both cases: as listed and
// re-listed), shards 6 bit flips and zarr.json files 4 (one per stretch of size/flips bytes), and
// the first flip of each shard runs `timef cat`.
class ZarrBadInputMatrixTest : public BadInputMatrixTest {
 protected:
  static void SetUpTestSuite() {
    WritePristine(*demo::BuildHelloZarr(), demo::HelloZarrCard(), demo::HelloZarrWriteOptions());
  }
};

TEST_F(ZarrBadInputMatrixTest, EveryStoreFile) {
  const manifest::Manifest m = manifest::ReadManifest(release_ / manifest::kManifestFileName);
  int metadata_files = 0;
  int shard_files = 0;
  Tally all;
  for (const auto& part : m.files.time_series) {
    ASSERT_EQ(part.path.rfind("time_series.zarr/", 0), 0u) << part.path;
    const bool metadata = part.path.ends_with("zarr.json");
    (metadata ? metadata_files : shard_files) += 1;
    const int flips = metadata ? 4 : 6;
    const Tally t = RunMatrix(part.path, flips, /*max_cuts=*/2, /*cut_cats=*/0,
                              /*flip_cats=*/metadata ? 0 : 1);
    std::cout << part.path << ": " << Describe(t) << "\n";
    EXPECT_GT(t.cases, flips) << part.path;  // ten cuts (fewer for a tiny file), each twice
    // Every listed store file is checksummed: whatever Open lets through, Verify refuses.
    EXPECT_EQ(t.refused_at_open + t.refused_by_verify, t.cases) << part.path;
    all.cases += t.cases;
    all.refused_at_open += t.refused_at_open;
    all.refused_by_verify += t.refused_by_verify;
    all.refused_by_read += t.refused_by_read;
    all.read_equal += t.read_equal;
    all.cat_runs += t.cat_runs;
  }
  EXPECT_GE(metadata_files, 3) << "the root group, _validity group and an array at least";
  EXPECT_GE(shard_files, 2);
  // The decoders do see damage (re-listed truncations, flips in shards and headers).
  EXPECT_GT(all.refused_by_read, 0);
  std::cout << "all store files: " << Describe(all) << "\n";
}

}  // namespace
}  // namespace timef
