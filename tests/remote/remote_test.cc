// Remote releases over HTTP (docs/remote.md), against an in-process server with fault injection
// (fault_server.h) on 127.0.0.1: the transport's checks and retries, and a release read through a
// URL equal to the same release read locally.
#include "timef/remote.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <fstream>
#include <numeric>

#include "core/release_files.h"
#include "fault_server.h"
#include "release_fixture.h"
#include "remote/http_client.h"
#include "remote/http_file.h"
#include "remote/url.h"
#include "timef/client.h"
#include "timef/dataset_version.h"
#include "timef/error.h"
#include "timef/model/dump.h"
#include "timef/reader.h"
#include "timef/registry.h"
#include "timef/writer.h"

namespace timef {
namespace {
namespace fs = std::filesystem;
using remote::HttpClient;
using remote::HttpOptions;
using testing::Faults;
using testing::FaultServer;
using testing::TempDir;

// Options that make the fault tests quick: short backoffs and timeouts.
HttpOptions QuickOptions() {
  HttpOptions o;
  o.first_backoff = std::chrono::milliseconds(10);
  o.max_backoff = std::chrono::milliseconds(50);
  o.request_timeout = std::chrono::milliseconds(5000);
  o.retry_budget = std::chrono::milliseconds(20000);
  return o;
}

class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_.resize(300000);
    for (std::size_t i = 0; i < bytes_.size(); ++i) bytes_[i] = static_cast<char>((i * 131) % 251);
    std::ofstream(dir_.path() / "blob.bin", std::ios::binary).write(bytes_.data(), bytes_.size());
    server_ = std::make_unique<FaultServer>(dir_.path());
    url_ = server_->url() + "/blob.bin";
  }
  std::string Read(HttpClient& client, std::uint64_t offset, std::size_t length) {
    std::vector<std::byte> out(length);
    HttpClient::Range range{offset, out};
    client.ReadRanges(url_, bytes_.size(), std::span(&range, 1));
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
  }
  std::string Expected(std::uint64_t offset, std::size_t length) {
    return bytes_.substr(offset, length);
  }

  TempDir dir_;
  std::string bytes_;
  std::unique_ptr<FaultServer> server_;
  std::string url_;
};

// Every record read eagerly through `remote` has the signals and values of `local`'s.
void ExpectSameRecordValues(Reader& local, Reader& remote) {
  const auto local_data = local.Read(LoadPlan::AllEager());
  const auto remote_data = remote.Read(LoadPlan::AllEager());
  ASSERT_EQ(remote_data->records().size(), local_data->records().size());
  for (std::size_t r = 0; r < local_data->records().size(); ++r) {
    const auto a = local_data->records()[r]->Signals();
    const auto b = remote_data->records()[r]->Signals();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
      EXPECT_EQ(*b[s]->LoadValues(), *a[s]->LoadValues()) << a[s]->Describe();
    }
  }
}

TEST_F(HttpClientTest, ReadsRangesExactlyAndCoalescesNearbyOnes) {
  HttpClient client(QuickOptions());
  EXPECT_EQ(Read(client, 0, 10), Expected(0, 10));
  EXPECT_EQ(Read(client, 299990, 10), Expected(299990, 10));
  // Three ranges, two of them within the coalescing gap: two requests.
  std::vector<std::byte> a(100), b(100), c(100);
  std::vector<HttpClient::Range> ranges{{1000, a}, {1200, b}, {250000, c}};
  const int before = server_->total_requests();
  client.ReadRanges(url_, bytes_.size(), ranges);
  EXPECT_EQ(server_->total_requests() - before, 2);
  EXPECT_EQ(std::memcmp(a.data(), bytes_.data() + 1000, 100), 0);
  EXPECT_EQ(std::memcmp(b.data(), bytes_.data() + 1200, 100), 0);
  EXPECT_EQ(std::memcmp(c.data(), bytes_.data() + 250000, 100), 0);
}

TEST_F(HttpClientTest, ManyIndependentRangesArriveIntact) {
  HttpOptions o = QuickOptions();
  o.coalesce_gap = 0;
  HttpClient client(o);
  std::vector<std::vector<std::byte>> outs(40, std::vector<std::byte>(500));
  std::vector<HttpClient::Range> ranges;
  for (std::size_t i = 0; i < outs.size(); ++i) ranges.push_back({i * 7000, outs[i]});
  client.ReadRanges(url_, bytes_.size(), ranges);
  EXPECT_EQ(client.stats().requests, 40u);
  for (std::size_t i = 0; i < outs.size(); ++i) {
    EXPECT_EQ(std::memcmp(outs[i].data(), bytes_.data() + i * 7000, 500), 0) << i;
  }
}

