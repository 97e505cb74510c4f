// Writes one long recording whose values never sit in memory whole: `examples/long-recording`
// 1.0.0, a 24-hour int16 accelerometer trace at 100 Hz (8.64 M samples) produced by a piece loader
// one minute at a time. The writer cuts the pieces into the same chunks it would cut one array
// into, so the files do not depend on the piece size. Prints the release directory, then the last
// three samples read back.
//
//   write_pieces REGISTRY_ROOT     (the release lands in
//   REGISTRY_ROOT/examples/long-recording/1.0.0)
#include <timef/manifest.h>
#include <timef/model.h>
#include <timef/reader.h>
#include <timef/writer.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <vector>

namespace {

constexpr int64_t kRateHz = 100;
constexpr int64_t kSamples = 24 * 3600 * kRateHz;
constexpr int64_t kPieceSamples = 60 * kRateHz;  // one minute

// A closed-form stand-in for the sensor: a slow drift plus a step pattern.
int16_t SampleAt(int64_t i) { return static_cast<int16_t>((i / 7) % 2000 - 1000 + (i % 13)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_pieces REGISTRY_ROOT\n";
    return 2;
  }
  using namespace timef;
  try {
    model::Dataset dataset("examples/long-recording", "1.0.0");
    auto spec = model::Spec::Make(
        {.spec_type = "accel_z", .name = "Vertical acceleration", .dtype = model::DType::kInt16});
    auto record = dataset.AddRecord();
    record->set_start_time_us(1'700'000'000'000'000);
    auto signal = std::make_shared<model::Signal>(
        "z", spec, model::TimeAxis::RegularFromRate(kRateHz), kSamples);
    // Called once by the writer (and once by each LoadValues); it pushes the pieces in order.
    signal->SetPieceLoader([](const model::PieceSink& emit) {
      for (int64_t at = 0; at < kSamples; at += kPieceSamples) {
        std::vector<int16_t> piece(static_cast<size_t>(std::min(kPieceSamples, kSamples - at)));
        for (size_t i = 0; i < piece.size(); ++i) piece[i] = SampleAt(at + static_cast<int64_t>(i));
        emit(model::ValueArray::Of(std::move(piece)));  // the writer copies it into its chunk
      }
    });
    record->AddSource("wrist")->AddSignal(signal);

    manifest::Card card;
    card.name = "Example long recording";
    card.description = "One synthetic 24-hour accelerometer trace written from a piece loader.";
    card.license = manifest::License::kCc0_1_0;
    WriteOptions options;
    options.compression_level = 3;
    WriteResult result = WriteRelease(dataset, card, argv[1], options);
    std::cout << result.release_dir.string() << "\n";

    Reader reader = Reader::Open(result.release_dir);
    const SignalValuesRef ref = reader.GetSignalValues(*signal->id());
    const model::ValueArray tail = ref.ReadSteps(kSamples - 3, kSamples);
    std::cout << "last samples:";
    for (int16_t v : tail.values<int16_t>()) std::cout << " " << v;
    std::cout << " (expected " << SampleAt(kSamples - 3) << " " << SampleAt(kSamples - 2) << " "
              << SampleAt(kSamples - 1) << ")\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "write_pieces: " << error.what() << "\n";
    return 1;
  }
}
