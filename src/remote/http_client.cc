#include "remote/http_client.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "remote/s3.h"
#include "remote/url.h"
#include "timef/error.h"
#include "timef/version.h"

namespace timef::remote {
namespace {

using Clock = std::chrono::steady_clock;

std::string Bytes(std::uint64_t first, std::uint64_t length) {
  if (length == 0) return "bytes " + std::to_string(first) + "-";
  return "bytes " + std::to_string(first) + "-" + std::to_string(first + length - 1);
}

// What one finished request came to.
enum class Outcome { kOk, kRetry, kMissing, kSizeMismatch, kDenied, kFail };

// One request in flight: a range of an object (length 0 with `whole`: the whole object into a
// file).
struct Transfer {
  std::string url;
  std::string shown;  // the redacted URL
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t object_size = 0;
  bool whole = false;
  std::span<std::byte> dest;               // ranged: length bytes
  std::FILE* file = nullptr;               // whole, into a file
  std::vector<std::byte>* sink = nullptr;  // whole, into memory
  bool exact_size = true;  // whole: object_size is the size (else the most accepted)
  const std::function<void(std::span<const std::byte>)>* on_bytes = nullptr;
  // A request other than a GET of data (an S3 write): its body (an answer or an error) goes to
  // `answer`, and `accepted` is the status that means success.
  std::string method;  // "PUT", "DELETE"; "" for a GET of data
  long accepted = 200;
  bool upload = false;                      // PUT with a body (of upload_size bytes)
  int upload_fd = -1;                       // from this file ...
  std::span<const std::byte> upload_bytes;  // ... or from memory
  std::uint64_t upload_size = 0;
  std::uint64_t upload_pos = 0;
  std::vector<std::string> headers;  // extra request headers ("Name: value")
  curl_slist* header_list = nullptr;
  std::string etag;
  std::string answer;  // the body of a write's answer or of an error (at most kAnswerLimit bytes)

  CURL* easy = nullptr;
  long status = 0;
  bool status_known = false;
  std::uint64_t received = 0;  // body bytes kept (ranged: into dest)
  std::uint64_t seen = 0;      // body bytes of a 200 seen (cut to the range)
  bool long_body = false;
  bool done_early = false;  // a 200 aborted once the range was in
  bool write_failed = false;
  std::string content_range;
  std::optional<std::chrono::milliseconds> retry_after;
  std::array<char, CURL_ERROR_SIZE> error{};

  Outcome outcome = Outcome::kOk;
  std::string problem;

  static constexpr std::size_t kAnswerLimit = 64 * 1024;

  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() { curl_slist_free_all(header_list); }

  void Reset() {
    upload_pos = 0;
    etag.clear();
    answer.clear();
    status = 0;
    status_known = false;
    received = 0;
    seen = 0;
    long_body = false;
    done_early = false;
    write_failed = false;
    content_range.clear();
    retry_after.reset();
    error[0] = '\0';
    outcome = Outcome::kOk;
    problem.clear();
  }
};

std::string Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

bool HeaderIs(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line[name.size()] != ':') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
  }
  return true;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {  // a new response (after a redirect or a 100)
    t.content_range.clear();
    t.retry_after.reset();
  } else if (HeaderIs(line, "etag")) {
    t.etag = Trim(line.substr(5));
  } else if (HeaderIs(line, "content-range")) {
    t.content_range = Trim(line.substr(14));
  } else if (HeaderIs(line, "retry-after")) {
    const std::string value = Trim(line.substr(12));
    if (!value.empty() && std::all_of(value.begin(), value.end(), ::isdigit) && value.size() < 7) {
      t.retry_after = std::chrono::seconds(std::stol(value));
    } else if (const time_t when = curl_getdate(value.c_str(), nullptr); when > 0) {
      const auto wait =
          std::chrono::system_clock::from_time_t(when) - std::chrono::system_clock::now();
      t.retry_after = std::max(std::chrono::milliseconds(0),
                               std::chrono::duration_cast<std::chrono::milliseconds>(wait));
    }
  }
  return size * n;
}

