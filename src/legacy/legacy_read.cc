// The legacy read (docs/format.md §15.6, §15.7): builds the native objects an upgrade writes.
#include "legacy/legacy_read.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <mutex>
#include <regex>
#include <unordered_map>

#include "catalog/rows/parquet_rows.h"
#include "core/checksum.h"
#include "core/json_forms.h"
#include "core/paths.h"
#include "legacy/id_codec.h"
#include "legacy/legacy_manifest.h"
#include "parquet/file_reader.h"
#include "timef/error.h"
#include "timef/legacy.h"
#include "timef/units.h"
#include "values/chunk_reader.h"
#include "values/column_values.h"
#include "values/leaf_check.h"

namespace timef {

namespace {

using legacy::IdStorage;
using legacy::LegacyManifest;
namespace fs = std::filesystem;

constexpr std::string_view kLegacyId = "timef.legacy.id";

[[noreturn]] void Fail(const std::string& file, const std::string& where,
                       const std::string& problem) {
  throw FormatError(ErrorSite{.file = fs::path(file), .where = where}, problem);
}

// One table part: its path (for messages) and rows.
struct PartRows {
  std::string path;
  std::vector<Json> rows;
};

// A string ID of a row field (null → nullopt); FormatError when it is not a string, or not a
// canonical UUID in a 16-byte column.
std::optional<std::string> OptId(const Json& row, const std::string& field, const std::string& file,
                                 IdStorage storage) {
  if (!row.contains(field) || row[field].is_null()) return std::nullopt;
  if (!row[field].is_string()) Fail(file, field, "ID is not a string: " + row[field].dump());
  std::string id = row[field].get<std::string>();
  if (storage == IdStorage::kUuid16 && !legacy::IsCanonicalUuid(id)) {
    Fail(file, field, "not a canonical UUID in a 16-byte ID column: \"" + id + "\"");
  }
  return id;
}

std::string Id(const Json& row, const std::string& field, const std::string& file,
               IdStorage storage) {
  auto id = OptId(row, field, file, storage);
  if (!id) Fail(file, field, "ID is null");
  return *id;
}

std::vector<std::string> IdList(const Json& row, const std::string& field, const std::string& file,
                                IdStorage storage) {
  std::vector<std::string> out;
  if (!row.contains(field) || row[field].is_null()) return out;
  if (!row[field].is_array()) Fail(file, field, "expected a list of IDs");
  for (const Json& e : row[field]) {
    if (!e.is_string()) Fail(file, field, "ID list element is not a string: " + e.dump());
    std::string id = e.get<std::string>();
    if (storage == IdStorage::kUuid16 && !legacy::IsCanonicalUuid(id)) {
      Fail(file, field, "not a canonical UUID in a 16-byte ID column: \"" + id + "\"");
    }
    out.push_back(std::move(id));
  }
  return out;
}

std::optional<std::int64_t> OptInt(const Json& row, const std::string& field,
                                   const std::string& file) {
  if (!row.contains(field) || row[field].is_null()) return std::nullopt;
  if (!row[field].is_number_integer()) Fail(file, field, "expected an integer");
  return row[field].get<std::int64_t>();
}

std::optional<std::string> OptString(const Json& row, const std::string& field,
                                     const std::string& file) {
  if (!row.contains(field) || row[field].is_null()) return std::nullopt;
  if (!row[field].is_string()) Fail(file, field, "expected a string");
  return row[field].get<std::string>();
}

// A legacy span struct.
struct LegacySpan {
  std::int64_t start = 0;
  std::optional<std::int64_t> end;
  std::optional<std::vector<std::string>> series;  // nullopt = whole record
  bool steps = false;
};

std::optional<LegacySpan> OptSpan(const Json& row, const std::string& field,
                                  const std::string& file, IdStorage series_storage) {
  if (!row.contains(field) || row[field].is_null()) return std::nullopt;
  const Json& s = row[field];
  if (!s.is_object()) Fail(file, field, "expected a span struct");
  LegacySpan span;
  auto start = OptInt(s, "start_us", file);
  if (!start) Fail(file, field + ".start_us", "span start is null");
  span.start = *start;
  span.end = OptInt(s, "end_us", file);
  if (s.contains("time_series_ids") && !s["time_series_ids"].is_null()) {
    span.series = IdList(s, "time_series_ids", file, series_storage);
  }
  if (auto frame = OptString(s, "frame", file)) {
    if (*frame == "steps") {
      span.steps = true;
    } else if (*frame != "seconds") {
      Fail(file, field + ".frame", "unknown span frame \"" + *frame + "\"");
    }
  }
  return span;
}

// ---- values ----

struct IndexRow {
  std::int32_t chunk_idx = 0;
  std::string chunk_file;
  std::int64_t row_group = 0;
  std::int64_t row = 0;
  std::int64_t n_values = 0;
};

// Reads chunks of the legacy shards; shared by every loader of one dataset.
// Reads chunks of the legacy shards; shared by every loader of one dataset. Another writer's
// shards may lack a page index, and then finding one row of a list column means decoding the
// levels of every page before it; so a chunk's whole row group column is decoded once and kept
// (the last one per column), and consecutive chunks of the same row group are sliced from it.
class ShardSource {
 public:
  ShardSource(fs::path root, std::map<std::string, std::string> listed)
      : root_(std::move(root)), listed_(std::move(listed)) {}

