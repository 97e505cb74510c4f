#include "timef/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <vector>

#include "core/text.h"
#include "timef/error.h"

namespace timef {
namespace {

struct Prefix {
  std::string_view name;
  std::array<std::string_view, 3> symbols;  // "" marks an unused slot
};

// docs/format.md §2.6. Micro has three symbols: ASCII 'u', MICRO SIGN U+00B5, GREEK MU U+03BC.
constexpr std::array<Prefix, 20> kPrefixes = {{
    {"yocto", {"y"}},
    {"zepto", {"z"}},
    {"atto", {"a"}},
    {"femto", {"f"}},
    {"pico", {"p"}},
    {"nano", {"n"}},
    {"micro", {"u", "\u00b5", "\u03bc"}},
    {"milli", {"m"}},
    {"centi", {"c"}},
    {"deci", {"d"}},
    {"deca", {"da"}},
    {"hecto", {"h"}},
    {"kilo", {"k"}},
    {"mega", {"M"}},
    {"giga", {"G"}},
    {"tera", {"T"}},
    {"peta", {"P"}},
    {"exa", {"E"}},
    {"zetta", {"Z"}},
    {"yotta", {"Y"}},
}};

struct NamedUnit {
  std::string_view name;
  std::array<std::string_view, 3> aliases;  // "" marks an unused slot
};

// Prefixable names and their SI symbols (which take the prefix symbols).
constexpr std::array<NamedUnit, 28> kPrefixable = {{
    {"second", {"s"}},     {"hertz", {"Hz"}},
    {"meter", {"m"}},      {"gram", {"g"}},
    {"liter", {"L", "l"}}, {"volt", {"V"}},
    {"ampere", {"A"}},     {"ohm", {"Ohm", "\u03a9", "\u2126"}},
    {"siemens", {"S"}},    {"watt", {"W"}},
    {"joule", {"J"}},      {"newton", {"N"}},
    {"pascal", {"Pa"}},    {"bar", {"bar"}},
    {"kelvin", {"K"}},     {"mole", {"mol"}},
    {"candela", {"cd"}},   {"lux", {"lx"}},
    {"tesla", {"T"}},      {"coulomb", {"C"}},
    {"farad", {"F"}},      {"henry", {"H"}},
    {"weber", {"Wb"}},     {"becquerel", {"Bq"}},
    {"gray", {"Gy"}},      {"radian", {"rad"}},
    {"bit", {"bit"}},      {"byte", {"B"}},
}};

// Names that take no prefix, with their aliases. Matched before any prefix is split off, so
// "min", "h", "d" and "dB" mean minute, hour, day and decibel (never milli-inch or decibyte).
constexpr std::array<NamedUnit, 16> kUnprefixed = {{
    {"dimensionless", {"1"}},
    {"percent", {"%"}},
    {"ppm", {}},
    {"count", {}},
    {"beat", {}},
    {"bpm", {}},
    {"minute", {"min"}},
    {"hour", {"h"}},
    {"day", {"d"}},
    {"week", {}},
    {"degree", {"deg", "\u00b0"}},
    {"degree_Celsius", {"degC", "\u00b0C", "\u2103"}},
    {"degree_Fahrenheit", {"degF", "\u00b0F", "\u2109"}},
    {"decibel", {"dB"}},
    {"standard_gravity", {"gn", "g0", "g-force"}},
    {"millimeter_Hg", {"mmHg"}},
}};

constexpr std::string_view kDimensionless = "dimensionless";

bool MatchesAny(const std::array<std::string_view, 3>& aliases, std::string_view text) {
  for (std::string_view alias : aliases) {
    if (!alias.empty() && alias == text) return true;
  }
  return false;
}

// The canonical name of one factor's name token, or "" when it is unknown.
std::string ResolveName(std::string_view token) {
  for (const NamedUnit& unit : kUnprefixed) {
    if (token == unit.name || MatchesAny(unit.aliases, token)) return std::string(unit.name);
  }
  for (const NamedUnit& unit : kPrefixable) {
    if (token == unit.name || MatchesAny(unit.aliases, token)) return std::string(unit.name);
  }
  for (const Prefix& prefix : kPrefixes) {
    if (token.size() > prefix.name.size() && token.starts_with(prefix.name)) {
      const std::string_view rest = token.substr(prefix.name.size());
      for (const NamedUnit& unit : kPrefixable) {
        if (rest == unit.name) return std::string(prefix.name) + std::string(unit.name);
      }
    }
    for (std::string_view symbol : prefix.symbols) {
      if (symbol.empty() || token.size() <= symbol.size() || !token.starts_with(symbol)) continue;
      const std::string_view rest = token.substr(symbol.size());
      for (const NamedUnit& unit : kPrefixable) {
        if (MatchesAny(unit.aliases, rest))
          return std::string(prefix.name) + std::string(unit.name);
      }
    }
  }
  return "";
}

enum class TokenKind { kName, kTimes, kDivide, kPower };

struct Token {
  TokenKind kind;
  std::string_view text;
};

bool IsSpace(char c) { return c == ' ' || c == '\t'; }
bool IsOperatorChar(char c) { return c == '*' || c == '/' || c == '^'; }

// Accepts the canonical spacing and any other (including none) around operators; "^" is an
// alias of "**".
std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (IsSpace(c)) {
      ++pos;
    } else if (c == '*' && pos + 1 < text.size() && text[pos + 1] == '*') {
      tokens.push_back({TokenKind::kPower, text.substr(pos, 2)});
      pos += 2;
    } else if (c == '^') {
      tokens.push_back({TokenKind::kPower, text.substr(pos, 1)});
      ++pos;
    } else if (c == '*') {
      tokens.push_back({TokenKind::kTimes, text.substr(pos, 1)});
      ++pos;
    } else if (c == '/') {
      tokens.push_back({TokenKind::kDivide, text.substr(pos, 1)});
      ++pos;
    } else {
      const size_t start = pos;
      while (pos < text.size() && !IsSpace(text[pos]) && !IsOperatorChar(text[pos])) ++pos;
      tokens.push_back({TokenKind::kName, text.substr(start, pos - start)});
    }
  }
  return tokens;
}