std::size_t OnBody(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::size_t bytes = size * n;
  if (!t.status_known) {
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.status);
    t.status_known = true;
  }
  const auto* in = reinterpret_cast<const std::byte*>(data);
  const bool data_status = t.status == 200 || t.status == 206;
  if (!t.method.empty() || !data_status) {
    // A write's answer or an error document: kept (to name S3's error code), up to a limit.
    const std::size_t room =
        Transfer::kAnswerLimit - std::min(Transfer::kAnswerLimit, t.answer.size());
    t.answer.append(data, std::min(room, bytes));
    return bytes;
  }
  if (t.whole) {
    if (t.status != 200) return bytes;  // an error body, dropped
    if (t.received + bytes > t.object_size) {
      t.long_body = true;
      return 0;
    }
    if (t.sink) {
      t.sink->insert(t.sink->end(), in, in + bytes);
    } else if (std::fwrite(data, 1, bytes, t.file) != bytes) {
      t.write_failed = true;
      return 0;
    }
    if (t.on_bytes && *t.on_bytes) (*t.on_bytes)(std::span<const std::byte>(in, bytes));
    t.received += bytes;
    return bytes;
  }
  if (t.status == 206) {
    if (t.received + bytes > t.length) {
      t.long_body = true;
      return 0;
    }
    std::memcpy(t.dest.data() + t.received, in, bytes);
    t.received += bytes;
    return bytes;
  }
  if (t.status == 200) {
    // The server ignored Range: cut the range out of the whole object.
    const std::uint64_t begin = t.seen;
    const std::uint64_t end = t.seen + bytes;
    t.seen = end;
    if (end > t.object_size) {
      t.long_body = true;
      return 0;
    }
    const std::uint64_t from = std::max(begin, t.offset);
    const std::uint64_t to = std::min(end, t.offset + t.length);
    if (from < to) {
      std::memcpy(t.dest.data() + (from - t.offset), in + (from - begin), to - from);
      t.received += to - from;
    }
    return bytes;
  }
  return bytes;  // an error body, dropped
}

std::size_t OnUpload(char* buffer, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::size_t want =
      static_cast<std::size_t>(std::min<std::uint64_t>(size * n, t.upload_size - t.upload_pos));
  if (want == 0) return 0;
  if (t.upload_fd >= 0) {
    const ssize_t got = ::pread(t.upload_fd, buffer, want, static_cast<off_t>(t.upload_pos));
    if (got <= 0) return CURL_READFUNC_ABORT;  // a file that shrank: the size check fails
    t.upload_pos += static_cast<std::uint64_t>(got);
    return static_cast<std::size_t>(got);
  }
  std::memcpy(buffer, t.upload_bytes.data() + t.upload_pos, want);
  t.upload_pos += want;
  return want;
}

// A rewind libcurl asks for (a retried send on a reused connection).
int OnSeek(void* user, curl_off_t offset, int origin) {
  auto& t = *static_cast<Transfer*>(user);
  if (origin != SEEK_SET || offset < 0 || static_cast<std::uint64_t>(offset) > t.upload_size) {
    return CURL_SEEKFUNC_CANTSEEK;
  }
  t.upload_pos = static_cast<std::uint64_t>(offset);
  return CURL_SEEKFUNC_OK;
}

