#include "suite/child.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "suite/stats.h"

namespace timef::bench {
namespace {

void WriteAll(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

ChildResult RunInChild(const std::function<Json()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // or the child would flush our buffered output a second time
  Stopwatch clock;
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    std::string out;
    int code = 0;
    try {
      out = body().dump();
    } catch (const std::exception& e) {
      out = Json{{"error", e.what()}}.dump();
      code = 3;
    }
    WriteAll(fds[1], out);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(code);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  ChildResult result;
  result.wall_seconds = clock.Seconds();
  result.max_rss_kib = usage.ru_maxrss;
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.contains("error")) {
    throw std::runtime_error("workload failed: " + parsed["error"].get<std::string>());
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || parsed.is_discarded()) {
    throw std::runtime_error("workload process died (status " + std::to_string(status) + ")");
  }
  result.output = std::move(parsed);
  return result;
}

}  // namespace timef::bench
