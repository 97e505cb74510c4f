// The legacy fixture generator (issue 18): writes datasets of the legacy layout (docs/format.md
// §15) with DuckDB's own Parquet writer through its C API (`COPY (SELECT ...) TO ... (FORMAT
// parquet)`), independently of timef's Parquet engine, and beside each one the native catalog rows
// an upgrade must produce (for the independent DuckDB check).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace timef::testing {

struct LegacyFixtureOptions {
  bool uuid16 = false;            // IDs as UUID (FIXED_LEN_BYTE_ARRAY(16)) instead of strings
  bool shard_prefix_part = true;  // values shards named time_series/part-* (else shard-*)
  bool write_id_encoding = true;  // the manifest carries id_encoding
  std::string version = "1.0.0";
  // Hooks for bad-input tests: the SQL of a table may be changed before it is written
  // (`table` is "records", "annotations", "index", "tasks/<type>" or "shard/<n>").
  std::function<std::string(const std::string& table, std::string sql)> edit_sql;
  // The manifest JSON text may be changed before it is written.
  std::function<std::string(std::string manifest)> edit_manifest;
};

// Writes the fixture as `dir` (a release directory, created) and `dir` + ".expected.json": a list
// of {"sql": ..., "rows": [[cell, ...], ...]} queries on the upgraded control.duckdb, cells as
// DuckDB prints them (null as JSON null).
void WriteLegacyFixture(const std::filesystem::path& dir, const LegacyFixtureOptions& options = {});

// A legacy ECG corpus for benchmarks (written by DuckDB like the fixtures): `records` records of
// 12 float32 leads of `n_values` samples at 500 Hz, `lead(record, lead)` giving each lead's values,
// in chunks of at most `chunk_values`, rotated over shards of `chunks_per_shard` chunks, uuid16
// IDs, one classification task per record. `scratch` holds the intermediate JSON lines.
void WriteLegacyEcgCorpus(const std::filesystem::path& dir, int records, int n_values,
                          int chunk_values, int chunks_per_shard,
                          const std::function<std::vector<float>(int record, int lead)>& lead);

}  // namespace timef::testing