bool RetryableCurlCode(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

// Parses "bytes a-b/total" ("*" total: 0 with known false).
bool ParseContentRange(const std::string& text, std::uint64_t& first, std::uint64_t& last,
                       std::optional<std::uint64_t>& total) {
  unsigned long long a = 0, b = 0, t = 0;
  char star = 0;
  if (std::sscanf(text.c_str(), "bytes %llu-%llu/%llu", &a, &b, &t) == 3) {
    total = t;
  } else if (std::sscanf(text.c_str(), "bytes %llu-%llu/%c", &a, &b, &star) == 3 && star == '*') {
    total.reset();
  } else {
    return false;
  }
  first = a;
  last = b;
  return true;
}

void Judge(Transfer& t, CURLcode code) {
  if (t.long_body) {
    if (t.whole && !t.exact_size) {
      t.outcome = Outcome::kFail;
      t.problem = "larger than the " + std::to_string(t.object_size) + " bytes accepted";
      return;
    }
    t.outcome = Outcome::kRetry;
    t.problem = "the server sent more bytes than asked for";
    return;
  }
  if (t.write_failed) {
    t.outcome = Outcome::kFail;
    t.problem = std::string("cannot write the download: ") + std::strerror(errno);
    return;
  }
  const bool early = code == CURLE_WRITE_ERROR && t.done_early;
  if (code != CURLE_OK && !early) {
    t.outcome = RetryableCurlCode(code) ? Outcome::kRetry : Outcome::kFail;
    t.problem = std::string(curl_easy_strerror(code)) + (t.error[0] ? ": " : "") + t.error.data();
    return;
  }
  if (!t.status_known) curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.status);
  const long s = t.status;
  // "HTTP 403 (InvalidAccessKeyId)": the status with S3's error code when the body names one.
  const std::string code_text = S3ErrorCode(t.answer);
  const std::string http =
      "HTTP " + std::to_string(s) + (code_text.empty() ? "" : " (" + code_text + ")");
  if (s == 404 || s == 410) {
    t.outcome = Outcome::kMissing;
    t.problem = "not found (" + http + ")";
    return;
  }
  if (s == 408 || s == 429 || s >= 500) {
    t.outcome = Outcome::kRetry;
    t.problem = http;
    return;
  }
  if (s == 401 || s == 403) {
    t.outcome = Outcome::kDenied;
    t.problem = "access denied (" + http + ")";
    return;
  }
  if (!t.method.empty()) {
    if (s != t.accepted && !(t.method == "DELETE" && s == 200)) {
      t.outcome = Outcome::kFail;
      t.problem = t.method + " answered " + http;
    } else if (t.answer.find("<Error>") != std::string::npos) {
      // CopyObject may fail after its 200 was sent: the body is then an <Error> (retried).
      t.outcome = Outcome::kRetry;
      t.problem = t.method + " answered 200 with an error (" + S3ErrorCode(t.answer) + ")";
    }
    return;
  }
  if (t.whole) {
    if (s != 200) {
      t.outcome = Outcome::kFail;
      t.problem = http;
    } else if (t.exact_size && t.received != t.object_size) {
      t.outcome = Outcome::kRetry;
      t.problem = "the body ended after " + std::to_string(t.received) + " of " +
                  std::to_string(t.object_size) + " bytes";
    }
    return;
  }
  if (s == 206) {
    std::uint64_t first = 0, last = 0;
    std::optional<std::uint64_t> total;
    if (!ParseContentRange(t.content_range, first, last, total)) {
      t.outcome = Outcome::kFail;
      t.problem = "a 206 response without a valid Content-Range ('" + t.content_range + "')";
      return;
    }
    if (total && *total != t.object_size) {
      t.outcome = Outcome::kSizeMismatch;
      t.problem = "the server holds " + std::to_string(*total) + " bytes, the manifest lists " +
                  std::to_string(t.object_size);
      return;
    }
    if (first != t.offset || last != t.offset + t.length - 1) {
      // Another range than asked (a server may answer less): retried, never used.
      t.outcome = Outcome::kRetry;
      t.problem = "the server answered with Content-Range '" + t.content_range + "'";
      return;
    }
    if (t.received != t.length) {
      t.outcome = Outcome::kRetry;
      t.problem = "the body ended after " + std::to_string(t.received) + " of " +
                  std::to_string(t.length) + " bytes";
    }
    return;
  }
  if (s == 200) {
    if (!early && t.seen != t.object_size) {
      if (t.seen < t.offset + t.length) {
        t.outcome = Outcome::kRetry;
        t.problem = "the body ended after " + std::to_string(t.seen) + " bytes";
      } else {
        t.outcome = Outcome::kSizeMismatch;
        t.problem = "the server holds " + std::to_string(t.seen) + " bytes, the manifest lists " +
                    std::to_string(t.object_size);
      }
    }
    return;
  }
  t.outcome = Outcome::kFail;
  t.problem = http;
}

}  // namespace

