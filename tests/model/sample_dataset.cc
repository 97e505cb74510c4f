#include "sample_dataset.h"

namespace timef::model::testing {
namespace {

std::vector<float> Ramp(size_t n) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i) * 0.5f;
  return values;
}

}  // namespace

Sample MakeSample() {
  Sample s;
  s.dataset = std::make_shared<Dataset>("demo/hello-world", "1.0.0");
  s.dataset->AddParent({"base", "demo/base", "2.1.0"});
  s.dataset->Annotate(std::make_shared<AnnotationContent>(
      "curation", AnnotationValue::OfText("hand-checked, ünïcödé")));

  auto ecg = Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  auto hr = Spec::Make({.spec_type = "heart_rate",
                        .name = "Heart rate",
                        .unit = "bpm",
                        .dtype = DType::kFloat64,
                        .nullable = true});
  auto rhythm = Spec::Make(
      {.spec_type = "rhythm", .name = "Rhythm", .dtype = DType::kEnum, .categories = {"N", "AF"}});
  auto note = Spec::Make(
      {.spec_type = "note", .name = "Note", .dtype = DType::kStr, .modality = Modality::kText});
  auto flag = Spec::Make({.spec_type = "flag", .name = "Flag", .dtype = DType::kBool});
  auto pcm = Spec::Make(
      {.spec_type = "pcm", .name = "Audio", .dtype = DType::kInt16, .modality = Modality::kAudio});

  // Record 1: 10 s of two ECG leads three sources deep, on one shared 500 Hz axis.
  s.ecg_record = s.dataset->AddRecord();
  s.ecg_record->set_start_time_us(1'700'000'000'000'000);
  s.ecg_record->set_time_span(TimeInterval{0, 10'000'000});
  s.ecg_record->set_metadata({{"patient", "Zoë"}, {"age", 63}});
  s.device = s.ecg_record->AddSource("device");
  s.ecg_source = s.device->AddChild("ecg");
  s.leads = s.ecg_source->AddChild("leads");
  auto axis_500 = TimeAxis::RegularFromRate(500);
  s.lead_i = std::make_shared<Signal>("lead_I", ecg, axis_500, ValueArray::Of(Ramp(5000)));
  s.lead_ii = std::make_shared<Signal>("lead_II", ecg, axis_500, ValueArray::Of(Ramp(5000)));
  s.leads->AddSignal(s.lead_i);
  s.leads->AddSignal(s.lead_ii);
  s.rhythm = std::make_shared<Signal>("rhythm", rhythm, TimeAxis::Regular(1'000'000), 10);
  s.rhythm->SetValues(
      ValueArray::EnumLabels({"N", "N", "AF", "AF", "AF", "N", "N", "N", "N", "N"}));
  s.device->AddSignal(s.rhythm);

  s.af_label = std::make_shared<AnnotationContent>("episode", AnnotationValue::OfText("AF"));
  s.af_label->set_description("rhythm episode");
  s.ecg_record->Annotate(std::make_shared<AnnotationContent>("reviewed"));  // marker
  s.ecg_record->Annotate(std::make_shared<AnnotationContent>("beat", AnnotationValue::OfInteger(1)),
                         TimePoint{500'000});
  s.af_on_record = s.ecg_record->Annotate(s.af_label, TimeInterval{1'000'000, 2'000'000});
  auto gain = std::make_shared<AnnotationContent>("gain", AnnotationValue::OfFloat(1.5));
  gain->set_unit("mV");
  s.ecg_source->Annotate(gain);
  s.af_on_lead = s.lead_i->Annotate(s.af_label, TimeInterval{1'000'000, 1'500'000});
  s.af_on_lead->set_confidence(0.9);
  s.af_on_lead->set_provenance(Json("cardiologist"));
  s.af_on_lead->set_metadata({{"reader", 2}});

  // Record 2 (imported from the parent): two heart-rate series on one irregular axis.
  s.hr_record = s.dataset->AddRecord();
  s.hr_record->set_import_marker(ImportMarker{"base", 41});
  auto irregular = TimeAxis::Irregular({0, 900'000, 2'000'000, 3'100'000});
  s.hr_a = std::make_shared<Signal>("hr_a", hr, irregular,
                                    ValueArray::Of<double>({60, 0, 62, 63}, {1, 0, 1, 1}));
  s.hr_b =
      std::make_shared<Signal>("hr_b", hr, irregular, ValueArray::Of<double>({70, 71, 72, 73}));
  s.hr_a->set_import_marker(ImportMarker{"base", 7});
  auto monitor = s.hr_record->AddSource("monitor");
  monitor->AddSignal(s.hr_a);
  monitor->AddSignal(s.hr_b);
  auto fasting = s.hr_record->Annotate(
      std::make_shared<AnnotationContent>("fasting", AnnotationValue::OfBoolean(true)));
  fasting->set_inherited_from("base");
  s.hr_tags = s.hr_a->Annotate(std::make_shared<AnnotationContent>(
      "tags", AnnotationValue::OfTextList(TextList({"rest", "supine"}))));

  // Record 3: ordinal text and bool signals, no time span.
  s.notes_record = s.dataset->AddRecord();
  auto log = s.notes_record->AddSource("log");
  auto ordinal = TimeAxis::Ordinal();
  s.notes = std::make_shared<Signal>("notes", note, ordinal,
                                     ValueArray::Of<std::string>({"start", "", "stop ✓"}));
  s.flags =
      std::make_shared<Signal>("flags", flag, ordinal, ValueArray::Bools({true, false, true}));
  s.notes->set_source_id("raw-17");
  log->AddSignal(s.notes);
  log->AddSignal(s.flags);
  log->Annotate(std::make_shared<AnnotationContent>("operator", AnnotationValue::OfText("kim")));

  // Record 4: audio at 44.1 kHz (period 10000/441 µs), start index 10, offset 5 µs.
  s.audio_record = s.dataset->AddRecord();
  s.audio_record->set_time_span(TimeInterval{0, 1'000'000});
  s.audio = std::make_shared<Signal>("mic", pcm, TimeAxis::RegularFromRate(44'100, 1, 10, 5),
                                     int64_t{4410});
  s.audio->SetLoader([] { return ValueArray::Of(std::vector<int16_t>(4410, 7)); });
  s.audio_record->AddSource("recorder")->AddSignal(s.audio);

  s.vocabulary = s.dataset->RegisterAnnotation(std::make_shared<AnnotationContent>(
      "vocabulary", AnnotationValue::OfTextList(TextList({"N", "AF"}))));

  // Tasks, one per type, plus an explicit empty answer.
  s.classification = s.dataset->AddTask(TaskType::kClassification);
  s.classification->AddInput(s.ecg_record);
  s.classification->set_prompt(Text("Which rhythm?"));
  s.classification->AddTarget(TaskTarget::OfText("AF"));
  s.classification->set_target_schema("rhythm-v1");
  s.classification->set_split(Split::kTrain);
  s.classification->Annotate(
      std::make_shared<AnnotationContent>("difficulty", AnnotationValue::OfInteger(2)));

  s.answer = s.dataset->AddTask(TaskType::kAnswer);
  s.answer->set_prompt(Text("Name the rhythm classes."));
  s.answer->AddTargetAnnotation(s.vocabulary);
  s.answer->AddFromTask(s.classification);
  s.answer->set_rationale(Text("From the label vocabulary."));

  s.scalar = s.dataset->AddTask(TaskType::kScalarPrediction);
  s.scalar->AddInput(s.hr_record);
  s.scalar->AddTarget(TaskTarget::OfFloat(66.5));
  s.scalar->set_unit("bpm");
  s.scalar->set_target_name("mean_hr");
  s.scalar->set_split(Split::kValidation);
  s.scalar->AddInputAnnotation(s.hr_tags);

  s.localization = s.dataset->AddTask(TaskType::kTemporalLocalization);
  s.localization->AddInput(s.ecg_record);
  s.localization->set_mode(LocalizationMode::kExhaustive);
  s.localization->set_scope(ScopedSpan{TimeInterval{0, 5'000'000}, {s.lead_i, s.lead_ii}});
  s.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimeInterval{1'000'000, 2'000'000}, {}}));
  s.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimePoint{1'200'000}, {s.lead_i}}));
  s.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{StepInterval{500, 1000}, {s.lead_ii}}));
  s.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{StepPoint{4999}, {s.lead_ii}}));
  s.localization->AddInputAnnotation(s.af_on_lead);

  s.forecasting = s.dataset->AddTask(TaskType::kForecasting);
  s.forecasting->AddInput(s.ecg_record);
  s.forecasting->AddTarget(TaskTarget::OfRecord(s.audio_record));
  s.forecasting->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimeInterval{8'000'000, 9'000'000}, {}}));
  s.forecasting->AddFromTask(s.localization);
  s.forecasting->set_metadata({{"horizon", "1 s"}, {"note", "日本語"}});

  s.editing = s.dataset->AddTask(TaskType::kTsEditing);
  s.editing->AddInput(s.hr_record);
  s.editing->set_scope(ScopedSpan{StepPoint{1}, {s.hr_a}});
  s.editing->AddTarget(TaskTarget::OfRecord(s.notes_record));
  s.editing->set_rationale(Text(""));
  s.editing->set_import_marker(ImportMarker{"base", 3});

  s.generation = s.dataset->AddTask(TaskType::kTsGeneration);
  s.generation->set_prompt(Text("Generate one second of audio."));
  s.generation->AddTarget(TaskTarget::OfRecord(s.audio_record));
  s.generation->set_input_modalities(
      std::vector<InputModality>{InputModality::kText, InputModality::kNoInput});
  s.generation->set_split(Split::kTest);

  s.correspondence = s.dataset->AddTask(TaskType::kTsCorrespondence);
  s.correspondence->AddInput(s.ecg_record);
  s.correspondence->AddCandidateRecord(s.hr_record);
  s.correspondence->AddCandidateRecord(s.audio_record);
  s.correspondence->AddTarget(TaskTarget::OfRecord(s.hr_record));
  s.correspondence->AddTarget(TaskTarget::OfSignal(s.hr_b));
  s.correspondence->AddTarget(TaskTarget::OfInteger(1));
  s.correspondence->AddTarget(TaskTarget::OfBoolean(true));

  s.empty_answer = s.dataset->AddTask(TaskType::kAnswer);
  s.empty_answer->AddInput(s.notes_record);
  s.empty_answer->set_prompt(Text(""));
  s.empty_answer->set_targets(std::vector<TaskTarget>{});
  s.empty_answer->AddFromTask(s.answer);
  s.empty_answer->AddFromTask(s.forecasting);
  return s;
}

}  // namespace timef::model::testing
