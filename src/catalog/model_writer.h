// Writes a model::Dataset into a new control.duckdb (FORMAT.md §6): keys assigned as §6.7 says,
// every table filled through the appender API inside the data transaction, rows in key order.
//
// The catalog writes no values or payload files itself: where values, offsets and packed text live
// is supplied by the caller as locators.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/audit.h"
#include "timef/model.h"

namespace timef::catalog {

// One row of signal_chunks without its signal_key and chunk_index (those follow from position).
struct ChunkLocator {
  std::optional<std::string> payload_source;  // nullopt = this release
  std::string value_path;
  int64_t major = 0;
  std::optional<int64_t> minor;
  int64_t n_values = 0;
  bool operator==(const ChunkLocator&) const = default;
};

// The offsets_* columns of an irregular axis.
struct OffsetsLocator {
  std::optional<std::string> payload_source;
  std::string path;
  int64_t row = 0;
  int64_t n_values = 0;
  std::string digest;  // "sha256:<64 hex>"
  // The axis's first and last offsets as the catalog stores them: set by the hydrator so a reader
  // can check the payload against them; WriteCatalog takes them from the axis and ignores these.
  int64_t first_us = 0;
  int64_t last_us = 0;
  bool operator==(const OffsetsLocator&) const = default;
};

// Where one packed text or text list lives (a text_payloads row without its text_key and kind).
struct PackedText {
  std::optional<std::string> payload_source;  // nullopt = this release
  std::string file;
  int64_t row = 0;     // 0-based row in the file
  int64_t length = 0;  // UTF-8 bytes (text) or element count (text list); must equal size()
  bool operator==(const PackedText&) const = default;
};

struct ModelWriteOptions {
  // Also reachable as ModelWriteOptions::PackedText.
  using PackedText = catalog::PackedText;
  // The chunks of one signal; null or an empty answer = no chunk rows for it.
  std::function<std::vector<ChunkLocator>(const model::Signal&)> chunks;
  // The locator of an irregular axis's offsets (called once per distinct axis object). An
  // irregular axis without one raises ValidationError: the catalog has no inline offsets.
  std::function<std::optional<OffsetsLocator>(const model::TimeAxis&)> offsets;
  // Packing of text-bearing values (§6.4 "Packed text"): nullopt or an unset hook = store inline
  // (a lazy Text is then read). Called once per present value, in packing order: every task's
  // prompt then rationale (tasks by task_id); then every text target (by task_id, position); then
  // every text or text-list annotation content (by content_key). text_key = 1, 2, 3, … follows
  // the order of the values packed.
  std::function<std::optional<PackedText>(const model::Text&)> pack_text;
  std::function<std::optional<PackedText>(const model::TextList&)> pack_text_list;
};

// What was written, for the manifest's counts block and files lists.
struct ModelWriteSummary {
  AuditCounts counts;
  std::vector<std::string> time_series_paths;  // own value paths used, sorted, distinct
  std::vector<std::string> payload_paths;      // own offsets and text files used, sorted, distinct
  model::IdHighWater high_water;
};

// Assigns missing IDs (Dataset::AssignIds), validates (Dataset::Validate) and writes `path`,
// which must not exist. Any error raises before or while writing, and the file is deleted.
ModelWriteSummary WriteCatalog(const std::filesystem::path& path, model::Dataset& dataset,
                               const ModelWriteOptions& options = {});

// The audit facts of a catalog written by WriteCatalog: identity, counts, derived schema, own
// files. Values backend "parquet".
AuditFacts ModelAuditFacts(const model::Dataset& dataset, const ModelWriteSummary& summary);

}  // namespace timef::catalog
