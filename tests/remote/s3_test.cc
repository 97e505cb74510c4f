// S3 (docs/remote.md "S3" and "Push"): s3:// URLs, the ListObjectsV2 parser, SigV4 signatures
// checked by an independent implementation on an in-process server, and push, ls, latest, open and
// pull against s3rver (npm, pinned in tests/remote/s3rver) started once by this process on
// 127.0.0.1.
#include "remote/s3.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <optional>

#include "release_fixture.h"
#include "remote/http_client.h"
#include "remote/url.h"
#include "serve_release.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/remote.h"
#include "timef/writer.h"

namespace timef {
namespace {
namespace fs = std::filesystem;
using remote::HttpClient;
using remote::S3Config;
using remote::Url;
using testing::TempDir;

// Sets environment variables for one scope, restoring the previous values after.
class ScopedEnv {
 public:
  void Set(const char* name, const char* value) {
    const char* old = std::getenv(name);
    saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) {
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        ::unsetenv(it->first.c_str());
      }
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

std::string FileBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(S3UrlTest, ParsesBucketsAndBuildsRequestUrls) {
  EXPECT_TRUE(remote::IsUrl("s3://bucket/key"));
  EXPECT_TRUE(remote::IsS3Url("S3://bucket/key"));
  const Url url = Url::Parse("s3://my-bucket/reg/org/name/1.0.0");
  EXPECT_EQ(url.scheme, "s3");
  EXPECT_EQ(url.authority, "my-bucket");
  EXPECT_EQ(url.path, "/reg/org/name/1.0.0");
  EXPECT_EQ(url.Join("time_series/a=b.parquet").Redacted(),
            "s3://my-bucket/reg/org/name/1.0.0/time_series/a=b.parquet");
  for (const char* bad : {"s3://ab/k", "s3://Upper/k", "s3://-bucket/k", "s3://bucket:80/k",
                          "s3://key:secret@bucket/k", "s3:///k"}) {
    try {
      Url::Parse(bad);
      ADD_FAILURE() << bad;
    } catch (const ValidationError& e) {
      EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
    }
  }
  S3Config aws;
  aws.region = "eu-west-1";
  EXPECT_EQ(remote::S3RequestUrl(Url::Parse("s3://bkt/a=b/c~d+e"), aws),
            "https://bkt.s3.eu-west-1.amazonaws.com/a%3Db/c~d%2Be");
  EXPECT_EQ(remote::S3RequestUrl(Url::Parse("s3://my.bkt/k"), aws),
            "https://s3.eu-west-1.amazonaws.com/my.bkt/k");
  S3Config local;
  local.endpoint = "http://127.0.0.1:9000/base";
  Url list = Url::Parse("s3://bkt/");
  list.query = remote::ListObjectsV2Query("reg/a b/", "/", "tok/+=");
  EXPECT_EQ(remote::S3RequestUrl(list, local),
            "http://127.0.0.1:9000/base/bkt/"
            "?continuation-token=tok%2F%2B%3D&delimiter=%2F&list-type=2&prefix=reg%2Fa%20b%2F");
}

TEST(S3ConfigTest, ReadsTheAwsVariables) {
  ScopedEnv env;
  env.Set("AWS_ACCESS_KEY_ID", "AK");
  env.Set("AWS_SECRET_ACCESS_KEY", "SK");
  env.Set("AWS_SESSION_TOKEN", nullptr);
  env.Set("AWS_REGION", nullptr);
  env.Set("AWS_DEFAULT_REGION", "ap-south-1");
  env.Set("AWS_ENDPOINT_URL_S3", nullptr);
  env.Set("AWS_ENDPOINT_URL", "http://127.0.0.1:1234/");
  S3Config c = S3Config::FromEnvironment();
  EXPECT_EQ(c.region, "ap-south-1");
  EXPECT_EQ(c.endpoint, "http://127.0.0.1:1234");
  EXPECT_TRUE(c.Signed());
  env.Set("AWS_REGION", "us-west-2");
  EXPECT_EQ(S3Config::FromEnvironment().region, "us-west-2");
  env.Set("AWS_ENDPOINT_URL", "http://user:pw@host/");
  try {
    S3Config::FromEnvironment();
    ADD_FAILURE();
  } catch (const ValidationError& e) {
    EXPECT_EQ(std::string(e.what()).find("pw"), std::string::npos) << e.what();
  }
  env.Set("AWS_ENDPOINT_URL", nullptr);
  env.Set("AWS_SECRET_ACCESS_KEY", nullptr);
  EXPECT_THROW(S3Config::FromEnvironment(), ValidationError);
}

TEST(S3ListTest, ParsesPagesAndRejectsBadDocuments) {
  const std::string page =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
      "<Name>b</Name><Prefix>r/</Prefix><KeyCount>3</KeyCount><IsTruncated>true</IsTruncated>"
      "<NextContinuationToken>t&amp;1</NextContinuationToken>"
      "<Contents><Key>r/a&lt;&#x41;&#66;&#x20AC;</Key><Size>12</Size><ETag>&quot;x&quot;</ETag>"
      "</Contents><Contents><Key><![CDATA[r/<raw>]]></Key><Size>0</Size></Contents>"
      "<!-- a comment --><CommonPrefixes><Prefix>r/org/</Prefix></CommonPrefixes>"
      "<CommonPrefixes><Prefix>r/x y/</Prefix></CommonPrefixes><Empty/></ListBucketResult>";
  const remote::S3ListPage p = remote::ParseListObjectsV2(page, "s3://b/");
  ASSERT_EQ(p.objects.size(), 2u);
  EXPECT_EQ(p.objects[0].key, "r/a<AB\xE2\x82\xAC");
  EXPECT_EQ(p.objects[0].size, 12u);
  EXPECT_EQ(p.objects[1].key, "r/<raw>");
  EXPECT_EQ(p.prefixes, (std::vector<std::string>{"r/org/", "r/x y/"}));
  EXPECT_TRUE(p.truncated);
  EXPECT_EQ(p.next_token, "t&1");
  for (const std::string& bad : std::vector<std::string>{
           "", "<ListBucketResult>", "<ListBucketResult></Other>", "<Error><Code>X</Code></Error>",
           "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>",
           "<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",
           "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
           "<ListBucketResult>&bogus;</ListBucketResult>", "<!DOCTYPE x><ListBucketResult/>",
           "<ListBucketResult/>trailing", std::string(40, '<')}) {
    EXPECT_THROW(remote::ParseListObjectsV2(bad, "s3://b/"), FormatError) << bad;
  }
  EXPECT_EQ(remote::S3ErrorCode("<Error><Code>NoSuchKey</Code><Message>m</Message></Error>"),
            "NoSuchKey");
  EXPECT_EQ(remote::S3ErrorCode("not xml"), "");
}

// AWS's SigV4 for one received request, computed here (OpenSSL HMAC) from what the server got:
// the signature libcurl sent must be this one.
std::string HmacSha256(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &size);
  return std::string(reinterpret_cast<const char*>(out), size);
}
std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}
std::string Sha256Hex(const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned size = 0;
  EVP_Digest(data.data(), data.size(), out, &size, EVP_sha256(), nullptr);
  return Hex(std::string(reinterpret_cast<const char*>(out), size));
}

std::string ExpectedSignature(const httplib::Request& req, const std::string& raw_target,
                              const std::string& secret, const std::string& region,
                              std::string* signed_headers_out) {
  const std::string auth = req.get_header_value("Authorization");
  const auto sh = auth.find("SignedHeaders=");
  const std::string signed_headers = auth.substr(sh + 14, auth.find(',', sh) - sh - 14);
  *signed_headers_out = signed_headers;
  const auto q = raw_target.find('?');
  const std::string path = raw_target.substr(0, q);
  std::string query = q == std::string::npos ? "" : raw_target.substr(q + 1);
  std::vector<std::string> params;
  for (std::size_t at = 0; !query.empty() && at <= query.size();) {
    const auto amp = query.find('&', at);
    params.push_back(query.substr(at, amp - at));
    if (amp == std::string::npos) break;
    at = amp + 1;
  }
  std::sort(params.begin(), params.end());
  std::string canonical_query;
  for (const std::string& p : params) canonical_query += (canonical_query.empty() ? "" : "&") + p;
  std::string canonical_headers;
  for (std::size_t at = 0; at <= signed_headers.size();) {
    const auto semi = signed_headers.find(';', at);
    const std::string name = signed_headers.substr(at, semi - at);
    canonical_headers += name + ":" + req.get_header_value(name.c_str()) + "\n";
    if (semi == std::string::npos) break;
    at = semi + 1;
  }
  const std::string payload = req.get_header_value("x-amz-content-sha256");
  const std::string canonical = req.method + "\n" + path + "\n" + canonical_query + "\n" +
                                canonical_headers + "\n" + signed_headers + "\n" + payload;
  const std::string date = req.get_header_value("x-amz-date");
  const std::string scope = date.substr(0, 8) + "/" + region + "/s3/aws4_request";
  const std::string to_sign =
      "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + Sha256Hex(canonical);
  std::string key = HmacSha256("AWS4" + secret, date.substr(0, 8));
  key = HmacSha256(key, region);
  key = HmacSha256(key, "s3");
  key = HmacSha256(key, "aws4_request");
  return Hex(HmacSha256(key, to_sign));
}

TEST(S3SigV4Test, EveryRequestCarriesTheSignatureAwsComputes) {
  httplib::Server server;
  std::mutex mutex;
  std::vector<std::string> problems;
  std::map<std::string, std::string> objects;
  int checked = 0;
  const auto check = [&](const httplib::Request& req) {
    std::string signed_headers;
    const std::string want =
        ExpectedSignature(req, req.target, "SECRET/key+", "eu-central-1", &signed_headers);
    const std::string auth = req.get_header_value("Authorization");
    std::lock_guard lock(mutex);
    ++checked;
    if (!auth.starts_with("AWS4-HMAC-SHA256 Credential=AKID/") ||
        auth.find("/eu-central-1/s3/aws4_request") == std::string::npos ||
        !auth.ends_with("Signature=" + want)) {
      problems.push_back(req.method + " " + req.target + ": " + auth + " (want " + want + ")");
    }
    for (const char* h : {"host", "x-amz-content-sha256", "x-amz-date", "x-amz-security-token"}) {
      if (signed_headers.find(h) == std::string::npos) {
        problems.push_back(req.target + ": " + h + " not signed in " + signed_headers);
      }
    }
    if (req.method == "PUT" && !req.has_header("x-amz-copy-source") &&
        req.get_header_value("x-amz-content-sha256") != Sha256Hex(req.body)) {
      problems.push_back(req.target + ": x-amz-content-sha256 is not the body's");
    }
  };
  server.Get(".*", [&](const httplib::Request& req, httplib::Response& res) {
    check(req);
    if (req.has_param("list-type")) {
      res.set_content("<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>" +
                          req.get_param_value("prefix") +
                          "x</Key><Size>1</Size></Contents>"
                          "</ListBucketResult>",
                      "application/xml");
      return;
    }
    std::lock_guard lock(mutex);
    res.set_content(objects[req.path], "application/octet-stream");
  });
  server.Put(".*", [&](const httplib::Request& req, httplib::Response& res) {
    check(req);
    std::lock_guard lock(mutex);
    objects[req.path] = req.body;
    unsigned char md5[EVP_MAX_MD_SIZE];
    unsigned size = 0;
    EVP_Digest(req.body.data(), req.body.size(), md5, &size, EVP_md5(), nullptr);
    res.set_header("ETag", "\"" + Hex(std::string(reinterpret_cast<char*>(md5), size)) + "\"");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread thread([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::string failure;
  try {
    ScopedEnv env;
    env.Set("AWS_ACCESS_KEY_ID", "AKID");
    env.Set("AWS_SECRET_ACCESS_KEY", "SECRET/key+");
    env.Set("AWS_SESSION_TOKEN", "TOKEN");
    env.Set("AWS_REGION", "eu-central-1");
    env.Set("AWS_ENDPOINT_URL_S3", nullptr);
    env.Set("AWS_ENDPOINT_URL", ("http://127.0.0.1:" + std::to_string(port)).c_str());
    HttpClient client;
    const std::string body = "some bytes";
    client.PutObject("s3://bkt/dir/a=b+c.bin", std::as_bytes(std::span(body)), false);
    const std::vector<std::byte> got = client.Fetch("s3://bkt/dir/a=b+c.bin", 100);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(got.data()), got.size()), body);
    std::vector<std::byte> range(4);
    HttpClient::Range r{2, range};
    client.ReadRanges("s3://bkt/dir/a=b+c.bin", body.size(), std::span(&r, 1));
    const auto listing = remote::ListObjectsV2(client, "bkt", "dir/a b=/", "/");
    ASSERT_EQ(listing.objects.size(), 1u);
    EXPECT_EQ(listing.objects[0].key, "dir/a b=/x");
  } catch (const std::exception& e) {
    failure = e.what();
  }
  server.stop();
  thread.join();
  EXPECT_EQ(failure, "");
  EXPECT_EQ(checked, 4);
  EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
}

// A release of test/fixture written once, and s3rver started once, for the suite.
class S3Test : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bucket_ = new std::string(testing::SharedS3Bucket());
    written_ = testing::WriteFixture({}, 1).release();
  }
  static void TearDownTestSuite() {
    delete written_;
    written_ = nullptr;
    delete bucket_;
  }
  static fs::path Dir() { return written_->result.release_dir; }
  // A registry root of its own per test.
  std::string Root() const {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return *bucket_ + "/" + info->name();
  }
  static testing::WrittenFixture* written_;
  static std::string* bucket_;
};
testing::WrittenFixture* S3Test::written_ = nullptr;
std::string* S3Test::bucket_ = nullptr;

TEST_F(S3Test, PushedReleaseIsListedOpenedAndPulledBackByteForByte) {
  const std::string url = Root() + "/test/fixture/1.0.0";
  std::vector<std::string> steps;
  std::mutex mutex;
  const PushResult pushed = PushRelease(
      Dir(), url,
      PushOptions{.threads = 3, .on_step = [&](std::string_view step, std::string_view path) {
                    std::lock_guard lock(mutex);
                    steps.push_back(std::string(step) + " " + std::string(path));
                  }});
  EXPECT_EQ(pushed.url, url);
  EXPECT_TRUE(pushed.temporary_objects_left.empty());
  const auto& m = written_->result.manifest;
  EXPECT_EQ(pushed.files,
            static_cast<std::int64_t>(1 + m.files.time_series.size() + m.files.payloads.size()));
  ASSERT_FALSE(steps.empty());
  // Uploads before copies, the manifest after every copy, cleanup last.
  const auto first = [&](const std::string& prefix) {
    return std::find_if(steps.begin(), steps.end(),
                        [&](const std::string& s) { return s.starts_with(prefix); }) -
           steps.begin();
  };
  const auto last = [&](const std::string& prefix) {
    return steps.rend() - std::find_if(steps.rbegin(), steps.rend(),
                                       [&](const std::string& s) { return s.starts_with(prefix); });
  };
  EXPECT_LT(last("upload"), first("copy") + 1);
  EXPECT_LT(last("copy"), first("manifest") + 1);
  EXPECT_EQ(std::count(steps.begin(), steps.end(), "manifest manifest.json"), 1);
  EXPECT_LT(first("manifest"), first("cleanup"));

  // ls: the release, and nothing of the temporary prefix.
  const std::vector<RemoteRegistryRelease> listed = ListRemoteRegistry(Root());
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].dataset_id, "test/fixture");
  EXPECT_EQ(listed[0].version.ToString(), "1.0.0");
  EXPECT_EQ(listed[0].url, url);
  HttpClient client;
  const auto objects = remote::ListObjectsV2(
      client, "timef-test", Root().substr(std::string("s3://timef-test/").size()) + "/", "");
  EXPECT_EQ(objects.objects.size(), static_cast<std::size_t>(pushed.files + 1));
  for (const auto& o : objects.objects) EXPECT_EQ(o.key.find(".tmp-"), std::string::npos) << o.key;

  // open: equal to the local release; verify hashes every file through S3.
  Reader local = Reader::Open(Dir());
  Reader remote = Reader::Open(url);
  EXPECT_EQ(remote.RecordIds(), local.RecordIds());
  const auto a = local.Read(LoadPlan::AllEager());
  const auto b = remote.Read(LoadPlan::AllEager());
  ASSERT_EQ(a->records().size(), b->records().size());
  for (std::size_t r = 0; r < a->records().size(); ++r) {
    const auto sa = a->records()[r]->Signals();
    const auto sb = b->records()[r]->Signals();
    ASSERT_EQ(sa.size(), sb.size());
    for (std::size_t s = 0; s < sa.size(); ++s)
      EXPECT_EQ(*sb[s]->LoadValues(), *sa[s]->LoadValues());
  }
  remote.Verify();

  // pull: the same bytes as the local release.
  TempDir out;
  PullRelease(url, out.path() / "copy", PullOptions{.threads = 2});
  EXPECT_EQ(testing::ListFiles(out.path() / "copy"), testing::ListFiles(Dir()));
  for (const std::string& file : testing::ListFiles(Dir())) {
    EXPECT_EQ(FileBytes(out.path() / "copy" / file), FileBytes(Dir() / file)) << file;
  }

  // A version is pushed once; a URL whose last parts are not the manifest's is refused.
  EXPECT_THROW(PushRelease(Dir(), url), ValidationError);
  EXPECT_THROW(PushRelease(Dir(), Root() + "/test/other/1.0.0"), ValidationError);
  EXPECT_THROW(PushRelease(Dir(), "http://127.0.0.1:1/test/fixture/1.0.0"), ValidationError);
}

