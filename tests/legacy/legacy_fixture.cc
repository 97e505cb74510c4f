#include "legacy/legacy_fixture.h"

#include <duckdb.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/checksum.h"

namespace timef::testing {

namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

// A DuckDB in-memory database: the only Parquet writer the fixtures use.
class Duck {
 public:
  Duck() {
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess) throw std::runtime_error("duckdb_open");
    duckdb_connect(db_, &con_);
    Exec("SET threads = 1");
  }
  ~Duck() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }
  void Exec(const std::string& sql) {
    duckdb_result result;
    if (duckdb_query(con_, sql.c_str(), &result) != DuckDBSuccess) {
      std::string error = duckdb_result_error(&result);
      duckdb_destroy_result(&result);
      throw std::runtime_error("fixture SQL failed: " + error + "\n" + sql.substr(0, 2000));
    }
    duckdb_destroy_result(&result);
  }

 private:
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

std::string Q(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// The six logical ID kinds, with their UUID prefix digit and string prefix.
enum class Kind { kRecord = 1, kSeries, kAnnotation, kTask, kSource, kSubject };

class Ids {
 public:
  explicit Ids(bool uuid16) : uuid16_(uuid16) {}
  std::string Text(Kind kind, int n) const {
    char buffer[64];
    if (uuid16_) {
      std::snprintf(buffer, sizeof buffer, "0000000%d-0000-4000-8000-%012x", static_cast<int>(kind),
                    n);
    } else {
      static const char* names[] = {"", "rec", "ts", "ann", "task", "src", "subj"};
      std::snprintf(buffer, sizeof buffer, "%s-%d", names[static_cast<int>(kind)], n);
    }
    return buffer;
  }
  std::string Sql(Kind kind, int n) const { return Q(Text(kind, n)) + "::" + type(); }
  std::string List(Kind kind, const std::vector<int>& ns) const {
    std::string out = "[";
    for (std::size_t i = 0; i < ns.size(); ++i) out += (i ? ", " : "") + Sql(kind, ns[i]);
    return out + "]::" + type() + "[]";
  }
  std::string Null() const { return "NULL::" + type(); }
  std::string type() const { return uuid16_ ? "UUID" : "VARCHAR"; }

 private:
  bool uuid16_;
};

struct Series {
  int id;
  std::string spec_type;
  std::string signal;
  std::optional<int> source;
  std::string axis;  // regular, irregular, ordinal
  std::int64_t num = 0, den = 1, start_index = 0;
  // Chunks in chunk_idx order: the SQL list literal of the values, and irregular offsets.
  std::vector<std::string> values;
  std::vector<std::vector<std::int64_t>> offsets;
  std::vector<int> counts;  // values per chunk
  std::int64_t n() const {
    std::int64_t total = 0;
    for (int c : counts) total += c;
    return total;
  }
};

std::string IntList(const std::vector<std::int64_t>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]::BIGINT[]";
}

struct Span {
  std::int64_t start;
  std::optional<std::int64_t> end;
  std::optional<std::vector<int>> series;
  std::optional<std::string> frame;
};

std::string SpanType(const Ids& ids) {
  return "STRUCT(start_us BIGINT, end_us BIGINT, time_series_ids " + ids.type() +
         "[], frame VARCHAR)";
}

std::string SpanSql(const Ids& ids, const std::optional<Span>& span) {
  if (!span) return "NULL::" + SpanType(ids);
  return "{'start_us': " + std::to_string(span->start) +
         ", 'end_us': " + (span->end ? std::to_string(*span->end) : "NULL") +
         ", 'time_series_ids': " +
         (span->series ? ids.List(Kind::kSeries, *span->series) : "NULL::" + ids.type() + "[]") +
         ", 'frame': " + (span->frame ? Q(*span->frame) : "NULL") + "}::" + SpanType(ids);
}

ordered_json Part(const fs::path& dir, const std::string& path) {
  return {{"path", path},
          {"checksum", FileChecksum(dir / path)},
          {"size", static_cast<std::int64_t>(fs::file_size(dir / path))}};
}

class Generator {
 public:
  Generator(fs::path dir, const LegacyFixtureOptions& options)
      : dir_(std::move(dir)), o_(options), ids_(options.uuid16) {}

  void Copy(const std::string& table, const std::string& path, std::string select,
            const std::string& extra = "") {
    if (o_.edit_sql) select = o_.edit_sql(table, std::move(select));
    fs::create_directories((dir_ / path).parent_path());
    duck_.Exec("COPY (" + select + ") TO " + Q((dir_ / path).string()) + " (FORMAT parquet" +
               extra + ")");
  }

  void Run() {
    fs::create_directories(dir_);
    DefineSeries();
    WriteShards();
    WriteIndex();
    WriteRecords();
    WriteAnnotations();
    WriteTasks();
    WriteManifest();
    WriteExpected();
  }

