// The tasks of hello-world: all eight task types, targets of every kind, a from_tasks chain
// classification → answer → scalar_prediction → answer, and one explicit empty answer.
#include <cmath>

#include "demo/hello_parts.h"
#include "demo/waveforms.h"
#include "timef/demo.h"

namespace timef::demo::internal {
namespace {

using model::AnnotationContent;
using model::AnnotationValue;
using model::InputModality;
using model::ScopedSpan;
using model::Split;
using model::StepInterval;
using model::StepPoint;
using model::TaskTarget;
using model::TaskType;
using model::TimeInterval;
using model::TimePoint;

// The answer of the scalar task is the real mean of the stored heart rate (nulls and NaN left
// out), so the task stays consistent with its input.
double MeanHeartRate(const model::Signal& signal) {
  auto values = signal.LoadValues();
  auto rates = values->values<double>();
  double sum = 0;
  int64_t n = 0;
  for (int64_t i = 0; i < signal.n_values(); ++i) {
    if (!values->IsValid(i) || std::isnan(rates[i])) continue;
    sum += rates[i];
    ++n;
  }
  return std::round(sum / static_cast<double>(n) * 100) / 100;
}

}  // namespace

void AddHelloTasks(model::Dataset& dataset, const HelloParts& parts) {
  // Chain link 1.
  auto classify = dataset.AddTask(TaskType::kClassification);
  classify->AddInput(parts.ecg_record);
  classify->set_prompt(model::Text(kClassificationPrompt));
  classify->AddTarget(TaskTarget::OfText("af"));
  classify->set_target_schema("rhythm-v1");
  classify->set_split(Split::kTrain);
  classify->Annotate(Content("difficulty", AnnotationValue::OfInteger(2)));

  // Chain link 2: a long text target and a long rationale.
  auto explain = dataset.AddTask(TaskType::kAnswer);
  explain->AddInput(parts.ecg_record);
  explain->set_prompt(model::Text("What is atrial fibrillation, and where is it in this record?"));
  explain->AddTarget(TaskTarget::OfText(kAnswerTarget));
  explain->set_rationale(model::Text(kAnswerRationale));
  explain->AddFromTask(classify);
  explain->set_split(Split::kTrain);

  // Chain link 3.
  auto mean_hr = dataset.AddTask(TaskType::kScalarPrediction);
  mean_hr->AddInput(parts.vitals_record);
  mean_hr->set_prompt(model::Text("Estimate the mean heart rate over the ten minutes."));
  mean_hr->AddTarget(TaskTarget::OfFloat(MeanHeartRate(*parts.heart_rate)));
  mean_hr->set_unit("bpm");
  mean_hr->set_target_name("mean_heart_rate");
  mean_hr->set_split(Split::kValidation);
  mean_hr->AddInputAnnotation(parts.heart_rate_tags);
  mean_hr->AddFromTask(explain);
  mean_hr->Annotate(Content("score", AnnotationValue::OfFloat(0.75)));

  // Chain link 4: answered by a registered annotation instead of inline targets.
  auto vocabulary = dataset.AddTask(TaskType::kAnswer);
  vocabulary->set_prompt(model::Text("List the rhythm labels used in this dataset."));
  vocabulary->AddTargetAnnotation(parts.vocabulary);
  vocabulary->AddFromTask(mean_hr);
  vocabulary->set_split(Split::kValidation);

  // Every span kind: time interval (whole record), time point and step spans on one lead.
  auto localize = dataset.AddTask(TaskType::kTemporalLocalization);
  localize->AddInput(parts.ecg_record);
  localize->set_mode(model::LocalizationMode::kExhaustive);
  localize->set_scope(ScopedSpan{TimeInterval{0, 150 * kSecond}, {parts.lead_i, parts.lead_ii}});
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimeInterval{60 * kSecond, 75 * kSecond}, {}}));
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimePoint{RPeakOffsetUs(0)}, {parts.lead_ii}}));
  localize->AddTarget(
      TaskTarget::OfSpan(ScopedSpan{StepInterval{15'000, 18'750}, {parts.lead_ii}}));
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{StepPoint{kNanStep}, {parts.lead_ii}}));
  localize->AddInputAnnotation(parts.episode_on_lead);
  localize->set_split(Split::kTest);
  localize->Annotate(Content("needs_review", AnnotationValue::Marker()));

  auto forecast = dataset.AddTask(TaskType::kForecasting);
  forecast->AddInput(parts.ecg_record);
  forecast->set_scope(ScopedSpan{TimeInterval{0, 150 * kSecond}, {}});
  forecast->AddTarget(TaskTarget::OfRecord(parts.generated_record));
  forecast->AddTarget(
      TaskTarget::OfSpan(ScopedSpan{TimeInterval{150 * kSecond, 160 * kSecond}, {}}));
  forecast->set_split(Split::kTrain);
  forecast->set_metadata({{"horizon_s", 10}});

  auto edit = dataset.AddTask(TaskType::kTsEditing);
  edit->AddInput(parts.ecg_record);
  edit->set_prompt(model::Text("Remove the artefact around the missing sample of lead II."));
  edit->set_scope(ScopedSpan{StepInterval{kNanStep - 250, kNanStep + 250}, {parts.lead_ii}});
  edit->AddTarget(TaskTarget::OfRecord(parts.generated_record));
  edit->set_split(Split::kValidation);

  auto generate = dataset.AddTask(TaskType::kTsGeneration);
  generate->set_prompt(
      model::Text("Generate ten seconds of normal sinus rhythm, lead II, 250 Hz."));
  generate->set_input_modalities(
      std::vector<InputModality>{InputModality::kText, InputModality::kNoInput});
  generate->AddTarget(TaskTarget::OfRecord(parts.generated_record));
  generate->set_split(Split::kTest);

  auto correspond = dataset.AddTask(TaskType::kTsCorrespondence);
  correspond->AddInput(parts.ecg_record);
  correspond->set_prompt(model::Text("Which candidate record comes from the same synthesizer?"));
  correspond->AddCandidateRecord(parts.vitals_record);
  correspond->AddCandidateRecord(parts.generated_record);
  correspond->AddTarget(TaskTarget::OfRecord(parts.generated_record));
  correspond->AddTarget(TaskTarget::OfSignal(parts.generated_lead));
  correspond->AddTarget(TaskTarget::OfInteger(1));
  correspond->AddTarget(TaskTarget::OfBoolean(true));
  correspond->set_split(Split::kTest);

  // An explicit empty answer on the record without a timeline, and no split.
  auto nothing = dataset.AddTask(TaskType::kAnswer);
  nothing->AddInput(parts.diary_record);
  nothing->set_prompt(model::Text(""));
  nothing->set_targets(std::vector<TaskTarget>{});
}

}  // namespace timef::demo::internal
