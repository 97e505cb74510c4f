// The four records of hello-world and the dataset's own annotations.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "demo/hello_parts.h"
#include "demo/waveforms.h"
#include "timef/demo.h"

namespace timef::demo::internal {
namespace {

using model::AnnotationContent;
using model::AnnotationValue;
using model::DType;
using model::Modality;
using model::Signal;
using model::Spec;
using model::TimeAxis;
using model::TimeInterval;
using model::TimePoint;
using model::ValueArray;

// 2023-11-14T22:13:20Z.
constexpr int64_t kEcgStartUs = 1'700'000'000'000'000;
constexpr int64_t kEcgSpanUs = kEcgSamples / kEcgRateHz * kSecond;
constexpr int64_t kVitalsSpanUs = 600 * kSecond;
constexpr int64_t kGeneratedSamples = 2'500;

std::shared_ptr<Signal> AddSignal(model::Source& source, std::string name,
                                  std::shared_ptr<const Spec> spec,
                                  std::shared_ptr<const TimeAxis> axis, ValueArray values) {
  auto signal = std::make_shared<Signal>(std::move(name), std::move(spec), std::move(axis),
                                         std::move(values));
  source.AddSignal(signal);
  return signal;
}

std::shared_ptr<const Spec> EcgSpec() {
  return Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
}

std::vector<float> PlantSpecialFloats(std::vector<float> values) {
  values[kNanStep] = std::numeric_limits<float>::quiet_NaN();
  values[kPosInfStep] = std::numeric_limits<float>::infinity();
  values[kNegInfStep] = -std::numeric_limits<float>::infinity();
  values[kNegZeroStep] = -0.0f;
  return values;
}

// Record 1: 160 s of two ECG leads three sources deep, a rhythm label track and a lead-off flag.
void AddEcgRecord(model::Dataset& dataset, HelloParts& parts) {
  auto record = dataset.AddRecord();
  record->set_start_time_us(kEcgStartUs);
  record->set_time_span(TimeInterval{0, kEcgSpanUs});
  record->set_metadata({{"subject", "synthetic-001"}, {"age", 63}, {"site", "Zoë's lab"}});

  auto device = record->AddSource("device");
  auto ecg = device->AddChild("ecg");
  auto leads = ecg->AddChild("leads");
  auto status = device->AddChild("status");

  auto axis = TimeAxis::RegularFromRate(kEcgRateHz);
  auto spec = EcgSpec();
  parts.lead_i = AddSignal(*leads, "lead_I", spec, axis,
                           ValueArray::Of(EcgSeries(kEcgSamples, kEcgRateHz, 0.6)));
  parts.lead_i->set_source_id("raw-ecg-001/I");
  parts.lead_ii =
      AddSignal(*leads, std::string(kSpecialSignalName), spec, axis,
                ValueArray::Of(PlantSpecialFloats(EcgSeries(kEcgSamples, kEcgRateHz, 1.0))));
  parts.lead_ii->set_metadata({{"special_floats", "NaN, +inf, -inf and -0.0 are planted"}});

  // One label per second: atrial fibrillation from 60 s to 75 s, noise at 100–101 s.
  const int64_t seconds = kEcgSpanUs / kSecond;
  std::vector<std::string> rhythm(static_cast<size_t>(seconds), "normal");
  std::vector<bool> lead_off(static_cast<size_t>(seconds), false);
  for (int64_t s = 60; s < 75; ++s) rhythm[s] = "af";
  for (int64_t s = 100; s < 102; ++s) {
    rhythm[s] = "noise";
    lead_off[s] = true;
  }
  auto every_second = TimeAxis::Regular(kSecond);
  AddSignal(*status, "rhythm",
            Spec::Make({.spec_type = "rhythm",
                        .name = "Rhythm label",
                        .dtype = DType::kEnum,
                        .categories = {"normal", "af", "noise"}}),
            every_second, ValueArray::EnumLabels(std::move(rhythm)));
  AddSignal(*status, "lead_off",
            Spec::Make({.spec_type = "lead_off", .name = "Electrode off", .dtype = DType::kBool}),
            every_second, ValueArray::Bools(lead_off));

  // Annotations: a marker, integer beat numbers at points, a text interval shared with the lead.
  record->Annotate(Content("reviewed", AnnotationValue::Marker()));
  record->Annotate(parts.synthetic);
  for (int64_t beat = 0; beat < 3; ++beat) {
    record->Annotate(Content("beat", AnnotationValue::OfInteger(beat + 1)),
                     TimePoint{RPeakOffsetUs(beat)});
  }
  auto episode = std::make_shared<AnnotationContent>("episode", AnnotationValue::OfText("af"));
  episode->set_description("rhythm episode");
  parts.episode_on_record = record->Annotate(episode, TimeInterval{60 * kSecond, 75 * kSecond});
  parts.episode_on_lead = parts.lead_i->Annotate(episode, TimeInterval{60 * kSecond, 75 * kSecond});
  parts.episode_on_lead->set_confidence(0.9);
  parts.episode_on_lead->set_provenance(Json("cardiologist"));
  parts.episode_on_lead->set_metadata({{"reader", 2}});

  auto gain = std::make_shared<AnnotationContent>("gain", AnnotationValue::OfFloat(1.5));
  gain->set_unit("mV");
  gain->set_description("amplifier gain");
  ecg->Annotate(gain);

  auto quality = Content("quality", AnnotationValue::OfText("good"));
  leads->Annotate(quality);
  parts.lead_i->Annotate(quality);
  parts.lead_ii->Annotate(quality);
  // The sample with the NaN is one artefact; R peaks carry markers.
  const int64_t period_us = kSecond / kEcgRateHz;
  parts.lead_ii->Annotate(Content("artifact", AnnotationValue::OfBoolean(true)),
                          TimeInterval{kNanStep * period_us, (kNanStep + 1) * period_us});
  for (int64_t beat = 0; beat < 2; ++beat) {
    parts.lead_ii->Annotate(Content("r_peak", AnnotationValue::Marker()),
                            TimePoint{RPeakOffsetUs(beat)});
  }
  parts.ecg_record = record;
}

// Record 2: ten minutes of vitals without a calendar anchor; heart rate and SpO2 share an
// irregular axis; integer dtypes on regular axes.
void AddVitalsRecord(model::Dataset& dataset, HelloParts& parts) {
  auto record = dataset.AddRecord();
  record->set_time_span(TimeInterval{0, kVitalsSpanUs});
  record->set_metadata({{"subject", "synthetic-002"}, {"position", "seated"}});

  auto wrist = record->AddSource("wrist");
  auto optical = wrist->AddChild("optical");
  auto imu = wrist->AddChild("imu");
  auto pedometer = wrist->AddChild("pedometer");
  auto station = record->AddSource("station");

  auto irregular = TimeAxis::Irregular(VitalsOffsetsUs(kIrregularSteps));
  std::vector<double> heart_rate(kIrregularSteps);
  std::vector<uint8_t> validity(kIrregularSteps, 1);
  std::vector<uint8_t> spo2(kIrregularSteps);
  for (int64_t i = 0; i < kIrregularSteps; ++i) {
    heart_rate[i] = 70.0 + 8.0 * std::sin(0.3 * static_cast<double>(i));
    spo2[i] = static_cast<uint8_t>(96 + i % 3 - (i % 7 == 0 ? 2 : 0));
  }
  for (int64_t step : kHeartRateNullSteps) {
    heart_rate[step] = 0;
    validity[step] = 0;
  }
  heart_rate[kHeartRateNanStep] = std::numeric_limits<double>::quiet_NaN();
  parts.heart_rate = AddSignal(*optical, std::string(kHeartRateSignalName),
                               Spec::Make({.spec_type = "heart_rate",
                                           .name = "Heart rate",
                                           .unit = "bpm",
                                           .dtype = DType::kFloat64,
                                           .nullable = true}),
                               irregular, ValueArray::Of(heart_rate, validity));
  AddSignal(*optical, "spo2",
            Spec::Make({.spec_type = "spo2", .name = "SpO2", .unit = "%", .dtype = DType::kUint8}),
            irregular, ValueArray::Of(spo2));

  // Accelerometer z in raw ADC counts at 10 Hz, tilt in whole degrees every 10 s.
  constexpr int64_t kAccelSamples = 6'000;
  std::vector<int16_t> accel(kAccelSamples);
  for (int64_t i = 0; i < kAccelSamples; ++i) {
    const double t = static_cast<double>(i) / 10.0;
    accel[i] = static_cast<int16_t>(1'000 + std::lround(50 * std::sin(std::numbers::pi * t)) +
                                    Scramble(i, 11) - 5);
  }
  AddSignal(*imu, "accel_z",
            Spec::Make({.spec_type = "accel_raw",
                        .name = "Accelerometer z (ADC counts)",
                        .unit = "count",
                        .dtype = DType::kInt16}),
            TimeAxis::RegularFromRate(10), ValueArray::Of(accel));
  std::vector<int8_t> tilt(60);
  for (int64_t i = 0; i < 60; ++i) tilt[i] = static_cast<int8_t>(Scramble(i, 61) - 30);
  AddSignal(*imu, "tilt",
            Spec::Make({.spec_type = "tilt", .name = "Tilt", .unit = "deg", .dtype = DType::kInt8}),
            TimeAxis::Regular(10 * kSecond), ValueArray::Of(tilt));

  // Cumulative steps and battery voltage once a minute, air pressure every 10 s.
  std::vector<uint32_t> steps(10);
  std::vector<uint16_t> battery(10);
  for (int64_t i = 0; i < 10; ++i) {
    steps[i] = static_cast<uint32_t>(i * 95 + Scramble(i, 20));
    battery[i] = static_cast<uint16_t>(4'100 - 3 * i);
  }
  for (int64_t i = 1; i < 10; ++i) steps[i] = std::max(steps[i], steps[i - 1]);
  auto every_minute = TimeAxis::Regular(60 * kSecond);
  AddSignal(*pedometer, "step_count",
            Spec::Make({.spec_type = "step_count",
                        .name = "Steps since start",
                        .unit = "count",
                        .dtype = DType::kUint32}),
            every_minute, ValueArray::Of(steps));
  std::vector<int32_t> pressure(60);
  for (int64_t i = 0; i < 60; ++i) pressure[i] = static_cast<int32_t>(101'325 - i * 2);
  AddSignal(*station, "air_pressure",
            Spec::Make({.spec_type = "air_pressure",
                        .name = "Air pressure",
                        .unit = "Pa",
                        .dtype = DType::kInt32}),
            TimeAxis::Regular(10 * kSecond), ValueArray::Of(pressure));
  AddSignal(*station, "battery",
            Spec::Make({.spec_type = "battery",
                        .name = "Battery voltage",
                        .unit = "mV",
                        .dtype = DType::kUint16}),
            every_minute, ValueArray::Of(battery));

  record->Annotate(parts.synthetic);
  record->Annotate(Content("fasting", AnnotationValue::OfBoolean(false)));
  record->Annotate(Content("event", AnnotationValue::OfText("stood up")), TimePoint{300 * kSecond});
  record->Annotate(Content("exercise", AnnotationValue::Marker()),
                   TimeInterval{120 * kSecond, 180 * kSecond});
  imu->Annotate(Content("placement", AnnotationValue::OfText("left wrist")));
  parts.heart_rate->Annotate(Content("quality", AnnotationValue::OfText("fair")));
  parts.heart_rate_tags = parts.heart_rate->Annotate(Content(
      "tags", AnnotationValue::OfTextList(model::TextList({"resting", "seated", "ünïcödé"}))));
  parts.vitals_record = record;
}

// Record 3: a diary without any timeline — free text and a mood label on one ordinal axis.
void AddDiaryRecord(model::Dataset& dataset, HelloParts& parts, bool with_text) {
  auto record = dataset.AddRecord();
  auto diary = record->AddSource("diary");
  auto ordinal = TimeAxis::Ordinal();
  if (with_text) {
    AddSignal(*diary, "notes",
              Spec::Make({.spec_type = "note",
                          .name = "Diary entry",
                          .dtype = DType::kStr,
                          .modality = Modality::kText}),
              ordinal,
              ValueArray::Of<std::string>(
                  {"slept well", "", "coffee ☕ at 9", "felt dizzy — sat down", "walked 2 km"}));
  }
  AddSignal(*diary, "mood",
            Spec::Make({.spec_type = "mood",
                        .name = "Mood",
                        .dtype = DType::kEnum,
                        .categories = {"low", "neutral", "high"}}),
            ordinal, ValueArray::EnumCodes({2, 1, 2, 0, 1}));
  record->Annotate(parts.synthetic);
  record->Annotate(Content("entries", AnnotationValue::OfInteger(5)));
  diary->Annotate(Content("operator", AnnotationValue::OfText("kim")));
  parts.diary_record = record;
}

// Record 4: ten seconds of a clean synthetic lead, the target of the generation tasks.
void AddGeneratedRecord(model::Dataset& dataset, HelloParts& parts) {
  auto record = dataset.AddRecord();
  record->set_start_time_us(kEcgStartUs + 3'600 * kSecond);
  record->set_time_span(TimeInterval{0, kGeneratedSamples / kEcgRateHz * kSecond});
  auto synthesizer = record->AddSource("synthesizer");
  parts.generated_lead =
      AddSignal(*synthesizer, "lead_II", EcgSpec(), TimeAxis::RegularFromRate(kEcgRateHz),
                ValueArray::Of(EcgSeries(kGeneratedSamples, kEcgRateHz, 1.0)));
  record->Annotate(parts.synthetic);
  record->Annotate(Content("seed", AnnotationValue::OfInteger(42)));
  parts.generated_record = record;
}

}  // namespace

HelloParts AddHelloRecords(model::Dataset& dataset, bool with_text) {
  HelloParts parts;
  parts.synthetic = Content("synthetic", AnnotationValue::OfBoolean(true));
  dataset.Annotate(Content("curation", AnnotationValue::OfText(kCurationText)));
  dataset.Annotate(Content("keywords", AnnotationValue::OfTextList(LongKeywordList())));
  dataset.Annotate(parts.synthetic);
  AddEcgRecord(dataset, parts);
  AddVitalsRecord(dataset, parts);
  AddDiaryRecord(dataset, parts, with_text);
  AddGeneratedRecord(dataset, parts);
  parts.vocabulary = dataset.RegisterAnnotation(Content(
      "vocabulary", AnnotationValue::OfTextList(model::TextList({"normal", "af", "noise"}))));
  return parts;
}

}  // namespace timef::demo::internal
