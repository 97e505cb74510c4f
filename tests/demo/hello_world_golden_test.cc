// The hello-world values shards and payload files are pinned byte for byte: a refactoring of the
// write path must not change what lands on disk (the format is byte-deterministic for the same
// input, docs/format.md §3). The catalog and the manifest are left out: DuckDB's file layout and
// the manifest's build_env are not ours to pin. When an intended format change alters these bytes,
// regenerate the list with the command in hello_world_golden.txt and say why in the commit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "timef/demo.h"
#include "timef/writer.h"

namespace timef::demo {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::string> GoldenChecksums() {
  const fs::path path = fs::path(TIMEF_SOURCE_DIR) / "tests/demo/hello_world_golden.txt";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string hex;
    std::string path;
    fields >> hex >> path;
    out[path] = "sha256:" + hex;
  }
  return out;
}

// The checksums of the values shards and payload files of hello-world written with `threads`.
std::map<std::string, std::string> WrittenChecksums(int threads) {
  const char* env = std::getenv("TIMEF_TEST_OUT");
  const fs::path base = env != nullptr ? fs::path(env) : fs::temp_directory_path();
  const fs::path root = base / ("demo-golden-" + std::to_string(std::random_device{}()));
  fs::remove_all(root);
  auto dataset = BuildHelloWorld();
  WriteOptions options = HelloWorldWriteOptions();
  options.threads = threads;
  const WriteResult result = WriteRelease(*dataset, HelloWorldCard(), root, options);
  std::map<std::string, std::string> written;
  for (const auto& part : result.manifest.files.time_series) written[part.path] = part.checksum;
  for (const auto& part : result.manifest.files.payloads) written[part.path] = part.checksum;
  fs::remove_all(root);
  return written;
}

TEST(HelloWorldGoldenTest, ShardsAndPayloadFilesAreByteIdenticalToTheGoldenList) {
  const std::map<std::string, std::string> golden = GoldenChecksums();
  ASSERT_FALSE(golden.empty());
  EXPECT_EQ(WrittenChecksums(1), golden);
}

// Compressing on several threads must not change a byte (issue 14: parallel write).
TEST(HelloWorldGoldenTest, TwoAndThreeThreadWritesAreByteIdenticalToTheOneThreadWrite) {
  const std::map<std::string, std::string> golden = GoldenChecksums();
  EXPECT_EQ(WrittenChecksums(2), golden);
  EXPECT_EQ(WrittenChecksums(3), golden);
}

}  // namespace
}  // namespace timef::demo
