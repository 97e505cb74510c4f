// Public IDs (docs/format.md §4): int64 > 0, numbered per kind (records, signals, tasks).
#pragma once

#include <cstdint>

namespace timef::model {

// The largest ID ever assigned per kind (`max_record_id`, `max_signal_id`, `max_task_id` of
// control_metadata); a removed object's ID is never reused.
struct IdHighWater {
  int64_t max_record_id = 0;
  int64_t max_signal_id = 0;
  int64_t max_task_id = 0;

  bool operator==(const IdHighWater&) const = default;
};

}  // namespace timef::model
