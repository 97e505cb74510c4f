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
#include "timef/manifest.h"
#include "timef/model/schema.h"

namespace timef::catalog {

// Everything the catalog audit needs from the manifest, as plain data.
struct AuditFacts {
  CatalogIdentity identity;  // dataset_id, dataset_version, metadata.parents
  manifest::Counts counts;
  model::Schema schema;                      // specs, annotation descriptors, task types
  std::string values_backend = "parquet";    // parquet | zarr
  std::vector<std::string> own_time_series;  // files.time_series paths
  std::vector<std::string> own_payloads;     // files.payloads paths
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
// Threads: with `threads` > 1 the invariants' checks run on up to that many connections of the
// one database at once (the calling thread and threads started for the call), each check whole
// on one thread; what is raised is what the checks in order would raise: the failure of the
// earliest check that fails (a check after it may have run, or been skipped; its outcome is
// dropped). The writer passes its WriteOptions::threads; a catalog nobody vouches for (a
// release being verified) is better audited with 1, which runs no check after a failing one.
void Audit(const std::filesystem::path& catalog, const AuditFacts& facts, int threads = 1);

}  // namespace timef::catalog
