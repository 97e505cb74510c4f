// The JSON API of `timef view` (docs/view.md), called in-process through ViewApi and over HTTP
// through ViewServer on a free loopback port: exact min/max for random windows of every numeric
// dtype against the values read through the Reader, the page statistics actually used, hostile
// paths and parameters refused with 4xx, hostile dataset text returned as data.
#include "view/view_api.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/scratch_dir.h"
#include "timef/demo.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/value_pages.h"
#include "timef/writer.h"
#include "view/view_server.h"

namespace timef::view {
namespace {

using namespace timef::model;  // NOLINT(google-build-using-namespace)

constexpr std::int64_t kSteps = 20'000;
constexpr const char* kHostile = "<img src=x onerror=alert(1)>";

struct Column {
  std::string name;
  DType dtype;
};
const std::vector<Column>& Columns() {
  static const std::vector<Column> columns = {{"b", DType::kBool},      {"i8", DType::kInt8},
                                              {"i16", DType::kInt16},   {"i32", DType::kInt32},
                                              {"u8", DType::kUint8},    {"u16", DType::kUint16},
                                              {"u32", DType::kUint32},  {"f32", DType::kFloat32},
                                              {"f64", DType::kFloat64}, {"f64n", DType::kFloat64}};
  return columns;
}

template <class T>
std::vector<T> Random(std::mt19937_64& rng, T lo, T hi) {
  std::vector<T> out(kSteps);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (auto& v : out) v = d(rng);
  } else {
    std::uniform_int_distribution<std::int64_t> d(lo, hi);
    for (auto& v : out) v = static_cast<T>(d(rng));
  }
  return out;
}

// One record with a signal of every numeric dtype (random values over the dtype's whole range,
// a nullable float64 with nulls, NaN, ±inf and a stretch of only nulls), a hostile annotation.
std::filesystem::path WriteRelease(const std::filesystem::path& root, const WriteOptions& options) {
  Dataset dataset("test/view", "1.0.0");
  auto record = dataset.AddRecord();
  auto source = record->AddSource("device");
  auto axis = TimeAxis::RegularFromRate(250);
  std::mt19937_64 rng(7);
  for (const Column& c : Columns()) {
    const bool nullable = c.name == "f64n";
    auto spec = Spec::Make(
        {.spec_type = "s_" + c.name,
         .name = "Signal " + c.name,
         .unit = c.dtype == DType::kFloat32 ? std::optional<std::string>("mV") : std::nullopt,
         .dtype = c.dtype,
         .nullable = nullable});
    ValueArray values;
    switch (c.dtype) {
      case DType::kBool: {
        std::vector<bool> v(kSteps);
        for (std::int64_t i = 0; i < kSteps; ++i) v[i] = (rng() % 3) == 0;
        values = ValueArray::Bools(v);
        break;
      }
      case DType::kInt8:
        values = ValueArray::Of(Random<std::int8_t>(rng, -128, 127));
        break;
      case DType::kInt16:
        values = ValueArray::Of(Random<std::int16_t>(rng, -32768, 32767));
        break;
      case DType::kInt32:
        values = ValueArray::Of(Random<std::int32_t>(rng, std::numeric_limits<std::int32_t>::min(),
                                                     std::numeric_limits<std::int32_t>::max()));
        break;
      case DType::kUint8:
        values = ValueArray::Of(Random<std::uint8_t>(rng, 0, 255));
        break;
      case DType::kUint16:
        values = ValueArray::Of(Random<std::uint16_t>(rng, 0, 65535));
        break;
      case DType::kUint32:
        values = ValueArray::Of(Random<std::uint32_t>(rng, 0, 0xffffffffu));
        break;
      case DType::kFloat32:
        values = ValueArray::Of(Random<float>(rng, -1e6f, 1e6f));
        break;
      default: {
        std::vector<double> v = Random<double>(rng, -1e300, 1e300);
        std::vector<std::uint8_t> valid;
        if (nullable) {
          valid.assign(kSteps, 1);
          for (std::int64_t i = 0; i < kSteps; i += 7) valid[i] = 0;
          for (std::int64_t i = 5000; i < 7000; ++i) valid[i] = 0;  // only nulls
          v[11] = std::numeric_limits<double>::quiet_NaN();
          v[14'345] = std::numeric_limits<double>::infinity();
          v[15'001] = -std::numeric_limits<double>::infinity();
          v[16'000] = -0.0;
          for (std::int64_t i = 8000; i < 13000; ++i) v[i] = std::nan("");  // only NaN (and nulls)
        }
        values = ValueArray::Of(std::move(v), std::move(valid));
      }
    }
    source->AddSignal(std::make_shared<Signal>(c.name, spec, axis, std::move(values)));
  }
  record->Annotate(std::make_shared<AnnotationContent>("note", AnnotationValue::OfText(kHostile)),
                   TimeInterval{1'000'000, 2'000'000});
  manifest::Card card;
  card.name = "View test";
  card.description = std::string("hostile text: ") + kHostile;
  card.license = manifest::License::kCcBy4_0;
  return timef::WriteRelease(dataset, card, root, options).release_dir;
}

// Expected min/max per bucket of `grid` from every value, as the API defines them.
void ExpectExact(const ValueArray& all, const Json& got, const std::string& what,
                 std::int64_t width = 1, std::int64_t channel = 0) {
  const std::int64_t start = got["start_step"], end = got["end_step"], step = got["step"];
  const auto& mins = got["min"];
  const auto& maxs = got["max"];
  ASSERT_EQ(static_cast<std::int64_t>(mins.size()),
            end > start ? (end - start + step - 1) / step : 0)
      << what;
  std::vector<double> values(static_cast<std::size_t>(all.size() / width));
  std::visit(
      [&](const auto& data) {
        using T = typename std::decay_t<decltype(data)>::value_type;
        if constexpr (!std::is_same_v<T, std::string>) {
          for (std::size_t i = 0; i < values.size(); ++i) {
            values[i] = static_cast<double>(data[i * width + channel]);
          }
        }
      },
      all.data());
  auto number = [](const Json& j) {
    if (j.is_string()) return j.get<std::string>() == "Infinity" ? HUGE_VAL : -HUGE_VAL;
    return j.get<double>();
  };
  for (std::size_t b = 0; b < mins.size(); ++b) {
    bool any = false;
    double lo = 0, hi = 0;
    const std::int64_t bi = static_cast<std::int64_t>(b);
    for (std::int64_t s = start + bi * step; s < std::min(end, start + (bi + 1) * step); ++s) {
      if (!all.IsValid(s) || std::isnan(values[s])) continue;
      lo = any ? std::min(lo, values[s]) : values[s];
      hi = any ? std::max(hi, values[s]) : values[s];
      any = true;
    }
    if (!any) {
      EXPECT_TRUE(mins[b].is_null() && maxs[b].is_null()) << what << " bucket " << b;
      continue;
    }
    ASSERT_FALSE(mins[b].is_null()) << what << " bucket " << b;
    EXPECT_EQ(number(mins[b]), lo) << what << " bucket " << b;
    EXPECT_EQ(number(maxs[b]), hi) << what << " bucket " << b;
  }
}

class ViewApiTest : public ::testing::TestWithParam<int> {
 public:
  static void SetUpTestSuite() {
    dir_ = new testing::ScratchDir();
    // 0: chunks of 1 KiB, several per 16 KiB page; 1: chunks of 8 KiB with 4 KiB pages, one chunk
    // per page.
    WriteOptions small;
    small.chunk_max_bytes = 1024;
    small.compression_level = 3;
    releases_[0] = WriteRelease(dir_->path() / "a", small);
    WriteOptions paged;
    paged.chunk_max_bytes = 8192;
    paged.data_page_target_bytes = 4096;
    paged.compression_level = 3;
    releases_[1] = WriteRelease(dir_->path() / "b", paged);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static Json GetJson(ViewApi& api, const std::string& target, int status = 200) {
    Response r = api.Get(target);
    EXPECT_EQ(r.status, status) << target << ": " << r.body;
    EXPECT_EQ(r.content_type.rfind("application/json", 0), 0u) << target;
    return Json::parse(r.body);
  }

 protected:
  static inline testing::ScratchDir* dir_ = nullptr;
  static inline std::filesystem::path releases_[2];
};

TEST_P(ViewApiTest, RangesAreExactForRandomWindowsOfEveryDtype) {
  Reader reader = Reader::Open(releases_[GetParam()]);
  const std::shared_ptr<Record> record = reader.GetRecord(reader.RecordIds().front());
  // A small decode allowance makes wide windows use page-aligned grids and the statistics.
  ApiOptions options;
  options.range.max_decoded_pages = 2;
  ViewApi api(Reader::Open(releases_[GetParam()]), options);
  std::mt19937_64 rng(GetParam() + 1);
  std::int64_t from_statistics = 0;
  for (const auto& signal : record->Signals()) {
    const std::int64_t id = *signal->id();
    const std::shared_ptr<const ValueArray> all = reader.GetSignalValues(id).LoadValues();
    for (int trial = 0; trial < 40; ++trial) {
      std::int64_t a = static_cast<std::int64_t>(rng() % (kSteps + 1));
      std::int64_t b = static_cast<std::int64_t>(rng() % (kSteps + 1));
      if (a > b) std::swap(a, b);
      if (trial == 0) a = 0, b = kSteps;
      const std::int64_t buckets = 1 + static_cast<std::int64_t>(rng() % 400);
      const std::string target =
          "/api/signals/" + std::to_string(id) + "/range?start_step=" + std::to_string(a) +
          "&end_step=" + std::to_string(b) + "&buckets=" + std::to_string(buckets);
      const Json got = GetJson(api, target);
      EXPECT_LE(got["start_step"].get<std::int64_t>(), a) << target;
      EXPECT_EQ(got["end_step"].get<std::int64_t>(), b) << target;
      EXPECT_LE(got["min"].size(), static_cast<std::size_t>(buckets)) << target;
      if (b - a <= buckets) {
        EXPECT_EQ(got["step"], 1) << target;
      }
      from_statistics += got["pages_from_statistics"].get<std::int64_t>();
      ExpectExact(*all, got, signal->name() + " " + target);
    }
  }
  EXPECT_GT(from_statistics, 20);  // the statistics did the work in the wide windows
}

TEST_P(ViewApiTest, OverviewDecodesOnlyWhatStatisticsCannotBound) {
  ViewApi api(Reader::Open(releases_[GetParam()]), ApiOptions{.range = {.max_decoded_pages = 0}});
  Reader reader = Reader::Open(releases_[GetParam()]);
  const std::shared_ptr<Record> record = reader.GetRecord(reader.RecordIds().front());
  for (const auto& signal : record->Signals()) {
    const Json got =
        GetJson(api, "/api/signals/" + std::to_string(*signal->id()) + "/range?buckets=10");
    if (signal->name() == "f64n") {
      // A row group with an all-NaN page has no ColumnIndex (docs/format.md §7.4): its pages are
      // decoded (how many depends on the layout; exactness is checked above).
      EXPECT_GT(got["pages_from_statistics"].get<std::int64_t>() +
                    got["pages_decoded"].get<std::int64_t>(),
                0);
    } else {
      EXPECT_EQ(got["pages_decoded"], 0) << signal->name();
      EXPECT_EQ(got["data_pages_decoded"], 0) << signal->name();
      EXPECT_GT(got["pages_from_statistics"].get<std::int64_t>(), 0) << signal->name();
    }
  }
}

TEST_P(ViewApiTest, ValuePagesCoverTheSignalAndMatchItsValues) {
  Reader reader = Reader::Open(releases_[GetParam()]);
  const std::shared_ptr<Record> record = reader.GetRecord(reader.RecordIds().front());
  for (const auto& signal : record->Signals()) {
    const SignalValuesRef ref = reader.GetSignalValues(*signal->id());
    const std::uint64_t decoded = reader.counters().data_pages_decoded;
    const std::vector<ValuePage> pages = ReadValuePages(ref);
    EXPECT_EQ(reader.counters().data_pages_decoded, decoded);
    ASSERT_FALSE(pages.empty());
    EXPECT_EQ(pages.front().begin, 0);
    EXPECT_EQ(pages.back().end, kSteps);
    const ValueArray all = ref.ReadSteps(0, kSteps);
    for (std::size_t i = 0; i < pages.size(); ++i) {
      if (i > 0) {
        EXPECT_EQ(pages[i].begin, pages[i - 1].end);
      }
      if (!pages[i].bounded) continue;
      Json one = {{"start_step", pages[i].begin},
                  {"end_step", pages[i].end},
                  {"step", pages[i].end - pages[i].begin}};
      one["min"] = Json::array({pages[i].min ? Json(*pages[i].min) : Json(nullptr)});
      one["max"] = Json::array({pages[i].max ? Json(*pages[i].max) : Json(nullptr)});
      if (pages[i].min && std::isinf(*pages[i].min))
        one["min"][0] = *pages[i].min > 0 ? "Infinity" : "-Infinity";
      if (pages[i].max && std::isinf(*pages[i].max))
        one["max"][0] = *pages[i].max > 0 ? "Infinity" : "-Infinity";
      ExpectExact(all, one, signal->name() + " page " + std::to_string(i));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, ViewApiTest, ::testing::Values(0, 1));

TEST(ViewApi, CardRecordsRecordAndTimeWindows) {
  testing::ScratchDir dir;
  WriteOptions options;
  options.compression_level = 3;
  const auto release = WriteRelease(dir.path(), options);
  ViewApi api(Reader::Open(release));
  Json card = ViewApiTest::GetJson(api, "/api/card");
  EXPECT_EQ(card["dataset_id"], "test/view");
  EXPECT_EQ(card["card"]["name"], "View test");
  const Json list = ViewApiTest::GetJson(api, "/api/records?limit=5");
  ASSERT_EQ(list["records"].size(), 1u);
  EXPECT_EQ(list["total"], 1);
  const std::int64_t id = list["records"][0]["id"];
  EXPECT_EQ(ViewApiTest::GetJson(api, "/api/records?key=note")["records"].size(), 1u);
  EXPECT_EQ(
      ViewApiTest::GetJson(
          api, "/api/records?key=note&value=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")["records"]
          .size(),
      1u);
  EXPECT_EQ(ViewApiTest::GetJson(api, "/api/records?key=note&value=other")["records"].size(), 0u);
  EXPECT_EQ(ViewApiTest::GetJson(api, "/api/records?key=absent")["records"].size(), 0u);
  EXPECT_EQ(ViewApiTest::GetJson(api, "/api/records?split=train")["records"].size(), 0u);
  const Json r = ViewApiTest::GetJson(api, "/api/records/" + std::to_string(id));
  ASSERT_EQ(r["signals"].size(), Columns().size());
  EXPECT_EQ(r["signals"][0]["axis"]["type"], "regular");
  // Hostile text comes back as the same string, inside JSON; the page never holds it.
  ASSERT_EQ(r["annotations"].size(), 1u);
  EXPECT_EQ(r["annotations"][0]["value"], kHostile);
  EXPECT_EQ(r["annotations"][0]["start_us"], 1'000'000);
  EXPECT_EQ(api.Get("/").body.find("onerror"), std::string::npos);
  // A time window: 250 Hz, [1 s, 2 s) is steps [250, 500).
  const std::int64_t signal = r["signals"][3]["id"];
  const Json w =
      ViewApiTest::GetJson(api, "/api/signals/" + std::to_string(signal) +
                                    "/range?start_us=1000000&end_us=2000000&buckets=1000");
  EXPECT_EQ(w["start_step"], 250);
  EXPECT_EQ(w["end_step"], 500);
  EXPECT_EQ(w["step"], 1);
  EXPECT_EQ(w["time_us"][0], 1'000'000);
  EXPECT_EQ(w["time_us"][250], 2'000'000);
  EXPECT_EQ(ViewApiTest::GetJson(api, "/api/records/999", 404).count("error"), 1u);
  EXPECT_EQ(ViewApiTest::GetJson(api, "/api/tasks/1", 404).count("error"), 1u);
}

TEST(ViewApi, ChannelsOfAnNdZarrSignalAreExact) {
  testing::ScratchDir dir;
  std::unique_ptr<Dataset> dataset = demo::BuildHelloZarr();
  const auto release = timef::WriteRelease(*dataset, demo::HelloZarrCard(), dir.path(),
                                           demo::HelloZarrWriteOptions())
                           .release_dir;
  Reader reader = Reader::Open(release);
  std::shared_ptr<Signal> spectrogram;
  for (const auto& s : reader.GetRecord(demo::kSpectrogramRecordId)->Signals()) {
    if (s->spec()->StepWidth() > 1) spectrogram = s;
  }
  ASSERT_NE(spectrogram, nullptr);
  const std::int64_t width = spectrogram->spec()->StepWidth();
  const auto all = reader.GetSignalValues(*spectrogram->id()).LoadValues();
  ViewApi api(Reader::Open(release));
  const std::string base = "/api/signals/" + std::to_string(*spectrogram->id()) + "/range?";
  for (std::int64_t channel = 0; channel < width; ++channel) {
    for (const std::string window : {"buckets=7", "start_step=3&end_step=50&buckets=5",
                                     "start_step=10&end_step=12&buckets=9"}) {
      const std::string target = base + window + "&channel=" + std::to_string(channel);
      const Json got = ViewApiTest::GetJson(api, target);
      EXPECT_EQ(got["channel"], channel);
      ExpectExact(*all, got, target, width, channel);
    }
  }
  EXPECT_EQ(api.Get(base + "channel=" + std::to_string(width)).status, 400);
  EXPECT_EQ(api.Get(base + "channel=-1").status, 400);
}

const std::vector<std::string>& HostileTargets() {
  static const std::vector<std::string> targets = {
      "/../etc/passwd",
      "/assets/../CMakeLists.txt",
      "/%2e%2e/etc/passwd",
      "/%2E%2E/%2E%2E/etc/passwd",
      "/assets/%2e%2e%2fview_api.cc",
      "/assets/..%2f..%2fetc%2fpasswd",
      "/assets/view.js%00.png",
      "/assets/.%2e/x",
      "/assets//etc/passwd",
      "//etc/passwd",
      "/assets/..\\..\\etc\\passwd",
      "/assets/view_api.cc",
      "/assets/",
      "/etc/passwd",
      "/api/records/-1",
      "/api/records/0",
      "/api/records/01",
      "/api/records/1e3",
      "/api/records/0x10",
      "/api/records/1.0",
      "/api/records/99999999999999999999999",
      "/api/records/1/..",
      "/records/abc",
      "/records/1/../../etc/passwd",
      "/tasks/-3",
      "/api/signals/abc/range",
      "/api/signals/1/range?buckets=-1",
      "/api/signals/1/range?buckets=abc",
      "/api/signals/1/range?buckets=0",
      "/api/signals/1/range?buckets=100001",
      "/api/signals/1/range?start_step=5&end_step=2",
      "/api/signals/1/range?buckets=1&buckets=2",
      "/api/signals/1/range?start_step=1&start_us=2",
      "/api/signals/1/range?path=../../etc/passwd",
      "/api/signals/1/range?buckets=%zz",
      "/api/signals/1/range?buckets=1%00",
      "/api/signals/999/range",
      "/api/records?limit=abc",
      "/api/records?limit=100000",
      "/api/records?split=bogus",
      "/api/records?unknown=1",
      "/api/records?value=x",
      "/api/card?x=1",
      "/api/nothing",
      "relative/path",
      "",
  };
  return targets;
}

TEST(ViewApi, HostilePathsAndParametersAre4xx) {
  testing::ScratchDir dir;
  WriteOptions options;
  options.compression_level = 3;
  ViewApi api(Reader::Open(WriteRelease(dir.path(), options)));
  for (const std::string& target : HostileTargets()) {
    const Response r = api.Get(target);
    EXPECT_GE(r.status, 400) << target;
    EXPECT_LT(r.status, 500) << target << ": " << r.body;
    EXPECT_EQ(r.body.find("#include"), std::string::npos) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
  EXPECT_EQ(api.Get("/assets/view.js").status, 200);
  EXPECT_EQ(api.Get("/records/1").status, 200);
}

// The status line of a raw HTTP/1.1 request for `target` (sent as is, unlike a client library
// that may normalize it).
int RawStatus(int port, const std::string& target, const std::string& host = "127.0.0.1") {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  const std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
  (void)!write(fd, request.data(), request.size());
  std::string response;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof(buffer))) > 0) response.append(buffer, n);
  close(fd);
  if (response.rfind("HTTP/1.1 ", 0) != 0) return -1;
  return std::stoi(response.substr(9, 3));
}

TEST(ViewServer, ServesOnAFreeLoopbackPortAndStops) {
  testing::ScratchDir dir;
  WriteOptions options;
  options.compression_level = 3;
  auto api = std::make_shared<ViewApi>(Reader::Open(WriteRelease(dir.path(), options)));
  int port = 0;
  {
    ViewServer server(api, {});
    port = server.port();
    ASSERT_GT(port, 0);
    EXPECT_EQ(server.url(), "http://127.0.0.1:" + std::to_string(port) + "/");
    httplib::Client client("127.0.0.1", port);
    auto card = client.Get("/api/card");
    ASSERT_TRUE(card);
    EXPECT_EQ(card->status, 200);
    EXPECT_EQ(Json::parse(card->body)["dataset_id"], "test/view");
    EXPECT_NE(card->get_header_value("Content-Security-Policy").find("script-src 'self'"),
              std::string::npos);
    EXPECT_EQ(card->get_header_value("X-Content-Type-Options"), "nosniff");
    auto post = client.Post("/api/card", "x", "text/plain");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 405);
    for (const std::string& target : HostileTargets()) {
      if (target.empty() || target.front() != '/') continue;
      const int status = RawStatus(port, target);
      EXPECT_GE(status, 400) << target;
      EXPECT_LT(status, 500) << target;
    }
    EXPECT_EQ(RawStatus(port, "/api/card"), 200);
    EXPECT_EQ(RawStatus(port, "/api/card", "localhost:1"), 200);
    // DNS rebinding: another origin's name resolving to 127.0.0.1 is not answered.
    EXPECT_EQ(RawStatus(port, "/api/card", "evil.example:" + std::to_string(port)), 421);
  }
  // Stopped with the server object: nothing listens any more.
  EXPECT_EQ(RawStatus(port, "/api/card"), -1);
}

TEST(ViewServer, LoopbackHosts) {
  EXPECT_TRUE(IsLoopback("127.0.0.1"));
  EXPECT_TRUE(IsLoopback("127.1.2.3"));
  EXPECT_TRUE(IsLoopback("::1"));
  EXPECT_TRUE(IsLoopback("localhost"));
  EXPECT_FALSE(IsLoopback("0.0.0.0"));
  EXPECT_FALSE(IsLoopback("192.168.1.1"));
  EXPECT_FALSE(IsLoopback("::"));
}

}  // namespace
}  // namespace timef::view
