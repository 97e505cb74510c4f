// legacy_fixture DIR [--uuid16] [--shards]: writes the legacy fixture of legacy_fixture.h (with
// DuckDB) as the release directory DIR, for the CLI and Python tests.
#include <cstdio>
#include <cstring>
#include <exception>

#include "legacy/legacy_fixture.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: legacy_fixture DIR [--uuid16] [--shards]\n");
    return 2;
  }
  timef::testing::LegacyFixtureOptions options;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--uuid16") == 0) {
      options.uuid16 = true;
    } else if (std::strcmp(argv[i], "--shards") == 0) {
      options.shard_prefix_part = false;
    } else {
      std::fprintf(stderr, "legacy_fixture: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  try {
    timef::testing::WriteLegacyFixture(argv[1], options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "legacy_fixture: %s\n", e.what());
    return 1;
  }
  return 0;
}