  model::ValueArray ReadValues(const std::vector<IndexRow>& chunks, const model::Spec& spec,
                               const std::string& series) {
    std::lock_guard lock(mutex_);
    std::vector<model::ValueArray> parts;
    parts.reserve(chunks.size());
    for (const IndexRow& c : chunks) {
      parquet::FileReader& reader = Reader(c.chunk_file);
      const int column = reader.ColumnIndex("values");
      if (std::string problem = values::ValuesLeafProblem(reader.columns()[column], spec);
          !problem.empty()) {
        Fail(c.chunk_file, "values", "series " + series + ": " + problem);
      }
      const parquet::ColumnData row = Row(reader, c, column, values_cache_, "values", series);
      parts.push_back(values::RowToValues(row, spec, c.n_values, [&](const std::string& problem) {
        Fail(c.chunk_file, "values",
             "series " + series + " chunk " + std::to_string(c.chunk_idx) + ": " + problem);
      }));
    }
    return values::ConcatValues(spec.dtype, parts);
  }

  std::vector<std::int64_t> ReadOffsets(const std::vector<IndexRow>& chunks,
                                        const std::string& series) {
    std::lock_guard lock(mutex_);
    std::vector<std::int64_t> out;
    for (const IndexRow& c : chunks) {
      parquet::FileReader& reader = Reader(c.chunk_file);
      const int column = reader.ColumnIndex("time_offsets_us");
      const parquet::ColumnData data =
          Row(reader, c, column, offsets_cache_, "time_offsets_us", series);
      if (data.physical_type != parquet::Type::kInt64 || data.list_offsets.size() != 2 ||
          (!data.list_validity.empty() && data.list_validity[0] == 0)) {
        Fail(c.chunk_file, "time_offsets_us",
             "series " + series + " chunk " + std::to_string(c.chunk_idx) +
                 ": expected a list<int64> of offsets");
      }
      const std::int64_t n = data.list_offsets[1] - data.list_offsets[0];
      if (n != c.n_values) {
        Fail(c.chunk_file, "time_offsets_us",
             "series " + series + " chunk " + std::to_string(c.chunk_idx) + " holds " +
                 std::to_string(n) + " offsets, the index says " + std::to_string(c.n_values));
      }
      const auto* values = reinterpret_cast<const std::int64_t*>(data.values.data());
      out.insert(out.end(), values, values + n);
    }
    return out;
  }

 private:
  // The decoded column of one row group.
  struct CachedGroup {
    std::string file;
    std::int64_t row_group = -1;
    parquet::ColumnData data;
  };

  // Row `c.row` of row group `c.row_group` of `column` as a one-row ColumnData.
  parquet::ColumnData Row(parquet::FileReader& reader, const IndexRow& c, int column,
                          CachedGroup& cache, const char* what, const std::string& series) {
    if (c.row_group < 0 || c.row_group >= reader.num_row_groups() || c.row < 0 ||
        c.row >= reader.row_group_num_rows(static_cast<int>(c.row_group))) {
      Fail(c.chunk_file, what,
           "series " + series + " chunk " + std::to_string(c.chunk_idx) + ": no row " +
               std::to_string(c.row) + " in row group " + std::to_string(c.row_group));
    }
    if (cache.file != c.chunk_file || cache.row_group != c.row_group) {
      cache.file.clear();
      reader.ReadColumnChunk(static_cast<int>(c.row_group), column, cache.data);
      cache.file = c.chunk_file;
      cache.row_group = c.row_group;
    }
    parquet::ColumnData out;
    if (!values::SliceListRow(cache.data, c.row, out)) {
      Fail(c.chunk_file, what, "series " + series + ": not a list column");
    }
    return out;
  }

  fs::path File(const std::string& chunk_file) {
    if (!listed_.contains(chunk_file)) {
      Fail(chunk_file, "chunk_file", "values file not listed in the manifest's files.time_series");
    }
    return root_ / chunk_file;
  }
  parquet::FileReader& Reader(const std::string& chunk_file) {
    auto it = readers_.find(chunk_file);
    if (it == readers_.end()) {
      fs::path file = File(chunk_file);
      if (!fs::exists(file)) {
        throw MissingFileError(ErrorSite{.file = file}, "missing values file");
      }
      it = readers_
               .emplace(chunk_file,
                        std::make_unique<parquet::FileReader>(parquet::FileReader::OpenFile(file)))
               .first;
    }
    return *it->second;
  }

