// A fresh scratch directory per test, below $TIMEF_TEST_OUT when set, removed afterwards. Shared by
// every test binary (tests/ is on their include path).
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace timef::testing {

class ScratchDir {
 public:
  ScratchDir() {
    const char* out = std::getenv("TIMEF_TEST_OUT");
    std::filesystem::path base =
        out != nullptr ? std::filesystem::path(out) : std::filesystem::temp_directory_path();
    std::filesystem::create_directories(base);
    std::string pattern = (base / "timef-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace timef::testing
