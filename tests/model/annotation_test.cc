// Annotation contents and occurrences (N1, N2): values, spans, windows, static-only owners,
// confidence, provenance, inheritance, descriptor conflicts.
#include <gtest/gtest.h>

#include <cmath>

#include "sample_dataset.h"
#include "test_util.h"

namespace timef::model {
namespace {

using testing::MakeSample;

std::shared_ptr<AnnotationContent> Content(const std::string& key,
                                           AnnotationValue value = AnnotationValue()) {
  return std::make_shared<AnnotationContent>(key, std::move(value));
}

TEST(AnnotationValueTest, EachKindKeepsItsType) {
  EXPECT_EQ(AnnotationValue().kind(), ValueKind::kMarker);
  EXPECT_EQ(AnnotationValue::OfText("x").kind(), ValueKind::kText);
  EXPECT_EQ(AnnotationValue::OfInteger(1).kind(), ValueKind::kInteger);
  EXPECT_EQ(AnnotationValue::OfFloat(1.0).kind(), ValueKind::kFloat);
  EXPECT_EQ(AnnotationValue::OfBoolean(true).kind(), ValueKind::kBoolean);
  EXPECT_EQ(AnnotationValue::OfTextList(TextList({"a"})).kind(), ValueKind::kTextList);
  EXPECT_FALSE(AnnotationValue::OfInteger(1) == AnnotationValue::OfBoolean(true));
  EXPECT_EQ(AnnotationValue::OfInteger(7).integer(), 7);
  EXPECT_TRUE(std::isnan(AnnotationValue::OfFloat(std::nan("")).float_value()));
  EXPECT_VALIDATION_ERROR(AnnotationValue::OfInteger(1).text(), "annotation value", "value_kind");
  EXPECT_EQ(ParseValueKind(ToString(ValueKind::kTextList)), ValueKind::kTextList);
}

TEST(AnnotationContentTest, KeyUnitAndDescriptionAreChecked) {
  EXPECT_VALIDATION_ERROR(AnnotationContent(""), "annotation", "name");
  EXPECT_VALIDATION_ERROR(AnnotationContent("bad\xff"), "annotation", "name");
  auto content = Content("gain", AnnotationValue::OfFloat(2));
  content->set_unit("uV");
  EXPECT_EQ(content->unit(), "microvolt");
  EXPECT_VALIDATION_ERROR(content->set_unit("parsecs"), "annotation 'gain'", "unit");
  EXPECT_VALIDATION_ERROR(content->set_description("bad\xff"), "annotation 'gain'", "description");
  EXPECT_VALIDATION_ERROR(content->set_metadata(Json::array()), "annotation 'gain'", "metadata");
}

TEST(AnnotationTest, OccurrenceFieldsAreChecked) {
  auto content = Content("label");
  EXPECT_VALIDATION_ERROR(Annotation(nullptr), "annotation", "content");
  EXPECT_VALIDATION_ERROR_MSG(Annotation(content, TimeInterval{5, 4}), "annotation 'label'", "span",
                              "start 5 > end 4");
  Annotation occurrence(content, TimeInterval{4, 4});
  EXPECT_VALIDATION_ERROR(occurrence.set_confidence(1.5), "annotation 'label'", "confidence");
  EXPECT_VALIDATION_ERROR(occurrence.set_confidence(-0.1), "annotation 'label'", "confidence");
  EXPECT_VALIDATION_ERROR(occurrence.set_confidence(std::nan("")), "annotation 'label'",
                          "confidence");
  EXPECT_NO_THROW(occurrence.set_confidence(1.0));
  EXPECT_VALIDATION_ERROR(occurrence.set_provenance(Json(std::nan(""))), "annotation 'label'",
                          "provenance");
  EXPECT_NO_THROW(occurrence.set_provenance(Json({{"source", "model"}})));
  EXPECT_VALIDATION_ERROR(occurrence.set_metadata(Json(3)), "annotation 'label'", "metadata");
  EXPECT_VALIDATION_ERROR(occurrence.set_inherited_from("Parent"), "annotation 'label'",
                          "inherited_from");
}

TEST(AnnotationTest, DatasetAndTaskAnnotationsAreStatic) {
  Dataset dataset("org/name", "1.0.0");
  EXPECT_VALIDATION_ERROR(dataset.Annotate(Content("k"), TimePoint{1}), "dataset org/name@1.0.0",
                          "annotations[0].span");
  Task task(TaskType::kAnswer);
  EXPECT_VALIDATION_ERROR(task.Annotate(Content("k"), TimeInterval{1, 2}), "task without id",
                          "annotations[0].span");
  EXPECT_VALIDATION_ERROR(
      dataset.RegisterAnnotation(std::make_shared<Annotation>(Content("k"), TimePoint{1})),
      "dataset org/name", "registered_annotations[0].span");
  // A span changed after attaching is caught by Validate.
  auto s = MakeSample();
  s.vocabulary->set_span(TimePoint{3});
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "dataset demo/hello-world@1.0.0",
                          "registered_annotations[0].span");
  auto t = MakeSample();
  t.classification->annotations()[0]->set_span(TimePoint{3});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 0", "annotations[0].span");
}

TEST(AnnotationTest, TimeSpansNeedATimeline) {
  auto s = MakeSample();
  s.notes->Annotate(Content("word"), TimePoint{0});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "signal 'notes'", "annotations[0].span",
                              "ordinal");
  auto t = MakeSample();
  t.notes_record->Annotate(Content("word"), TimeInterval{0, 1});
  EXPECT_VALIDATION_ERROR_MSG(t.dataset->Validate(), "record at position 2", "annotations[0].span",
                              "no time span and only ordinal signals");
  // A record with a time span has a timeline even with ordinal signals only.
  auto u = MakeSample();
  u.notes_record->set_time_span(TimeInterval{0, 10});
  u.notes_record->Annotate(Content("word"), TimeInterval{0, 1});
  EXPECT_NO_THROW(u.dataset->Validate());
  // A record without time span but with a non-ordinal signal has one too (a span within the
  // signals' extent, AnnotationTest.SpansLieInsideTheSignalsExtentWithoutATimeSpan).
  auto v = MakeSample();
  v.hr_record->Annotate(Content("late"), TimePoint{3'000'000});
  EXPECT_NO_THROW(v.dataset->Validate());
}