  fs::path root_;
  std::map<std::string, std::string> listed_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<parquet::FileReader>> readers_;
  CachedGroup values_cache_;
  CachedGroup offsets_cache_;
};

// ---- annotation values (§15.7 D4) ----

struct ParsedValue {
  model::AnnotationValue value;
  bool value_json = false;
};

std::string Trim(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

ParsedValue ParseAnnotationValue(const std::optional<std::string>& text, const std::string& file,
                                 const std::string& id) {
  if (!text) return {};
  const std::string t = Trim(*text);
  if (t == "NaN")
    return {model::AnnotationValue::OfFloat(std::numeric_limits<double>::quiet_NaN())};
  if (t == "Infinity") {
    return {model::AnnotationValue::OfFloat(std::numeric_limits<double>::infinity())};
  }
  if (t == "-Infinity") {
    return {model::AnnotationValue::OfFloat(-std::numeric_limits<double>::infinity())};
  }
  static const std::regex kInteger("-?[0-9]+");
  if (std::regex_match(t, kInteger)) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc() && ptr == t.data() + t.size()) {
      return {model::AnnotationValue::OfInteger(v)};
    }
    return {model::AnnotationValue::OfText(t), true};
  }
  std::string problem;
  std::optional<Json> json = ParseJsonStrict(t, &problem);
  if (!json) Fail(file, "value", "annotation " + id + ": value is not JSON: " + problem);
  if (json->is_null()) return {};
  if (json->is_string()) return {model::AnnotationValue::OfText(json->get<std::string>())};
  if (json->is_boolean()) return {model::AnnotationValue::OfBoolean(json->get<bool>())};
  if (json->is_number()) return {model::AnnotationValue::OfFloat(json->get<double>())};
  if (json->is_array() &&
      std::all_of(json->begin(), json->end(), [](const Json& e) { return e.is_string(); })) {
    std::vector<std::string> list;
    for (const Json& e : *json) list.push_back(e.get<std::string>());
    return {model::AnnotationValue::OfTextList(std::move(list))};
  }
  return {model::AnnotationValue::OfText(WriteCompactJson(*json)), true};
}

// ---- the read ----

class LegacyBuilder {
 public:
  LegacyBuilder(fs::path dir, const LegacyReadOptions& options)
      : dir_(std::move(dir)), options_(options), m_(legacy::ReadLegacyManifest(dir_)) {}

  legacy::LegacyRead Build() {
    ReadStorages();
    ReadSchema();
    out_.card = BuildCard();
    out_.dataset = std::make_unique<model::Dataset>(m_.dataset_id, out_.card.dataset_version);
    out_.upgraded_from = {m_.format_version, m_.checksum};
    out_.files = m_.AllFiles();
    ReadIndex();
    std::map<std::string, std::string> listed;
    for (const auto& p : m_.time_series) listed[p.path] = p.path;
    shards_ = std::make_shared<ShardSource>(dir_, std::move(listed));
    ReadRecords();
    ReadAnnotations();
    ReadTasks();
    return {std::move(out_), std::move(chunks_)};
  }

 private:
  void Warn(std::string text) {
    if (std::find(out_.warnings.begin(), out_.warnings.end(), text) == out_.warnings.end()) {
      out_.warnings.push_back(std::move(text));
    }
  }

  PartRows Rows(const manifest::FilePart& part) {
    return {part.path, [&] {
              std::vector<Json> rows;
              for (const std::string& text : duck_.RowsAsJson(dir_ / part.path)) {
                rows.push_back(Json::parse(text));
              }
              return rows;
            }()};
  }

  void ReadStorages() {
    const std::string first = m_.records.front().path;
    storage_ = legacy::IdStoragesFromSchema(duck_.Columns(dir_ / first), first);
    if (m_.has_id_encoding) {
      for (std::string_view id : legacy::kLogicalIds) {
        auto it = m_.id_encoding.find(std::string(id));
        const IdStorage declared = it == m_.id_encoding.end() ? IdStorage::kString : it->second;
        if (declared != storage_.at(std::string(id))) {
          Fail("manifest.json", "/id_encoding/" + std::string(id),
               "id_encoding disagrees with the records schema of " + first + " (declared " +
                   (declared == IdStorage::kUuid16 ? "uuid16" : "string") + ")");
        }
      }
    }
  }
  IdStorage S(const char* id) const { return storage_.at(id); }

  void ReadSchema() {
    if (m_.schema.contains("time_series_specs") && m_.schema["time_series_specs"].is_array()) {
      for (const Json& j : m_.schema["time_series_specs"]) {
        model::Spec spec;
        spec.spec_type = j.value("spec_type", "");
        spec.name = j.value("name", spec.spec_type);
        // The unit is `unit_value`, as in the native manifest: str(pint unit), null = unknown.
        // No legacy writer is known to have used `unit`; one that did is not guessed at but
        // named in a warning, so that the unit is not lost without a word.
        if (j.contains("unit_value") && !j["unit_value"].is_null()) {
          if (!j["unit_value"].is_string()) {
            Fail("manifest.json", "/schema/time_series_specs/" + spec.spec_type + "/unit_value",
                 "expected a string or null, got " + j["unit_value"].dump());
          }
          const std::string unit = j["unit_value"].get<std::string>();
          spec.unit = ParseUnit(unit);
          if (!spec.unit) {
            Warn("spec '" + spec.spec_type + "': unit \"" + unit +
                 "\" does not parse; stored as unknown (null)");
          }
        } else if (j.contains("unit") && !j["unit"].is_null()) {
          Warn("spec '" + spec.spec_type + "': key \"unit\" (" + j["unit"].dump() +
               ") is not a legacy spec key and is not read; the unit is unknown (null)");
        }
        auto dtype = ParseDType(j.value("dtype", ""));
        if (!dtype) {
          Fail("manifest.json", "/schema/time_series_specs/" + spec.spec_type + "/dtype",
               "unknown dtype " + j.value("dtype", Json()).dump());
        }
        spec.dtype = *dtype;
        if (j.contains("categories") && j["categories"].is_array()) {
          spec.categories = j["categories"].get<std::vector<std::string>>();
        }
        if (j.contains("value_shape") && j["value_shape"].is_array()) {
          spec.value_shape = j["value_shape"].get<std::vector<std::int64_t>>();
        }
        if (j.contains("dimension_names") && j["dimension_names"].is_array()) {
          spec.dimension_names = j["dimension_names"].get<std::vector<std::string>>();
        }
        spec.nullable = j.value("nullable", false);
        if (j.contains("modality") && j["modality"].is_string()) {
          auto modality = ParseModality(j["modality"].get<std::string>());
          if (!modality) {
            Fail("manifest.json", "/schema/time_series_specs/" + spec.spec_type + "/modality",
                 "unknown modality");
          }
          spec.modality = *modality;
        }
        specs_[spec.spec_type] = model::Spec::Make(spec);
      }
    }
    if (m_.schema.contains("annotations") && m_.schema["annotations"].is_array()) {
      for (const Json& j : m_.schema["annotations"]) {
        Descriptor d;
        if (j.contains("unit") && j["unit"].is_string()) {
          const std::string unit = j["unit"].get<std::string>();
          d.unit = ParseUnit(unit);
          if (!d.unit) {
            Warn("annotation '" + j.value("key", "") + "': unit \"" + unit +
                 "\" does not parse; stored as unknown (null)");
          }
        }
        if (j.contains("description") && j["description"].is_string()) {
          d.description = j["description"].get<std::string>();
        }
        descriptors_[j.value("key", "")] = d;
      }
    }
  }