struct HttpClient::Impl {
  explicit Impl(const HttpOptions& o) : options(o) {
    curl_global_init(CURL_GLOBAL_DEFAULT);  // reference counted; thread-safe since 7.84
    share = curl_share_init();
    curl_share_setopt(share, CURLSHOPT_LOCKFUNC, &Impl::Lock);
    curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Impl::Unlock);
    curl_share_setopt(share, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    if (!o.bearer_token_env.empty()) {
      if (const char* token = std::getenv(o.bearer_token_env.c_str()); token && *token) {
        bearer = token;
      }
    }
  }
  ~Impl() {
    for (CURLM* multi : multis) curl_multi_cleanup(multi);
    curl_share_cleanup(share);
    curl_global_cleanup();
  }

  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<Impl*>(user)->locks[static_cast<std::size_t>(data) % kLocks].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<Impl*>(user)->locks[static_cast<std::size_t>(data) % kLocks].unlock();
  }

  // A multi handle (with its connection pool) for one call, returned by Give.
  CURLM* Take() {
    {
      std::lock_guard lock(mutex);
      if (!multis.empty()) {
        CURLM* multi = multis.back();
        multis.pop_back();
        return multi;
      }
    }
    CURLM* multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS,
                      static_cast<long>(options.max_parallel));
    return multi;
  }
  void Give(CURLM* multi) {
    std::lock_guard lock(mutex);
    multis.push_back(multi);
  }

  void Setup(Transfer& t) {
    CURL* e = t.easy;
    curl_easy_reset(e);
    const bool s3 = IsS3Url(t.url);
    curl_slist_free_all(t.header_list);
    t.header_list = nullptr;
    if (s3) {
      const S3Config& config = S3();
      const std::string request = S3RequestUrl(Url::Parse(t.url), config);
      curl_easy_setopt(e, CURLOPT_URL, request.c_str());  // copied by libcurl
      if (config.Signed()) {
        const std::string sigv4 = "aws:amz:" + config.region + ":s3";
        curl_easy_setopt(e, CURLOPT_AWS_SIGV4, sigv4.c_str());
        curl_easy_setopt(e, CURLOPT_USERNAME, config.access_key_id.c_str());
        curl_easy_setopt(e, CURLOPT_PASSWORD, config.secret_access_key.c_str());
        // libcurl (7.75+) signs every x-amz-* header and takes this one's value as the payload
        // hash of the canonical request.
        bool has_sha = false;
        for (const std::string& h : t.headers) has_sha |= h.starts_with("x-amz-content-sha256:");
        if (!has_sha) {
          t.header_list =
              curl_slist_append(t.header_list, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
        }
        if (!config.session_token.empty()) {
          const std::string token = "x-amz-security-token: " + config.session_token;
          t.header_list = curl_slist_append(t.header_list, token.c_str());
        }
      }
    } else {
      curl_easy_setopt(e, CURLOPT_URL, t.url.c_str());
    }
    curl_easy_setopt(e, CURLOPT_SHARE, share);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, s3 ? 0L : 1L);  // S3 answers a redirect in error
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, static_cast<long>(options.max_redirects));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options.connect_timeout.count()));
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(options.request_timeout.count()));
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options.stall_timeout.count()));
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, options.verify_tls ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, options.verify_tls ? 2L : 0L);
    curl_easy_setopt(e, CURLOPT_USERAGENT, user_agent.c_str());
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error.data());
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    if (!t.method.empty()) {
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, t.method.c_str());
    }
    if (t.upload) {
      curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(t.upload_size));
      curl_easy_setopt(e, CURLOPT_READFUNCTION, &OnUpload);
      curl_easy_setopt(e, CURLOPT_READDATA, &t);
      curl_easy_setopt(e, CURLOPT_SEEKFUNCTION, &OnSeek);
      curl_easy_setopt(e, CURLOPT_SEEKDATA, &t);
      t.header_list = curl_slist_append(t.header_list, "Expect:");  // no 100-continue round trip
    }
    for (const std::string& h : t.headers)
      t.header_list = curl_slist_append(t.header_list, h.c_str());
    if (t.header_list != nullptr) curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.header_list);
    if (!bearer.empty() && !s3) {
      curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
      curl_easy_setopt(e, CURLOPT_XOAUTH2_BEARER, bearer.c_str());
    }
    if (!t.whole && t.method.empty()) {
      const std::string range =
          std::to_string(t.offset) + "-" + std::to_string(t.offset + t.length - 1);
      curl_easy_setopt(e, CURLOPT_RANGE, range.c_str());  // copied by libcurl
    }
  }

  // Runs `batch` concurrently (at most max_parallel at once) and judges each.
  void Run(std::span<Transfer*> batch) {
    CURLM* multi = Take();
    struct GiveBack {
      Impl& impl;
      CURLM* multi;
      std::vector<CURL*> easies;
      ~GiveBack() {
        for (CURL* e : easies) {
          curl_multi_remove_handle(multi, e);
          curl_easy_cleanup(e);
        }
        impl.Give(multi);
      }
    } give{*this, multi, {}};
    std::size_t next = 0;
    int running = 0;
    auto add = [&] {
      Transfer& t = *batch[next++];
      t.Reset();
      t.easy = curl_easy_init();
      if (t.easy == nullptr) throw std::bad_alloc();
      give.easies.push_back(t.easy);
      Setup(t);
      curl_multi_add_handle(multi, t.easy);
      ++running;
    };
    const std::size_t parallel = static_cast<std::size_t>(std::max(1, options.max_parallel));
    while (next < batch.size() && static_cast<std::size_t>(running) < parallel) add();
    while (running > 0) {
      bool added = false;
      int still = 0;
      curl_multi_perform(multi, &still);
      int queued = 0;
      while (CURLMsg* msg = curl_multi_info_read(multi, &queued)) {
        if (msg->msg != CURLMSG_DONE) continue;
        Transfer* t = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
        Judge(*t, msg->data.result);
        {
          std::lock_guard lock(mutex);
          ++stats.requests;
          stats.bytes_received += t->whole ? t->received : std::max(t->received, t->seen);
        }
        CURL* done = msg->easy_handle;
        curl_multi_remove_handle(multi, done);
        curl_easy_cleanup(done);
        give.easies.erase(std::find(give.easies.begin(), give.easies.end(), done));
        t->easy = nullptr;
        --running;
        if (next < batch.size()) {
          add();
          added = true;
        }
      }
      // A transfer just added starts on the next perform, without waiting for activity.
      if (running > 0 && !added) curl_multi_poll(multi, nullptr, 0, 100, nullptr);
    }
  }

  // Runs `transfers` until each succeeded, retrying what may be retried; throws the first failure.
  void RunWithRetries(std::vector<Transfer>& transfers,
                      const std::function<void(Transfer&)>& on_retry) {
    const auto deadline = Clock::now() + options.retry_budget;
    std::vector<Transfer*> pending;
    for (Transfer& t : transfers) pending.push_back(&t);
    for (int attempt = 1;; ++attempt) {
      Run(pending);
      std::vector<Transfer*> again;
      std::chrono::milliseconds wait{0};
      for (Transfer* t : pending) {
        switch (t->outcome) {
          case Outcome::kOk:
            break;
          case Outcome::kRetry:
            again.push_back(t);
            if (t->retry_after) wait = std::max(wait, *t->retry_after);
            break;
          case Outcome::kMissing:
            throw MissingFileError({.file = t->shown, .where = Where(*t)}, t->problem);
          case Outcome::kSizeMismatch:
            throw FormatError({.file = t->shown, .where = Where(*t)}, t->problem);
          case Outcome::kDenied:
            throw FileError({.file = t->shown, .where = Where(*t)}, t->problem,
                            std::make_error_code(std::errc::permission_denied));
          case Outcome::kFail:
            throw FileError({.file = t->shown, .where = Where(*t)}, t->problem);
        }
      }
      if (again.empty()) return;
      const auto backoff =
          std::min(options.max_backoff,
                   options.first_backoff * (std::int64_t{1} << std::min(attempt - 1, 20)));
      wait = std::max(wait, std::chrono::duration_cast<std::chrono::milliseconds>(backoff));
      Transfer& first = *again.front();
      if (attempt >= options.max_attempts) {
        throw FileError(
            {.file = first.shown, .where = Where(first)},
            first.problem + " (gave up after " + std::to_string(attempt) + " attempts)");
      }
      if (Clock::now() + wait > deadline) {
        throw FileError({.file = first.shown, .where = Where(first)},
                        first.problem + " (gave up after " + std::to_string(attempt) +
                            " attempts: the next would start past the retry budget of " +
                            std::to_string(options.retry_budget.count()) + " ms)");
      }
      std::this_thread::sleep_for(wait);
      {
        std::lock_guard lock(mutex);
        stats.retries += again.size();
      }
      for (Transfer* t : again) on_retry(*t);
      pending = std::move(again);
    }
  }

  // The environment's S3 settings, read on the first s3:// request (a ValidationError for bad
  // AWS_* values is thrown by every s3:// call, and never by an http(s) one).
  const S3Config& S3() {
    std::call_once(s3_once, [this] {
      try {
        s3_config = S3Config::FromEnvironment();
      } catch (const ValidationError&) {
        s3_error = std::current_exception();
      }
    });
    if (s3_error) std::rethrow_exception(s3_error);
    return s3_config;
  }

  static std::string Where(const Transfer& t) {
    if (!t.method.empty()) return t.method;
    return t.whole ? "whole object" : Bytes(t.offset, t.length);
  }

  HttpOptions options;
  const pid_t pid = getpid();  // the process whose connections these are
  CURLSH* share = nullptr;
  std::string bearer;
  const std::string user_agent = std::string("timef/") + kVersion;
  static constexpr std::size_t kLocks = 8;
  std::array<std::mutex, kLocks> locks;
  std::mutex mutex;  // guards multis and stats
  std::vector<CURLM*> multis;
  HttpStats stats;
  std::once_flag s3_once;
  S3Config s3_config;
  std::exception_ptr s3_error;
};

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
  impls_.push_back(std::make_unique<Impl>(options_));
  current_.store(impls_.back().get(), std::memory_order_release);
}

