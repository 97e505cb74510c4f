// Runs one workload in a forked child process, so that its peak RSS is its own and a crash or
// leak of one workload cannot disturb the next. The parent must hold no DuckDB connection or
// reader when it forks (they are created inside the child).
#pragma once

#include <cstdint>
#include <functional>

#include "timef/json.h"

namespace timef::bench {

struct ChildResult {
  Json output;                   // what the body returned
  std::int64_t max_rss_kib = 0;  // ru_maxrss of the child (includes pages inherited from us)
  double wall_seconds = 0;
};

// Forks, runs `body` in the child and returns its JSON through a pipe. An exception in the
// child, a crash or a non-zero exit raises std::runtime_error with what is known.
ChildResult RunInChild(const std::function<Json()>& body);

}  // namespace timef::bench