TEST_F(HttpClientTest, RetriesServerErrorsAndBrokenBodies) {
  HttpClient client(QuickOptions());
  server_->Set("blob.bin", Faults{.status_503 = 2});
  EXPECT_EQ(Read(client, 5, 1000), Expected(5, 1000));
  EXPECT_EQ(server_->requests("blob.bin"), 3);
  server_->Set("blob.bin", Faults{.drop_mid_body = 1});
  EXPECT_EQ(Read(client, 100, 200000), Expected(100, 200000));
  server_->Set("blob.bin", Faults{.short_body = 1});
  EXPECT_EQ(Read(client, 7, 5000), Expected(7, 5000));
  server_->Set("blob.bin", Faults{.long_body = 1});
  EXPECT_EQ(Read(client, 9, 5000), Expected(9, 5000));
  EXPECT_EQ(client.stats().retries, 5u);
}

TEST_F(HttpClientTest, HonoursRetryAfter) {
  HttpClient client(QuickOptions());
  server_->Set("blob.bin", Faults{.status_429 = 1, .retry_after_s = 1});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Read(client, 0, 100), Expected(0, 100));
  // The backoff alone would wait 10 ms; the header asked for a second.
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900));
  // A Retry-After beyond the retry budget ends the retries at once.
  HttpOptions o = QuickOptions();
  o.retry_budget = std::chrono::milliseconds(500);
  HttpClient impatient(o);
  server_->Set("blob.bin", Faults{.status_429 = 1, .retry_after_s = 30});
  EXPECT_THROW(Read(impatient, 0, 100), FileError);
}

TEST_F(HttpClientTest, GivesUpAfterBoundedAttemptsNamingTheUrlWithoutQueryOrCredentials) {
  HttpOptions o = QuickOptions();
  o.max_attempts = 3;
  HttpClient client(o);
  server_->Set("blob.bin", Faults{.status_503 = 100});
  std::vector<std::byte> out(10);
  HttpClient::Range range{0, out};
  try {
    client.ReadRanges(server_->url() + "/blob.bin?X-Secret=abc", bytes_.size(),
                      std::span(&range, 1));
    FAIL() << "no error";
  } catch (const FileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(server_->url() + "/blob.bin"), std::string::npos) << what;
    EXPECT_NE(what.find("503"), std::string::npos) << what;
    EXPECT_NE(what.find("3 attempts"), std::string::npos) << what;
    EXPECT_EQ(what.find("Secret"), std::string::npos) << what;
  }
  EXPECT_EQ(server_->requests("blob.bin"), 3);
}

TEST_F(HttpClientTest, MissingFileIsMissingFileError) {
  HttpClient client(QuickOptions());
  server_->Set("blob.bin", Faults{.not_found = true});
  EXPECT_THROW(Read(client, 0, 10), MissingFileError);
  EXPECT_EQ(server_->requests("blob.bin"), 1);  // a 404 is not retried
}

TEST_F(HttpClientTest, ASizeOtherThanTheManifestsIsAFormatError) {
  HttpClient client(QuickOptions());
  std::vector<std::byte> out(10);
  HttpClient::Range range{0, out};
  EXPECT_THROW(client.ReadRanges(url_, bytes_.size() + 1, std::span(&range, 1)), FormatError);
  // A range outside the manifest's size is refused before any request.
  HttpClient::Range outside{bytes_.size() - 5, out};
  const int before = server_->total_requests();
  EXPECT_THROW(client.ReadRanges(url_, bytes_.size(), std::span(&outside, 1)), FormatError);
  EXPECT_EQ(server_->total_requests(), before);
}

TEST_F(HttpClientTest, AServerIgnoringRangeStillGivesTheRange) {
  HttpClient client(QuickOptions());
  server_->Set("blob.bin", Faults{.ignore_range = true});
  EXPECT_EQ(Read(client, 123, 4567), Expected(123, 4567));
}