  manifest::Card BuildCard() {
    const Json& md = m_.metadata;
    manifest::Card card;
    card.dataset_id = m_.dataset_id;
    card.dataset_version = options_.version.value_or(md.value("dataset_version", ""));
    card.name = md.value("name", "");
    card.description = md.value("description", "");
    const std::string license = md.value("license", "");
    if (auto parsed = manifest::ParseLicense(license)) {
      card.license = *parsed;
    } else {
      card.license = manifest::License::kOther;
      Warn("license \"" + license + "\" is not a known license; stored as other");
    }
    if (md.contains("domains") && md["domains"].is_array()) {
      for (const Json& d : md["domains"]) {
        auto domain = d.is_string() ? manifest::ParseDomain(d.get<std::string>()) : std::nullopt;
        if (domain) {
          card.domains.push_back(*domain);
        } else {
          Warn("domain " + d.dump() + " is not a known domain; dropped");
        }
      }
    }
    if (md.contains("tags") && md["tags"].is_array()) {
      card.tags = md["tags"].get<std::vector<std::string>>();
    }
    auto opt = [&](const char* key) -> std::optional<std::string> {
      if (md.contains(key) && md[key].is_string()) return md[key].get<std::string>();
      return std::nullopt;
    };
    card.source_url = opt("source_url");
    card.license_url = opt("license_url");
    card.citation = opt("citation");
    card.access_url = opt("access_url");
    if (auto access = opt("access")) {
      // No safe mapping: an unknown access level read as `open` would loosen the terms.
      auto parsed = manifest::ParseAccess(*access);
      if (!parsed) {
        Fail("manifest.json", "/metadata/access",
             "unknown access \"" + *access + "\" (expected open, credentialed or restricted)");
      }
      card.access = *parsed;
    }
    if (card.license == manifest::License::kOther && !card.license_url && card.source_url) {
      card.license_url = card.source_url;
      Warn("license other without license_url; the source_url is used as license_url");
    }
    return card;
  }

  void ReadIndex() {
    for (const auto& part : m_.time_series_index) {
      PartRows rows = Rows(part);
      for (const Json& r : rows.rows) {
        const std::string series = Id(r, "time_series_id", rows.path, S("time_series_id"));
        IndexRow row;
        row.chunk_idx = static_cast<std::int32_t>(OptInt(r, "chunk_idx", rows.path).value_or(-1));
        auto file = OptString(r, "chunk_file", rows.path);
        if (!file) Fail(rows.path, "chunk_file", "null chunk_file");
        CheckRelativePath("time_series_index.chunk_file", *file);
        row.chunk_file = *file;
        row.row_group = OptInt(r, "chunk_major_idx", rows.path).value_or(-1);
        row.row = OptInt(r, "chunk_minor_idx", rows.path).value_or(-1);
        row.n_values = OptInt(r, "n_values", rows.path).value_or(-1);
        auto& chunks = index_[series];
        auto same = std::find_if(chunks.begin(), chunks.end(),
                                 [&](const IndexRow& c) { return c.chunk_idx == row.chunk_idx; });
        if (same == chunks.end()) {
          chunks.push_back(row);
        } else if (same->chunk_file != row.chunk_file || same->row_group != row.row_group ||
                   same->row != row.row || same->n_values != row.n_values) {
          Fail(rows.path, "chunk_idx",
               "series " + series + " chunk " + std::to_string(row.chunk_idx) +
                   " has two different locations");
        }
      }
    }
    for (auto& [series, chunks] : index_) {
      std::sort(chunks.begin(), chunks.end(),
                [](const IndexRow& a, const IndexRow& b) { return a.chunk_idx < b.chunk_idx; });
      for (std::size_t i = 0; i < chunks.size(); ++i) {
        if (chunks[i].chunk_idx != static_cast<std::int32_t>(i)) {
          Fail("time_series_index", "chunk_idx",
               "series " + series + ": chunks are not numbered 0, 1, …");
        }
      }
    }
  }

