// Write workloads and the size report of a written release.
#include <map>
#include <set>

#include "parquet/file_reader.h"
#include "suite/duckdb_peer.h"
#include "suite/raw_store.h"
#include "suite/stats.h"
#include "suite/workloads.h"
#include "timef/manifest.h"

namespace timef::bench {
namespace {

std::int64_t Sum(const std::vector<manifest::FilePart>& parts) {
  std::int64_t total = 0;
  for (const auto& part : parts) total += part.size;
  return total;
}

}  // namespace

Json FileKinds(const manifest::Manifest& m, const std::filesystem::path& release) {
  return Json{
      {"manifest", std::filesystem::file_size(release / manifest::kManifestFileName)},
      {"control", m.files.control.size},
      {"time_series", {{"files", m.files.time_series.size()}, {"bytes", Sum(m.files.time_series)}}},
      {"payloads", {{"files", m.files.payloads.size()}, {"bytes", Sum(m.files.payloads)}}}};
}

CorpusPaths PathsFor(const SuiteOptions& options, CorpusKind kind) {
  const auto base = options.work_dir / std::string(ToString(kind));
  return {base / "release", base / "raw"};
}

Json TimefWriteOnce(const SuiteOptions& options, CorpusKind kind) {
  Corpus corpus = BuildCorpus(kind, options.size, options.seed);
  const CorpusPaths paths = PathsFor(options, kind);
  Stopwatch clock;
  WriteResult result =
      WriteReleaseTo(*corpus.dataset, corpus.card, paths.release, options.write_options);
  const double seconds = clock.Seconds();
  return Json{{"seconds", seconds},
              {"value_bytes", corpus.TotalValues() * 4},
              {"files", FileKinds(result.manifest, result.release_dir)}};
}

Json RawWriteOnce(const SuiteOptions& options, CorpusKind kind) {
  Corpus corpus = BuildCorpus(kind, options.size, options.seed);
  Stopwatch clock;
  const std::int64_t bytes = WriteRawStore(corpus, PathsFor(options, kind).raw);
  return Json{{"seconds", clock.Seconds()}, {"bytes", bytes}};
}

Json DuckDbWriteOnce(const SuiteOptions& options, CorpusKind kind) {
  const CorpusPaths paths = PathsFor(options, kind);
  const manifest::Manifest m = manifest::ReadManifest(paths.release / manifest::kManifestFileName);
  std::string files = "[";
  for (const auto& part : m.files.time_series) {
    if (files.size() > 1) files += ", ";
    files += QuoteSql((paths.release / part.path).string());
  }
  files += "]";
  const std::filesystem::path out = paths.release.parent_path() / "duckdb_write.parquet";
  std::filesystem::remove(out);
  DuckDb db({}, false, options.duckdb_threads);
  db.Execute("CREATE TABLE v AS SELECT * FROM read_parquet(" + files + ")");
  Stopwatch clock;
  db.Execute("COPY v TO " + QuoteSql(out.string()) +
             " (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL " +
             std::to_string(options.write_options.compression_level) + ")");
  const double seconds = clock.Seconds();
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(out));
  std::filesystem::remove(out);
  return Json{{"seconds", seconds}, {"bytes", bytes}};
}

Json GenerateOnce(const SuiteOptions& options, CorpusKind kind) {
  Corpus corpus = BuildCorpus(kind, options.size, options.seed);
  Stopwatch clock;
  std::int64_t n = 0;
  for (std::size_t i = 0; i < corpus.signals.size(); ++i) n += corpus.values(i).size();
  return Json{{"seconds", clock.Seconds()}, {"values", n}};
}

Json MeasureSizes(const SuiteOptions& options, CorpusKind kind) {
  Corpus corpus = BuildCorpus(kind, options.size, options.seed);
  std::map<std::string, std::int64_t> raw_by_spec;
  for (const auto& signal : corpus.signals) {
    raw_by_spec[signal->spec()->spec_type] +=
        signal->n_values() * model::DTypeWidth(signal->spec()->dtype);
  }
  const auto release = PathsFor(options, kind).release;
  const manifest::Manifest m = manifest::ReadManifest(release / manifest::kManifestFileName);

  struct SpecSizes {
    std::int64_t shard_bytes = 0, values_compressed = 0, values_uncompressed = 0, shards = 0;
    std::set<std::string> footer_encodings;
  };
  std::map<std::string, SpecSizes> by_spec;
  for (const auto& part : m.files.time_series) {
    auto reader = parquet::FileReader::OpenFile(release / part.path);
    std::string spec_type = "?";
    if (const auto& kv = reader.metadata().key_value_metadata) {
      for (const auto& entry : *kv) {
        if (entry.key == "timef.spec_type" && entry.value) spec_type = *entry.value;
      }
    }
    SpecSizes& s = by_spec[spec_type];
    s.shard_bytes += part.size;
    ++s.shards;
    const int column = reader.ColumnIndex("values");
    for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
      const auto& meta = reader.column_chunk(rg, column).meta_data;
      if (!meta) continue;
      s.values_compressed += meta->total_compressed_size;
      s.values_uncompressed += meta->total_uncompressed_size;
      for (auto e : meta->encodings) s.footer_encodings.insert(parquet::ToString(e));
    }
  }
  Json specs = Json::array();
  Json by_encoding = Json::object();
  for (const auto& [spec_type, s] : by_spec) {
    const auto enc = m.value_encoding.find(spec_type);
    const std::string encoding =
        enc == m.value_encoding.end() ? "?" : std::string(ToString(enc->second));
    const std::int64_t raw = raw_by_spec[spec_type];
    specs.push_back({{"spec_type", spec_type},
                     {"value_encoding", encoding},
                     {"footer_encodings", s.footer_encodings},
                     {"shards", s.shards},
                     {"raw_value_bytes", raw},
                     {"shard_bytes", s.shard_bytes},
                     {"values_column_bytes", s.values_compressed},
                     {"values_column_uncompressed_bytes", s.values_uncompressed},
                     {"shard_to_raw", raw ? static_cast<double>(s.shard_bytes) / raw : 0.0}});
    Json& e = by_encoding[encoding];
    if (e.is_null()) e = {{"raw_value_bytes", 0}, {"shard_bytes", 0}};
    e["raw_value_bytes"] = e["raw_value_bytes"].get<std::int64_t>() + raw;
    e["shard_bytes"] = e["shard_bytes"].get<std::int64_t>() + s.shard_bytes;
  }
  for (auto& [encoding, e] : by_encoding.items()) {
    const auto raw = e["raw_value_bytes"].get<std::int64_t>();
    e["shard_to_raw"] = raw ? e["shard_bytes"].get<double>() / static_cast<double>(raw) : 0.0;
  }
  return Json{{"files", FileKinds(m, release)},
              {"raw_value_bytes", corpus.TotalValues() * 4},
              {"by_spec_type", specs},
              {"by_encoding", by_encoding}};
}

}  // namespace timef::bench