TEST_F(HttpClientTest, ASlowResponsePastTheTimeoutFails) {
  HttpOptions o = QuickOptions();
  o.request_timeout = std::chrono::milliseconds(200);
  o.max_attempts = 2;
  HttpClient client(o);
  server_->Set("blob.bin", Faults{.slow_ms = 1500});
  try {
    Read(client, 0, 10);
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("Timeout"), std::string::npos) << e.what();
  }
}

TEST_F(HttpClientTest, BearerTokenIsSentAndNeverPrinted) {
  ::setenv("TIMEF_TEST_TOKEN_A", "s3cr3t-token", 1);
  HttpOptions o = QuickOptions();
  o.bearer_token_env = "TIMEF_TEST_TOKEN_A";
  HttpClient client(o);
  server_->Set("blob.bin", Faults{.require_bearer = "s3cr3t-token"});
  EXPECT_EQ(Read(client, 0, 10), Expected(0, 10));
  server_->Set("blob.bin", Faults{.require_bearer = "another"});
  try {
    Read(client, 0, 10);
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("401"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("s3cr3t"), std::string::npos) << e.what();
  }
}

TEST_F(HttpClientTest, DownloadChecksTheSizeAndRestartsAfterABrokenBody) {
  HttpClient client(QuickOptions());
  server_->Set("blob.bin", Faults{.drop_mid_body = 1});
  const fs::path file = dir_.path() / "copy.bin";
  int restarts = 0;
  std::uint64_t seen = 0;
  client.Download(
      url_, bytes_.size(), file, [&](std::span<const std::byte> b) { seen += b.size(); },
      [&] {
        ++restarts;
        seen = 0;
      });
  EXPECT_EQ(restarts, 1);
  EXPECT_EQ(seen, bytes_.size());
  std::ifstream in(file, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), bytes_);
}

// HttpFile::Prefetch: nearby ranges are fetched in one request; reads inside what was fetched are
// served without a request while the hold lives, others (and all after it is dropped) are requests
// of their own; the bytes are the object's either way.
TEST_F(HttpClientTest, PrefetchedRangesAreReadWithoutRequestsWhileHeld) {
  auto client = std::make_shared<HttpClient>(QuickOptions());
  const remote::HttpFile file(client, url_, bytes_.size());
  EXPECT_TRUE(file.prefetches());
  auto read = [&](std::uint64_t offset, std::size_t length) {
    const auto out = file.Read(offset, length);
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
  };
  const std::vector<parquet::ByteRange> ranges = {{1000, 500}, {40000, 100}, {250000, 3000}};
  int before = server_->total_requests();
  auto hold = file.Prefetch(ranges);
  ASSERT_NE(hold, nullptr);
  // [1000, 40100) within the 64 KiB gap: one request; [250000, 253000) another.
  EXPECT_EQ(server_->total_requests() - before, 2);
  before = server_->total_requests();
  EXPECT_EQ(read(1000, 500), Expected(1000, 500));
  EXPECT_EQ(read(20000, 64), Expected(20000, 64));  // inside the merged segment
  EXPECT_EQ(read(251000, 2000), Expected(251000, 2000));
  EXPECT_EQ(server_->total_requests() - before, 0);
  EXPECT_EQ(read(252900, 200), Expected(252900, 200));  // runs past the segment: a request
  EXPECT_EQ(server_->total_requests() - before, 1);
  hold.reset();
  EXPECT_EQ(read(1000, 500), Expected(1000, 500));  // the bytes are gone with the hold
  EXPECT_EQ(server_->total_requests() - before, 2);
  EXPECT_THROW(static_cast<void>(file.Prefetch(std::vector<parquet::ByteRange>{{299990, 20}})),
               FormatError);
}

TEST(UrlTest, ParsesAndRedacts) {
  const remote::Url url = remote::Url::Parse("HTTPS://user:pw@example.org:8443/a/b?sig=1#frag");
  EXPECT_EQ(url.scheme, "https");
  EXPECT_EQ(url.authority, "example.org:8443");
  EXPECT_EQ(url.path, "/a/b");
  EXPECT_EQ(url.query, "sig=1");
  EXPECT_EQ(url.Redacted(), "https://example.org:8443/a/b");
  EXPECT_EQ(url.Join("c/d.parquet").Redacted(), "https://example.org:8443/a/b/c/d.parquet");
  EXPECT_THROW(url.Join("../x"), ValidationError);
  EXPECT_THROW(remote::Url::Parse("ftp://example.org/x"), ValidationError);
  EXPECT_THROW(remote::Url::Parse("http:///x"), ValidationError);
  EXPECT_THROW(remote::Url::Parse("http://h:99999/x"), ValidationError);
  EXPECT_EQ(remote::RedactedUrl("http://u:p@h/x?y=z"), "http://h/x");
  EXPECT_EQ(remote::RedactedUrl("/local/dir"), "/local/dir");
  EXPECT_TRUE(remote::IsUrl("http://h"));
  EXPECT_FALSE(remote::IsUrl("./http://h"));
}

