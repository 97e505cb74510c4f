// Read access to a committed catalog: a fork-safe read-only session whose first open runs the
// checks of docs/format.md §6.1 against what the manifest says.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog_session.h"
#include "timef/model/parent.h"

namespace timef::catalog {

// What the manifest says the catalog must describe.
struct CatalogIdentity {
  std::string dataset_id;
  std::string dataset_version;
  std::vector<model::ParentRelease> parents;  // metadata.parents, in order
};

// The checks of §6.1, raising FormatError that names table and column: control_metadata exists
// (else the file is not a TimeF catalog), schema_version is 1 (the message names the found and the
// supported version), every table and view of §6.3/§6.5 has its columns with their types (one
// query on duckdb_columns()), the datasets row equals the identity and dataset_parents equals
// its parents in order.
void CheckCatalog(Connection& connection, const CatalogIdentity& expected);

class CatalogReader {
 public:
  // Opens nothing yet (docs/format.md §11: opening a release opens no catalog).
  CatalogReader(std::filesystem::path path, CatalogIdentity expected);

  // Opens the catalog read-only if needed; the first open runs CheckCatalog(). Missing file:
  // FileError. Not a DuckDB file or not a TimeF catalog: FormatError. During a fork: ReaderError.
  CatalogLease Lease() { return session_->Lease(); }
  // Closes the connection; a read in flight in another thread raises ReaderError; the next Lease()
  // reopens.
  void Close() { session_->Close(); }
  bool is_open() { return session_->is_open(); }
  const std::filesystem::path& path() const { return session_->path(); }

 private:
  std::shared_ptr<CatalogSession> session_;
};

}  // namespace timef::catalog