HttpClient::~HttpClient() {
  // A state inherited through fork() is not this process's to free: cleaning it up would close
  // (and, over TLS, shut down) connections the parent still uses, and its locks may have been
  // held by the parent's threads at the fork. It is left as it is.
  for (std::unique_ptr<Impl>& impl : impls_) {
    if (impl->pid != getpid()) static_cast<void>(impl.release());
  }
}

HttpClient::Impl& HttpClient::Current() const {
  Impl* impl = current_.load(std::memory_order_acquire);
  if (impl->pid == getpid()) return *impl;
  std::lock_guard lock(fork_mutex_);
  impl = current_.load(std::memory_order_acquire);
  if (impl->pid != getpid()) {
    impls_.push_back(std::make_unique<Impl>(options_));
    impl = impls_.back().get();
    current_.store(impl, std::memory_order_release);
  }
  return *impl;
}

void HttpClient::ReadRanges(const std::string& url, std::uint64_t object_size,
                            std::span<Range> ranges) {
  const std::string shown = RedactedUrl(url);
  for (const Range& r : ranges) {
    if (r.offset > object_size || r.out.size() > object_size - r.offset) {
      throw FormatError(
          {.file = shown, .where = Bytes(r.offset, r.out.size())},
          "range runs past the end of the " + std::to_string(object_size) + "-byte object");
    }
  }
  // Sorted by offset; nearby ranges become one request whose bytes are copied out after.
  std::vector<const Range*> order;
  for (const Range& r : ranges) {
    if (!r.out.empty()) order.push_back(&r);
  }
  std::sort(order.begin(), order.end(),
            [](const Range* a, const Range* b) { return a->offset < b->offset; });
  struct Group {
    std::uint64_t begin, end;
    std::vector<const Range*> members;
  };
  std::vector<Group> groups;
  for (const Range* r : order) {
    const std::uint64_t end = r->offset + r->out.size();
    if (!groups.empty() && r->offset <= groups.back().end + options_.coalesce_gap) {
      groups.back().end = std::max(groups.back().end, end);
      groups.back().members.push_back(r);
    } else {
      groups.push_back(Group{r->offset, end, {r}});
    }
  }
  std::vector<std::vector<std::byte>> buffers(groups.size());
  std::vector<Transfer> transfers(groups.size());
  for (std::size_t i = 0; i < groups.size(); ++i) {
    Transfer& t = transfers[i];
    t.url = url;
    t.shown = shown;
    t.offset = groups[i].begin;
    t.length = groups[i].end - groups[i].begin;
    t.object_size = object_size;
    if (groups[i].members.size() == 1) {
      t.dest = groups[i].members.front()->out;
    } else {
      buffers[i].resize(static_cast<std::size_t>(t.length));
      t.dest = buffers[i];
    }
  }
  Current().RunWithRetries(transfers, [](Transfer&) {});
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].members.size() == 1) continue;
    for (const Range* r : groups[i].members) {
      std::memcpy(r->out.data(), buffers[i].data() + (r->offset - groups[i].begin), r->out.size());
    }
  }
}