// ---- A release read through a URL ----

class RemoteReleaseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { written_ = testing::WriteFixture({}, 2).release(); }
  static void TearDownTestSuite() {
    delete written_;
    written_ = nullptr;
  }
  void SetUp() override {
    ::setenv("TIMEF_CACHE_DIR", cache_.path().c_str(), 1);
    server_ = std::make_unique<FaultServer>(written_->root.path());
  }
  static fs::path Dir() { return written_->result.release_dir; }
  std::string Relative(const std::string& file) const {
    return (Dir().lexically_relative(written_->root.path()) / file).generic_string();
  }
  std::string Url() const {
    return server_->url() + "/" + Dir().lexically_relative(written_->root.path()).generic_string();
  }

  static testing::WrittenFixture* written_;
  TempDir cache_;
  std::unique_ptr<FaultServer> server_;
};
testing::WrittenFixture* RemoteReleaseTest::written_ = nullptr;

TEST_F(RemoteReleaseTest, ReadsEqualToTheLocalRelease) {
  Reader local = Reader::Open(Dir());
  Reader remote = Reader::Open(Url());
  EXPECT_EQ(remote.path().string(), Url());
  EXPECT_EQ(remote.manifest().Ref(), local.manifest().Ref());
  EXPECT_EQ(remote.RecordIds(), local.RecordIds());
  const std::vector<std::int64_t> ids = local.SignalIds();
  ASSERT_EQ(remote.SignalIds(), ids);
  const auto local_refs = local.GetSignalValues(ids);
  const auto remote_refs = remote.GetSignalValues(ids);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    SCOPED_TRACE(ids[i]);
    ASSERT_EQ(remote_refs[i].has_values(), local_refs[i].has_values());
    if (local_refs[i].has_values()) {
      EXPECT_EQ(*remote_refs[i].LoadValues(), *local_refs[i].LoadValues());
    }
  }
  ExpectSameRecordValues(local, remote);
  EXPECT_EQ(remote.ReadTasks().size(), local.ReadTasks().size());
  remote.Verify();
}

// The version API over HTTP (include/timef/dataset_version.h, client.h): a remote version opens
// with its manifest alone, and its reader, a URL registry's and a client's read what the local
// release holds.
TEST_F(RemoteReleaseTest, ARemoteVersionOpensFromItsManifestAndReadsEqualToLocal) {
  const std::string control = Relative("control.duckdb");
  const DatasetVersion version = OpenVersion(Url());
  EXPECT_TRUE(version.remote());
  EXPECT_EQ(version.location().string(), Url());
  EXPECT_EQ(version.ref().ToString(), "test/fixture@1.0.0");
  Reader remote = Reader::Open(version);
  // Opening the version and creating its reader fetched nothing but manifest.json.
  EXPECT_EQ(server_->requests(control), 0);
  EXPECT_EQ(server_->requests(Relative("manifest.json")), 1);
  Reader local = Reader::Open(Dir());
  EXPECT_EQ(model::DumpDataset(*remote.Read(LoadPlan::AllEager()), {.values = true}),
            model::DumpDataset(*local.Read(LoadPlan::AllEager()), {.values = true}));
  // A version that is not there: the manifest's 404 is a MissingFileError naming its URL.
  try {
    OpenVersion(server_->url() + "/test/fixture/9.0.0");
    FAIL() << "no error";
  } catch (const MissingFileError& e) {
    EXPECT_NE(std::string(e.what()).find("/test/fixture/9.0.0/manifest.json"), std::string::npos)
        << e.what();
  }
}