  void ReadRecords() {
    std::int64_t record_id = 0;
    std::int64_t signal_id = 0;
    for (const auto& part : m_.records) {
      PartRows rows = Rows(part);
      for (const Json& r : rows.rows) {
        const std::string legacy_id = Id(r, "record_id", rows.path, S("record_id"));
        auto record = std::make_shared<model::Record>();
        record->set_id(++record_id);
        record->set_start_time_us(OptInt(r, "start_time_us", rows.path));
        if (auto span = OptSpan(r, "time_span", rows.path, S("time_series_id"))) {
          if (!span->end || span->steps) {
            Fail(rows.path, "time_span",
                 "record " + legacy_id + ": time_span needs an end and the seconds frame");
          }
          record->set_time_span(model::TimeInterval{span->start, *span->end});
        }
        Json metadata = Json::object();
        metadata[std::string(kLegacyId)] = legacy_id;
        std::vector<std::string> subjects = IdList(r, "subject_ids", rows.path, S("subject_id"));
        if (!subjects.empty()) metadata["timef.legacy.subject_ids"] = subjects;
        record->set_metadata(std::move(metadata));
        RecordInfo& info = records_[legacy_id];
        if (info.record) Fail(rows.path, "record_id", "duplicate record ID " + legacy_id);
        info.record = record;
        std::map<std::optional<std::string>, std::shared_ptr<model::Source>> sources;
        if (r.contains("time_series") && r["time_series"].is_array()) {
          for (const Json& ts : r["time_series"]) {
            auto signal = BuildSignal(ts, rows.path, legacy_id);
            signal->set_id(++signal_id);
            auto source_id = OptId(ts, "source_id", rows.path, S("source_id"));
            auto& source = sources[source_id];
            if (!source) {
              source = record->AddSource(source_id.value_or("source"));
              if (source_id) source->set_metadata(Json{{std::string(kLegacyId), *source_id}});
            }
            signal->set_source_id(source_id);
            source->AddSignal(signal);
            const std::string series = Id(ts, "time_series_id", rows.path, S("time_series_id"));
            std::vector<ChunkLocator>& located = chunks_[*signal->id()];
            for (const IndexRow& c : index_.at(series)) {
              located.push_back({.value_path = c.chunk_file,
                                 .major = c.row_group,
                                 .minor = c.row,
                                 .n_values = c.n_values});
            }
            info.signals[series] = signal;
          }
        }
        out_.dataset->AddRecord(record);
      }
    }
  }

  std::shared_ptr<model::Signal> BuildSignal(const Json& ts, const std::string& file,
                                             const std::string& record) {
    const std::string series = Id(ts, "time_series_id", file, S("time_series_id"));
    const std::string where = "time_series[" + series + "]";
    auto spec_type = OptString(ts, "spec_type", file);
    auto spec_it = spec_type ? specs_.find(*spec_type) : specs_.end();
    if (spec_it == specs_.end()) {
      Fail(file, where + ".spec_type",
           "record " + record + ": spec_type not in the manifest schema");
    }
    const auto& spec = spec_it->second;
    const std::int64_t n_values = OptInt(ts, "n_values", file).value_or(-1);
    auto index_it = index_.find(series);
    if (index_it == index_.end()) {
      Fail("time_series_index", "time_series_id", "series " + series + " has no index rows");
    }
    const std::vector<IndexRow>& chunks = index_it->second;
    std::int64_t total = 0;
    for (const IndexRow& c : chunks) total += c.n_values;
    if (total != n_values) {
      Fail(file, where + ".n_values",
           "series " + series + ": n_values " + std::to_string(n_values) + " but its chunks hold " +
               std::to_string(total));
    }
    const std::string axis_type = OptString(ts, "axis_type", file).value_or("");
    std::shared_ptr<const model::TimeAxis> axis;
    if (axis_type == "regular") {
      axis = model::TimeAxis::Regular(OptInt(ts, "period_numerator_us", file).value_or(0),
                                      OptInt(ts, "period_denominator", file).value_or(1),
                                      OptInt(ts, "start_index", file).value_or(0), 0);
    } else if (axis_type == "irregular") {
      std::vector<std::int64_t> offsets = shards_->ReadOffsets(chunks, series);
      auto first = OptInt(ts, "first_time_offset_us", file);
      auto last = OptInt(ts, "last_time_offset_us", file);
      if (static_cast<std::int64_t>(offsets.size()) != n_values || offsets.empty() || !first ||
          !last || offsets.front() != *first || offsets.back() != *last) {
        Fail(file, where + ".time_offsets_us",
             "series " + series + ": offsets disagree with n_values or the endpoints");
      }
      axis = model::TimeAxis::Irregular(std::move(offsets));
    } else if (axis_type == "ordinal") {
      axis = model::TimeAxis::Ordinal();
    } else {
      Fail(file, where + ".axis_type", "unknown axis_type \"" + axis_type + "\"");
    }
    auto signal = std::make_shared<model::Signal>(OptString(ts, "signal", file).value_or(""), spec,
                                                  axis, n_values);
    signal->set_metadata(Json{{std::string(kLegacyId), series}});
    std::shared_ptr<ShardSource> shards = shards_;
    signal->SetLoader(
        [shards, chunks, spec, series] { return shards->ReadValues(chunks, *spec, series); });
    return signal;
  }

