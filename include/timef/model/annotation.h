// Annotations (docs/format.md §6.3–§6.4): a reusable content (key, value, unit, description,
// metadata) and its occurrences (one attachment of a content to one object, with a span,
// provenance, confidence and metadata). One content carried by many objects is one
// AnnotationContent object; the catalog stores it once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "timef/json.h"
#include "timef/model/span.h"
#include "timef/model/text.h"
#include "timef/vocabulary.h"

namespace timef::model {

// Catalog value_kind: text, integer, float, boolean, text_list; a marker has none (NULL).
enum class ValueKind { kMarker, kText, kInteger, kFloat, kBoolean, kTextList };

// "marker" for kMarker (stored as NULL), else the catalog name.
const std::string& ToString(ValueKind kind);
std::optional<ValueKind> ParseValueKind(std::string_view text);
// The schema value type of an annotation of `kind` (§5.3); nullopt for a marker, which has none.
std::optional<::timef::AnnotationValueType> ValueTypeOf(ValueKind kind);

class AnnotationValue {
 public:
  AnnotationValue() = default;  // a marker
  static AnnotationValue Marker() { return AnnotationValue(); }
  static AnnotationValue OfText(Text value);
  static AnnotationValue OfInteger(int64_t value);
  static AnnotationValue OfFloat(double value);  // any double, NaN included
  static AnnotationValue OfBoolean(bool value);
  static AnnotationValue OfTextList(TextList value);

  ValueKind kind() const { return static_cast<ValueKind>(value_.index()); }
  // Each accessor throws ValidationError when the kind differs.
  const Text& text() const;
  int64_t integer() const;
  double float_value() const;
  bool boolean() const;
  const TextList& text_list() const;

  bool operator==(const AnnotationValue&) const = default;

 private:
  std::variant<std::monostate, Text, int64_t, double, bool, TextList> value_;
};

class AnnotationContent {
 public:
  // `name` is the annotation key: non-empty UTF-8.
  explicit AnnotationContent(std::string name, AnnotationValue value = AnnotationValue());

  const std::string& name() const { return name_; }
  const AnnotationValue& value() const { return value_; }
  void set_value(AnnotationValue value) { value_ = std::move(value); }
  // Canonical unit, nullopt when unknown. set_unit canonicalizes aliases (ValidationError when
  // the unit does not parse).
  const std::optional<std::string>& unit() const { return unit_; }
  void set_unit(std::optional<std::string_view> unit);
  const std::optional<std::string>& description() const { return description_; }
  void set_description(std::optional<std::string> description);
  // A JSON object; {} when empty.
  // An object; the empty object until set.
  const Json& metadata() const { return metadata_.is_null() ? EmptyJsonObject() : metadata_; }
  void set_metadata(Json metadata);

  // "annotation '<name>'".
  std::string Describe() const;

 private:
  std::string name_;
  AnnotationValue value_;
  std::optional<std::string> unit_;
  std::optional<std::string> description_;
  Json metadata_;  // null until set (no allocation): metadata() is then the empty object
};

// One occurrence of a content on one object (or a registered annotation of the dataset).
class Annotation {
 public:
  explicit Annotation(std::shared_ptr<const AnnotationContent> content,
                      AnnotationSpan span = StaticSpan{});

  const std::shared_ptr<const AnnotationContent>& content() const { return content_; }
  const std::string& key() const { return content_->name(); }
  const AnnotationSpan& span() const { return span_; }
  // An interval needs start ≤ end (ValidationError).
  void set_span(AnnotationSpan span);
  // JSON of the stated source (any JSON value), or nullopt.
  const std::optional<Json>& provenance() const { return provenance_; }
  void set_provenance(std::optional<Json> provenance);
  // In [0, 1], or nullopt.
  std::optional<double> confidence() const { return confidence_; }
  void set_confidence(std::optional<double> confidence);
  // An object; the empty object until set.
  const Json& metadata() const { return metadata_.is_null() ? EmptyJsonObject() : metadata_; }
  void set_metadata(Json metadata);
  // The parent alias this occurrence was inherited from (parent-owned), or nullopt for the
  // dataset's own annotations and overlays.
  const std::optional<std::string>& inherited_from() const { return inherited_from_; }
  bool inherited() const { return inherited_from_.has_value(); }
  void set_inherited_from(std::optional<std::string> alias);

  std::string Describe() const { return content_->Describe(); }

 private:
  std::shared_ptr<const AnnotationContent> content_;
  AnnotationSpan span_;
  std::optional<Json> provenance_;
  std::optional<double> confidence_;
  Json metadata_;  // null until set (no allocation): metadata() is then the empty object
  std::optional<std::string> inherited_from_;
};

// Base of the five objects that carry annotations: Dataset, Record, Source, Signal, Task. Those
// objects have identity (they are shared by pointer), so they are not copyable.
//
// The contract of every model object (Dataset, Record, Source, Signal, Task and the annotations
// and values they hold), stated once here:
// - Ownership and lifetime: objects are held by std::shared_ptr. Ownership points down the tree:
//   a Dataset owns its records and tasks, a Record its sources, a Source its child sources and
//   signals, every object its annotation occurrences; pointers up the tree (Source::parent(),
//   Source::record()) are weak. A task shares ownership of the records it uses (inputs,
//   candidates) with the dataset. An occurrence shares its content with every other object that
//   carries it. Objects a Reader returns are owned by the caller and outlive the Reader (reader.h
//   says what their lazy values keep).
// - Threading: no internal locking. Mutating an object (set_*, Add*, Annotate, SetValues…)
//   needs exclusive access to it and to the tree it belongs to; any number of threads may call
//   const members of objects nobody mutates. Values behind a reader's lazy handle may be loaded
//   from any thread (reader.h); a user's loader or piece loader runs on the thread that asks for
//   the values and must be safe to call there.
// - Errors: every check throws ValidationError naming the object (Describe()) and the field.
class Annotatable {
 public:
  Annotatable() = default;
  Annotatable(const Annotatable&) = delete;
  Annotatable& operator=(const Annotatable&) = delete;
  virtual ~Annotatable() = default;

  // Names the object in error messages, e.g. "record 12", "signal 5 'lead_I'", "task 7".
  virtual std::string Describe() const = 0;
  // Dataset and Task annotations are static; the others may carry time spans.
  virtual bool allows_time_spans() const { return true; }

  // Occurrences in attach order.
  const std::vector<std::shared_ptr<Annotation>>& annotations() const { return annotations_; }
  // Attaches a new occurrence of `content` and returns it.
  std::shared_ptr<Annotation> Annotate(std::shared_ptr<const AnnotationContent> content,
                                       AnnotationSpan span = StaticSpan{});
  // Attaches an existing occurrence. ValidationError for null, or a time span on an object whose
  // annotations are static.
  void AddAnnotation(std::shared_ptr<Annotation> occurrence);
  void ClearAnnotations() { annotations_.clear(); }

 private:
  std::vector<std::shared_ptr<Annotation>> annotations_;
};

}  // namespace timef::model
