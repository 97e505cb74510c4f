// A leaf time series: name, spec, axis, number of timesteps, metadata, annotations and values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "timef/json.h"
#include "timef/model/annotation.h"
#include "timef/model/import_marker.h"
#include "timef/model/spec.h"
#include "timef/model/time_axis.h"
#include "timef/model/values.h"

namespace timef::model {

class Source;

// Ownership, lifetime, threading and errors: the model objects' contract (annotation.h,
// Annotatable).
class Signal final : public Annotatable {
 public:
  // Checks the spec rules, n_values > 0, and that an irregular axis has n_values offsets.
  // Throws ValidationError naming the signal and the field.
  Signal(std::string name, std::shared_ptr<const Spec> spec, std::shared_ptr<const TimeAxis> axis,
         int64_t n_values);
  // n_values = values.size() / spec.StepWidth(); the values are conformed as by SetValues().
  Signal(std::string name, std::shared_ptr<const Spec> spec, std::shared_ptr<const TimeAxis> axis,
         ValueArray values);

  // Public ID (> 0), or nullopt until assigned (Dataset::AssignIds).
  std::optional<int64_t> id() const { return id_; }
  void set_id(std::optional<int64_t> id);
  const std::string& name() const { return name_; }
  void set_name(std::string name);
  const std::shared_ptr<const Spec>& spec() const { return spec_; }
  const std::shared_ptr<const TimeAxis>& axis() const { return axis_; }
  // Timesteps (not scalars).
  int64_t n_values() const { return n_values_; }
  // Free-text label of the raw recording; not a Source reference.
  const std::optional<std::string>& source_id() const { return source_id_; }
  void set_source_id(std::optional<std::string> label) { source_id_ = std::move(label); }
  // An object; the empty object until set.
  const Json& metadata() const { return metadata_.is_null() ? EmptyJsonObject() : metadata_; }
  void set_metadata(Json metadata);
  const std::optional<ImportMarker>& import_marker() const { return import_marker_; }
  void set_import_marker(std::optional<ImportMarker> marker);
  // The dataset_id of the release this object was read from (set by the reader); nullopt for an
  // object built in memory. Written into another dataset without an import, the object is new
  // there and gets a new ID (docs/format.md §4).
  const std::optional<std::string>& read_from_dataset() const { return read_from_dataset_; }
  void set_read_from_dataset(std::optional<std::string> dataset_id) {
    read_from_dataset_ = std::move(dataset_id);
  }

  // The Source holding this signal, or null.
  std::shared_ptr<Source> source() const { return source_.lock(); }

  // ---- values ----
  // Null until one of the setters below is called.
  const std::shared_ptr<const SignalValues>& values() const { return values_; }
  bool has_values() const { return values_ != nullptr; }
  // Holds `values` in memory after ConformValues().
  void SetValues(ValueArray values);
  // The writer calls `loader` when it needs the values and conforms the result (LoadValues()).
  void SetLoader(LoaderValues::Loader loader);
  // The writer calls `loader` once and takes the values piece by piece, in bounded memory
  // (values.h, "values in pieces"); each piece is conformed (ConformPiece()) on the way.
  void SetPieceLoader(PieceLoader loader);
  // True when the values come from a piece loader.
  bool has_piecewise_values() const;
  // Any other source, e.g. a reader's lazy handle; its values are trusted to fit the spec.
  void SetValuesSource(std::shared_ptr<const SignalValues> source);

  // Checks `values` against the spec and n_values and returns them in canonical form (enum labels
  // become codes): dtype, n_values·StepWidth() scalars, validity of n_values bytes, no null in a
  // non-nullable spec, enum codes/labels within the categories, bool values 0 or 1, str values
  // UTF-8. Throws ValidationError naming the signal and "values".
  ValueArray ConformValues(ValueArray values) const;
  // ConformValues for a piece of whole timesteps starting at step `first_step`: ValidationError
  // when it is not whole steps, brings the signal past n_values, or fails the checks above
  // (indices in messages count from the signal's first step).
  ValueArray ConformPiece(ValueArray piece, int64_t first_step) const;
  // One pass over the values in order, conformed: a piece loader's pieces as they come (empty
  // ones skipped), any other source as one piece. After the last piece, ValidationError when the
  // pieces held other than n_values steps. `emit` runs on the calling thread.
  void VisitValues(const PieceSink& emit) const;
  // Every value; a loader's result is conformed, a piece loader's pieces are gathered (unbounded
  // memory). ValidationError when no values were set.
  std::shared_ptr<const ValueArray> LoadValues() const;
  // Timesteps [begin, end): end is clamped to n_values; begin < 0 or begin > end raises
  // ValidationError. An empty window keeps the dtype.
  ValueArray ReadSteps(int64_t begin, int64_t end) const;

  // "signal 5 'lead_I'", or "signal 'lead_I'" before an ID is assigned.
  std::string Describe() const override;

 private:
  friend class Source;
  void CheckShape() const;
  // The checks of ConformValues after the sizes: nulls, enum, bool, str.
  ValueArray ConformContent(ValueArray values, int64_t first_step) const;

  std::optional<int64_t> id_;
  std::string name_;
  std::shared_ptr<const Spec> spec_;
  std::shared_ptr<const TimeAxis> axis_;
  int64_t n_values_ = 0;
  std::optional<std::string> source_id_;
  Json metadata_;  // null until set (no allocation): metadata() is then the empty object
  std::optional<ImportMarker> import_marker_;
  std::optional<std::string> read_from_dataset_;
  std::shared_ptr<const SignalValues> values_;
  std::weak_ptr<Source> source_;
};

}  // namespace timef::model
