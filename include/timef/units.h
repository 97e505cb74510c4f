// Units (docs/format.md §2.6): canonical names, the alias table (DECIDE in docs/format.md §2.6).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace timef {

// Parses a canonical unit or an alias ("mV", "uV", "µV", "Hz", "bpm", "m / s ** 2", ...) and
// returns its canonical rendering; nullopt when it does not parse.
std::optional<std::string> ParseUnit(std::string_view text);

// Like ParseUnit but throws ValidationError naming `field` and the text when it does not parse.
std::string CanonicalUnit(std::string_view text, std::string_view field = "unit");

// True when `text` parses and re-renders to exactly itself (what a stored unit must be).
bool IsCanonicalUnit(std::string_view text);

}  // namespace timef
