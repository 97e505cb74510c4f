// A unit of data: signals recorded together under a tree of sources, a wall-clock anchor, an
// optional time span, metadata and annotations.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "timef/json.h"
#include "timef/model/annotation.h"
#include "timef/model/import_marker.h"
#include "timef/model/source.h"
#include "timef/model/span.h"

namespace timef::model {

// Ownership, lifetime, threading and errors: the model objects' contract (annotation.h,
// Annotatable).
// Owned by std::shared_ptr (its root sources point back at it weakly: Source::record()).
class Record final : public Annotatable, public std::enable_shared_from_this<Record> {
 public:
  Record() = default;

  // Public ID (> 0), or nullopt until assigned.
  std::optional<int64_t> id() const { return id_; }
  void set_id(std::optional<int64_t> id);
  // Unix time (µs, UTC) of the record's zero; nullopt = no calendar anchor.
  std::optional<int64_t> start_time_us() const { return start_time_us_; }
  void set_start_time_us(std::optional<int64_t> start) { start_time_us_ = start; }
  // Half-open window [start, end) of offsets containing every signal's sample times; start ≤ end.
  const std::optional<TimeInterval>& time_span() const { return time_span_; }
  void set_time_span(std::optional<TimeInterval> span);
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

  // Root sources in caller order.
  const std::vector<std::shared_ptr<Source>>& sources() const { return sources_; }
  // ValidationError when the source has a parent. Makes this record the source's record().
  void AddSource(std::shared_ptr<Source> source);
  std::shared_ptr<Source> AddSource(std::string name);
  // Every signal: root sources in order, each walked in pre-order (§4 ID order).
  std::vector<std::shared_ptr<Signal>> Signals() const;

  // "record 12", or "record without id".
  std::string Describe() const override;

 private:
  std::optional<int64_t> id_;
  std::optional<int64_t> start_time_us_;
  std::optional<TimeInterval> time_span_;
  Json metadata_;  // null until set (no allocation): metadata() is then the empty object
  std::optional<ImportMarker> import_marker_;
  std::optional<std::string> read_from_dataset_;
  std::vector<std::shared_ptr<Source>> sources_;
};

}  // namespace timef::model
