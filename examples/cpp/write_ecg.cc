// Writes a small 12-lead ECG dataset, `examples/ecg-12lead` 1.0.0, into a registry root: three
// ten-second recordings at 500 Hz, one rhythm classification task and one question-answer task
// per recording. Prints the release directory on stdout.
//
//   write_ecg REGISTRY_ROOT     (the release lands in REGISTRY_ROOT/examples/ecg-12lead/1.0.0)
#include <timef/manifest.h>
#include <timef/model.h>
#include <timef/writer.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace {

constexpr int64_t kRateHz = 500;
constexpr int64_t kSamples = 10 * kRateHz;
const char* const kLeads[] = {"I",  "II", "III", "aVR", "aVL", "aVF",
                              "V1", "V2", "V3",  "V4",  "V5",  "V6"};

// A closed-form stand-in for a real lead: a beat every `beat_s` seconds, scaled per lead.
std::vector<float> Lead(double gain, double beat_s) {
  std::vector<float> mv(kSamples);
  for (int64_t i = 0; i < kSamples; ++i) {
    const double t = static_cast<double>(i) / kRateHz;
    const double phase = std::fmod(t, beat_s) / beat_s;
    const double qrs = std::exp(-std::pow((phase - 0.3) * 40, 2));
    const double t_wave = 0.25 * std::exp(-std::pow((phase - 0.6) * 10, 2));
    mv[static_cast<size_t>(i)] =
        static_cast<float>(gain * (qrs + t_wave) + 0.02 * std::sin(2 * std::numbers::pi * t));
  }
  return mv;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_ecg REGISTRY_ROOT\n";
    return 2;
  }
  using namespace timef;
  try {
    model::Dataset dataset("examples/ecg-12lead", "1.0.0");
    // One spec and one clock for every lead: the catalog stores each once.
    auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
    auto axis = model::TimeAxis::RegularFromRate(kRateHz);

    const std::string rhythms[] = {"normal", "bradycardia", "tachycardia"};
    const double beat_seconds[] = {0.8, 1.4, 0.45};
    for (int r = 0; r < 3; ++r) {
      auto record = dataset.AddRecord();
      record->set_start_time_us(1'700'000'000'000'000 + r * 3'600'000'000LL);
      record->set_metadata({{"subject", "synthetic-" + std::to_string(r + 1)}});
      auto ecg = record->AddSource("ecg");
      for (int lead = 0; lead < 12; ++lead) {
        auto values = Lead(0.5 + 0.1 * lead, beat_seconds[r]);
        ecg->AddSignal(std::make_shared<model::Signal>(kLeads[lead], spec, axis,
                                                       model::ValueArray::Of(std::move(values))));
      }

      auto classify = dataset.AddTask(model::TaskType::kClassification);
      classify->AddInput(record);
      classify->set_prompt(model::Text("Which rhythm does this ECG show?"));
      classify->AddTarget(model::TaskTarget::OfText(rhythms[r]));
      classify->set_target_schema("rhythm-v1");
      classify->set_split(r < 2 ? model::Split::kTrain : model::Split::kTest);

      auto answer = dataset.AddTask(model::TaskType::kAnswer);
      answer->AddInput(record);
      answer->set_prompt(model::Text("What is the heart rate in beats per minute?"));
      answer->AddTarget(
          model::TaskTarget::OfText(std::to_string(std::lround(60 / beat_seconds[r])) + " bpm"));
      answer->AddFromTask(classify);
      answer->set_split(classify->split());
    }

    manifest::Card card;
    card.name = "Example 12-lead ECG";
    card.description = "Three synthetic 10 s 12-lead ECGs with rhythm and heart-rate tasks.";
    card.license = manifest::License::kCc0_1_0;
    card.domains = {manifest::Domain::kCardiology};
    // Compress pages on two threads while the next row group loads; the bytes do not depend on it.
    WriteOptions options;
    options.threads = 2;
    WriteResult result = WriteRelease(dataset, card, argv[1], options);
    std::cout << result.release_dir.string() << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "write_ecg: " << error.what() << "\n";
    return 1;
  }
}
