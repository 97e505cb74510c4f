// The catalog part of the audit (docs/format.md §14): every invariant that needs only
// control.duckdb and facts taken from the manifest. Each check is set-based SQL over whole tables;
// the first violated invariant raises AuditError naming its ID, the number of offending rows and up
// to 5 example keys.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog_reader.h"
#include "timef/error.h"

namespace timef::catalog {

// A time_series_specs entry of the manifest schema (§5.3).
struct AuditSpec {
  std::string spec_type;
  std::string name;
  std::optional<std::string> unit;
  std::string dtype;
  std::vector<std::string> categories;
  std::vector<int64_t> value_shape;
  std::vector<std::string> dimension_names;
  bool nullable = false;
  std::string modality;
};

// An annotations entry of the manifest schema (§5.3).
struct AuditDescriptor {
  std::string key;
  std::string annotation_type;            // static | point | interval
  std::optional<std::string> value_type;  // bool | int | float | str | list | null (nullopt)
  std::optional<std::string> unit;
  std::optional<std::string> description;
};

// The manifest's counts block (§5.5).
struct AuditCounts {
  int64_t records = 0;
  int64_t sources = 0;
  int64_t signals = 0;
  int64_t axes = 0;
  int64_t annotation_contents = 0;
  int64_t annotation_occurrences = 0;
  int64_t signal_chunks = 0;
  std::map<std::string, int64_t> tasks;
  std::map<std::string, int64_t> signals_by_spec;
};

// Everything the catalog audit needs from the manifest, as plain data.
struct AuditFacts {
  CatalogIdentity identity;  // dataset_id, dataset_version, metadata.parents
  AuditCounts counts;
  std::vector<AuditSpec> specs;
  std::vector<AuditDescriptor> annotations;
  std::vector<std::string> task_types;
  std::string values_backend = "parquet";                           // parquet | zarr
  std::vector<std::string> own_time_series;                         // files.time_series paths
  std::vector<std::string> own_payloads;                            // files.payloads paths
  std::map<std::string, std::vector<std::string>> payload_sources;  // ref -> pinned paths
};

// FormatError whose problem starts with the invariant ID: "<file>: <table.column>: C4: 2 duplicate
// keys (e.g. 7, 9)".
class AuditError : public FormatError {
 public:
  AuditError(ErrorSite site, std::string invariant, std::string_view problem);
  const std::string& invariant() const noexcept { return invariant_; }

 private:
  std::string invariant_;
};

// The invariants this audit checks, in the order it checks them: C1–C10, H1–H3, A1, A2 (non-deep),
// V1, V2, N1, N2, T1–T3, X1 (non-deep), P1, P2.
std::vector<std::string> AuditedInvariants();

// Opens `catalog` read-only and checks every invariant above in order; raises AuditError for the
// first violation. Other failures (missing file, not DuckDB) raise FileError/FormatError.
void Audit(const std::filesystem::path& catalog, const AuditFacts& facts);

}  // namespace timef::catalog
