// The HTTP side of `timef view` (docs/view.md): a cpp-httplib server that answers GET and HEAD
// through ViewApi, binds to one address (127.0.0.1 unless told otherwise) on a given or free port,
// and adds the security headers to every response.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "view/view_api.h"

namespace httplib {
class Server;
}

namespace timef::view {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: a free port chosen by the kernel
  int threads = 4;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool IsLoopback(const std::string& host);

class ViewServer {
 public:
  // Binds (FileError naming the address when it cannot) and starts serving on a thread of its own.
  ViewServer(std::shared_ptr<ViewApi> api, const ServerOptions& options);
  ViewServer(const ViewServer&) = delete;
  ViewServer& operator=(const ViewServer&) = delete;
  // Stops serving and joins the thread.
  ~ViewServer();
  int port() const { return port_; }
  // "http://HOST:PORT/" (IPv6 hosts in brackets).
  std::string url() const;
  void Stop();

 private:
  std::shared_ptr<ViewApi> api_;
  std::unique_ptr<httplib::Server> server_;
  std::string host_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace timef::view