TEST(AnnotationTest, SpansLieInsideTheRecordTimeSpan) {
  auto s = MakeSample();
  s.ecg_record->Annotate(Content("beat", AnnotationValue::OfInteger(2)), TimePoint{10'000'000});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record at position 0", "annotations[3].span",
                              "point 10000000 lies outside");
  auto t = MakeSample();
  t.lead_i->Annotate(t.af_label, TimeInterval{9'000'000, 10'000'001});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "signal 'lead_I'", "annotations[1].span");
  auto u = MakeSample();
  u.ecg_source->Annotate(Content("gain", AnnotationValue::OfFloat(1)), TimePoint{-1});
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "source 'ecg' of record at position 0",
                          "annotations[1].span");
  // The end of an interval may touch the end of the window (half-open).
  auto v = MakeSample();
  v.lead_i->Annotate(v.af_label, TimeInterval{9'000'000, 10'000'000});
  EXPECT_NO_THROW(v.dataset->Validate());
}

// Without a time span, the record's extent runs from its signals' first sample to one sample period
// past their last (docs/format.md §14.1 "Annotations outside their record").
TEST(AnnotationTest, SpansLieInsideTheSignalsExtentWithoutATimeSpan) {
  // hr_record: irregular samples at 0, 0.9, 2.0, 3.1 s (mean spacing 1,033,333 µs), no time span.
  auto s = MakeSample();
  s.hr_record->Annotate(Content("beat", AnnotationValue::OfInteger(1)), TimePoint{99'000'000'000});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record at position 1", "annotations[1].span",
                              "annotation 'beat': the span point 99000000000 lies outside "
                              "record at position 1's extent");
  try {
    s.dataset->Validate();
  } catch (const ValidationError& e) {
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("[0, 4133333) µs"));
  }
  auto t = MakeSample();
  t.hr_a->Annotate(Content("artifact"), TimeInterval{3'000'000, 4'200'000});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "signal 'hr_a'", "annotations[1].span");
  auto u = MakeSample();
  u.hr_record->Annotate(Content("early"), TimePoint{-1});
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "record at position 1", "annotations[1].span");
  // Within one sample period past the last sample, and an interval ending at the extent's end.
  auto v = MakeSample();
  v.hr_record->Annotate(Content("late"), TimePoint{4'133'332});
  v.hr_b->Annotate(Content("all"), TimeInterval{0, 4'133'333});
  EXPECT_NO_THROW(v.dataset->Validate());
  // A regular signal at 1 s: 10 samples reach [0, 10 s); the extent is the union over signals.
  auto w = MakeSample();
  auto record = w.dataset->AddRecord();
  auto source = record->AddSource("s");
  auto spec = Spec::Make({.spec_type = "temp", .dtype = DType::kFloat32});
  source->AddSignal(std::make_shared<Signal>("a", spec, TimeAxis::Regular(1'000'000),
                                             ValueArray::Of<float>(std::vector<float>(10, 1))));
  source->AddSignal(std::make_shared<Signal>("b", spec, TimeAxis::Regular(1'000'000, 1, 20),
                                             ValueArray::Of<float>(std::vector<float>(2, 1))));
  // Between a and b: inside the extent (first sample of any signal to past the last of any).
  record->Annotate(Content("gap"), TimePoint{15'000'000});
  record->Annotate(Content("end"), TimeInterval{20'000'000, 22'000'000});
  EXPECT_NO_THROW(w.dataset->Validate());
  record->Annotate(Content("past"), TimePoint{22'000'000});
  EXPECT_VALIDATION_ERROR_MSG(w.dataset->Validate(), "record at position 4", "annotations[2].span",
                              "[0, 22000000) µs");
}

