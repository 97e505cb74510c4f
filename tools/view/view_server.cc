#include "view/view_server.h"

#include <httplib.h>

#include <algorithm>

#include "timef/error.h"

namespace timef::view {
namespace {

void SetSecurityHeaders(httplib::Response& res) {
  res.set_header("Content-Security-Policy",
                 "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                 "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("Cache-Control", "no-store");
}

}  // namespace

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

ViewServer::ViewServer(std::shared_ptr<ViewApi> api, const ServerOptions& options)
    : api_(std::move(api)), server_(std::make_unique<httplib::Server>()), host_(options.host) {
  const int threads = std::max(1, options.threads);
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server_->set_keep_alive_max_count(100);
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    SetSecurityHeaders(res);
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      res.set_content(R"({"error":"only GET and HEAD"})", "application/json");
      return httplib::Server::HandlerResponse::Handled;
    }
    // DNS rebinding: a page of another origin that resolves its name to 127.0.0.1 sends its own
    // Host; on loopback only the loopback names are answered.
    if (IsLoopback(host_)) {
      const std::string h = req.get_header_value("Host");
      const std::string name =
          h.rfind('[', 0) == 0 ? h.substr(0, h.find(']') + 1) : h.substr(0, h.find(':'));
      if (!(name == "localhost" || name == "[::1]" || name.rfind("127.", 0) == 0)) {
        res.status = 421;
        res.set_content(R"({"error":"unexpected Host header"})", "application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    Response out = api_->Get(req.target);
    res.status = out.status;
    res.set_content(std::move(out.body), out.content_type);
    return httplib::Server::HandlerResponse::Handled;
  };
  server_->set_pre_routing_handler(handle);
  port_ = options.port == 0 ? server_->bind_to_any_port(host_)
                            : (server_->bind_to_port(host_, options.port) ? options.port : -1);
  if (port_ <= 0) {
    throw FileError({.object = "view", .where = host_ + ":" + std::to_string(options.port)},
                    "cannot listen on this address and port");
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

ViewServer::~ViewServer() { Stop(); }

void ViewServer::Stop() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string ViewServer::url() const {
  const std::string host = host_.find(':') != std::string::npos ? "[" + host_ + "]" : host_;
  return "http://" + host + ":" + std::to_string(port_) + "/";
}

}  // namespace timef::view
