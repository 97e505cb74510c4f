// nginx (Debian nginx-light) serving a directory on 127.0.0.1, for the tests that read releases
// over HTTP and for the remote benchmark (bench/remote): the real static server users deploy.
//
// One process in the foreground (no daemon, no master), on a free port (a clash with another
// process makes it try another port, up to 5 times), with its configuration, logs and temporary
// files in a scratch directory of its own. Stopped (SIGTERM, waited for) by the destructor.
// Ownership: owns the process and the scratch directory. Threading: not thread-safe; the server
// itself serves any number of concurrent clients. Errors: std::runtime_error when nginx does not
// start (naming its error log).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "support/scratch_dir.h"

namespace timef::testing {

class NginxServer {
 public:
  // Serves `root`. With `log_bytes`, every response's body size goes to access_log() as one
  // line "<body bytes> <request line>".
  explicit NginxServer(std::filesystem::path root, bool log_bytes = false);
  ~NginxServer();
  NginxServer(const NginxServer&) = delete;
  NginxServer& operator=(const NginxServer&) = delete;

  // "http://127.0.0.1:<port>".
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path access_log() const { return dir_.path() / "access.log"; }
  // The body bytes of every response logged so far (log_bytes only). The one worker writes a
  // request's line when it has handed the last byte to the kernel, so a response a client has
  // read whole is counted.
  std::int64_t BodyBytesLogged() const;

 private:
  void Start();

  std::filesystem::path root_;
  bool log_bytes_ = false;
  ScratchDir dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace timef::testing