void HttpClient::Download(const std::string& url, std::uint64_t object_size,
                          const std::filesystem::path& file,
                          const std::function<void(std::span<const std::byte>)>& on_bytes,
                          const std::function<void()>& on_restart) {
  std::FILE* out = std::fopen(file.c_str(), "wbe");
  if (out == nullptr) {
    const int err = errno;
    throw FileError({.file = file}, std::string("cannot create: ") + std::strerror(err),
                    std::error_code(err, std::generic_category()));
  }
  struct Closer {
    std::FILE*& f;
    ~Closer() {
      if (f) std::fclose(f);
    }
  } closer{out};
  std::vector<Transfer> transfers(1);
  Transfer& t = transfers.front();
  t.url = url;
  t.shown = RedactedUrl(url);
  t.whole = true;
  t.object_size = object_size;
  t.file = out;
  t.on_bytes = &on_bytes;
  Current().RunWithRetries(transfers, [&](Transfer&) {
    if (std::fflush(out) != 0 || ::ftruncate(fileno(out), 0) != 0 ||
        std::fseek(out, 0, SEEK_SET) != 0) {
      throw FileError({.file = file},
                      std::string("cannot restart the download: ") + std::strerror(errno));
    }
    if (on_restart) on_restart();
  });
  const int closed = std::fclose(out);
  out = nullptr;
  if (closed != 0) {
    throw FileError({.file = file}, std::string("cannot write: ") + std::strerror(errno));
  }
}

