// How the read tests open a release: locally, or (TIMEF_TEST_SERVE=nginx) through nginx on
// 127.0.0.1, so the same tests run against the same release served over HTTP (docs/remote.md
// "Tests"; CTest registers the read tests a second time that way).
#pragma once

#include <filesystem>
#include <string>

#include "timef/reader.h"

namespace timef::testing {

// Reader::Open(dir, options), or under TIMEF_TEST_SERVE=nginx Reader::Open of dir's URL on an
// nginx this process starts on its first call (serving the scratch base directory, stopped at
// exit), with TIMEF_CACHE_DIR set to a scratch directory unless already set.
Reader OpenForRead(const std::filesystem::path& dir, const ReaderOptions& options = {});

// True under TIMEF_TEST_SERVE=nginx.
bool ServedOverHttp();

}  // namespace timef::testing