 private:
  std::string Shard(int n) const {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "time_series/%s-%08d.parquet",
                  o_.shard_prefix_part ? "part" : "shard", n);
    return buffer;
  }

  // Series 1–3 in record 1 (1 and 3 under source 1, 2 with no source, interleaved), 4 shared by
  // records 2 and 3 (source 2), 5 in record 2 (ordinal str), 6 in record 3 (bool), 7 in record 3
  // (nullable enum).
  void DefineSeries() {
    series_.push_back({1,
                       "ecg",
                       "lead_I",
                       1,
                       "regular",
                       2000,
                       1,
                       0,
                       {"[0.5, '-0.0'::FLOAT, 'inf'::FLOAT, 1.25]::FLOAT[]",
                        "[-3.5, 2.0, 'nan'::FLOAT]::FLOAT[]"},
                       {},
                       {4, 3}});
    series_.push_back({2,
                       "label",
                       "events",
                       std::nullopt,
                       "irregular",
                       0,
                       1,
                       0,
                       {"[1, -2]::SMALLINT[]", "[300, 4]::SMALLINT[]"},
                       {{0, 5}, {17, 30}},
                       {2, 2}});
    series_.push_back(
        {3, "ecg", "lead_II", 1, "regular", 2000, 1, 5, {"[1.0, 2.0, 3.0]::FLOAT[]"}, {}, {3}});
    series_.push_back({4,
                       "ecg",
                       "lead_I",
                       2,
                       "regular",
                       1000,
                       3,
                       0,
                       {"[7.0, 8.0]::FLOAT[]", "[9.0]::FLOAT[]", "[10.0, 11.0]::FLOAT[]"},
                       {},
                       {2, 1, 2}});
    series_.push_back(
        {5, "text", "notes", 3, "ordinal", 0, 1, 0, {"['a', 'b''c', '']::VARCHAR[]"}, {}, {3}});
    series_.push_back(
        {6, "flag", "valid", 3, "regular", 4000, 1, 0, {"[true, false]::BOOLEAN[]"}, {}, {2}});
    // An enum spec (categories) that is nullable: labels as text, one missing step.
    series_.push_back({7,
                       "rhythm",
                       "rhythm",
                       3,
                       "regular",
                       1000000,
                       1,
                       0,
                       {"['NORM', NULL, 'AF']::VARCHAR[]"},
                       {},
                       {3}});
  }

  // One shard per value type; the ecg chunks stored out of chunk_idx order, after 2100 filler
  // rows so that they sit in row group 1 (DuckDB's row groups here hold 2048 rows).
  void WriteShards() {
    struct Row {
      const Series* s;
      int chunk;
    };
    std::map<int, std::vector<Row>> shards;  // shard number → rows in file order
    for (const Series& s : series_) {
      const int shard = s.spec_type == "ecg"     ? 0
                        : s.spec_type == "label" ? 1
                                                 : 2 + (s.spec_type == "flag");
      for (int c = static_cast<int>(s.values.size()) - 1; c >= 0; --c) {
        shards[shard].push_back({&s, c});
      }
    }
    for (auto& [shard, rows] : shards) {
      const std::string path = Shard(shard);
      std::string select;
      const bool ecg = shard == 0;
      if (ecg) {
        select =
            "SELECT " + ids_.Null() +
            " AS time_series_id, 'ecg' AS spec_type, 'filler' AS signal, 0::INTEGER AS chunk_idx, "
            "1::INTEGER AS n_values, [i::FLOAT]::FLOAT[] AS \"values\", NULL::BIGINT[] AS "
            "time_offsets_us FROM range(2100) t(i)";
      }
      std::int64_t position = ecg ? 2100 : 0;
      for (const Row& row : rows) {
        if (!select.empty()) select += " UNION ALL ";
        const Series& s = *row.s;
        select += "SELECT " + ids_.Sql(Kind::kSeries, s.id) + " AS time_series_id, " +
                  Q(s.spec_type) + " AS spec_type, " + Q(s.signal) + " AS signal, " +
                  std::to_string(row.chunk) + "::INTEGER AS chunk_idx, " +
                  std::to_string(s.counts[row.chunk]) + "::INTEGER AS n_values, " +
                  s.values[row.chunk] + " AS \"values\", " +
                  (s.axis == "irregular" ? IntList(s.offsets[row.chunk]) : "NULL::BIGINT[]") +
                  " AS time_offsets_us";
        locations_[{s.id, row.chunk}] = {path, position / 2048, position % 2048};
        ++position;
      }
      // The stated row order, kept by a table and one thread (which also makes DuckDB cut row
      // groups at exactly 2048 rows).
      if (o_.edit_sql) select = o_.edit_sql("shard/" + std::to_string(shard), std::move(select));
      duck_.Exec(
          "CREATE OR REPLACE TABLE shard AS SELECT * EXCLUDE (rn) FROM (SELECT *, "
          "row_number() OVER () AS rn FROM (" +
          select + ")) ORDER BY rn");
      fs::create_directories((dir_ / path).parent_path());
      duck_.Exec("COPY shard TO " + Q((dir_ / path).string()) +
                 " (FORMAT parquet, ROW_GROUP_SIZE 2048)");
      shard_paths_.push_back(path);
    }
  }

  void WriteIndex() {
    // Rows per (record, series, chunk); series 4 repeats for records 2 and 3. Two parts.
    std::vector<std::pair<int, const Series*>> members;
    for (const Series& s : series_) {
      if (s.id <= 3) members.push_back({1, &s});
      if (s.id == 4) {
        members.push_back({2, &s});
        members.push_back({3, &s});
      }
      if (s.id == 5) members.push_back({2, &s});
      if (s.id == 6 || s.id == 7) members.push_back({3, &s});
    }
    std::string parts[2];
    for (const auto& [record, s] : members) {
      std::string& select = parts[record == 1 ? 0 : 1];
      for (std::size_t c = 0; c < s->values.size(); ++c) {
        const auto& loc = locations_.at({s->id, static_cast<int>(c)});
        if (!select.empty()) select += " UNION ALL ";
        select += "SELECT " + ids_.Sql(Kind::kRecord, record) + " AS record_id, " +
                  ids_.Sql(Kind::kSeries, s->id) + " AS time_series_id, " + Q(s->spec_type) +
                  " AS spec_type, " + Q(s->signal) + " AS signal, " + std::to_string(c) +
                  "::INTEGER AS chunk_idx, " + Q(loc.file) + " AS chunk_file, " +
                  std::to_string(loc.row_group) + "::BIGINT AS chunk_major_idx, " +
                  std::to_string(loc.row) + "::BIGINT AS chunk_minor_idx, " +
                  std::to_string(s->counts[c]) + "::INTEGER AS n_values";
      }
    }
    for (int p = 0; p < 2; ++p) {
      const std::string path = "time_series_index/part-0000000" + std::to_string(p) + ".parquet";
      Copy("index", path, parts[p]);
      index_paths_.push_back(path);
    }
  }

  std::string TsType() const {
    const std::string id = ids_.type();
    return "STRUCT(spec_type VARCHAR, signal VARCHAR, source_id " + id + ", time_series_id " + id +
           ", axis_type VARCHAR, period_numerator_us BIGINT, period_denominator BIGINT, "
           "start_index BIGINT, first_time_offset_us BIGINT, last_time_offset_us BIGINT, "
           "n_values BIGINT)";
  }

  std::string TsSql(const Series& s) const {
    auto opt = [](bool present, std::int64_t v) { return present ? std::to_string(v) : "NULL"; };
    const bool regular = s.axis == "regular";
    const bool irregular = s.axis == "irregular";
    return "{'spec_type': " + Q(s.spec_type) + ", 'signal': " + Q(s.signal) +
           ", 'source_id': " + (s.source ? ids_.Sql(Kind::kSource, *s.source) : ids_.Null()) +
           ", 'time_series_id': " + ids_.Sql(Kind::kSeries, s.id) + ", 'axis_type': " + Q(s.axis) +
           ", 'period_numerator_us': " + opt(regular, s.num) +
           ", 'period_denominator': " + opt(regular, s.den) +
           ", 'start_index': " + opt(regular, s.start_index) + ", 'first_time_offset_us': " +
           opt(irregular, irregular ? s.offsets.front().front() : 0) +
           ", 'last_time_offset_us': " + opt(irregular, irregular ? s.offsets.back().back() : 0) +
           ", 'n_values': " + std::to_string(s.n()) + "}";
  }

  void WriteRecords() {
    auto row = [&](int id, const std::string& start, std::optional<Span> span,
                   const std::vector<int>& subjects, const std::vector<int>& series,
                   const std::vector<int>& tasks, const std::vector<int>& annotations) {
      std::string ts = "[";
      for (std::size_t i = 0; i < series.size(); ++i) {
        ts += (i ? ", " : "") + TsSql(series_[series[i] - 1]);
      }
      ts += "]::" + TsType() + "[]";
      return "SELECT " + ids_.Sql(Kind::kRecord, id) + " AS record_id, " + start +
             "::BIGINT AS start_time_us, " + SpanSql(ids_, span) + " AS time_span, " +
             ids_.List(Kind::kSubject, subjects) + " AS subject_ids, " + ts + " AS time_series, " +
             ids_.List(Kind::kTask, tasks) + " AS task_ids, " +
             ids_.List(Kind::kAnnotation, annotations) + " AS annotation_ids";
    };
    Copy("records", "records/part-00000000.parquet",
         row(1, "1700000000000000", Span{0, 10000000, std::nullopt, std::nullopt}, {1, 2},
             {1, 2, 3}, {1, 3}, {1, 2}) +
             " UNION ALL " + row(2, "NULL", std::nullopt, {}, {4, 5}, {2}, {2}));
    Copy("records", "records/part-00000001.parquet",
         row(3, "1700000100000000", std::nullopt, {3}, {4, 6, 7}, {}, {5}));
    record_paths_ = {"records/part-00000000.parquet", "records/part-00000001.parquet"};
  }

  void WriteAnnotations() {
    auto row = [&](int id, const std::string& key, const std::optional<std::string>& value,
                   const std::optional<std::string>& source, std::optional<Span> span,
                   const std::vector<int>& records) {
      return "SELECT " + ids_.Sql(Kind::kAnnotation, id) + " AS id, " + Q(key) + " AS key, " +
             (value ? Q(*value) : "NULL") + "::VARCHAR AS value, " +
             (source ? Q(*source) : "NULL") + "::VARCHAR AS source, " + SpanSql(ids_, span) +
             " AS span, " + ids_.List(Kind::kRecord, records) + " AS record_ids";
    };
    // Rows deliberately not sorted by id (the reader keeps file order).
    Copy("annotations", "annotations/part-00000000.parquet",
         row(2, "count", "42", std::nullopt, std::nullopt, {1, 2}) + " UNION ALL " +
             row(1, "quality", "\"good\"", "annotator-x", std::nullopt, {1}) + " UNION ALL " +
             row(3, "gain", " 3.0 ", std::nullopt, Span{100, 200, std::vector<int>{1}, "seconds"},
                 {1}) +
             " UNION ALL " + row(4, "scale", "1e3", std::nullopt, std::nullopt, {2}) +
             " UNION ALL " +
             row(5, "offset", "-0.0", std::nullopt,
                 Span{50, std::nullopt, std::vector<int>{4}, std::nullopt}, {3}) +
             " UNION ALL " +
             row(6, "flag", "true", "rule", Span{10, 20, std::vector<int>{3, 1}, std::nullopt},
                 {1}));
    Copy("annotations", "annotations/part-00000001.parquet",
         row(7, "tags", "[\"x\",\"y\"]", std::nullopt, std::nullopt, {2}) + " UNION ALL " +
             row(8, "info", "{\"b\": 1, \"a\": [1, 2]}", std::nullopt, std::nullopt, {2}) +
             " UNION ALL " +
             row(9, "artifact", std::nullopt, std::nullopt,
                 Span{70, std::nullopt, std::nullopt, std::nullopt}, {3}) +
             " UNION ALL " + row(10, "vocabulary", "[\"AF\",\"NORM\"]", "doc", std::nullopt, {}) +
             " UNION ALL " +
             row(11, "big", "99999999999999999999", std::nullopt, std::nullopt, {3}) +
             " UNION ALL " +
             row(12, "shared_note", "\"both\"", std::nullopt,
                 Span{0, 1000, std::vector<int>{4}, std::nullopt}, {2, 3}) +
             " UNION ALL " + row(13, "hint", "\"use lead I\"", std::nullopt, std::nullopt, {}) +
             " UNION ALL " + row(14, "count", "7", std::nullopt, std::nullopt, {3}));
    annotation_paths_ = {"annotations/part-00000000.parquet", "annotations/part-00000001.parquet"};
  }

  std::string Common(int id, const std::vector<int>& records, const std::vector<int>& from,
                     const std::optional<std::string>& prompt, std::optional<Span> scope,
                     const std::vector<int>& inputs, const std::vector<int>& targets,
                     const std::optional<std::string>& rationale) const {
    return "SELECT " + ids_.Sql(Kind::kTask, id) + " AS id, " + ids_.List(Kind::kRecord, records) +
           " AS record_ids, " + ids_.List(Kind::kTask, from) + " AS from_task_ids, " +
           (prompt ? Q(*prompt) : "NULL") + "::VARCHAR AS prompt, " + SpanSql(ids_, scope) +
           " AS scope, " + ids_.List(Kind::kAnnotation, inputs) + " AS input_annotation_ids, " +
           ids_.List(Kind::kAnnotation, targets) + " AS target_annotation_ids, " +
           (rationale ? Q(*rationale) : "NULL") + "::VARCHAR AS rationale";
  }

  void Task(const std::string& type, const std::string& select) {
    const std::string path = "tasks/task=" + type + "/part-00000000.parquet";
    Copy("tasks/" + type, path, select);
    task_paths_.push_back(path);
  }

  void WriteTasks() {
    // Task 1 names task 7 (a later partition) in from_task_ids.
    Task("classification",
         Common(1, {1}, {7}, "Rhythm?", Span{0, 1000, std::vector<int>{1}, std::nullopt}, {1, 10},
                {}, "because") +
             ", 'AF'::VARCHAR AS target, 'rhythm_v1'::VARCHAR AS target_schema UNION ALL " +
             Common(9, {2, 3}, {}, std::nullopt, std::nullopt, {}, {2}, std::nullopt) +
             ", NULL::VARCHAR, NULL::VARCHAR");
    Task("answer", Common(2, {2}, {}, "", std::nullopt, {}, {2}, std::nullopt) +
                       ", NULL::VARCHAR AS target, 'ignored'::VARCHAR AS target_schema UNION ALL " +
                       Common(10, {}, {}, "Say nothing", std::nullopt, {}, {}, std::nullopt) +
                       ", NULL::VARCHAR, NULL::VARCHAR");
    Task("scalar_prediction",
         Common(3, {1}, {}, "Heart rate?", std::nullopt, {}, {}, std::nullopt) +
             ", 72.5::DOUBLE AS target, 'mV'::VARCHAR AS unit, 'heart rate'::VARCHAR AS "
             "target_name");
    Task("temporal_localization",
         Common(4, {1}, {}, "Where?", std::nullopt, {2}, {}, std::nullopt) + ", [" +
             SpanSql(ids_, Span{1, 3, std::vector<int>{1}, "steps"}) + ", " +
             SpanSql(ids_, Span{100, std::nullopt, std::nullopt, "seconds"}) +
             "]::" + SpanType(ids_) + "[] AS target, 'sparse'::VARCHAR AS mode");
    Task("forecasting", Common(5, {1}, {}, std::nullopt, std::nullopt, {}, {}, std::nullopt) +
                            ", " + ids_.List(Kind::kRecord, {2, 3}) + " AS context_record_ids, " +
                            ids_.Sql(Kind::kRecord, 3) + " AS target_record_id, " +
                            SpanSql(ids_, Span{0, 500, std::vector<int>{4}, std::nullopt}) +
                            " AS target_span");
    Task("ts_editing", Common(6, {}, {}, "Denoise", std::nullopt, {}, {}, std::nullopt) + ", " +
                           ids_.Sql(Kind::kRecord, 1) + " AS source_record_id, " +
                           ids_.Sql(Kind::kRecord, 2) + " AS target_record_id");
    Task("ts_generation", Common(7, {}, {}, "Make one", std::nullopt, {}, {}, std::nullopt) + ", " +
                              ids_.Null() + " AS source_record_id, " + ids_.Sql(Kind::kRecord, 3) +
                              " AS target_record_id");
    Task("ts_correspondence",
         Common(8, {1}, {1}, "Which matches?", std::nullopt, {}, {}, std::nullopt) + ", " +
             ids_.List(Kind::kRecord, {2, 3}) + " AS candidate_record_ids, " +
             ids_.List(Kind::kRecord, {3}) + " AS target, " + ids_.List(Kind::kSeries, {6}) +
             " AS target_time_series_ids");
  }

  void WriteManifest() {
    auto parts = [&](const std::vector<std::string>& paths) {
      ordered_json list = ordered_json::array();
      for (const auto& p : paths) list.push_back(Part(dir_, p));
      return list;
    };
    ordered_json m;
    m["timef_format_version"] = 2;
    m["dataset_id"] = "legacy/fixture";
    m["metadata"] = {{"dataset_id", "legacy/fixture"},
                     {"dataset_version", o_.version},
                     {"name", "Legacy fixture"},
                     {"description", "Every legacy feature timef reads"},
                     {"license", "CC-BY-4.0"},
                     {"domains", {"cardiology"}},
                     {"tags", {"legacy"}},
                     {"source_url", "https://example.org/legacy"},
                     {"license_url", "https://example.org/legacy/license"},
                     {"citation", "Doe et al., Legacy fixture (2024)"},
                     {"access", "credentialed"},
                     {"access_url", "https://example.org/legacy/access"},
                     {"yaml_schema_version", "3"},
                     {"unknown_card_key", 1}};
    m["schema"] = {
        {"time_series_specs",
         // Every key of a legacy spec, as its writer dumps them (the unit as `unit_value`,
         // str(pint unit), null = unknown), non-default values wherever a spec can hold them.
         {{{"spec_type", "ecg"},
           {"name", "ECG"},
           {"unit_value", "millivolt"},
           {"dtype", "float32"},
           {"categories", ordered_json::array()},
           {"value_shape", ordered_json::array()},
           {"dimension_names", ordered_json::array()},
           {"nullable", false},
           {"data_source", "device"},
           {"modality", "time_series"}},
          {{"spec_type", "flag"},
           {"name", "Valid"},
           {"unit_value", "dimensionless"},
           {"dtype", "bool"},
           {"nullable", false}},
          {{"spec_type", "label"},
           {"name", "Label"},
           {"unit_value", "frobnicate"},
           {"dtype", "int16"},
           {"nullable", false}},
          {{"spec_type", "rhythm"},
           {"name", "Rhythm"},
           {"unit_value", nullptr},
           {"dtype", "enum"},
           {"categories", {"AF", "NORM", "PVC"}},
           {"value_shape", ordered_json::array()},
           {"dimension_names", ordered_json::array()},
           {"nullable", true},
           {"modality", "time_series"}},
          {{"spec_type", "text"},
           {"name", "Notes"},
           {"unit_value", nullptr},
           {"dtype", "str"},
           {"nullable", false},
           {"modality", "text"}}}},
        {"annotations",
         {{{"key", "gain"},
           {"value_type", "float"},
           {"annotation_type", "interval"},
           {"unit", "dB"},
           {"description", "Amplifier gain"}},
          {{"key", "never_used"}, {"value_type", "str"}, {"annotation_type", "static"}}}},
        {"tasks",
         {"answer", "classification", "forecasting", "scalar_prediction", "temporal_localization",
          "ts_correspondence", "ts_editing", "ts_generation"}}};
    m["counts"] = {
        {"records", 3},          {"annotations", 12},        {"registered_annotations", 2},
        {"tasks", 10},           {"time_series_chunks", 12}, {"time_series_index_rows", 15},
        {"time_series_specs", 5}};
    m["files"] = {{"records", parts(record_paths_)},
                  {"annotations", parts(annotation_paths_)},
                  {"time_series_index", parts(index_paths_)},
                  {"tasks", parts(task_paths_)},
                  {"time_series", parts(shard_paths_)}};
    if (o_.write_id_encoding) {
      const std::string e = o_.uuid16 ? "uuid16" : "string";
      m["id_encoding"] = {{"record_id", e}, {"time_series_id", e}, {"annotation_id", e},
                          {"task_id", e},   {"source_id", e},      {"subject_id", e}};
    }
    m["values_backend"] = "parquet";
    m["value_encoding"] = ordered_json::object();
    m["derived_from"] = nullptr;
    m["build_env"] = {{"python", "3.11"}};
    std::string text = m.dump(2) + "\n";
    if (o_.edit_manifest) text = o_.edit_manifest(std::move(text));
    std::ofstream(dir_ / "manifest.json", std::ios::binary) << text;
  }

  // The native rows an upgrade writes, derived by hand from the legacy content above
  // (docs/format.md §15.6–§15.7); cells as DuckDB renders them.
  void WriteExpected() {
    auto id = [&](Kind k, int n) { return ids_.Text(k, n); };
    auto meta = [](const std::string& legacy) {
      return "{\"timef.legacy.id\":\"" + legacy + "\"}";
    };
    ordered_json out = ordered_json::array();
    auto query = [&](const std::string& sql, ordered_json rows) {
      out.push_back({{"sql", sql}, {"rows", std::move(rows)}});
    };
    query(
        "SELECT record_id, time_span_start_us, time_span_end_us, metadata FROM records ORDER BY "
        "record_id",
        {{"1", "0", "10000000",
          "{\"timef.legacy.id\":\"" + id(Kind::kRecord, 1) + "\",\"timef.legacy.subject_ids\":[\"" +
              id(Kind::kSubject, 1) + "\",\"" + id(Kind::kSubject, 2) + "\"]}"},
         {"2", nullptr, nullptr, meta(id(Kind::kRecord, 2))},
         {"3", nullptr, nullptr,
          "{\"timef.legacy.id\":\"" + id(Kind::kRecord, 3) + "\",\"timef.legacy.subject_ids\":[\"" +
              id(Kind::kSubject, 3) + "\"]}"}});
    query(
        "SELECT r.record_id, c.start_time_us FROM records r JOIN clocks c USING (clock_id) "
        "ORDER BY r.record_id",
        ordered_json::array({ordered_json::array({"1", "1700000000000000"}),
                             ordered_json::array({"2", nullptr}),
                             ordered_json::array({"3", "1700000100000000"})}));
    query(
        "SELECT r.record_id, s.name, s.metadata FROM sources s JOIN records r USING "
        "(record_key) ORDER BY r.record_id, s.source_key",
        {{"1", id(Kind::kSource, 1), meta(id(Kind::kSource, 1))},
         {"1", "source", "{}"},
         {"2", id(Kind::kSource, 2), meta(id(Kind::kSource, 2))},
         {"2", id(Kind::kSource, 3), meta(id(Kind::kSource, 3))},
         {"3", id(Kind::kSource, 2), meta(id(Kind::kSource, 2))},
         {"3", id(Kind::kSource, 3), meta(id(Kind::kSource, 3))}});
    auto src = [&](std::optional<int> s) -> ordered_json {
      return s ? ordered_json(id(Kind::kSource, *s)) : ordered_json(nullptr);
    };
    query(
        "SELECT s.signal_id, s.name, s.spec_type, s.unit, s.n_values, s.source_id, s.metadata, "
        "a.axis_type, a.period_numerator_us, a.period_denominator, a.start_index, a.first_us, "
        "a.last_us FROM signals s JOIN axes a USING (axis_key) ORDER BY s.signal_id",
        {{"1", "lead_I", "ecg", "millivolt", "7", src(1), meta(id(Kind::kSeries, 1)), "regular",
          "2000", "1", "0", nullptr, nullptr},
         {"2", "events", "label", nullptr, "4", nullptr, meta(id(Kind::kSeries, 2)), "irregular",
          nullptr, nullptr, nullptr, "0", "30"},
         {"3", "lead_II", "ecg", "millivolt", "3", src(1), meta(id(Kind::kSeries, 3)), "regular",
          "2000", "1", "5", nullptr, nullptr},
         {"4", "lead_I", "ecg", "millivolt", "5", src(2), meta(id(Kind::kSeries, 4)), "regular",
          "1000", "3", "0", nullptr, nullptr},
         {"5", "notes", "text", nullptr, "3", src(3), meta(id(Kind::kSeries, 5)), "ordinal",
          nullptr, nullptr, nullptr, nullptr, nullptr},
         {"6", "lead_I", "ecg", "millivolt", "5", src(2), meta(id(Kind::kSeries, 4)), "regular",
          "1000", "3", "0", nullptr, nullptr},
         {"7", "valid", "flag", "dimensionless", "2", src(3), meta(id(Kind::kSeries, 6)), "regular",
          "4000", "1", "0", nullptr, nullptr},
         {"8", "rhythm", "rhythm", nullptr, "3", src(3), meta(id(Kind::kSeries, 7)), "regular",
          "1000000", "1", "0", nullptr, nullptr}});
    auto cmeta = [&](int n, bool json) {
      return "{\"timef.legacy.id\":\"" + id(Kind::kAnnotation, n) + "\"" +
             (json ? ",\"timef.legacy.value_json\":true" : "") + "}";
    };
    query(
        "SELECT name, value_kind, text_value, integer_value, float_value, boolean_value, "
        "CAST(text_list_value AS VARCHAR), unit, description, metadata FROM annotation_contents "
        "ORDER BY "
        "name, integer_value",
        {{"artifact", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
          cmeta(9, false)},
         {"big", "text", "99999999999999999999", nullptr, nullptr, nullptr, nullptr, nullptr,
          nullptr, cmeta(11, true)},
         {"count", "integer", nullptr, "7", nullptr, nullptr, nullptr, nullptr, nullptr,
          cmeta(14, false)},
         {"count", "integer", nullptr, "42", nullptr, nullptr, nullptr, nullptr, nullptr,
          cmeta(2, false)},
         {"flag", "boolean", nullptr, nullptr, nullptr, "true", nullptr, nullptr, nullptr,
          cmeta(6, false)},
         {"gain", "float", nullptr, nullptr, "3.0", nullptr, nullptr, "decibel", "Amplifier gain",
          cmeta(3, false)},
         {"hint", "text", "use lead I", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
          cmeta(13, false)},
         {"info", "text", "{\"a\":[1,2],\"b\":1}", nullptr, nullptr, nullptr, nullptr, nullptr,
          nullptr, cmeta(8, true)},
         {"offset", "float", nullptr, nullptr, "-0.0", nullptr, nullptr, nullptr, nullptr,
          cmeta(5, false)},
         {"quality", "text", "good", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
          cmeta(1, false)},
         {"scale", "float", nullptr, nullptr, "1000.0", nullptr, nullptr, nullptr, nullptr,
          cmeta(4, false)},
         {"shared_note", "text", "both", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
          cmeta(12, false)},
         {"tags", "text_list", nullptr, nullptr, nullptr, nullptr, "[x, y]", nullptr, nullptr,
          cmeta(7, false)},
         {"vocabulary", "text_list", nullptr, nullptr, nullptr, nullptr, "[AF, NORM]", nullptr,
          nullptr, cmeta(10, false)}});
    // Occurrences: object, span, provenance, by (object, occurrence order).
    query(
        "SELECT c.name, o.object_type, CASE o.object_type WHEN 'Record' THEN (SELECT record_id "
        "FROM records WHERE record_key = o.object_key) ELSE (SELECT signal_id FROM signals WHERE "
        "signal_key = o.object_key) END AS object_id, o.span_type, o.start_us, o.end_us, "
        "o.provenance, o.confidence, o.metadata FROM annotation_occurrences o JOIN "
        "annotation_contents c USING (content_key) ORDER BY o.object_type, object_id, "
        "o.occurrence_key",
        {{"count", "Record", "1", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"quality", "Record", "1", "static", nullptr, nullptr, "\"annotator-x\"", nullptr, "{}"},
         {"count", "Record", "2", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"scale", "Record", "2", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"tags", "Record", "2", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"info", "Record", "2", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"artifact", "Record", "3", "point", "70", nullptr, nullptr, nullptr, "{}"},
         {"big", "Record", "3", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"count", "Record", "3", "static", nullptr, nullptr, nullptr, nullptr, "{}"},
         {"gain", "Signal", "1", "interval", "100", "200", nullptr, nullptr, "{}"},
         {"flag", "Signal", "1", "interval", "10", "20", "\"rule\"", nullptr, "{}"},
         {"flag", "Signal", "3", "interval", "10", "20", "\"rule\"", nullptr, "{}"},
         {"shared_note", "Signal", "4", "interval", "0", "1000", nullptr, nullptr, "{}"},
         {"offset", "Signal", "6", "point", "50", nullptr, nullptr, nullptr, "{}"},
         {"shared_note", "Signal", "6", "interval", "0", "1000", nullptr, nullptr, "{}"}});
    query(
        "SELECT c.name, r.position, r.span_type, r.provenance, r.metadata FROM "
        "registered_annotations r JOIN annotation_contents c USING (content_key) ORDER BY "
        "r.position",
        {{"vocabulary", "0", "static", "\"doc\"", "{}"}, {"hint", "1", "static", nullptr, "{}"}});
    auto tmeta = [&](int n) { return meta(id(Kind::kTask, n)); };
    query(
        "SELECT task_id, task_type, prompt, CAST(input_modalities AS VARCHAR), split, scope_type, "
        "scope_start, "
        "scope_end, has_inline_targets, target_schema, unit, target_name, mode, rationale, "
        "metadata FROM tasks ORDER BY task_id",
        {{"1", "classification", "Rhythm?", "[text, time_series]", nullptr, "time_interval", "0",
          "1000", "true", "rhythm_v1", nullptr, nullptr, nullptr, "because", tmeta(1)},
         {"2", "classification", nullptr, "[text, time_series]", nullptr, nullptr, nullptr, nullptr,
          "false", nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(9)},
         {"3", "answer", "", "[text, time_series]", nullptr, nullptr, nullptr, nullptr, "false",
          nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(2)},
         {"4", "answer", "Say nothing", "[no_input, text]", nullptr, nullptr, nullptr, nullptr,
          "true", nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(10)},
         {"5", "scalar_prediction", "Heart rate?", "[text, time_series]", nullptr, nullptr, nullptr,
          nullptr, "true", nullptr, "millivolt", "heart rate", nullptr, nullptr, tmeta(3)},
         {"6", "temporal_localization", "Where?", "[text, time_series]", nullptr, nullptr, nullptr,
          nullptr, "true", nullptr, nullptr, nullptr, "sparse", nullptr, tmeta(4)},
         {"7", "forecasting", nullptr, "[text, time_series]", nullptr, nullptr, nullptr, nullptr,
          "true", nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(5)},
         {"8", "ts_editing", "Denoise", "[text, time_series]", nullptr, nullptr, nullptr, nullptr,
          "true", nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(6)},
         {"9", "ts_generation", "Make one", "[no_input, text]", nullptr, nullptr, nullptr, nullptr,
          "true", nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(7)},
         {"10", "ts_correspondence", "Which matches?", "[text, time_series]", nullptr, nullptr,
          nullptr, nullptr, "true", nullptr, nullptr, nullptr, nullptr, nullptr, tmeta(8)}});
    query(
        "SELECT t.task_id, g.position, g.target_kind, g.text_value, g.float_value, "
        "(SELECT record_id FROM records WHERE record_key = g.record_key), (SELECT signal_id FROM "
        "signals WHERE signal_key = g.signal_key), g.span_start, g.span_end, "
        "CAST((SELECT list(s.signal_id ORDER BY k.i) FROM (SELECT unnest(g.signal_keys) AS sk, "
        "generate_subscripts(g.signal_keys, 1) AS i) k JOIN signals s ON s.signal_key = k.sk) AS "
        "VARCHAR) "
        "FROM task_targets g JOIN tasks t USING (task_key) ORDER BY t.task_id, g.position",
        {{"1", "0", "text", "AF", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
         {"5", "0", "float", nullptr, "72.5", nullptr, nullptr, nullptr, nullptr, nullptr},
         {"6", "0", "step_interval", nullptr, nullptr, nullptr, nullptr, "1", "3", "[1]"},
         {"6", "1", "time_point", nullptr, nullptr, nullptr, nullptr, "100", nullptr, nullptr},
         {"7", "0", "record", nullptr, nullptr, "3", nullptr, nullptr, nullptr, nullptr},
         {"7", "1", "time_interval", nullptr, nullptr, nullptr, nullptr, "0", "500", "[4]"},
         {"8", "0", "record", nullptr, nullptr, "2", nullptr, nullptr, nullptr, nullptr},
         {"9", "0", "record", nullptr, nullptr, "3", nullptr, nullptr, nullptr, nullptr},
         {"10", "0", "record", nullptr, nullptr, "3", nullptr, nullptr, nullptr, nullptr},
         {"10", "1", "signal", nullptr, nullptr, nullptr, "7", nullptr, nullptr, nullptr}});
    query(
        "SELECT t.task_id, f.field, f.position, r.record_id FROM task_record_refs f JOIN tasks t "
        "USING (task_key) JOIN records r USING (record_key) ORDER BY t.task_id, f.field, "
        "f.position",
        {{"1", "inputs", "0", "1"},
         {"2", "inputs", "0", "2"},
         {"2", "inputs", "1", "3"},
         {"3", "inputs", "0", "2"},
         {"5", "inputs", "0", "1"},
         {"6", "inputs", "0", "1"},
         {"7", "inputs", "0", "2"},
         {"7", "inputs", "1", "3"},
         {"8", "inputs", "0", "1"},
         {"10", "candidate_records", "0", "2"},
         {"10", "candidate_records", "1", "3"},
         {"10", "inputs", "0", "1"}});
    // Annotation references (§15.7 D3): the occurrence on the first input record carrying the
    // content, else the registered annotation.
    query(
        "SELECT t.task_id, f.field, f.position, c.name, COALESCE((SELECT 'Record ' || "
        "r.record_id FROM annotation_occurrences o JOIN records r ON r.record_key = "
        "o.object_key WHERE o.occurrence_key = f.occurrence_key AND o.object_type = 'Record'), "
        "'registered') FROM task_annotation_refs f JOIN tasks t USING (task_key) JOIN (SELECT "
        "occurrence_key, content_key FROM annotation_occurrences UNION ALL SELECT "
        "occurrence_key, content_key FROM registered_annotations) x USING (occurrence_key) JOIN "
        "annotation_contents c USING (content_key) ORDER BY t.task_id, f.field, f.position",
        {{"1", "input_annotations", "0", "quality", "Record 1"},
         {"1", "input_annotations", "1", "vocabulary", "registered"},
         {"2", "target_annotations", "0", "count", "Record 2"},
         {"3", "target_annotations", "0", "count", "Record 2"},
         {"6", "input_annotations", "0", "count", "Record 1"}});
    query(
        "SELECT t.task_id, d.position, p.task_id FROM task_dependencies d JOIN tasks t USING "
        "(task_key) JOIN tasks p ON p.task_key = d.parent_task_key ORDER BY t.task_id",
        {{"1", "0", "9"}, {"10", "0", "1"}});
    std::ofstream(dir_.string() + ".expected.json") << out.dump(1) << "\n";
  }

  struct Location {
    std::string file;
    std::int64_t row_group;
    std::int64_t row;
  };

  fs::path dir_;
  LegacyFixtureOptions o_;
  Ids ids_;
  Duck duck_;
  std::vector<Series> series_;
  std::map<std::pair<int, int>, Location> locations_;
  std::vector<std::string> shard_paths_, index_paths_, record_paths_, annotation_paths_,
      task_paths_;
};

}  // namespace

