#include "support/serve_release.h"

#include <stdlib.h>

#include <cstdlib>

#include "support/nginx.h"
#include "support/scratch_dir.h"

namespace timef::testing {
namespace fs = std::filesystem;

namespace {

fs::path ScratchBase() {
  const char* out = std::getenv("TIMEF_TEST_OUT");
  return out != nullptr ? fs::path(out) : fs::temp_directory_path();
}

struct Served {
  Served() : nginx(fs::canonical(ScratchBase())) {
    if (std::getenv("TIMEF_CACHE_DIR") == nullptr) {
      ::setenv("TIMEF_CACHE_DIR", cache.path().c_str(), 1);
    }
  }
  ScratchDir cache;
  NginxServer nginx;
};

}  // namespace

bool ServedOverHttp() {
  const char* serve = std::getenv("TIMEF_TEST_SERVE");
  return serve != nullptr && std::string(serve) == "nginx";
}

Reader OpenForRead(const fs::path& dir, const ReaderOptions& options) {
  if (!ServedOverHttp()) return Reader::Open(dir, options);
  // One nginx for the test process, stopped when it exits.
  static Served served;
  const fs::path relative = fs::weakly_canonical(dir).lexically_relative(served.nginx.root());
  if (relative.empty() || relative.begin()->string() == "..") {
    return Reader::Open(dir, options);  // outside the served directory: read locally
  }
  return Reader::Open(served.nginx.url() + "/" + relative.generic_string(), options);
}

}  // namespace timef::testing