std::vector<std::byte> HttpClient::Fetch(const std::string& url, std::uint64_t max_bytes) {
  std::vector<std::byte> body;
  std::vector<Transfer> transfers(1);
  Transfer& t = transfers.front();
  t.url = url;
  t.shown = RedactedUrl(url);
  t.whole = true;
  t.exact_size = false;
  t.object_size = max_bytes;
  t.sink = &body;
  Current().RunWithRetries(transfers, [&](Transfer&) { body.clear(); });
  return body;
}

namespace {

void RequireS3(const std::string& url, const char* what) {
  if (!IsS3Url(url)) {
    throw ValidationError({.object = "URL", .where = RedactedUrl(url)},
                          std::string(what) + " needs an s3:// URL");
  }
}

// The ETag of an answer without its quotes.
std::string Unquoted(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  return std::string(etag);
}

void CheckEtag(const Transfer& t, const std::string& md5_hex) {
  const std::string etag = Unquoted(t.etag);
  if (etag != md5_hex) {
    throw FormatError({.file = t.shown, .where = t.method},
                      "the server stored another body than sent: ETag '" + etag +
                          "', MD5 of the body " + md5_hex);
  }
}

}  // namespace

void HttpClient::PutObject(const std::string& url, const std::filesystem::path& file,
                           std::uint64_t size, const ObjectDigests& digests) {
  RequireS3(url, "PutObject");
  constexpr std::uint64_t kMaxPut = std::uint64_t{5} << 30;
  if (size > kMaxPut) {
    throw ValidationError({.file = file},
                          std::to_string(size) + " bytes: larger than a single PUT's 5 GiB");
  }
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    ThrowFileError({.file = file}, std::string("cannot open: ") + std::strerror(err),
                   std::error_code(err, std::generic_category()));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  Put(url, PutBody{.fd = fd, .size = size}, digests, /*if_absent=*/false);
}