void WriteLegacyFixture(const fs::path& dir, const LegacyFixtureOptions& options) {
  Generator(dir, options).Run();
}

void WriteLegacyEcgCorpus(const fs::path& dir, int records, int n_values, int chunk_values,
                          int chunks_per_shard,
                          const std::function<std::vector<float>(int record, int lead)>& lead) {
  static const char* kLeads[] = {"I",  "II", "III", "aVR", "aVL", "aVF",
                                 "V1", "V2", "V3",  "V4",  "V5",  "V6"};
  fs::create_directories(dir / "time_series");
  fs::create_directories(dir / "time_series_index");
  Duck duck;
  const Ids ids(true);
  // Values: JSON lines of (series, chunk, values), one shard per `chunks_per_shard` chunks.
  const fs::path lines = dir.string() + ".values.jsonl";
  std::vector<std::string> shard_paths;
  std::string index_rows;
  {
    std::ofstream out(lines);
    int chunk_count = 0;
    int shard = -1;
    std::int64_t row_in_shard = 0;
    std::string index_sql;
    for (int r = 0; r < records; ++r) {
      for (int l = 0; l < 12; ++l) {
        const std::vector<float> values = lead(r, l);
        const int series = r * 12 + l + 1;
        for (int c = 0; c * chunk_values < n_values; ++c) {
          if (chunk_count % chunks_per_shard == 0) {
            ++shard;
            row_in_shard = 0;
            char name[64];
            std::snprintf(name, sizeof name, "time_series/part-%08d.parquet", shard);
            shard_paths.push_back(name);
          }
          ++chunk_count;
          const int begin = c * chunk_values;
          const int end = std::min(n_values, begin + chunk_values);
          out << "{\"shard\":" << shard << ",\"series\":\"" << ids.Text(Kind::kSeries, series)
              << "\",\"chunk\":" << c << ",\"n\":" << (end - begin) << ",\"values\":[";
          char number[32];
          for (int i = begin; i < end; ++i) {
            std::snprintf(number, sizeof number, "%.9g", static_cast<double>(values[i]));
            out << (i > begin ? "," : "") << number;
          }
          out << "]}\n";
          index_rows += "('" + ids.Text(Kind::kRecord, r + 1) + "','" +
                        ids.Text(Kind::kSeries, series) + "'," + std::to_string(c) + ",'" +
                        shard_paths.back() + "'," + std::to_string(row_in_shard / 2048) + "," +
                        std::to_string(row_in_shard % 2048) + "," + std::to_string(end - begin) +
                        "),";
          ++row_in_shard;
        }
      }
    }
  }
  duck.Exec(
      "CREATE TABLE v AS SELECT shard, series::UUID AS time_series_id, chunk, n, "
      "CAST(\"values\" AS FLOAT[]) AS vals FROM read_json(" +
      Q(lines.string()) +
      ", format = 'newline_delimited', columns = {shard: 'INTEGER', series: 'VARCHAR', "
      "chunk: 'INTEGER', n: 'INTEGER', \"values\": 'DOUBLE[]'})");
  for (std::size_t s = 0; s < shard_paths.size(); ++s) {
    duck.Exec(
        "COPY (SELECT time_series_id, 'ecg' AS spec_type, 'lead' AS signal, chunk::INTEGER "
        "AS chunk_idx, n::INTEGER AS n_values, vals AS \"values\", NULL::BIGINT[] AS "
        "time_offsets_us FROM v WHERE shard = " +
        std::to_string(s) + ") TO " + Q((dir / shard_paths[s]).string()) +
        " (FORMAT parquet, ROW_GROUP_SIZE 2048)");
  }
  fs::remove(lines);
  index_rows.pop_back();
  duck.Exec(
      "COPY (SELECT record_id::UUID AS record_id, time_series_id::UUID AS time_series_id, "
      "'ecg' AS spec_type, 'lead' AS signal, chunk_idx::INTEGER AS chunk_idx, chunk_file, "
      "chunk_major_idx::BIGINT AS chunk_major_idx, chunk_minor_idx::BIGINT AS "
      "chunk_minor_idx, n_values::INTEGER AS n_values FROM (VALUES " +
      index_rows +
      ") t(record_id, time_series_id, chunk_idx, chunk_file, chunk_major_idx, "
      "chunk_minor_idx, n_values)) TO " +
      Q((dir / "time_series_index/part-00000000.parquet").string()) + " (FORMAT parquet)");
  // Records and tasks from SQL over range().
  auto uuid = [](int kind, const std::string& n) {
    return "('0000000" + std::to_string(kind) + "-0000-4000-8000-' || lpad(to_hex(" + n +
           "), 12, '0'))::UUID";
  };
  fs::create_directories(dir / "records");
  fs::create_directories(dir / "tasks/task=classification");
  fs::create_directories(dir / "annotations");
  duck.Exec("COPY (SELECT " + uuid(1, "r + 1") +
            " AS record_id, (1600000000000000 + r * 60000000)::BIGINT AS start_time_us, "
            "NULL::STRUCT(start_us BIGINT, end_us BIGINT, time_series_ids UUID[], frame VARCHAR) "
            "AS time_span, [" +
            uuid(6, "r + 1") +
            "] AS subject_ids, list_transform(range(12), l -> {'spec_type': 'ecg', 'signal': "
            "['I','II','III','aVR','aVL','aVF','V1','V2','V3','V4','V5','V6'][l + 1], "
            "'source_id': " +
            uuid(5, "1") + ", 'time_series_id': " + uuid(2, "r * 12 + l + 1") +
            ", 'axis_type': 'regular', 'period_numerator_us': 2000::BIGINT, "
            "'period_denominator': 1::BIGINT, 'start_index': 0::BIGINT, 'first_time_offset_us': "
            "NULL::BIGINT, 'last_time_offset_us': NULL::BIGINT, 'n_values': " +
            std::to_string(n_values) + "::BIGINT}) AS time_series, [" + uuid(4, "r + 1") +
            "] AS task_ids, []::UUID[] AS annotation_ids FROM range(" + std::to_string(records) +
            ") t(r)) TO " + Q((dir / "records/part-00000000.parquet").string()) +
            " (FORMAT parquet)");
  duck.Exec("COPY (SELECT " + uuid(4, "r + 1") + " AS id, [" + uuid(1, "r + 1") +
            "] AS record_ids, []::UUID[] AS from_task_ids, 'Rhythm?' AS prompt, NULL::STRUCT("
            "start_us BIGINT, end_us BIGINT, time_series_ids UUID[], frame VARCHAR) AS scope, "
            "[]::UUID[] AS input_annotation_ids, []::UUID[] AS target_annotation_ids, "
            "NULL::VARCHAR AS rationale, CASE WHEN r % 3 = 0 THEN 'AF' ELSE 'NORM' END AS target, "
            "'rhythm'::VARCHAR AS target_schema FROM range(" +
            std::to_string(records) + ") t(r)) TO " +
            Q((dir / "tasks/task=classification/part-00000000.parquet").string()) +
            " (FORMAT parquet)");
  duck.Exec("COPY (SELECT " + uuid(3, "r + 1") +
            " AS id, 'age' AS key, (18 + r % 70)::VARCHAR "
            "AS value, NULL::VARCHAR AS source, NULL::STRUCT(start_us BIGINT, end_us BIGINT, "
            "time_series_ids UUID[], frame VARCHAR) AS span, [" +
            uuid(1, "r + 1") + "] AS record_ids FROM range(" + std::to_string(records) +
            ") t(r)) TO " + Q((dir / "annotations/part-00000000.parquet").string()) +
            " (FORMAT parquet)");
  (void)kLeads;
  auto parts = [&](const std::vector<std::string>& paths) {
    ordered_json list = ordered_json::array();
    for (const auto& p : paths) list.push_back(Part(dir, p));
    return list;
  };
  ordered_json m;
  m["timef_format_version"] = 2;
  m["dataset_id"] = "bench/legacy-ecg";
  m["metadata"] = {{"dataset_id", "bench/legacy-ecg"},
                   {"dataset_version", "1.0.0"},
                   {"name", "Legacy ECG corpus"},
                   {"description", "12-lead ECG, legacy layout"},
                   {"license", "CC0-1.0"},
                   {"domains", {"cardiology"}},
                   {"tags", {"bench"}}};
  m["schema"] = {{"time_series_specs",
                  {{{"spec_type", "ecg"},
                    {"name", "ECG lead"},
                    {"unit", "mV"},
                    {"dtype", "float32"},
                    {"nullable", false}}}},
                 {"annotations", ordered_json::array()},
                 {"tasks", {"classification"}}};
  m["files"] = {{"records", parts({"records/part-00000000.parquet"})},
                {"annotations", parts({"annotations/part-00000000.parquet"})},
                {"time_series_index", parts({"time_series_index/part-00000000.parquet"})},
                {"tasks", parts({"tasks/task=classification/part-00000000.parquet"})},
                {"time_series", parts(shard_paths)}};
  m["values_backend"] = "parquet";
  std::ofstream(dir / "manifest.json", std::ios::binary) << m.dump(2) << "\n";
}

}  // namespace timef::testing