TEST_F(RemoteReleaseTest, AUrlRegistryOpensExactVersionsAndTheClientLoadsThem) {
  const Registry registry = Registry::Open(server_->url() + "/");
  EXPECT_TRUE(registry.remote());
  EXPECT_EQ(registry.root().string(), server_->url());
  const DatasetVersion version = registry.OpenVersion("test/fixture@1.0.0");
  EXPECT_EQ(version.location().string(), Url());
  // No listing over HTTP: the latest version and the lists need one.
  EXPECT_THROW(registry.OpenVersion("test/fixture"), ValidationError);
  EXPECT_THROW(registry.Datasets(), ValidationError);
  EXPECT_THROW(registry.OpenVersion("test/fixture@9.0.0"), NotFoundError);
  EXPECT_THROW(Registry::Open(server_->url() + "/?token=x"), ValidationError);

  TempDir cache;
  TempDir empty;
  const Client client(ClientOptions{.registries = {empty.path().string(), server_->url()},
                                    .cache_dir = cache.path()});
  Reader local = Reader::Open(Dir());
  EXPECT_EQ(model::DumpDataset(*client.Load("test/fixture@1.0.0"), {.values = true}),
            model::DumpDataset(*local.Read(LoadPlan::AllEager()), {.values = true}));
  // The catalog went to the client's cache, not $TIMEF_CACHE_DIR.
  bool cached = false;
  for (const auto& entry : fs::recursive_directory_iterator(cache.path())) {
    cached = cached || entry.path().filename() == "control.duckdb";
  }
  EXPECT_TRUE(cached);
  try {
    client.OpenVersion("test/fixture");
    FAIL() << "no error";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("org/name@x.y.z"), std::string::npos) << e.what();
  }
}

TEST_F(RemoteReleaseTest, CatalogIsCachedVerifiedAndFetchedAgainWhenRemoved) {
  const std::string control = Relative("control.duckdb");
  {
    Reader remote = Reader::Open(Url());
    EXPECT_EQ(server_->requests(control), 0);  // opening fetches no catalog
    remote.RecordIds();
    EXPECT_EQ(server_->requests(control), 1);
    remote.Close();
    remote.RecordIds();  // reopened from the cache
    EXPECT_EQ(server_->requests(control), 1);
    // The cached copy is removed: fetched again on the next open of the catalog.
    for (const auto& entry : fs::recursive_directory_iterator(cache_.path())) {
      if (entry.path().filename() == "control.duckdb") fs::remove(entry.path());
    }
    remote.Close();
    remote.RecordIds();
    EXPECT_EQ(server_->requests(control), 2);
  }
  // Another reader of the same release finds the cached copy.
  Reader again = Reader::Open(Url());
  again.RecordIds();
  EXPECT_EQ(server_->requests(control), 2);
}

TEST_F(RemoteReleaseTest, ACorruptedCatalogIsNeverOpened) {
  server_->Set(Relative("control.duckdb"), Faults{.corrupt = true});
  Reader remote = Reader::Open(Url());
  try {
    remote.RecordIds();
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("sha256"), std::string::npos) << e.what();
  }
  // Nothing but the failed download's absence is left in the cache.
  for (const auto& entry : fs::recursive_directory_iterator(cache_.path())) {
    EXPECT_FALSE(entry.is_regular_file()) << entry.path();
  }
}

// A corrupted byte in a values shard is a FormatError (page CRC, or the footer), never a value.
TEST_F(RemoteReleaseTest, ACorruptedValuesFileIsAnErrorNeverAValue) {
  Reader local = Reader::Open(Dir());
  const auto& shards = local.manifest().files.time_series;
  ASSERT_FALSE(shards.empty());
  for (const auto& shard : shards) server_->Set(Relative(shard.path), Faults{.corrupt = true});
  Reader remote = Reader::Open(Url());
  const std::vector<std::int64_t> ids = remote.SignalIds();
  int failed = 0;
  for (const auto& ref : remote.GetSignalValues(ids)) {
    if (!ref.has_values()) continue;
    try {
      ref.LoadValues();
    } catch (const FormatError&) {
      ++failed;
      continue;
    }
    ADD_FAILURE() << "signal " << ref.id() << " read from a corrupted shard";
  }
  EXPECT_GT(failed, 0);
}