TEST_F(S3Test, LatestIsTheHighestCommittedVersion) {
  TempDir registry;
  WriteOptions options;
  options.compression_level = 1;
  for (const char* version : {"1.2.0", "1.10.0"}) {
    testing::Fixture f = testing::MakeFixture(1, version);
    WriteRelease(*f.dataset, testing::FixtureCard(), registry.path(), options);
    PushRelease(registry.path() / "test/fixture" / version, Root() + "/test/fixture/" + version);
  }
  // A version whose push never got to its manifest is not committed.
  testing::Fixture f = testing::MakeFixture(1, "2.0.0");
  WriteRelease(*f.dataset, testing::FixtureCard(), registry.path(), options);
  EXPECT_THROW(PushRelease(registry.path() / "test/fixture/2.0.0", Root() + "/test/fixture/2.0.0",
                           PushOptions{.threads = 1,
                                       .on_step =
                                           [](std::string_view step, std::string_view) {
                                             if (step == "manifest") throw Error("stopped");
                                           }}),
               Error);
  const auto listed = ListRemoteRegistry(Root());
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].version.ToString(), "1.2.0");
  EXPECT_EQ(listed[1].version.ToString(), "1.10.0");
  EXPECT_EQ(ResolveRemoteRef(Root(), "test/fixture"), Root() + "/test/fixture/1.10.0");
  EXPECT_EQ(ResolveRemoteRef(Root(), "test/fixture@1.2.0"), Root() + "/test/fixture/1.2.0");
  EXPECT_THROW(ResolveRemoteRef(Root(), "test/fixture@2.0.0"), NotFoundError);
  EXPECT_THROW(ResolveRemoteRef(Root(), "test/none"), NotFoundError);
  EXPECT_THROW(ResolveRemoteRef(Root(), "not a ref"), ValidationError);
  EXPECT_THROW(ListRemoteRegistry("http://127.0.0.1:1/reg"), ValidationError);
}