// [1-9][0-9]*, bounded so that summed exponents cannot overflow.
std::optional<int64_t> ParseExponent(std::string_view text) {
  if (text.empty() || text.front() < '1' || text.front() > '9') return std::nullopt;
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

struct Factor {
  std::string name;
  int64_t exponent;  // negative in the denominator
};

void AppendFactor(std::string& out, const Factor& factor, int64_t exponent) {
  out += factor.name;
  if (exponent != 1) {
    out += " ** ";
    out += std::to_string(exponent);
  }
}

}  // namespace

std::optional<std::string> ParseUnit(std::string_view text) {
  if (text.empty()) return std::string(kDimensionless);
  const std::vector<Token> tokens = Tokenize(text);
  std::vector<Factor> factors;  // one per distinct name, in first-appearance order
  size_t i = 0;
  int sign = 1;
  while (true) {
    if (i >= tokens.size() || tokens[i].kind != TokenKind::kName) return std::nullopt;
    const std::string name = ResolveName(tokens[i].text);
    if (name.empty()) return std::nullopt;
    ++i;
    int64_t exponent = 1;
    if (i < tokens.size() && tokens[i].kind == TokenKind::kPower) {
      ++i;
      if (i >= tokens.size() || tokens[i].kind != TokenKind::kName) return std::nullopt;
      auto parsed = ParseExponent(tokens[i].text);
      if (!parsed) return std::nullopt;
      exponent = *parsed;
      ++i;
    }
    if (name != kDimensionless) {
      auto it = std::find_if(factors.begin(), factors.end(),
                             [&](const Factor& f) { return f.name == name; });
      if (it == factors.end()) {
        factors.push_back({name, sign * exponent});
      } else {
        it->exponent += sign * exponent;
      }
    }
    if (i == tokens.size()) break;
    if (tokens[i].kind == TokenKind::kTimes) {
      sign = 1;
    } else if (tokens[i].kind == TokenKind::kDivide) {
      sign = -1;
    } else {
      return std::nullopt;
    }
    ++i;
  }

  std::string numerator;
  std::string denominator;
  for (const Factor& factor : factors) {
    if (factor.exponent > 0) {
      if (!numerator.empty()) numerator += " * ";
      AppendFactor(numerator, factor, factor.exponent);
    } else if (factor.exponent < 0) {
      denominator += " / ";
      AppendFactor(denominator, factor, -factor.exponent);
    }
  }
  // The grammar needs a leading factor, so a pure denominator keeps "dimensionless" in front
  // (DECIDE, docs/format.md §2.7); names that cancel out leave "dimensionless".
  if (numerator.empty()) numerator = kDimensionless;
  return numerator + denominator;
}

std::string CanonicalUnit(std::string_view text, std::string_view field) {
  if (auto unit = ParseUnit(text)) return *std::move(unit);
  throw ValidationError(ErrorSite{.where = std::string(field)},
                        "unknown unit '" + core::PrintableForMessage(text) + "'");
}

bool IsCanonicalUnit(std::string_view text) {
  const std::optional<std::string> unit = ParseUnit(text);
  return unit.has_value() && *unit == text;
}

}  // namespace timef
