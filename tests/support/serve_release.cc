#include "support/serve_release.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "remote/http_client.h"
#include "remote/s3.h"
#include "support/nginx.h"
#include "support/scratch_dir.h"
#include "timef/manifest.h"

extern char** environ;

namespace timef::testing {
namespace fs = std::filesystem;

namespace {

fs::path ScratchBase() {
  const char* out = std::getenv("TIMEF_TEST_OUT");
  return out != nullptr ? fs::path(out) : fs::temp_directory_path();
}

// s3rver in the foreground, its log (which names the port it listens on) in its directory.
class S3rver {
 public:
  S3rver() {
    const fs::path log = dir_.path() / "s3rver.log";
    fs::create_directories(dir_.path() / "data");
    const std::string script = std::string(TIMEF_S3RVER_DIR) + "/node_modules/s3rver/bin/s3rver.js";
    std::vector<std::string> args{"node",      script,
                                  "-d",        (dir_.path() / "data").string(),
                                  "-a",        "127.0.0.1",
                                  "-p",        "0",
                                  "--silent",  "--configure-bucket",
                                  "timef-test"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int spawned = ::posix_spawnp(&pid_, "node", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) throw std::runtime_error("cannot start node for s3rver");
    const std::regex listening("listening on 127\\.0\\.0\\.1:([0-9]+)");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      std::stringstream text;
      text << std::ifstream(log).rdbuf();
      const std::string logged = text.str();
      std::smatch match;
      if (std::regex_search(logged, match, listening)) {
        port_ = std::stoi(match[1].str());
        return;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("s3rver exited at start: " + logged);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw std::runtime_error("s3rver did not start (see " + log.string() + ")");
  }
  ~S3rver() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  ScratchDir dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

struct SharedS3 {
  SharedS3() {
    ::setenv("AWS_ENDPOINT_URL", server.endpoint().c_str(), 1);
    ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
    ::setenv("AWS_REGION", "us-east-1", 1);
    ::unsetenv("AWS_SESSION_TOKEN");
    ::unsetenv("AWS_ENDPOINT_URL_S3");
    if (std::getenv("TIMEF_CACHE_DIR") == nullptr) {
      ::setenv("TIMEF_CACHE_DIR", cache.path().c_str(), 1);
    }
  }
  S3rver server;
  ScratchDir cache;
};

struct Served {
  Served() : nginx(fs::canonical(ScratchBase())) {
    if (std::getenv("TIMEF_CACHE_DIR") == nullptr) {
      ::setenv("TIMEF_CACHE_DIR", cache.path().c_str(), 1);
    }
  }
  ScratchDir cache;
  NginxServer nginx;
};

std::string Serve() {
  const char* serve = std::getenv("TIMEF_TEST_SERVE");
  return serve == nullptr ? "" : serve;
}

}  // namespace

bool ServedOverHttp() { return Serve() == "nginx" || Serve() == "s3"; }

std::string SharedS3Bucket() {
  static SharedS3 shared;
  return "s3://timef-test";
}

void UploadRelease(const fs::path& dir, const std::string& url) {
  const std::string manifest_bytes = manifest::ReadManifestBytes(dir / manifest::kManifestFileName);
  const manifest::Manifest m = manifest::ParseManifest(manifest_bytes, dir);
  remote::HttpClient client;
  std::vector<const manifest::FilePart*> parts{&m.files.control};
  for (const auto& p : m.files.time_series) parts.push_back(&p);
  for (const auto& p : m.files.payloads) parts.push_back(&p);
  for (const manifest::FilePart* part : parts) {
    const fs::path file = dir / part->path;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) continue;  // a test's missing file stays missing
    const remote::ObjectDigests digests = remote::ObjectDigests::OfFile(file);
    client.PutObject(url + "/" + part->path, file, digests.size, digests);
  }
  client.PutObject(url + "/" + std::string(manifest::kManifestFileName),
                   std::as_bytes(std::span(manifest_bytes)), false);
}

namespace {

// What an upload of `dir` placed: its manifest's bytes and each listed file's size and
// modification time (a test that damages a file after a first read has it uploaded again).
std::string UploadSignature(const fs::path& dir) {
  std::string signature = manifest::ReadManifestBytes(dir / manifest::kManifestFileName);
  const manifest::Manifest m = manifest::ParseManifest(signature, dir);
  std::vector<const manifest::FilePart*> parts{&m.files.control};
  for (const auto& p : m.files.time_series) parts.push_back(&p);
  for (const auto& p : m.files.payloads) parts.push_back(&p);
  for (const manifest::FilePart* part : parts) {
    std::error_code ec;
    const auto size = fs::file_size(dir / part->path, ec);
    const auto time = fs::last_write_time(dir / part->path, ec);
    signature += "\n" + part->path + " " + std::to_string(ec ? -1 : static_cast<long long>(size)) +
                 " " + std::to_string(ec ? 0 : time.time_since_epoch().count());
  }
  return signature;
}

// Under TIMEF_TEST_SERVE=s3: `dir` and the payload sources beside it in its registry uploaded
// below the bucket, unless the same content was uploaded already; its URL. s3rver (3.7.1)
// overwrites an object in place and can answer a GET of it with the bytes half written (an empty
// manifest was seen), where S3 replaces objects atomically; so a changed release is never
// uploaded over its old objects: every upload goes below a fresh prefix `<bucket>/u<N>`, its
// sources beside it under the same prefix.
std::string UploadForRead(const fs::path& dir, const fs::path& base) {
  static std::mutex mutex;
  // dir → (signature, URL) of its last upload
  static std::map<std::string, std::pair<std::string, std::string>> uploaded;
  static int uploads = 0;
  const std::string bucket = SharedS3Bucket();
  const fs::path canonical = fs::weakly_canonical(dir);
  const std::string signature = UploadSignature(dir);
  std::lock_guard lock(mutex);
  if (auto it = uploaded.find(canonical.string());
      it != uploaded.end() && it->second.first == signature) {
    return it->second.second;
  }
  const std::string prefix = bucket + "/u" + std::to_string(++uploads);
  const std::string url = prefix + "/" + canonical.lexically_relative(base).generic_string();
  UploadRelease(dir, url);
  const manifest::Manifest m = manifest::ReadManifest(dir / manifest::kManifestFileName);
  const fs::path registry = canonical.parent_path().parent_path().parent_path();
  for (const auto& [ref, pins] : m.payload_sources) {
    const auto at = ref.find('@');
    const fs::path source = registry / ref.substr(0, at) / ref.substr(at + 1);
    std::error_code ec;
    if (at == std::string::npos || !fs::is_regular_file(source / manifest::kManifestFileName, ec)) {
      continue;
    }
    const fs::path source_relative = fs::weakly_canonical(source).lexically_relative(base);
    if (source_relative.empty() || source_relative.begin()->string() == "..") continue;
    UploadRelease(source, prefix + "/" + source_relative.generic_string());
  }
  uploaded[canonical.string()] = {signature, url};
  return url;
}

}  // namespace

Reader OpenForRead(const fs::path& dir, const ReaderOptions& options) {
  if (!ServedOverHttp()) return Reader::Open(dir, options);
  if (Serve() == "s3") {
    const fs::path base = fs::canonical(ScratchBase());
    const fs::path relative = fs::weakly_canonical(dir).lexically_relative(base);
    std::error_code ec;
    if (relative.empty() || relative.begin()->string() == ".." ||
        !fs::is_regular_file(dir / manifest::kManifestFileName, ec)) {
      return Reader::Open(dir, options);  // outside the scratch base, or no release: locally
    }
    return Reader::Open(UploadForRead(dir, base), options);
  }
  // One nginx for the test process, stopped when it exits.
  static Served served;
  const fs::path relative = fs::weakly_canonical(dir).lexically_relative(served.nginx.root());
  if (relative.empty() || relative.begin()->string() == "..") {
    return Reader::Open(dir, options);  // outside the served directory: read locally
  }
  return Reader::Open(served.nginx.url() + "/" + relative.generic_string(), options);
}

}  // namespace timef::testing
