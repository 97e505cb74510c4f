#include "timef/model/annotation.h"

#include <cmath>

#include "core/enum_table.h"
#include "model/checks.h"
#include "timef/error.h"
#include "timef/ids.h"
#include "timef/units.h"

namespace timef {

TIMEF_ENUM_TABLE(model::ValueKind, {model::ValueKind::kMarker, "marker"},
                 {model::ValueKind::kText, "text"}, {model::ValueKind::kInteger, "integer"},
                 {model::ValueKind::kFloat, "float"}, {model::ValueKind::kBoolean, "boolean"},
                 {model::ValueKind::kTextList, "text_list"})

}  // namespace timef

namespace timef::model {
namespace {

void CheckSpanShape(const AnnotationSpan& span, const std::string& object,
                    const std::string& where) {
  if (const auto* interval = std::get_if<TimeInterval>(&span)) {
    if (interval->start_us > interval->end_us) {
      internal::Fail(object, where,
                     "interval start " + std::to_string(interval->start_us) + " > end " +
                         std::to_string(interval->end_us));
    }
  }
}

}  // namespace

const std::string& ToString(ValueKind kind) { return core::EnumNameString(kind); }
std::optional<ValueKind> ParseValueKind(std::string_view text) {
  return core::EnumFromName<ValueKind>(text);
}

AnnotationValue AnnotationValue::OfText(Text value) {
  AnnotationValue out;
  out.value_ = std::move(value);
  return out;
}
AnnotationValue AnnotationValue::OfInteger(int64_t value) {
  AnnotationValue out;
  out.value_.emplace<int64_t>(value);
  return out;
}
AnnotationValue AnnotationValue::OfFloat(double value) {
  AnnotationValue out;
  out.value_.emplace<double>(value);
  return out;
}
AnnotationValue AnnotationValue::OfBoolean(bool value) {
  AnnotationValue out;
  out.value_.emplace<bool>(value);
  return out;
}
AnnotationValue AnnotationValue::OfTextList(TextList value) {
  AnnotationValue out;
  out.value_ = std::move(value);
  return out;
}

namespace {
template <class T>
const T& Held(const std::variant<std::monostate, Text, int64_t, double, bool, TextList>& value,
              ValueKind wanted) {
  const T* held = std::get_if<T>(&value);
  if (held == nullptr) {
    internal::Fail("annotation value", "value_kind",
                   "the value is " + std::string(ToString(static_cast<ValueKind>(value.index()))) +
                       ", not " + std::string(ToString(wanted)));
  }
  return *held;
}
}  // namespace

const Text& AnnotationValue::text() const { return Held<Text>(value_, ValueKind::kText); }
int64_t AnnotationValue::integer() const { return Held<int64_t>(value_, ValueKind::kInteger); }
double AnnotationValue::float_value() const { return Held<double>(value_, ValueKind::kFloat); }
bool AnnotationValue::boolean() const { return Held<bool>(value_, ValueKind::kBoolean); }
const TextList& AnnotationValue::text_list() const {
  return Held<TextList>(value_, ValueKind::kTextList);
}

AnnotationContent::AnnotationContent(std::string name, AnnotationValue value)
    : name_(std::move(name)), value_(std::move(value)) {
  if (name_.empty()) internal::Fail("annotation ''", "name", "an annotation key must not be empty");
  internal::CheckUtf8(
      name_, [this] { return Describe(); }, "name");
}

void AnnotationContent::set_unit(std::optional<std::string_view> unit) {
  if (!unit) {
    unit_.reset();
    return;
  }
  auto canonical = ParseUnit(*unit);
  if (!canonical) {
    internal::Fail(Describe(), "unit", "unit " + internal::Quoted(*unit) + " does not parse");
  }
  unit_ = std::move(*canonical);
}

void AnnotationContent::set_description(std::optional<std::string> description) {
  if (description)
    internal::CheckUtf8(
        *description, [this] { return Describe(); }, "description");
  description_ = std::move(description);
}

void AnnotationContent::set_metadata(Json metadata) {
  internal::CheckMetadata(
      metadata, [this] { return Describe(); }, "metadata");
  metadata_ = std::move(metadata);
}

std::string AnnotationContent::Describe() const { return "annotation " + internal::Quoted(name_); }

Annotation::Annotation(std::shared_ptr<const AnnotationContent> content, AnnotationSpan span)
    : content_(std::move(content)) {
  if (!content_) internal::Fail("annotation", "content", "an occurrence needs a content");
  set_span(std::move(span));
}

void Annotation::set_span(AnnotationSpan span) {
  CheckSpanShape(span, Describe(), "span");
  span_ = span;
}

void Annotation::set_provenance(std::optional<Json> provenance) {
  if (provenance)
    internal::CheckJsonValue(
        *provenance, [this] { return Describe(); }, "provenance");
  provenance_ = std::move(provenance);
}

void Annotation::set_confidence(std::optional<double> confidence) {
  if (confidence && !(*confidence >= 0.0 && *confidence <= 1.0)) {
    internal::Fail(Describe(), "confidence",
                   "confidence must lie in [0, 1], got " + std::to_string(*confidence));
  }
  confidence_ = confidence;
}

void Annotation::set_metadata(Json metadata) {
  internal::CheckMetadata(
      metadata, [this] { return Describe(); }, "metadata");
  metadata_ = std::move(metadata);
}

void Annotation::set_inherited_from(std::optional<std::string> alias) {
  if (alias && !IsValidAlias(*alias)) {
    internal::Fail(Describe(), "inherited_from",
                   "parent alias " + internal::Quoted(*alias) + " must match ^[a-z][a-z0-9_-]*$");
  }
  inherited_from_ = std::move(alias);
}

std::shared_ptr<Annotation> Annotatable::Annotate(std::shared_ptr<const AnnotationContent> content,
                                                  AnnotationSpan span) {
  auto occurrence = std::make_shared<Annotation>(std::move(content), std::move(span));
  AddAnnotation(occurrence);
  return occurrence;
}

void Annotatable::AddAnnotation(std::shared_ptr<Annotation> occurrence) {
  const std::string where = "annotations[" + std::to_string(annotations_.size()) + "]";
  if (!occurrence) internal::Fail(Describe(), where, "an annotation must not be null");
  if (!allows_time_spans() && !std::holds_alternative<StaticSpan>(occurrence->span())) {
    internal::Fail(Describe(), where + ".span",
                   "annotations of this object are static, got a " +
                       std::string(SpanTypeName(occurrence->span())) + " span");
  }
  annotations_.push_back(std::move(occurrence));
}

}  // namespace timef::model
