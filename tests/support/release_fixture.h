// A small dataset for writer and reader tests: every dtype, an irregular axis shared by two
// signals, planted NaN / ±inf / -0.0, nulls, long text that the writer packs, several tasks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "support/scratch_dir.h"
#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/writer.h"

namespace timef::testing {

inline constexpr int64_t kLeadSteps = 20'000;
// Steps of `lead` holding special floats.
inline constexpr int64_t kNanStep = 17, kPosInfStep = 4'321, kNegInfStep = 9'999,
                         kNegZeroStep = 15'000;
inline constexpr uint32_t kNanBits = 0x7fc0'1234;  // a NaN with a payload

struct Fixture {
  std::shared_ptr<model::Dataset> dataset;
  std::shared_ptr<model::Record> ecg, vitals, notes;
  std::shared_ptr<model::Signal> lead, lead2;  // float32, 500 Hz, kLeadSteps each
  std::shared_ptr<model::Signal> hr_a, hr_b;   // nullable float64 on one irregular axis
  std::shared_ptr<model::Signal> rhythm;       // enum
  std::shared_ptr<model::Signal> text;         // str, text modality, ordinal axis
  std::shared_ptr<model::Signal> flags;        // bool, ordinal
  std::shared_ptr<model::Signal> counts;       // int16, loader-backed
  std::shared_ptr<model::Task> answer, classify, forecast;
  std::string long_prompt, long_rationale;  // > 256 UTF-8 bytes each
};

// `records` ≥ 1 copies of the ECG record (IDs in order); the other records once. `version` lets a
// test publish several versions of test/fixture into one registry.
Fixture MakeFixture(int ecg_records = 1, const std::string& version = "1.0.0");

// A card for the fixture (identity filled by the writer).
manifest::Card FixtureCard();

// The fixture written as a release into its own temporary root.
struct WrittenFixture;
// `options` with zstd level 3 (tests need not pay for level 19).
std::unique_ptr<WrittenFixture> WriteFixture(WriteOptions options, int ecg_records = 1);
// The same as a copy: the release is written once per process for each `key` and `ecg_records`
// (the caller names its options: one key, one set of options), its files are copied into the
// fixture's own root, and the fixture's dataset gets what the write does to it (IDs assigned in
// the same order, so the same IDs; validated). A test may change or break its copy. Under ASan a
// write of the fixture costs seconds of CPU, a copy milliseconds.
std::unique_ptr<WrittenFixture> CopyOfWrittenFixture(const std::string& key, WriteOptions options,
                                                     int ecg_records);
// CopyOfWrittenFixture with the default options.
std::unique_ptr<WrittenFixture> WriteFixture(int ecg_records = 1);

// A fresh empty directory, removed by the destructor.
using TempDir = ScratchDir;

struct WrittenFixture {
  TempDir root;
  Fixture fixture;
  WriteResult result;
};

// Every regular file below `dir`, relative, sorted.
std::vector<std::string> ListFiles(const std::filesystem::path& dir);

// XORs the byte at `offset` (from the end when negative) with 0x01.
void FlipByte(const std::filesystem::path& file, int64_t offset);

// A release that stores nothing of its own (docs/format.md §10): test/fixture@1.0.0, written under
// `root` (kReuseParent), read lazily and rewritten with `options` as test/reuse@1.0.0
// (kReuseChild) into the same root, which reuses every stored payload, so each of its files is a
// pin of its payload source test/fixture@1.0.0.
inline constexpr const char* kReuseParent = "test/fixture/1.0.0";
inline constexpr const char* kReuseChild = "test/reuse/1.0.0";
void WriteReuseChild(const std::filesystem::path& root, const WriteOptions& options);
// The first values file the child under `root` pins in its parent, as a path under `root`
// (std::logic_error when it pins none).
std::filesystem::path FirstPinnedShard(const std::filesystem::path& root);

}  // namespace timef::testing