TEST_F(S3Test, BadCredentialsAreATypedErrorNamingTheUrlWithoutThem) {
  const std::string url = Root() + "/test/fixture/1.0.0";
  PushRelease(Dir(), url);
  ScopedEnv env;
  env.Set("AWS_ACCESS_KEY_ID", "WRONGKEYID");
  env.Set("AWS_SECRET_ACCESS_KEY", "wrong-secret");
  for (int i = 0; i < 2; ++i) {
    try {
      if (i == 0) {
        Reader::Open(url);
      } else {
        PushRelease(Dir(), Root() + "/test/fixture/1.0.0");
      }
      ADD_FAILURE() << "no error";
    } catch (const FileError& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.code(), std::errc::permission_denied) << message;
      EXPECT_NE(message.find("s3://timef-test/"), std::string::npos) << message;
      EXPECT_NE(message.find("InvalidAccessKeyId"), std::string::npos) << message;
      EXPECT_EQ(message.find("WRONGKEYID"), std::string::npos) << message;
      EXPECT_EQ(message.find("wrong-secret"), std::string::npos) << message;
    }
  }
}

TEST_F(S3Test, AnInterruptedPushLeavesNoVersionAReaderWouldOpen) {
  const std::string url = Root() + "/test/fixture/1.0.0";
  HttpClient client;
  const std::string prefix = Root().substr(std::string("s3://timef-test/").size()) + "/";
  const auto keys = [&] {
    std::vector<std::string> out;
    for (const auto& o : remote::ListObjectsV2(client, "timef-test", prefix, "").objects) {
      out.push_back(o.key);
    }
    return out;
  };
  // A failure in the middle of the copies: no manifest, and the temporary objects removed.
  int copies = 0;
  EXPECT_THROW(PushRelease(Dir(), url,
                           PushOptions{.threads = 1,
                                       .on_step =
                                           [&](std::string_view step, std::string_view) {
                                             if (step == "copy" && ++copies == 2) {
                                               throw FileError({.file = "x"}, "injected");
                                             }
                                           }}),
               FileError);
  for (const std::string& key : keys()) {
    EXPECT_FALSE(key.ends_with("manifest.json")) << key;
    EXPECT_EQ(key.find(".tmp-"), std::string::npos) << key;
  }
  EXPECT_THROW(Reader::Open(url), MissingFileError);
  EXPECT_TRUE(ListRemoteRegistry(Root()).empty());

  // A push killed in the middle of the copies (no cleanup at all): still no manifest; its
  // temporary objects stay below <version>.tmp-*, which ls skips.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int n = 0;
    try {
      PushRelease(
          Dir(), url,
          PushOptions{.threads = 1, .on_step = [&](std::string_view step, std::string_view) {
                        if (step == "copy" && ++n == 2) ::_exit(42);
                      }});
    } catch (...) {
    }
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 42);
  bool temporary_left = false;
  for (const std::string& key : keys()) {
    EXPECT_FALSE(key.ends_with("/1.0.0/manifest.json")) << key;
    temporary_left |= key.find("/1.0.0.tmp-") != std::string::npos;
  }
  EXPECT_TRUE(temporary_left);
  EXPECT_THROW(Reader::Open(url), MissingFileError);
  EXPECT_TRUE(ListRemoteRegistry(Root()).empty());
  // A later push of the version completes and reads back.
  PushRelease(Dir(), url);
  EXPECT_EQ(Reader::Open(url).RecordIds(), Reader::Open(Dir()).RecordIds());

  // A local file that differs from its manifest is never pushed.
  TempDir copy;
  fs::copy(Dir(), copy.path() / "1.0.0", fs::copy_options::recursive);
  testing::FlipByte(
      copy.path() / "1.0.0" / written_->result.manifest.files.time_series.front().path, -20);
  EXPECT_THROW(PushRelease(copy.path() / "1.0.0", Root() + "/x/test/fixture/1.0.0"), FormatError);
}

}  // namespace
}  // namespace timef