  void ReadAnnotations() {
    for (const auto& part : m_.annotations) {
      PartRows rows = Rows(part);
      for (const Json& r : rows.rows) {
        const std::string id = Id(r, "id", rows.path, S("annotation_id"));
        const std::string key = OptString(r, "key", rows.path).value_or("");
        ParsedValue value = ParseAnnotationValue(OptString(r, "value", rows.path), rows.path, id);
        auto content = std::make_shared<model::AnnotationContent>(key, value.value);
        if (auto d = descriptors_.find(key); d != descriptors_.end()) {
          content->set_unit(d->second.unit);
          content->set_description(d->second.description);
        }
        Json metadata = Json::object();
        metadata[std::string(kLegacyId)] = id;
        if (value.value_json) metadata["timef.legacy.value_json"] = true;
        content->set_metadata(std::move(metadata));
        std::optional<Json> provenance;
        if (auto source = OptString(r, "source", rows.path)) provenance = Json(*source);
        auto span = OptSpan(r, "span", rows.path, S("time_series_id"));
        model::AnnotationSpan native = model::StaticSpan{};
        if (span) {
          if (span->steps) {
            Fail(rows.path, "span.frame", "annotation " + id + ": a steps-frame span");
          }
          if (span->end) {
            native = model::TimeInterval{span->start, *span->end};
          } else {
            native = model::TimePoint{span->start};
          }
        }
        AnnotationInfo& info = annotations_[id];
        info.content = content;
        const std::vector<std::string> records = IdList(r, "record_ids", rows.path, S("record_id"));
        if (records.empty()) {
          if (span) {
            Fail(rows.path, "span", "annotation " + id + " has no records (registered) but a span");
          }
          info.registered = out_.dataset->RegisterAnnotation(content);
          info.registered->set_provenance(provenance);
          continue;
        }
        for (const std::string& rid : records) {
          auto rec = records_.find(rid);
          if (rec == records_.end()) {
            Fail(rows.path, "record_ids", "annotation " + id + ": unknown record " + rid);
          }
          auto attach = [&](model::Annotatable& object) {
            auto occurrence = std::make_shared<model::Annotation>(content, native);
            occurrence->set_provenance(provenance);
            object.AddAnnotation(occurrence);
            return occurrence;
          };
          if (!span || !span->series || span->series->empty()) {
            info.on_record.emplace(rec->second.record.get(), attach(*rec->second.record));
          } else {
            for (const std::string& series : *span->series) {
              auto sig = rec->second.signals.find(series);
              if (sig == rec->second.signals.end()) {
                Fail(rows.path, "span.time_series_ids",
                     "annotation " + id + ": series " + series + " is not in record " + rid);
              }
              attach(*sig->second);
            }
          }
        }
      }
    }
  }

  std::shared_ptr<model::Record> RecordOf(const std::string& id, const std::string& file,
                                          const std::string& field) {
    auto it = records_.find(id);
    if (it == records_.end()) Fail(file, field, "unknown record " + id);
    return it->second.record;
  }

  // §15.7 O8: every series of a span resolved in one record of `candidates` (the first holding
  // all of them).
  model::ScopedSpan Span(const LegacySpan& span,
                         const std::vector<std::shared_ptr<model::Record>>& candidates,
                         const std::string& file, const std::string& field,
                         const std::string& task) {
    model::ScopedSpan out;
    const std::vector<std::string> series = span.series.value_or(std::vector<std::string>{});
    if (!series.empty()) {
      bool found = false;
      for (const auto& record : candidates) {
        const RecordInfo& info = records_.at(record->metadata()[std::string(kLegacyId)]);
        std::vector<std::shared_ptr<model::Signal>> signals;
        for (const std::string& s : series) {
          auto it = info.signals.find(s);
          if (it == info.signals.end()) break;
          signals.push_back(it->second);
        }
        if (signals.size() == series.size()) {
          out.signals = std::move(signals);
          found = true;
          break;
        }
      }
      if (!found) {
        Fail(file, field, "task " + task + ": span series are in no input record");
      }
    }
    if (span.steps) {
      if (span.end) {
        out.span = model::StepInterval{span.start, *span.end};
      } else {
        out.span = model::StepPoint{span.start};
      }
    } else if (span.end) {
      out.span = model::TimeInterval{span.start, *span.end};
    } else {
      out.span = model::TimePoint{span.start};
    }
    return out;
  }

  std::shared_ptr<model::Annotation> Ref(const std::string& id,
                                         const std::vector<std::shared_ptr<model::Record>>& inputs,
                                         const std::string& file, const std::string& field,
                                         const std::string& task) {
    auto it = annotations_.find(id);
    if (it == annotations_.end()) {
      Fail(file, field, "task " + task + ": unknown annotation " + id);
    }
    for (const auto& record : inputs) {
      if (auto occ = it->second.on_record.find(record.get()); occ != it->second.on_record.end()) {
        return occ->second;
      }
    }
    if (it->second.registered) return it->second.registered;
    Fail(file, field,
         "task " + task + ": annotation " + id +
             " is on no input record and is not a registered annotation");
  }

