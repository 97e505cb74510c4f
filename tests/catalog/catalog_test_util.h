// Shared helpers of the catalog tests: scratch directories and a small valid catalog built with
// plain SQL INSERTs (independent of CatalogWriter), which the corruption and audit tests break one
// thing at a time.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/audit/audit.h"
#include "catalog/catalog_reader.h"
#include "catalog/duckdb/duckdb_database.h"
#include "catalog/write/model_writer.h"
#include "timef/model.h"

namespace timef::catalog::testing {

// A fresh directory per test, below $TIMEF_TEST_OUT when set, removed afterwards.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Runs `statements` on `path` through a read-write connection (creating the file if needed).
void RunSql(const std::filesystem::path& path, const std::vector<std::string>& statements);

// Creates a valid catalog at `path` (schema from CreateSchema, rows from INSERTs): 3 records (one
// imported), 4 sources in two levels, 3 axes (regular 44.1 kHz, irregular, ordinal), 4 signals, own
// and pinned chunks, packed text, every annotation value kind, a registered annotation and three
// tasks with targets, refs and dependencies. ValidFacts() describes it.
void MakeValidCatalog(const std::filesystem::path& path);
AuditFacts ValidFacts();
CatalogIdentity ValidIdentity();

// WriteCatalog after what the release writer does first: Dataset::AssignIds and Validate.
ModelWriteSummary WriteValidated(const std::filesystem::path& path, model::Dataset& dataset,
                                 PayloadSink& sink);

// Audit facts derived from the model and the write summary: an oracle independent of the
// manifest path the writer uses (values backend parquet, no payload sources).
AuditFacts FactsFromModel(const model::Dataset& dataset, const ModelWriteSummary& summary);

// The rows of a query as strings ("NULL" for NULL), one string per row, columns joined by '|'.
std::vector<std::string> QueryRows(Connection& connection, std::string_view sql);

}  // namespace timef::catalog::testing
