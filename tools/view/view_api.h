// The request handling of `timef view` (docs/view.md): one page application from embedded assets
// and a JSON API over a Reader. Independent of the HTTP library, so tests call it directly: Get()
// takes the raw request target (path and query as sent, still percent-encoded) and validates every
// part of it before anything is read. Thread-safe: requests are served one at a time over the
// Reader (a Reader is used by one thread at a time).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "timef/json.h"
#include "timef/reader.h"
#include "timef/value_pages.h"
#include "view/view_range.h"

namespace timef::view {

struct Response {
  int status = 200;
  std::string content_type;
  std::string body;
};

// One embedded file of the front end (tools/view/assets, compiled in by CMake).
struct Asset {
  std::string_view name;  // e.g. "view.js"
  std::string_view content_type;
  std::string_view body;
};
// Every embedded asset (view_assets.cc, generated).
std::span<const Asset> EmbeddedAssets();

struct ApiOptions {
  RangeOptions range;
  std::int64_t max_records_limit = 1000;
};

class ViewApi {
 public:
  explicit ViewApi(Reader reader, ApiOptions options = {});
  // Answers GET `target` ("/api/records?limit=5"). 400 for a malformed target or parameter, 404
  // for an unknown path or object, 405 never (the server answers other methods), 500 for a
  // failure reading the release (message in the JSON body, never the stack).
  Response Get(std::string_view target);
  // What the reader has decoded so far (the bench and the tests count pages with it).
  ReaderCounters counters();

 private:
  struct SignalEntry {
    SignalValuesRef ref;
    std::vector<ValuePage> pages;
    std::shared_ptr<const model::TimeAxis> axis;
    std::string name;
  };
  using Params = std::map<std::string, std::string>;
  Response Route(const std::vector<std::string>& segments, const Params& params);
  Json Card();
  Json Records(const Params& params);
  Json RecordDetail(std::int64_t id);
  Json TaskDetail(std::int64_t id);
  Json SignalRange(std::int64_t id, const Params& params);
  SignalEntry& Signal(std::int64_t id);
  const std::set<std::int64_t>& SplitRecords(model::Split split);

  std::mutex mutex_;
  Reader reader_;
  ApiOptions options_;
  std::optional<std::vector<std::int64_t>> record_ids_;
  std::map<model::Split, std::set<std::int64_t>> split_records_;
  std::map<std::int64_t, SignalEntry> signals_;
};

}  // namespace timef::view
