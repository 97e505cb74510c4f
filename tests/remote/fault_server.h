// An HTTP server for the remote tests (cpp-httplib, in process, on 127.0.0.1 and a port the
// kernel picks): serves the files below a directory with byte ranges, and injects faults per
// file (docs/remote.md "Tests"): 503s, 429 with Retry-After, connections dropped mid-body, bodies
// shorter or longer than asked, a corrupted byte, 404, slow responses. Requests are counted.
#pragma once

#include <httplib.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

namespace timef::testing {

struct Faults {
  int status_503 = 0;  // the next n requests answer 503
  int status_429 = 0;  // the next n requests answer 429 with Retry-After: retry_after
  int retry_after_s = 1;
  int drop_mid_body = 0;       // the next n responses stop after half their body
  int short_body = 0;          // the next n answer a range one byte shorter than asked
  int long_body = 0;           // the next n answer one byte more than asked
  bool corrupt = false;        // every response has its first body byte flipped
  bool not_found = false;      // 404
  int slow_ms = 0;             // every response waits this long before its body
  bool ignore_range = false;   // answer 200 with the whole file
  std::string require_bearer;  // answer 401 unless "Authorization: Bearer <this>"
};

class FaultServer {
 public:
  explicit FaultServer(std::filesystem::path root) : root_(std::move(root)) {
    server_.Get(R"(/(.*))",
                [this](const httplib::Request& req, httplib::Response& res) { Serve(req, res); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~FaultServer() {
    server_.stop();
    thread_.join();
  }
  FaultServer(const FaultServer&) = delete;
  FaultServer& operator=(const FaultServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Faults for the file at `path` (relative to the root, '/'-separated).
  void Set(const std::string& path, Faults faults) {
    std::lock_guard lock(mutex_);
    faults_[path] = std::move(faults);
  }
  int requests(const std::string& path) {
    std::lock_guard lock(mutex_);
    return requests_[path];
  }
  int total_requests() const { return total_.load(); }

 private:
  void Serve(const httplib::Request& req, httplib::Response& res) {
    ++total_;
    const std::string path = req.matches[1];
    Faults f;
    {
      std::lock_guard lock(mutex_);
      ++requests_[path];
      auto it = faults_.find(path);
      if (it != faults_.end()) {
        Faults& live = it->second;
        f = live;
        // Counted faults apply once each, in this order.
        if (live.status_503 > 0) {
          --live.status_503;
          f = Faults{.status_503 = 1};
        } else if (live.status_429 > 0) {
          --live.status_429;
          f = Faults{.status_429 = 1, .retry_after_s = live.retry_after_s};
        } else if (live.drop_mid_body > 0) {
          --live.drop_mid_body;
          f.drop_mid_body = 1;
        } else if (live.short_body > 0) {
          --live.short_body;
          f.short_body = 1;
        } else if (live.long_body > 0) {
          --live.long_body;
          f.long_body = 1;
        } else {
          f.drop_mid_body = f.short_body = f.long_body = 0;
        }
      }
    }
    // httplib would cut the ranges again from what this handler answers: it answers them itself.
    const httplib::Ranges ranges = req.ranges;
    const_cast<httplib::Request&>(req).ranges.clear();
    if (!f.require_bearer.empty() &&
        req.get_header_value("Authorization") != "Bearer " + f.require_bearer) {
      res.status = 401;
      return;
    }
    if (f.status_503) {
      res.status = 503;
      return;
    }
    if (f.status_429) {
      res.status = 429;
      res.set_header("Retry-After", std::to_string(f.retry_after_s));
      return;
    }
    const std::filesystem::path file = root_ / path;
    std::error_code ec;
    if (f.not_found || path.find("..") != std::string::npos ||
        !std::filesystem::is_regular_file(file, ec)) {
      res.status = 404;
      return;
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    std::string body = all.str();
    const std::uint64_t size = body.size();
    std::uint64_t first = 0, last = size == 0 ? 0 : size - 1;
    bool ranged = !ranges.empty() && !f.ignore_range;
    if (ranged) {
      first = static_cast<std::uint64_t>(ranges[0].first);
      last = ranges[0].second < 0 ? size - 1 : static_cast<std::uint64_t>(ranges[0].second);
      if (first >= size || last >= size || last < first) {
        res.status = 416;
        return;
      }
      if (f.short_body) --last;
      if (f.long_body && last + 1 < size) ++last;
      body = body.substr(first, last - first + 1);
      res.status = 206;
      res.set_header("Content-Range", "bytes " + std::to_string(first) + "-" +
                                          std::to_string(last) + "/" + std::to_string(size));
    } else {
      res.status = 200;
    }
    if (f.corrupt && !body.empty()) body[0] = static_cast<char>(body[0] ^ 0x01);
    if (f.slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(f.slow_ms));
    if (f.drop_mid_body) {
      const std::size_t length = body.size();
      res.set_content_provider(
          length, "application/octet-stream",
          [body, length](std::size_t offset, std::size_t, httplib::DataSink& sink) {
            if (offset >= length / 2) return false;  // drop the connection
            sink.write(body.data(), length / 2);
            return true;
          });
      return;
    }
    res.set_content(body, "application/octet-stream");
  }

  std::filesystem::path root_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::map<std::string, Faults> faults_;
  std::map<std::string, int> requests_;
  std::atomic<int> total_{0};
};

}  // namespace timef::testing
