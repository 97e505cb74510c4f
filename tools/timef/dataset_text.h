// Text rendering shared by the commands (cmd_*.cc): sizes, times and values in the forms
// docs/cli.md describes. Tables are table.h's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "timef/manifest.h"
#include "timef/model.h"

namespace timef::cli {

// The bytes of the listed files (their manifest sizes).
int64_t TotalSize(const std::vector<manifest::FilePart>& parts);

// The bytes of a release's own files: its control file, time-series parts and payload parts.
int64_t OwnBytes(const manifest::Manifest& m);

// "1,234,567 B (1.2 MiB)"; plain "N B" below 1 KiB.
std::string FormatBytes(int64_t bytes);

// Unix µs as "2023-11-14T22:13:20Z" (".123456" before the Z when not a whole second); "-" for
// nullopt.
std::string FormatUnixMicros(std::optional<int64_t> micros);

// Shortest round-trip rendering of a float ("-0.0", "1.0", "1.5", "1e-05": ".0" is appended when
// the text would read as an integer); "nan", "inf", "-inf" for the special values. float32 values
// are rendered as float32 so that 0.1f prints as 0.1.
std::string FormatFloat(double value);
std::string FormatFloat(float value);

// One scalar of `values` (index into the flat array) as text: integers, floats as above,
// true/false, str as is, enum as its label from `spec`.
std::string FormatScalar(const model::ValueArray& values, int64_t index, const model::Spec& spec);

// "A:B", "A:", ":B" or ":" (A, B whole numbers >= 0) into a half-open window; nullopt bounds are
// open. Returns false when the text is not of that form.
bool ParseStepWindow(const std::string& text, std::optional<int64_t>& begin,
                     std::optional<int64_t>& end);

}  // namespace timef::cli
