#include "support/nginx.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

extern char** environ;

namespace timef::testing {
namespace fs = std::filesystem;

namespace {

// A port the kernel hands out for 127.0.0.1 (free when this returns; nginx retries on a clash).
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("no free port on 127.0.0.1");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool Accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

NginxServer::NginxServer(fs::path root, bool log_bytes)
    : root_(std::move(root)), log_bytes_(log_bytes) {
  for (int attempt = 0; attempt < 5 && pid_ <= 0; ++attempt) Start();
  if (pid_ <= 0) {
    throw std::runtime_error("nginx did not start (see " + (dir_.path() / "error.log").string() +
                             ")");
  }
}

NginxServer::~NginxServer() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
}

std::int64_t NginxServer::BodyBytesLogged() const {
  std::ifstream in(access_log());
  std::int64_t total = 0;
  std::string line;
  while (std::getline(in, line)) total += std::stoll(line.substr(0, line.find(' ')));
  return total;
}

void NginxServer::Start() {
  port_ = FreePort();
  const fs::path conf = dir_.path() / "nginx.conf";
  fs::create_directories(dir_.path() / "tmp");
  std::ofstream(conf) << "daemon off;\nmaster_process off;\nworker_processes 1;\n"
                      << "pid " << (dir_.path() / "nginx.pid").string() << ";\n"
                      << "error_log " << (dir_.path() / "error.log").string() << ";\n"
                      << "events { worker_connections 512; }\n"
                      << "http {\n"
                      << (log_bytes_
                              ? "  log_format bytes '$body_bytes_sent $request';\n  access_log " +
                                    access_log().string() + " bytes;\n"
                              : std::string("  access_log off;\n"))
                      << "  sendfile on;\n  tcp_nodelay on;\n"
                      << "  client_body_temp_path " << (dir_.path() / "tmp").string() << ";\n"
                      << "  proxy_temp_path " << (dir_.path() / "tmp").string() << ";\n"
                      << "  fastcgi_temp_path " << (dir_.path() / "tmp").string() << ";\n"
                      << "  uwsgi_temp_path " << (dir_.path() / "tmp").string() << ";\n"
                      << "  scgi_temp_path " << (dir_.path() / "tmp").string() << ";\n"
                      << "  server {\n    listen 127.0.0.1:" << port_ << ";\n"
                      << "    root " << root_.string() << ";\n  }\n}\n";
  const std::string prefix = dir_.path().string() + "/";
  const std::string error_log = (dir_.path() / "error.log").string();
  const std::string conf_text = conf.string();
  std::vector<std::string> args{"/usr/sbin/nginx", "-p", prefix, "-e", error_log, "-c", conf_text};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return;  // exited: port taken, try another
    if (Accepts(port_)) {
      pid_ = pid;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGTERM);
  ::waitpid(pid, nullptr, 0);
}

}  // namespace timef::testing
