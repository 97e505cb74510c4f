// V1 chunk locators, V2 listed files, P2 payload sources equal the files the locators use.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "catalog/audit/audit_probe.h"
#include "core/paths.h"
#include "timef/ids.h"

namespace timef::catalog::audit {
namespace {

constexpr std::string_view kZarrPrefix = "time_series.zarr/";

// One distinct (table, payload_source, path) a locator names.
struct Locator {
  std::string table;
  std::optional<std::string> source;
  std::string path;
};

std::vector<Locator> DistinctLocators(const Context& ctx) {
  std::vector<Locator> out;
  for (const Row& row :
       Rows(ctx,
            "SELECT DISTINCT 'signal_chunks', payload_source, value_path FROM signal_chunks "
            "UNION SELECT DISTINCT 'text_payloads', payload_source, file FROM text_payloads "
            "UNION SELECT DISTINCT 'axes', offsets_payload_source, offsets_path FROM axes "
            "WHERE offsets_path IS NOT NULL ORDER BY 1, 2 NULLS FIRST, 3",
            "locators")) {
    out.push_back(Locator{*row[0], row[1], *row[2]});
  }
  return out;
}

bool IsZarr(std::string_view path) { return path.starts_with(kZarrPrefix); }

// The file a locator needs to be listed: a Parquet or payload file itself, or the zarr.json of a
// Zarr array.
std::string RequiredFile(const Locator& l) {
  if (l.table == "signal_chunks" && IsZarr(l.path)) return l.path + "/zarr.json";
  return l.path;
}

std::string Describe(const Locator& l) {
  return l.table + " " + (l.source ? *l.source + ":" : std::string()) + l.path;
}

}  // namespace

void CheckV1(const Context& ctx) {
  ProbeBatch batch(ctx, "V1");
  batch.Add("signal_chunks.chunk_index", "signals whose chunks do not run 0..k-1",
            "SELECT signal_key FROM signal_chunks GROUP BY signal_key "
            "HAVING min(chunk_index) <> 0 OR max(chunk_index) <> count(*) - 1");
  batch.Add("signal_chunks.n_values", "chunks with n_values outside 1..2^31-1",
            "SELECT signal_key || '#' || chunk_index FROM signal_chunks "
            "WHERE n_values < 1 OR n_values > 2147483647");
  batch.Add(
      "signal_chunks.n_values", "signals whose chunks do not add up to n_values",
      "SELECT g.signal_id FROM signals g LEFT JOIN (SELECT signal_key, sum(n_values) AS total "
      "FROM signal_chunks GROUP BY signal_key) c ON c.signal_key = g.signal_key "
      "WHERE c.total IS DISTINCT FROM g.n_values");
  batch.Add("signal_chunks.value_path", "locators of no known backend",
            "SELECT value_path FROM signal_chunks WHERE NOT starts_with(value_path, "
            "'time_series.zarr/') AND NOT ends_with(value_path, '.parquet')");
  batch.Add(
      "signal_chunks.chunk_minor_index", "Parquet locators without a row",
      "SELECT signal_key || '#' || chunk_index FROM signal_chunks WHERE NOT starts_with("
      "value_path, 'time_series.zarr/') AND (chunk_minor_index IS NULL OR chunk_minor_index < 0 "
      "OR chunk_major_index < 0)");
  batch.Add("signal_chunks.chunk_minor_index", "Zarr locators with a row",
            "SELECT signal_key || '#' || chunk_index FROM signal_chunks WHERE starts_with("
            "value_path, 'time_series.zarr/') AND (chunk_minor_index IS NOT NULL "
            "OR chunk_major_index < 0)");
  const std::string other_backend = ctx.facts.values_backend == "zarr" ? "NOT " : "";
  batch.Add("signal_chunks.value_path",
            "own chunks outside the release's backend (" + ctx.facts.values_backend + ")",
            "SELECT DISTINCT value_path FROM signal_chunks WHERE payload_source IS NULL AND " +
                other_backend + "starts_with(value_path, 'time_series.zarr/')");
  batch.Run();
}

void CheckV2(const Context& ctx) {
  const AuditFacts& f = ctx.facts;
  std::set<std::string, std::less<>> own_values(f.own_time_series.begin(), f.own_time_series.end());
  std::set<std::string, std::less<>> own_payloads(f.own_payloads.begin(), f.own_payloads.end());
  std::vector<std::string> bad_paths;
  std::vector<std::string> unlisted;
  for (const Locator& l : DistinctLocators(ctx)) {
    if (std::string problem = RelativePathProblem(l.path); !problem.empty()) {
      bad_paths.push_back(Describe(l) + " (" + problem + ")");
      continue;
    }
    std::string file = RequiredFile(l);
    bool listed = false;
    if (!l.source) {
      listed = l.table == "signal_chunks" ? own_values.contains(file) : own_payloads.contains(file);
    } else if (auto pins = f.payload_sources.find(*l.source); pins != f.payload_sources.end()) {
      listed = std::find(pins->second.begin(), pins->second.end(), file) != pins->second.end();
    }
    if (!listed) unlisted.push_back(Describe(l));
  }
  FailIfAny(ctx, "V2", "locators", "locator paths that are not relative paths", bad_paths);
  FailIfAny(ctx, "V2", "locators", "locators naming a file the manifest does not list", unlisted);
}

void CheckP2(const Context& ctx) {
  const AuditFacts& f = ctx.facts;
  const std::string self = f.identity.dataset_id + "@" + f.identity.dataset_version;
  std::vector<std::string> bad_keys;
  std::vector<std::string> control_pins;
  for (const auto& [ref, pins] : f.payload_sources) {
    if (ref == self || !ReleaseRef::TryParse(ref)) bad_keys.push_back(ref);
    for (const std::string& pin : pins) {
      if (pin == "control.duckdb") control_pins.push_back(ref + ":" + pin);
    }
  }
  FailIfAny(ctx, "P2", "payload_sources", "keys that are this release or not a release reference",
            bad_keys);
  FailIfAny(ctx, "P2", "payload_sources", "pins of a control file", control_pins);

  // What the locators use, per source: required files, and the Zarr arrays whose files may be
  // pinned besides their zarr.json (§5.9 DECIDE: root and _validity group zarr.json, array files).
  std::map<std::string, std::set<std::string>> required;
  std::map<std::string, std::set<std::string>> zarr_arrays;
  for (const Locator& l : DistinctLocators(ctx)) {
    if (!l.source) continue;
    required[*l.source].insert(RequiredFile(l));
    if (l.table == "signal_chunks" && IsZarr(l.path)) {
      std::string encoded = l.path.substr(kZarrPrefix.size());
      zarr_arrays[*l.source].insert(l.path + "/");
      zarr_arrays[*l.source].insert(std::string(kZarrPrefix) + "_validity/" + encoded + "/");
    }
  }
  std::vector<std::string> differences;
  for (const auto& [ref, files] : required) {
    if (!f.payload_sources.contains(ref)) differences.push_back(ref + " is used but not a key");
  }
  for (const auto& [ref, pins] : f.payload_sources) {
    const std::set<std::string>& need = required[ref];
    if (need.empty()) {
      differences.push_back(ref + " is a key no locator uses");
      continue;
    }
    for (const std::string& file : need) {
      if (std::find(pins.begin(), pins.end(), file) == pins.end()) {
        differences.push_back(ref + ":" + file + " is used but not pinned");
      }
    }
    for (const std::string& pin : pins) {
      if (need.contains(pin)) continue;
      bool zarr_extra = false;
      if (pin == std::string(kZarrPrefix) + "zarr.json" ||
          pin == std::string(kZarrPrefix) + "_validity/zarr.json") {
        zarr_extra = zarr_arrays.contains(ref);
      }
      for (const std::string& array : zarr_arrays[ref]) {
        if (pin.starts_with(array)) zarr_extra = true;
      }
      if (!zarr_extra) differences.push_back(ref + ":" + pin + " is pinned but not used");
    }
  }
  FailIfAny(ctx, "P2", "payload_sources", "differences between pins and the files locators use",
            differences);
}

}  // namespace timef::catalog::audit