void HttpClient::PutObject(const std::string& url, std::span<const std::byte> bytes,
                           bool if_absent) {
  RequireS3(url, "PutObject");
  Put(url, PutBody{.bytes = bytes, .size = bytes.size()}, ObjectDigests::Of(bytes), if_absent);
}

void HttpClient::Put(const std::string& url, const PutBody& body, const ObjectDigests& digests,
                     bool if_absent) {
  std::vector<Transfer> transfers(1);
  Transfer& t = transfers.front();
  t.url = url;
  t.shown = RedactedUrl(url);
  t.method = "PUT";
  t.upload = true;
  t.upload_fd = body.fd;
  t.upload_bytes = body.bytes;
  t.upload_size = body.size;
  t.headers = {"Content-MD5: " + digests.md5_base64, "x-amz-content-sha256: " + digests.sha256_hex};
  if (if_absent) t.headers.push_back("If-None-Match: *");
  Current().RunWithRetries(transfers, [](Transfer&) {});
  CheckEtag(t, digests.md5_hex);
}

void HttpClient::CopyObject(const std::string& from, const std::string& to,
                            const std::string& md5_hex) {
  RequireS3(from, "CopyObject");
  RequireS3(to, "CopyObject");
  const S3Object source = S3Object::FromUrl(Url::Parse(from));
  std::vector<Transfer> transfers(1);
  Transfer& t = transfers.front();
  t.url = to;
  t.shown = RedactedUrl(to);
  t.method = "PUT";
  t.upload = true;  // an empty body
  t.upload_size = 0;
  t.headers = {"x-amz-copy-source: /" + source.bucket + "/" + AwsUriEncode(source.key, true)};
  Current().RunWithRetries(transfers, [](Transfer&) {});
  // The copy's ETag is in its <CopyObjectResult> (a header too on some servers).
  const auto begin = t.answer.find("<ETag>");
  const auto end = t.answer.find("</ETag>");
  if (begin != std::string::npos && end != std::string::npos && end > begin) {
    std::string etag = t.answer.substr(begin + 6, end - begin - 6);
    for (const auto& [entity, ch] : {std::pair<std::string_view, char>{"&quot;", '"'},
                                     std::pair<std::string_view, char>{"&#34;", '"'}}) {
      for (auto at = etag.find(entity); at != std::string::npos; at = etag.find(entity)) {
        etag.replace(at, entity.size(), 1, ch);
      }
    }
    t.etag = etag;
  }
  CheckEtag(t, md5_hex);
}

void HttpClient::DeleteObject(const std::string& url) {
  RequireS3(url, "DeleteObject");
  std::vector<Transfer> transfers(1);
  Transfer& t = transfers.front();
  t.url = url;
  t.shown = RedactedUrl(url);
  t.method = "DELETE";
  t.accepted = 204;
  try {
    Current().RunWithRetries(transfers, [](Transfer&) {});
  } catch (const MissingFileError&) {
    // Already gone.
  }
}

HttpStats HttpClient::stats() const {
  Impl& impl = Current();
  std::lock_guard lock(impl.mutex);
  return impl.stats;
}

}  // namespace timef::remote