  void ReadTasks() {
    static const std::regex kPartition("(^|/)task=([a-z_]+)/");
    std::int64_t task_id = 0;
    std::vector<std::pair<std::shared_ptr<model::Task>, std::vector<std::string>>> from;
    std::map<std::string, std::shared_ptr<model::Task>> by_legacy;
    for (const auto& part : m_.tasks) {
      std::smatch match;
      if (!std::regex_search(part.path, match, kPartition)) {
        Fail(part.path, "", "task part path has no task=<type> partition");
      }
      auto type = ParseTaskType(match[2].str());
      if (!type) Fail(part.path, "", "unknown task type " + match[2].str());
      PartRows rows = Rows(part);
      for (const Json& r : rows.rows) {
        const std::string& f = rows.path;
        const std::string id = Id(r, "id", f, S("task_id"));
        auto task = std::make_shared<model::Task>(*type);
        task->set_id(++task_id);
        task->set_metadata(Json{{std::string(kLegacyId), id}});
        std::vector<std::shared_ptr<model::Record>> inputs;
        switch (*type) {
          case TaskType::kForecasting:
            for (const auto& rid : IdList(r, "context_record_ids", f, S("record_id"))) {
              inputs.push_back(RecordOf(rid, f, "context_record_ids"));
            }
            break;
          case TaskType::kTsEditing:
          case TaskType::kTsGeneration:
            if (auto rid = OptId(r, "source_record_id", f, S("record_id"))) {
              inputs.push_back(RecordOf(*rid, f, "source_record_id"));
            }
            break;
          default:
            for (const auto& rid : IdList(r, "record_ids", f, S("record_id"))) {
              inputs.push_back(RecordOf(rid, f, "record_ids"));
            }
        }
        task->set_inputs(inputs);
        if (auto prompt = OptString(r, "prompt", f)) task->set_prompt(model::Text(*prompt));
        if (auto rationale = OptString(r, "rationale", f)) {
          task->set_rationale(model::Text(*rationale));
        }
        if (auto scope = OptSpan(r, "scope", f, S("time_series_id"))) {
          task->set_scope(Span(*scope, inputs, f, "scope", id));
        }
        for (const auto& aid : IdList(r, "input_annotation_ids", f, S("annotation_id"))) {
          task->AddInputAnnotation(Ref(aid, inputs, f, "input_annotation_ids", id));
        }
        for (const auto& aid : IdList(r, "target_annotation_ids", f, S("annotation_id"))) {
          task->AddTargetAnnotation(Ref(aid, inputs, f, "target_annotation_ids", id));
        }
        Targets(*task, r, f, id, inputs);
        from.emplace_back(task, IdList(r, "from_task_ids", f, S("task_id")));
        if (!by_legacy.emplace(id, task).second) Fail(f, "id", "duplicate task ID " + id);
        out_.dataset->AddTask(task);
      }
    }
    for (auto& [task, ids] : from) {
      for (const auto& id : ids) {
        auto it = by_legacy.find(id);
        if (it == by_legacy.end()) Fail("tasks", "from_task_ids", "unknown task " + id);
        task->AddFromTask(it->second);
      }
    }
  }

  // The per-type columns of §15.6 and §15.7 D1/D2.
  void Targets(model::Task& task, const Json& r, const std::string& f, const std::string& id,
               const std::vector<std::shared_ptr<model::Record>>& inputs) {
    const bool has_refs = !task.target_annotations().empty();
    // Null target: no inline targets when target annotations give the answer, else an explicit
    // empty answer.
    auto absent = [&] {
      if (!has_refs) task.set_targets(std::vector<model::TaskTarget>{});
    };
    switch (task.type()) {
      case TaskType::kClassification:
      case TaskType::kAnswer: {
        if (task.type() == TaskType::kClassification) {
          task.set_target_schema(OptString(r, "target_schema", f));
        } else if (r.contains("target_schema") && !r["target_schema"].is_null()) {
          Warn("answer tasks: the target_schema column is ignored");
        }
        if (auto target = OptString(r, "target", f)) {
          task.AddTarget(model::TaskTarget::OfText(model::Text(*target)));
        } else {
          absent();
        }
        break;
      }
      case TaskType::kScalarPrediction: {
        if (r.contains("target") && !r["target"].is_null()) {
          if (!r["target"].is_number()) Fail(f, "target", "task " + id + ": expected a float");
          task.AddTarget(model::TaskTarget::OfFloat(r["target"].get<double>()));
        } else {
          absent();
        }
        if (auto unit = OptString(r, "unit", f)) {
          auto parsed = ParseUnit(*unit);
          if (!parsed) Warn("task unit \"" + *unit + "\" does not parse; stored as null");
          task.set_unit(parsed);
        }
        task.set_target_name(OptString(r, "target_name", f));
        break;
      }
      case TaskType::kTemporalLocalization: {
        if (r.contains("target") && r["target"].is_array()) {
          std::vector<model::TaskTarget> targets;
          for (std::size_t i = 0; i < r["target"].size(); ++i) {
            Json holder{{"s", r["target"][i]}};
            auto span = OptSpan(holder, "s", f, S("time_series_id"));
            if (!span) Fail(f, "target", "task " + id + ": null span in the target list");
            targets.push_back(model::TaskTarget::OfSpan(Span(*span, inputs, f, "target", id)));
          }
          task.set_targets(std::move(targets));
        } else {
          absent();
        }
        if (auto mode = OptString(r, "mode", f)) {
          auto parsed = model::ParseLocalizationMode(*mode);
          if (!parsed) Fail(f, "mode", "task " + id + ": unknown mode \"" + *mode + "\"");
          task.set_mode(parsed);
        }
        break;
      }
      case TaskType::kForecasting: {
        auto rid = OptId(r, "target_record_id", f, S("record_id"));
        if (!rid || !records_.contains(*rid)) {
          Fail(f, "target_record_id", "task " + id + ": null or unknown target_record_id");
        }
        task.AddTarget(model::TaskTarget::OfRecord(records_.at(*rid).record));
        if (auto span = OptSpan(r, "target_span", f, S("time_series_id"))) {
          task.AddTarget(model::TaskTarget::OfSpan(Span(*span, inputs, f, "target_span", id)));
        }
        break;
      }
      case TaskType::kTsEditing:
      case TaskType::kTsGeneration: {
        if (auto rid = OptId(r, "target_record_id", f, S("record_id"))) {
          task.AddTarget(model::TaskTarget::OfRecord(RecordOf(*rid, f, "target_record_id")));
        } else {
          absent();
        }
        break;
      }
      case TaskType::kTsCorrespondence: {
        std::vector<std::shared_ptr<model::Record>> candidates;
        for (const auto& rid : IdList(r, "candidate_record_ids", f, S("record_id"))) {
          candidates.push_back(RecordOf(rid, f, "candidate_record_ids"));
        }
        task.set_candidate_records(candidates);
        std::vector<model::TaskTarget> targets;
        std::vector<std::string> target_ids;
        if (r.contains("target") && r["target"].is_array()) {
          target_ids = IdList(r, "target", f, S("record_id"));
        } else if (auto one = OptId(r, "target", f, S("record_id"))) {
          target_ids.push_back(*one);
        }
        std::vector<std::shared_ptr<model::Record>> pool = inputs;
        pool.insert(pool.end(), candidates.begin(), candidates.end());
        for (const auto& rid : target_ids) {
          auto record = RecordOf(rid, f, "target");
          targets.push_back(model::TaskTarget::OfRecord(record));
          pool.push_back(record);
        }
        for (const auto& sid : IdList(r, "target_time_series_ids", f, S("time_series_id"))) {
          std::shared_ptr<model::Signal> signal;
          for (const auto& record : pool) {
            const RecordInfo& info = records_.at(record->metadata()[std::string(kLegacyId)]);
            if (auto it = info.signals.find(sid); it != info.signals.end()) {
              signal = it->second;
              break;
            }
          }
          if (!signal) {
            Fail(f, "target_time_series_ids",
                 "task " + id + ": series " + sid + " is in no input, candidate or target record");
          }
          targets.push_back(model::TaskTarget::OfSignal(signal));
        }
        if (targets.empty()) {
          absent();
        } else {
          task.set_targets(std::move(targets));
        }
        break;
      }
    }
  }