TEST(AnnotationTest, AnOccurrenceBelongsToOneObject) {
  auto s = MakeSample();
  s.lead_ii->AddAnnotation(s.af_on_lead);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "signal 'lead_II'", "annotations[0]",
                              "already attached to signal 'lead_I'");
  auto t = MakeSample();
  t.dataset->RegisterAnnotation(t.hr_tags);
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "dataset demo/hello-world",
                          "registered_annotations[1]");
}

TEST(AnnotationTest, InheritedAnnotationsNameAKnownParent) {
  auto s = MakeSample();
  s.af_on_record->set_inherited_from("elsewhere");
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record at position 0",
                              "annotations[2].inherited_from", "not one of the dataset's parents");
}

TEST(AnnotationTest, InlineTextValuesAreUtf8) {
  auto s = MakeSample();
  s.hr_b->Annotate(Content("note", AnnotationValue::OfText("bad\xc3")));
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "signal 'hr_b'", "annotations[0].content.value");
  auto t = MakeSample();
  t.hr_b->Annotate(Content("tags", AnnotationValue::OfTextList(TextList({"ok", "\xff"}))));
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "signal 'hr_b'",
                          "annotations[0].content.value[1]");
}

TEST(DescriptorTest, OneKeyHasOneShape) {
  auto s = MakeSample();
  s.audio_record->Annotate(Content("episode", AnnotationValue::OfText("AF")), TimePoint{5});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record", "annotations[0].span",
                              "annotation key 'episode' has conflicting span");
  auto t = MakeSample();
  t.audio_record->Annotate(Content("episode", AnnotationValue::OfInteger(1)), TimeInterval{0, 5});
  EXPECT_VALIDATION_ERROR_MSG(t.dataset->Validate(), "record", "annotations[0].value",
                              "int here, str before");
  auto u = MakeSample();
  auto volts = Content("gain", AnnotationValue::OfFloat(1));
  volts->set_unit("V");
  u.audio_record->Annotate(volts);
  EXPECT_VALIDATION_ERROR_MSG(u.dataset->Validate(), "record", "annotations[0].unit",
                              "'volt' here, 'millivolt' before");
  auto v = MakeSample();
  auto described = Content("episode", AnnotationValue::OfText("N"));
  described->set_description("something else");
  v.audio_record->Annotate(described, TimeInterval{0, 5});
  EXPECT_VALIDATION_ERROR(v.dataset->Validate(), "record", "annotations[0].description");
  // A missing unit or description yields to a present one.
  auto w = MakeSample();
  w.audio_record->Annotate(Content("gain", AnnotationValue::OfFloat(3)));
  w.audio_record->Annotate(Content("episode", AnnotationValue::OfText("N")), TimeInterval{0, 5});
  EXPECT_NO_THROW(w.dataset->Validate());
  auto schema = DeriveSchema(*w.dataset);
  EXPECT_EQ(schema.annotations[3].description, "rhythm episode");
}

}  // namespace
}  // namespace timef::model