TEST_F(RemoteReleaseTest, FaultsOnValuesAreRetriedAndAMissingFileNamesItsUrl) {
  Reader local = Reader::Open(Dir());
  const std::string shard = local.manifest().files.time_series.front().path;
  server_->Set(Relative(shard), Faults{.status_503 = 1, .drop_mid_body = 1});
  Reader remote = Reader::Open(Url());
  const std::vector<std::int64_t> ids = remote.SignalIds();
  const auto local_refs = local.GetSignalValues(ids);
  const auto remote_refs = remote.GetSignalValues(ids);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (local_refs[i].has_values()) {
      EXPECT_EQ(*remote_refs[i].LoadValues(), *local_refs[i].LoadValues());
    }
  }
  server_->Set(Relative(shard), Faults{.not_found = true});
  Reader fresh = Reader::Open(Url());
  bool missing = false;
  for (const auto& ref : fresh.GetSignalValues(ids)) {
    if (!ref.has_values()) continue;
    try {
      ref.LoadValues();
    } catch (const MissingFileError& e) {
      missing = true;
      EXPECT_NE(std::string(e.what()).find(server_->url() + "/" + Relative(shard)),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(missing);
}

// A batch LoadValues announces its pages to the remote shards (HttpFile::Prefetch), which fetch
// them in a few coalesced requests: far fewer requests to the shards than chunks decoded, and the
// values equal to the local read.
TEST(RemoteBatchTest, ABatchLoadFetchesItsPagesInFewRequestsAndReadsEqualToLocal) {
  const auto written = testing::WriteFixture({}, 100);
  const fs::path dir = written->result.release_dir;
  const std::string relative = dir.lexically_relative(written->root.path()).generic_string();
  TempDir cache;
  ::setenv("TIMEF_CACHE_DIR", cache.path().c_str(), 1);
  FaultServer server(written->root.path());
  Reader local = Reader::Open(dir);
  Reader remote = Reader::Open(server.url() + "/" + relative);
  std::vector<std::int64_t> ids;
  for (const auto& ref : local.GetSignalValues(local.SignalIds())) {
    if (ref.has_values()) ids.push_back(ref.id());
  }
  const auto shards = local.manifest().files.time_series;
  ASSERT_FALSE(shards.empty());
  auto shard_requests = [&] {
    int n = 0;
    for (const auto& shard : shards) n += server.requests(relative + "/" + shard.path);
    return n;
  };
  const int before = shard_requests();
  const std::uint64_t chunks_before = remote.counters().chunks_read;
  const auto remote_values = remote.LoadValues(remote.GetSignalValues(ids));
  const auto local_values = local.LoadValues(local.GetSignalValues(ids));
  const int requests = shard_requests() - before;
  const std::uint64_t chunks = remote.counters().chunks_read - chunks_before;
  ASSERT_EQ(remote_values.size(), local_values.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    SCOPED_TRACE(ids[i]);
    ASSERT_TRUE(remote_values[i] && local_values[i]);
    EXPECT_EQ(*remote_values[i], *local_values[i]);
  }
  // Without the prefetch every chunk is a request of its own (plus footers and offset indexes).
  ASSERT_GE(chunks, 200u);
  EXPECT_LT(static_cast<std::uint64_t>(requests) * 4, chunks)
      << requests << " requests for " << chunks << " chunks";
}

TEST_F(RemoteReleaseTest, AMissingReleaseAndBadUrlsAreTypedErrors) {
  EXPECT_THROW(Reader::Open(server_->url() + "/no/such/1.0.0"), MissingFileError);
  EXPECT_THROW(Reader::Open(Url() + "?token=x"), ValidationError);
  EXPECT_THROW(Reader::Open("http://user:pw@127.0.0.1:1/x"), ValidationError);
}

// A fetched manifest has the local limit, kMaxManifestBytes (docs/format.md §3.1): one byte more
// is refused, naming the URL, before anything is parsed.
TEST_F(RemoteReleaseTest, AManifestOverTheLocalLimitIsRefused) {
  TempDir root;
  const fs::path dir = root.path() / "acme" / "huge" / "1.0.0";
  fs::create_directories(dir);
  const fs::path manifest_file = dir / "manifest.json";
  std::ofstream(manifest_file, std::ios::binary) << "{}";
  fs::resize_file(manifest_file, static_cast<std::uintmax_t>(kMaxManifestBytes) + 1);
  FaultServer server(root.path());
  const std::string url = server.url() + "/acme/huge/1.0.0";
  try {
    Reader::Open(url);
    FAIL() << "a manifest of kMaxManifestBytes + 1 bytes was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(url + "/manifest.json"), std::string::npos) << e.what();
    // Refused by its size (a parse would have named a byte of the document).
    const std::string limit = "larger than the " + std::to_string(kMaxManifestBytes) + " bytes";
    EXPECT_NE(std::string(e.what()).find(limit), std::string::npos) << e.what();
  }
}

TEST_F(RemoteReleaseTest, PullDownloadsAVerifiedCopyAndResumesAfterAFailure) {
  const std::string shard = written_->result.manifest.files.time_series.front().path;
  const std::string last = written_->result.manifest.files.time_series.back().path;
  TempDir out;
  const fs::path dir = out.path() / "copy";
  fs::path part = dir;
  part += ".part";
  // A corrupted file: an error, no release, and the verified files kept for the next pull.
  server_->Set(Relative(last), Faults{.corrupt = true});
  EXPECT_THROW(PullRelease(Url(), dir, PullOptions{.threads = 1}), FormatError);
  EXPECT_FALSE(fs::exists(dir));
  ASSERT_TRUE(fs::exists(part));
  EXPECT_FALSE(fs::exists(part / last));
  EXPECT_FALSE(fs::exists(part / "manifest.json"));
  // The server is repaired (and drops one connection): the pull resumes and completes.
  server_->Set(Relative(last), Faults{});
  server_->Set(Relative(shard), Faults{.drop_mid_body = 1});
  const PullResult result = PullRelease(Url(), dir, PullOptions{.threads = 3});
  EXPECT_GT(result.files_kept, 0);
  EXPECT_GT(result.files_downloaded, 0);
  EXPECT_FALSE(fs::exists(part));
  Reader copy = Reader::Open(dir);
  copy.Verify();
  Reader local = Reader::Open(Dir());
  EXPECT_EQ(copy.RecordIds(), local.RecordIds());
  for (const std::string& file : testing::ListFiles(dir)) {
    EXPECT_FALSE(file.ends_with(".part")) << file;
  }
  EXPECT_EQ(testing::ListFiles(dir), testing::ListFiles(Dir()));
  // A second pull into an existing directory is refused.
  EXPECT_THROW(PullRelease(Url(), dir), ValidationError);
}

// A child whose values, offsets and text live in its parent (payload sources) reads them from the
// same remote root.
TEST(RemotePayloadSourcesTest, AChildReadsItsParentsFilesFromTheSameRemoteRoot) {
  TempDir root;
  TempDir cache;
  ::setenv("TIMEF_CACHE_DIR", cache.path().c_str(), 1);
  testing::Fixture f = testing::MakeFixture();
  WriteOptions options;
  options.compression_level = 1;
  WriteRelease(*f.dataset, testing::FixtureCard(), root.path(), options);
  {
    Reader parent = Reader::Open(root.path() / "test/fixture/1.0.0");
    std::unique_ptr<model::Dataset> read = parent.Read();
    model::Dataset child("test/reuse", "1.0.0");
    for (const auto& record : read->records()) child.AddRecord(record);
    for (const auto& task : read->tasks()) child.AddTask(task);
    for (const auto& a : read->registered_annotations()) child.RegisterAnnotation(a);
    WriteRelease(child, testing::FixtureCard(), root.path(), options);
  }
  FaultServer server(root.path());
  Reader local = Reader::Open(root.path() / "test/reuse/1.0.0");
  ASSERT_FALSE(local.manifest().payload_sources.empty());
  Reader remote = Reader::Open(server.url() + "/test/reuse/1.0.0");
  ExpectSameRecordValues(local, remote);
  // The values came from the parent's files on the server.
  const auto& pins = local.manifest().payload_sources.at("test/fixture@1.0.0");
  int parent_requests = 0;
  for (const auto& pin : pins) parent_requests += server.requests("test/fixture/1.0.0/" + pin.path);
  EXPECT_GT(parent_requests, 0);
  remote.Verify();  // the child's files and the parent's pinned files, hashed over HTTP

  // The same child as a version of the URL registry: its source resolves in that registry.
  const DatasetVersion version = Registry::Open(server.url()).OpenVersion("test/reuse@1.0.0");
  ASSERT_EQ(version.payload_sources().size(), 1u);
  EXPECT_EQ(version.payload_sources()[0].location.string(), server.url() + "/test/fixture/1.0.0");
  Reader from_version = Reader::Open(version);
  ExpectSameRecordValues(local, from_version);
}

}  // namespace
}  // namespace timef
