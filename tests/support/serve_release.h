// How the read tests open a release: locally, or (TIMEF_TEST_SERVE=nginx) through nginx on
// 127.0.0.1, or (TIMEF_TEST_SERVE=s3) from s3rver on 127.0.0.1, so the same tests run against the
// same release served over HTTP and S3 (docs/remote.md "Tests"; CTest registers the read tests
// again that way).
#pragma once

#include <filesystem>
#include <string>

#include "timef/reader.h"

namespace timef::testing {

// Reader::Open(dir, options), or under TIMEF_TEST_SERVE=nginx Reader::Open of dir's URL on an
// nginx this process starts on its first call (serving the scratch base directory, stopped at
// exit), or under TIMEF_TEST_SERVE=s3 Reader::Open of s3://<SharedS3Bucket>/<dir relative to the
// scratch base> after UploadRelease of dir and of the payload sources beside it in its registry
// (again whenever its manifest changed); with TIMEF_CACHE_DIR set to a scratch directory unless
// already set.
Reader OpenForRead(const std::filesystem::path& dir, const ReaderOptions& options = {});

// True under TIMEF_TEST_SERVE=nginx or s3.
bool ServedOverHttp();

// s3rver (tests/remote/s3rver, the npm package pinned there) that this process starts on its
// first call, on 127.0.0.1 and a port the kernel picks, storing in a scratch directory, stopped at
// exit; the AWS_* variables are set for it (endpoint, s3rver's S3RVER key pair, us-east-1).
// Returns its bucket's URL, "s3://timef-test".
std::string SharedS3Bucket();

// The release `dir` placed below `url` (s3://...): each file its manifest lists, then
// manifest.json, put one by one (the test suites' way to place a release that they change and
// re-open; PushRelease is what users run).
void UploadRelease(const std::filesystem::path& dir, const std::string& url);

}  // namespace timef::testing
