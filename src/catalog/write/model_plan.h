// The plan step of WriteCatalog (docs/format.md §6.10): every storage key assigned in one walk over
// the dataset, chunk and offsets locators taken from the PayloadSink, packed text keyed in packing
// order. Nothing here touches the catalog file; model_rows.h writes the plan's rows.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "catalog/write/payload_sink.h"
#include "core/locators.h"
#include "timef/model.h"

namespace timef::catalog {

struct SourceRow {
  const model::Source* source;
  int64_t key;
  int64_t record_key;
  std::optional<int64_t> parent_key;
};
struct SignalRow {
  const model::Signal* signal;
  int64_t key;
  int64_t source_key;
  int64_t axis_key;
  std::vector<ChunkLocator> chunks;
};
struct OccurrenceRow {
  const model::Annotation* annotation;
  int64_t key;
  int64_t content_key;
  std::string_view object_type;
  int64_t object_key;
};

// Every key of §6.7 and every locator, assigned before anything touches the catalog file.
struct Plan {
  std::vector<std::pair<const model::Record*, int64_t>> records;
  std::vector<std::optional<int64_t>> clocks;  // clock_id = index + 1
  std::vector<int64_t> record_clock;           // per record
  std::vector<SourceRow> sources;
  std::vector<SignalRow> signals;
  std::vector<std::pair<const model::TimeAxis*, std::optional<OffsetsLocator>>> axes;
  std::vector<std::pair<const model::Task*, int64_t>> tasks;  // by task_id
  std::vector<const model::AnnotationContent*> contents;      // content_key = index + 1
  std::vector<OccurrenceRow> occurrences;
  std::vector<std::pair<const model::Annotation*, int64_t>> registered;
  // Packed text: text_key = index + 1; the keys below are per plan.tasks / plan.contents index.
  std::vector<std::pair<TextLocator, std::string_view>> texts;  // (locator, kind)
  std::vector<std::optional<int64_t>> prompt_keys;
  std::vector<std::optional<int64_t>> rationale_keys;
  std::vector<std::vector<std::optional<int64_t>>> target_keys;  // by target position
  std::vector<std::optional<int64_t>> content_keys;              // text or text-list value

  std::unordered_map<const void*, int64_t> object_key;
  std::unordered_map<const model::TimeAxis*, int64_t> axis_key;
  std::map<std::optional<int64_t>, int64_t> clock_id;
  std::unordered_map<const model::AnnotationContent*, int64_t> content_key;
  std::unordered_map<const model::Annotation*, int64_t> occurrence_key;
};

// The plan of `dataset` (IDs assigned, validated), asking `sink` for locators in the order
// payload_sink.h documents. ValidationError for an irregular axis without offsets, a packed
// length that differs from the value, or one annotation occurrence attached twice.
Plan PlanCatalog(const model::Dataset& dataset, PayloadSink& sink);

// read_order of each record (by plan.records index): §6.6 K(r), records without chunks last,
// ties by record_id.
std::vector<int64_t> ReadOrder(const Plan& plan);

}  // namespace timef::catalog
