#include "view/view_api.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef::view {
namespace {

constexpr std::size_t kMaxTarget = 4096;

Response JsonResponse(int status, const Json& body) {
  return {status, "application/json; charset=utf-8",
          body.dump(-1, ' ', false, Json::error_handler_t::replace)};
}
Response ErrorResponse(int status, std::string_view message) {
  return JsonResponse(status, Json{{"error", std::string(message)}});
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes a query component ('+' is a space); nullopt for a malformed escape or a control
// character once decoded.
std::optional<std::string> DecodeComponent(std::string_view in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '+') {
      c = ' ';
    } else if (c == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      const int hi = HexDigit(in[i + 1]);
      const int lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
    out.push_back(c);
  }
  return out;
}

// A decimal int64 ≥ 0 of at most 18 digits, nothing else.
std::optional<std::int64_t> ParseCount(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

std::int64_t CountParam(const std::map<std::string, std::string>& params, const std::string& key,
                        std::int64_t fallback) {
  auto it = params.find(key);
  if (it == params.end()) return fallback;
  std::optional<std::int64_t> value = ParseCount(it->second);
  if (!value) {
    throw ValidationError({.object = "request", .where = key},
                          "expects a non-negative decimal integer");
  }
  return *value;
}

std::optional<std::int64_t> OptionalCount(const std::map<std::string, std::string>& params,
                                          const std::string& key) {
  if (!params.count(key)) return std::nullopt;
  return CountParam(params, key, 0);
}

// A path segment: only [A-Za-z0-9._-], and not "." or "..".
bool SafeSegment(std::string_view s) {
  if (s.empty() || s == "." || s == "..") return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

std::optional<std::int64_t> ParseId(std::string_view s) {
  std::optional<std::int64_t> id = ParseCount(s);
  if (!id || *id <= 0 || s.front() == '0') return std::nullopt;
  return id;
}

Json OptionalString(const std::optional<std::string>& s) { return s ? Json(*s) : Json(nullptr); }

Json FloatJson(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

Json ValueJson(const model::AnnotationValue& value) {
  switch (value.kind()) {
    case model::ValueKind::kMarker:
      return nullptr;
    case model::ValueKind::kText:
      return value.text().Read();
    case model::ValueKind::kInteger:
      return value.integer();
    case model::ValueKind::kFloat:
      return FloatJson(value.float_value());
    case model::ValueKind::kBoolean:
      return value.boolean();
    case model::ValueKind::kTextList:
      return value.text_list().Read();
  }
  return nullptr;
}

// The value as the records filter compares it: text as is, numbers and booleans as printed.
std::string ValueText(const model::AnnotationValue& value) {
  const Json j = ValueJson(value);
  if (j.is_string()) return j.get<std::string>();
  if (j.is_null()) return "";
  return j.dump();
}

Json AnnotationJson(const model::Annotation& a, const std::string& on,
                    std::optional<std::int64_t> signal_id) {
  Json out = Json::object();
  out["key"] = a.key();
  out["value_kind"] = model::ToString(a.content()->value().kind());
  out["value"] = ValueJson(a.content()->value());
  out["unit"] = OptionalString(a.content()->unit());
  out["on"] = on;
  out["signal_id"] = signal_id ? Json(*signal_id) : Json(nullptr);
  std::visit(
      [&](const auto& span) {
        using S = std::decay_t<decltype(span)>;
        if constexpr (std::is_same_v<S, model::StaticSpan>) {
          out["span"] = "static";
        } else if constexpr (std::is_same_v<S, model::TimePoint>) {
          out["span"] = "point";
          out["start_us"] = span.offset_us;
        } else {
          out["span"] = "interval";
          out["start_us"] = span.start_us;
          out["end_us"] = span.end_us;
        }
      },
      a.span());
  out["confidence"] = a.confidence() ? Json(*a.confidence()) : Json(nullptr);
  return out;
}

Json AxisJson(const model::TimeAxis& axis, std::int64_t n_values) {
  Json out = {{"type", model::ToString(axis.type())}};
  if (axis.is_regular()) {
    out["period_numerator_us"] = axis.period_numerator_us();
    out["period_denominator"] = axis.period_denominator();
    out["start_index"] = axis.start_index();
    out["offset_us"] = axis.offset_us();
  }
  if (auto window = axis.Window(n_values); window && n_values > 0) {
    out["first_us"] = window->first;
    out["last_us"] = window->second;
  }
  return out;
}

Json SpecJson(const model::Spec& spec) {
  return {{"spec_type", spec.spec_type},       {"name", spec.name},
          {"unit", OptionalString(spec.unit)}, {"dtype", ToString(spec.dtype)},
          {"value_shape", spec.value_shape},   {"categories", spec.categories},
          {"nullable", spec.nullable},         {"modality", ToString(spec.modality)}};
}

// Every annotation of a record with what it is on: the record, its sources, their signals.
void CollectAnnotations(const model::Source& source, const std::string& path, Json& out) {
  for (const auto& a : source.annotations())
    out.push_back(AnnotationJson(*a, "source " + path, {}));
  for (const auto& signal : source.signals()) {
    for (const auto& a : signal->annotations()) {
      out.push_back(AnnotationJson(*a, "signal " + signal->name(), signal->id()));
    }
  }
  for (const auto& child : source.children()) {
    CollectAnnotations(*child, path + "/" + child->name(), out);
  }
}

bool HasAnnotation(const model::Record& record, const std::string& key,
                   const std::optional<std::string>& value) {
  auto match = [&](const model::Annotatable& object) {
    for (const auto& a : object.annotations()) {
      if (a->key() == key && (!value || ValueText(a->content()->value()) == *value)) return true;
    }
    return false;
  };
  if (match(record)) return true;
  std::vector<const model::Source*> pending;
  for (const auto& s : record.sources()) pending.push_back(s.get());
  while (!pending.empty()) {
    const model::Source* s = pending.back();
    pending.pop_back();
    if (match(*s)) return true;
    for (const auto& signal : s->signals()) {
      if (match(*signal)) return true;
    }
    for (const auto& c : s->children()) pending.push_back(c.get());
  }
  return false;
}

Json RecordSummary(const model::Record& record) {
  Json signals = Json::array();
  for (const auto& s : record.Signals()) signals.push_back(s->name());
  Json out = {{"id", *record.id()}, {"signals", signals}};
  out["start_time_us"] = record.start_time_us() ? Json(*record.start_time_us()) : Json(nullptr);
  if (record.time_span()) {
    out["duration_s"] =
        static_cast<double>(record.time_span()->end_us - record.time_span()->start_us) / 1e6;
  } else {
    out["duration_s"] = nullptr;
  }
  return out;
}

Json TargetJson(const model::TaskTarget& t) {
  Json out = {{"kind", model::ToString(t.kind())}};
  switch (t.kind()) {
    case model::TargetKind::kText:
      out["value"] = t.text().Read();
      break;
    case model::TargetKind::kInteger:
      out["value"] = t.integer();
      break;
    case model::TargetKind::kFloat:
      out["value"] = FloatJson(t.float_value());
      break;
    case model::TargetKind::kBoolean:
      out["value"] = t.boolean();
      break;
    case model::TargetKind::kRecord:
      out["record_id"] = t.record() ? Json(*t.record()->id()) : Json(nullptr);
      break;
    case model::TargetKind::kSignal:
      out["signal_id"] = t.signal() ? Json(*t.signal()->id()) : Json(nullptr);
      break;
    default: {
      const model::ScopedSpan& span = t.span();
      out["span_kind"] = model::ToString(span.kind());
      out["start"] = span.start();
      out["end"] = span.end() ? Json(*span.end()) : Json(nullptr);
      Json ids = Json::array();
      for (const auto& s : span.signals)
        ids.push_back(s && s->id() ? Json(*s->id()) : Json(nullptr));
      out["signal_ids"] = ids;
    }
  }
  return out;
}

// First step whose time is ≥ t_us (n_values when none).
std::int64_t StepAtOrAfter(const model::TimeAxis& axis, std::int64_t n_values, std::int64_t t_us) {
  if (axis.is_regular()) {
    // time(i) = offset + floor((start_index + i)·num/den) ≥ t ⟺ start_index + i ≥
    // ⌈(t-offset)·den/num⌉
    const __int128 num = axis.period_numerator_us(), den = axis.period_denominator();
    const __int128 rel = static_cast<__int128>(t_us) - axis.offset_us();
    __int128 k = rel * den;
    k = k >= 0 ? (k + num - 1) / num : -((-k) / num);
    const __int128 step = k - axis.start_index();
    return static_cast<std::int64_t>(std::clamp<__int128>(step, 0, n_values));
  }
  if (axis.is_irregular()) {
    const auto offsets = axis.LoadOffsets();
    return std::lower_bound(offsets->begin(), offsets->end(), t_us) - offsets->begin();
  }
  throw ValidationError({.object = "range", .where = "start_us"},
                        "an ordinal signal has no time: use start_step and end_step");
}

}  // namespace

ViewApi::ViewApi(Reader reader, ApiOptions options)
    : reader_(std::move(reader)), options_(options) {}

ReaderCounters ViewApi::counters() {
  std::lock_guard lock(mutex_);
  return reader_.counters();
}

Response ViewApi::Get(std::string_view target) {
  if (target.empty() || target.size() > kMaxTarget || target.front() != '/') {
    return ErrorResponse(400, "malformed request target");
  }
  const std::size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? "" : target.substr(q + 1);
  // The path is never percent-decoded: no route needs an escape, so any '%' (an encoded "..", "/"
  // or NUL) is refused, like backslashes, empty segments and dot segments.
  std::vector<std::string> segments;
  if (path != "/") {
    std::size_t begin = 1;
    while (begin <= path.size()) {
      std::size_t end = path.find('/', begin);
      if (end == std::string_view::npos) end = path.size();
      const std::string_view segment = path.substr(begin, end - begin);
      if (!SafeSegment(segment)) return ErrorResponse(400, "malformed path");
      segments.emplace_back(segment);
      begin = end + 1;
    }
  }
  Params params;
  if (!query.empty()) {
    std::size_t begin = 0;
    while (begin <= query.size()) {
      std::size_t end = query.find('&', begin);
      if (end == std::string_view::npos) end = query.size();
      const std::string_view pair = query.substr(begin, end - begin);
      begin = end + 1;
      if (pair.empty()) continue;
      const std::size_t eq = pair.find('=');
      std::optional<std::string> key = DecodeComponent(pair.substr(0, eq));
      std::optional<std::string> value =
          DecodeComponent(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
      if (!key || !value || key->empty()) return ErrorResponse(400, "malformed query");
      if (!params.emplace(std::move(*key), std::move(*value)).second) {
        return ErrorResponse(400, "a query parameter is repeated");
      }
    }
  }
  try {
    std::lock_guard lock(mutex_);
    return Route(segments, params);
  } catch (const NotFoundError& e) {
    return ErrorResponse(404, e.what());
  } catch (const ValidationError& e) {
    return ErrorResponse(400, e.what());
  } catch (const std::exception& e) {
    return ErrorResponse(500, e.what());
  }
}

Response ViewApi::Route(const std::vector<std::string>& segments, const Params& params) {
  auto only = [&](std::initializer_list<std::string_view> allowed) {
    for (const auto& [key, value] : params) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        throw ValidationError({.object = "request", .where = key}, "unknown query parameter");
      }
    }
  };
  const std::size_t n = segments.size();
  auto page = [&]() -> Response {
    only({});
    for (const Asset& asset : EmbeddedAssets()) {
      if (asset.name == "index.html") {
        return {200, std::string(asset.content_type), std::string(asset.body)};
      }
    }
    return ErrorResponse(500, "index.html is not embedded");
  };
  if (n == 0) return page();
  if ((segments[0] == "records" || segments[0] == "tasks") && n == 2) {
    if (!ParseId(segments[1])) return ErrorResponse(404, "IDs are positive decimal integers");
    return page();
  }
  if (segments[0] == "assets" && n == 2) {
    only({});
    for (const Asset& asset : EmbeddedAssets()) {
      if (asset.name == segments[1]) {
        return {200, std::string(asset.content_type), std::string(asset.body)};
      }
    }
    return ErrorResponse(404, "no such asset");
  }
  if (segments[0] != "api" || n < 2) return ErrorResponse(404, "no such page");
  if (segments[1] == "card" && n == 2) {
    only({});
    return JsonResponse(200, Card());
  }
  if (segments[1] == "records" && n == 2) {
    only({"offset", "limit", "id", "key", "value", "split"});
    return JsonResponse(200, Records(params));
  }
  if (n >= 3) {
    const std::optional<std::int64_t> id = ParseId(segments[2]);
    if (!id) return ErrorResponse(400, "IDs are positive decimal integers");
    if (segments[1] == "records" && n == 3) {
      only({});
      return JsonResponse(200, RecordDetail(*id));
    }
    if (segments[1] == "tasks" && n == 3) {
      only({});
      return JsonResponse(200, TaskDetail(*id));
    }
    if (segments[1] == "signals" && n == 4 && segments[3] == "range") {
      only({"start_step", "end_step", "start_us", "end_us", "buckets", "channel"});
      return JsonResponse(200, SignalRange(*id, params));
    }
  }
  return ErrorResponse(404, "no such API path");
}

Json ViewApi::Card() {
  Json manifest = manifest::ManifestToJson(reader_.manifest());
  Json out = Json::object();
  out["dataset_id"] = manifest["dataset_id"];
  out["card"] = manifest["metadata"];  // name, description, license, domains, tags, parents, …
  out["dataset_version"] = out["card"].value("dataset_version", "");
  for (const char* key : {"counts", "schema", "values_backend"}) {
    if (manifest.contains(key)) out[key] = manifest[key];
  }
  return out;
}

const std::set<std::int64_t>& ViewApi::SplitRecords(model::Split split) {
  auto it = split_records_.find(split);
  if (it != split_records_.end()) return it->second;
  std::set<std::int64_t> ids;
  TaskQuery query;
  query.split = split;
  for (const auto& task : reader_.IterTasks(query)) {
    for (const auto& record : task->inputs()) {
      if (record && record->id()) ids.insert(*record->id());
    }
  }
  return split_records_.emplace(split, std::move(ids)).first->second;
}

Json ViewApi::Records(const Params& params) {
  const std::int64_t offset = CountParam(params, "offset", 0);
  const std::int64_t limit = CountParam(params, "limit", 50);
  if (limit < 1 || limit > options_.max_records_limit) {
    throw ValidationError({.object = "request", .where = "limit"},
                          "limit must be 1 … " + std::to_string(options_.max_records_limit));
  }
  const std::optional<std::int64_t> id = OptionalCount(params, "id");
  std::optional<std::string> key, value;
  if (auto it = params.find("key"); it != params.end()) key = it->second;
  if (auto it = params.find("value"); it != params.end()) value = it->second;
  if (value && !key) {
    throw ValidationError({.object = "request", .where = "value"}, "value needs key");
  }
  const std::set<std::int64_t>* split_ids = nullptr;
  if (auto it = params.find("split"); it != params.end()) {
    std::optional<model::Split> split = model::ParseSplit(it->second);
    if (!split) {
      throw ValidationError({.object = "request", .where = "split"},
                            "split is train, validation or test");
    }
    split_ids = &SplitRecords(*split);
  }
  if (!record_ids_) record_ids_ = reader_.RecordIds();
  std::vector<std::int64_t> candidates;
  for (std::int64_t r : *record_ids_) {
    if (id && r != *id) continue;
    if (split_ids && !split_ids->count(r)) continue;
    candidates.push_back(r);
  }
  Json records = Json::array();
  std::optional<std::int64_t> next_offset;
  Json total = nullptr;
  if (!key) {
    total = static_cast<std::int64_t>(candidates.size());
    const std::int64_t size = static_cast<std::int64_t>(candidates.size());
    const std::int64_t begin = std::min(offset, size);
    const std::int64_t end = std::min(size, begin + limit);
    std::span<const std::int64_t> ids(candidates.data() + begin,
                                      static_cast<std::size_t>(end - begin));
    for (const auto& record : reader_.GetRecords(ids)) records.push_back(RecordSummary(*record));
    if (end < size) next_offset = end;
  } else {
    // Scans the candidates in batches of lazy records (no values, no text read but the
    // annotations compared) until the page is full.
    std::int64_t matched = 0;
    constexpr std::size_t kBatch = 500;
    for (std::size_t at = 0; at < candidates.size() && !next_offset; at += kBatch) {
      std::span<const std::int64_t> ids(candidates.data() + at,
                                        std::min(kBatch, candidates.size() - at));
      for (const auto& record : reader_.GetRecords(ids)) {
        if (!HasAnnotation(*record, *key, value)) continue;
        if (matched >= offset + limit) {
          next_offset = offset + limit;
          break;
        }
        if (matched >= offset) records.push_back(RecordSummary(*record));
        ++matched;
      }
    }
  }
  return {{"offset", offset},
          {"limit", limit},
          {"total", total},
          {"next_offset", next_offset ? Json(*next_offset) : Json(nullptr)},
          {"records", records}};
}

Json ViewApi::RecordDetail(std::int64_t id) {
  const std::shared_ptr<model::Record> record = reader_.GetRecord(id);
  Json out = RecordSummary(*record);
  out["metadata"] = record->metadata();
  if (record->time_span()) {
    out["time_span"] = {{"start_us", record->time_span()->start_us},
                        {"end_us", record->time_span()->end_us}};
  } else {
    out["time_span"] = nullptr;
  }
  Json signals = Json::array();
  std::vector<std::pair<const model::Source*, std::string>> pending;
  for (const auto& s : record->sources()) pending.emplace_back(s.get(), s->name());
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const auto [source, path] = pending[i];
    for (const auto& signal : source->signals()) {
      Json j = {{"id", *signal->id()},
                {"name", signal->name()},
                {"source", path},
                {"n_values", signal->n_values()},
                {"spec", SpecJson(*signal->spec())},
                {"metadata", signal->metadata()}};
      j["axis"] = AxisJson(*signal->axis(), signal->n_values());
      j["has_values"] = signal->has_values();
      signals.push_back(std::move(j));
    }
    for (const auto& c : source->children()) pending.emplace_back(c.get(), path + "/" + c->name());
  }
  out["signals"] = signals;
  Json annotations = Json::array();
  for (const auto& a : record->annotations())
    annotations.push_back(AnnotationJson(*a, "record", {}));
  for (const auto& s : record->sources()) CollectAnnotations(*s, s->name(), annotations);
  out["annotations"] = annotations;
  Json tasks = Json::array();
  TaskQuery query;
  query.inputs = std::vector<std::int64_t>{id};
  for (const auto& task : reader_.IterTasks(query)) {
    tasks.push_back(
        {{"id", *task->id()},
         {"type", ToString(task->type())},
         {"split", task->split() ? Json(model::ToString(*task->split())) : Json(nullptr)}});
  }
  out["tasks"] = tasks;
  return out;
}

Json ViewApi::TaskDetail(std::int64_t id) {
  const std::shared_ptr<model::Task> task = reader_.GetTask(id);
  Json out = {{"id", id}, {"type", ToString(task->type())}};
  out["split"] = task->split() ? Json(model::ToString(*task->split())) : Json(nullptr);
  out["prompt"] = task->prompt() ? Json(task->prompt()->Read()) : Json(nullptr);
  out["rationale"] = task->rationale() ? Json(task->rationale()->Read()) : Json(nullptr);
  out["target_name"] = OptionalString(task->target_name());
  out["unit"] = OptionalString(task->unit());
  out["metadata"] = task->metadata();
  Json inputs = Json::array();
  for (const auto& r : task->inputs()) inputs.push_back(*r->id());
  out["inputs"] = inputs;
  Json targets = Json::array();
  if (task->targets()) {
    for (const auto& t : *task->targets()) targets.push_back(TargetJson(t));
  }
  out["targets"] = targets;
  Json from = Json::array();
  for (const auto& t : task->from_tasks()) from.push_back(*t->id());
  out["from_tasks"] = from;
  Json target_annotations = Json::array();
  for (const auto& a : task->target_annotations()) {
    target_annotations.push_back(AnnotationJson(*a, "target", {}));
  }
  out["target_annotations"] = target_annotations;
  return out;
}

ViewApi::SignalEntry& ViewApi::Signal(std::int64_t id) {
  auto it = signals_.find(id);
  if (it != signals_.end()) return it->second;
  SignalEntry entry{.ref = reader_.GetSignalValues(id)};
  entry.pages = ReadValuePages(entry.ref);
  const std::shared_ptr<model::Signal> signal = reader_.GetSignal(id);
  entry.axis = signal->axis();
  entry.name = signal->name();
  if (signals_.size() > 4096) signals_.clear();  // bounded: pages are ~40 bytes each
  return signals_.emplace(id, std::move(entry)).first->second;
}

Json ViewApi::SignalRange(std::int64_t id, const Params& params) {
  SignalEntry& entry = Signal(id);
  const std::int64_t n = entry.ref.n_values();
  const bool by_time = params.count("start_us") || params.count("end_us");
  if (by_time && (params.count("start_step") || params.count("end_step"))) {
    throw ValidationError({.object = "request", .where = "start_us"},
                          "give either steps or times, not both");
  }
  std::int64_t start = 0, end = n;
  if (by_time) {
    if (auto t = OptionalCount(params, "start_us")) start = StepAtOrAfter(*entry.axis, n, *t);
    if (auto t = OptionalCount(params, "end_us")) end = StepAtOrAfter(*entry.axis, n, *t);
    end = std::max(start, end);
  } else {
    start = CountParam(params, "start_step", 0);
    end = CountParam(params, "end_step", n);
  }
  const std::int64_t buckets = CountParam(params, "buckets", 1000);
  const std::uint64_t decoded_before = reader_.counters().data_pages_decoded;
  const std::int64_t channel = CountParam(params, "channel", 0);
  const Range range =
      ComputeRange(entry.ref, entry.pages, start, end, buckets, channel, options_.range);
  Json mins = Json::array(), maxs = Json::array(), times = Json::array();
  for (std::size_t i = 0; i < range.min.size(); ++i) {
    mins.push_back(range.min[i] ? FloatJson(*range.min[i]) : Json(nullptr));
    maxs.push_back(range.max[i] ? FloatJson(*range.max[i]) : Json(nullptr));
  }
  // Time of each bucket's first step (and of end_step), for plotting on a time axis.
  if (!entry.axis->is_ordinal() && n > 0) {
    for (std::size_t i = 0; i <= range.min.size(); ++i) {
      const std::int64_t s =
          std::min(range.start_step + static_cast<std::int64_t>(i) * range.step, range.end_step);
      times.push_back(entry.axis->TimeOfStep(entry.axis->is_regular() ? s : std::min(s, n - 1)));
    }
  }
  return {{"signal_id", id},
          {"channel", channel},
          {"start_step", range.start_step},
          {"end_step", range.end_step},
          {"step", range.step},
          {"n_values", n},
          {"min", mins},
          {"max", maxs},
          {"time_us", entry.axis->is_ordinal() ? Json(nullptr) : times},
          {"pages_from_statistics", range.pages_from_statistics},
          {"pages_decoded", range.pages_decoded},
          {"data_pages_decoded", reader_.counters().data_pages_decoded - decoded_before}};
}

}  // namespace timef::view
