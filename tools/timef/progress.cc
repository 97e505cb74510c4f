#include "progress.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace timef::cli {
namespace {

constexpr int kBarWidth = 30;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

}  // namespace

ProgressBar::ProgressBar() : enabled_(isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Finish() {
  if (!drawn_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

void ProgressBar::Update(std::string_view stage, int64_t done, int64_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool complete = total > 0 && done >= total;
  if (stage == stage_ && !complete && now - last_draw_ < kRedrawInterval) return;
  stage_ = stage;
  last_draw_ = now;
  std::string line = fmt::format("\r\033[K{:<10}", stage);
  if (total > 0) {
    const double fraction =
        std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0);
    const int filled = static_cast<int>(fraction * kBarWidth);
    line += fmt::format(" [{}{}] {:3.0f}%", std::string(static_cast<size_t>(filled), '#'),
                        std::string(static_cast<size_t>(kBarWidth - filled), ' '), fraction * 100);
  }
  fmt::print(stderr, "{}", line);
  std::fflush(stderr);
  drawn_ = true;
}

WriteOptions WithProgress(ProgressBar& bar, WriteOptions options) {
  if (bar.enabled()) {
    options.progress = [&bar](const WriteProgress& p) {
      bar.Update(ToString(p.stage), p.bytes_done, p.bytes_total);
    };
  }
  return options;
}

}  // namespace timef::cli
