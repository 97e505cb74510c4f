// The suite's report: machine and git facts, result rows with ratios to the peers, and the JSON +
// Markdown files of issue 6.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "timef/json.h"

namespace timef::bench {

// {"cpu_model", "cores", "ram_bytes", "kernel", "load_average"} from /proc and uname.
Json MachineInfo();
// {"revision", "dirty"} of the source tree (git rev-parse / git diff --quiet; no state change).
Json GitInfo(const std::filesystem::path& source_dir);
// UTC time as "2026-11-30T02:50:00Z" (iso) or "20261130T025000Z" (compact, for file names).
std::string UtcNow(bool compact);

// One row of `results`. `samples` is a workload's output ({"timef": [...], "duckdb": [...],
// "raw_mmap": [...], "extra": {...}}). Ratios are peer/timef for lower-is-better units and
// timef/peer for higher-is-better ones, so > 1 always means timef is better; null without a peer.
Json MakeRow(const std::string& corpus, const std::string& workload, const std::string& unit,
             bool higher_is_better, const Json& samples);

// The Markdown report: parameters, the results table and the size table.
std::string RenderMarkdown(const Json& report);

// Writes <dir>/suite-<timestamp>.json, <dir>/latest.json and <dir>/latest.md.
void WriteReport(const Json& report, const std::filesystem::path& dir);

}  // namespace timef::bench
