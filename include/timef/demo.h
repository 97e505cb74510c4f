// The hello-world demo dataset: a small, fully deterministic release that touches every part of
// the format (both modalities, every dtype, the three axis types, nulls and special floats, nested
// sources, every annotation shape and value kind on every object kind, all eight task types, long
// texts that get packed) and, with HelloWorldWriteOptions(), several chunks, row groups and shards.
//
// The constants below say where the special values sit, so end-to-end tests can check that they
// survive a write and a read bit-exactly.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/writer.h"

namespace timef::demo {

inline constexpr std::string_view kHelloWorldId = "timef/hello-world";
inline constexpr std::string_view kHelloWorldVersion = "1.0.0";

// Record 1 holds two float32 ECG leads (spec_type "ecg", millivolt) of kEcgSamples steps at
// kEcgRateHz on one shared regular axis; with HelloWorldWriteOptions() each lead spans 10 chunks.
inline constexpr int64_t kEcgRateHz = 250;
inline constexpr int64_t kEcgSamples = 40'000;
inline constexpr int64_t kEcgRecordId = 1;

// The lead carrying the special floats: signal ID (IDs are assigned by BuildHelloWorld) and name.
// Every other step of it is a finite, non-zero-signed closed-form value.
inline constexpr int64_t kSpecialSignalId = 2;
inline constexpr std::string_view kSpecialSignalName = "lead_II";
inline constexpr int64_t kNanStep = 5'000;       // quiet NaN (std::numeric_limits::quiet_NaN)
inline constexpr int64_t kPosInfStep = 12'345;   // +inf
inline constexpr int64_t kNegInfStep = 20'000;   // -inf
inline constexpr int64_t kNegZeroStep = 39'999;  // -0.0 (the last step)

// Record 2 holds the nullable float64 heart rate (spec_type "heart_rate", bpm) on an irregular
// axis of kIrregularSteps offsets that it shares with the uint8 "spo2" signal. Null steps are
// absent values; the NaN step is a present value.
inline constexpr int64_t kVitalsRecordId = 2;
inline constexpr int64_t kHeartRateSignalId = 5;
inline constexpr std::string_view kHeartRateSignalName = "heart_rate";
inline constexpr int64_t kIrregularSteps = 40;
inline constexpr std::array<int64_t, 3> kHeartRateNullSteps = {3, 17, 29};
inline constexpr int64_t kHeartRateNanStep = 11;

// Record 3 has no timeline (ordinal axis only) and record 4 is the synthetic target record.
inline constexpr int64_t kDiaryRecordId = 3;
inline constexpr int64_t kGeneratedRecordId = 4;

// Builds the dataset `timef/hello-world` version 1.0.0 with IDs assigned. Identical on every call.
std::unique_ptr<model::Dataset> BuildHelloWorld();

// The dataset card: id, version, name, description, CC-BY-4.0, domains, tags.
manifest::Card HelloWorldCard();

// The composed demo (docs/format.md §4, §10), written from a committed hello-world 1.0.0 in `root`:
// timef/hello-child@1.0.0 imports records kEcgRecordId and kVitalsRecordId under the alias
// "hello" with the tasks whose inputs are all among them, adds a record of its own (spec_type
// "pulse") and an overlay annotation "child_review" on the imported ECG record;
// timef/hello-world@1.1.0 removes kDiaryRecordId (with its tasks) and adds a pulse record. Both
// copy no hello-world values.
inline constexpr std::string_view kHelloChildId = "timef/hello-child";
inline constexpr std::string_view kHelloChildVersion = "1.0.0";
inline constexpr std::string_view kHelloWorldEditVersion = "1.1.0";
WriteResult WriteHelloChild(const std::filesystem::path& root);
WriteResult WriteHelloWorldEdit(const std::filesystem::path& root);

// The Zarr demo (docs/format.md §8): timef/hello-zarr@1.0.0 holds hello-world's records and tasks
// without its one str signal (the diary notes), plus record kSpectrogramRecordId with an N-D
// float32 spectrogram (spec_type "spectrogram", value_shape kSpectrogramShape, dimension_names
// "channel", "freq") of kSpectrogramSteps steps at 4 Hz. The nullable heart rate keeps its nulls.
// HelloZarrWriteOptions() are hello-world's budgets with values_backend zarr.
inline constexpr std::string_view kHelloZarrId = "timef/hello-zarr";
inline constexpr std::string_view kHelloZarrVersion = "1.0.0";
inline constexpr int64_t kSpectrogramRecordId = 5;
inline constexpr int64_t kSpectrogramSteps = 64;
inline constexpr std::array<int64_t, 2> kSpectrogramShape = {2, 8};
std::unique_ptr<model::Dataset> BuildHelloZarr();
manifest::Card HelloZarrCard();
WriteOptions HelloZarrWriteOptions();

// Small budgets (16 KiB chunks, 64 KiB row groups, 256 KiB shards) so the demo stays small but
// exercises multi-chunk signals, multi-row-group shards and several shards.
WriteOptions HelloWorldWriteOptions();

}  // namespace timef::demo