  struct Descriptor {
    std::optional<std::string> unit;
    std::optional<std::string> description;
  };
  struct RecordInfo {
    std::shared_ptr<model::Record> record;
    std::map<std::string, std::shared_ptr<model::Signal>> signals;  // legacy series ID → Signal
  };
  struct AnnotationInfo {
    std::shared_ptr<const model::AnnotationContent> content;
    std::map<const model::Record*, std::shared_ptr<model::Annotation>> on_record;
    std::shared_ptr<model::Annotation> registered;
  };

  fs::path dir_;
  LegacyReadOptions options_;
  LegacyManifest m_;
  catalog::ParquetRowReader duck_;
  std::map<std::string, IdStorage> storage_;
  std::map<std::string, std::shared_ptr<const model::Spec>> specs_;
  std::map<std::string, Descriptor> descriptors_;
  std::unordered_map<std::string, std::vector<IndexRow>> index_;
  std::shared_ptr<ShardSource> shards_;
  std::unordered_map<std::string, RecordInfo> records_;
  std::unordered_map<std::string, AnnotationInfo> annotations_;
  LegacyDataset out_;
  std::map<std::int64_t, std::vector<ChunkLocator>> chunks_;
};

}  // namespace

bool IsLegacyRelease(const fs::path& release_dir) {
  const fs::path path = release_dir / "manifest.json";
  const std::string bytes = manifest::ReadManifestBytes(path);
  std::string problem;
  std::optional<Json> parsed = ParseJsonStrict(bytes, &problem);
  if (!parsed) return false;  // the native reader reports the JSON problem
  return legacy::IsLegacyManifest(*parsed, path);
}

LegacyDataset ReadLegacy(const fs::path& legacy_dir, const LegacyReadOptions& options) {
  return std::move(LegacyBuilder(legacy_dir, options).Build().legacy);
}

namespace legacy {

LegacyRead ReadLegacyWithChunks(const fs::path& legacy_dir, const LegacyReadOptions& options) {
  return LegacyBuilder(legacy_dir, options).Build();
}

}  // namespace legacy

std::vector<manifest::FilePart> LegacyFiles(const fs::path& legacy_dir) {
  return legacy::ReadLegacyManifest(legacy_dir).AllFiles();
}

void VerifyLegacy(const fs::path& legacy_dir) {
  const LegacyManifest m = legacy::ReadLegacyManifest(legacy_dir);
  for (const manifest::FilePart& part : m.AllFiles()) {
    const fs::path file = legacy_dir / part.path;
    const auto size = legacy::ListedFileSize(file);
    if (static_cast<std::int64_t>(size) != part.size) {
      throw FileError(ErrorSite{.file = file},
                      "size " + std::to_string(size) + ", expected " + std::to_string(part.size));
    }
    const std::string actual = FileChecksum(file);
    if (actual != part.checksum) {
      throw FileError(ErrorSite{.file = file},
                      "checksum " + actual + ", expected " + part.checksum);
    }
  }
}

}  // namespace timef
