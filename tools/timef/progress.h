// A one-line progress bar on stderr for long work (writes, verify). It draws only when stderr
// is a terminal, so redirected output and logs never see carriage returns.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "timef/writer.h"

namespace timef::cli {

class ProgressBar {
 public:
  ProgressBar();
  // Finish().
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  bool enabled() const { return enabled_; }
  // Redraws "<stage> [#####     ]  45%" (no bar when total is 0), at most every 100 ms unless the
  // stage changed or is complete (done >= total), so every counted stage shows its bar.
  void Update(std::string_view stage, int64_t done, int64_t total);
  // Clears the line when something was drawn, so that later stderr lines start clean.
  void Finish();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::string stage_;
  std::chrono::steady_clock::time_point last_draw_;
};

// `options` with a progress callback that draws on `bar` when it is enabled (a write: demo, edit,
// derive). `bar` must outlive the write.
WriteOptions WithProgress(ProgressBar& bar, WriteOptions options = {});

}  // namespace timef::cli
