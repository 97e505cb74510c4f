#include "timef/units.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <utility>

#include "timef/error.h"

namespace timef {
namespace {

using ::testing::HasSubstr;

struct UnitCase {
  const char* input;
  const char* canonical;
};

constexpr UnitCase kAliases[] = {
    {"", "dimensionless"},
    {"1", "dimensionless"},
    {"dimensionless", "dimensionless"},
    {"V", "volt"},
    {"mV", "millivolt"},
    {"uV", "microvolt"},
    {"\u00b5V", "microvolt"},  // MICRO SIGN
    {"\u03bcV", "microvolt"},  // GREEK SMALL LETTER MU
    {"nV", "nanovolt"},
    {"kV", "kilovolt"},
    {"Hz", "hertz"},
    {"kHz", "kilohertz"},
    {"MHz", "megahertz"},
    {"s", "second"},
    {"ms", "millisecond"},
    {"us", "microsecond"},
    {"\u00b5s", "microsecond"},
    {"ns", "nanosecond"},
    {"g", "gram"},
    {"kg", "kilogram"},
    {"mg", "milligram"},
    {"m", "meter"},
    {"cm", "centimeter"},
    {"mm", "millimeter"},
    {"km", "kilometer"},
    {"dm", "decimeter"},
    {"dam", "decameter"},
    {"hm", "hectometer"},
    {"L", "liter"},
    {"l", "liter"},
    {"mL", "milliliter"},
    {"ml", "milliliter"},
    {"A", "ampere"},
    {"mA", "milliampere"},
    {"Ohm", "ohm"},
    {"\u03a9", "ohm"},  // GREEK CAPITAL LETTER OMEGA
    {"\u2126", "ohm"},  // OHM SIGN
    {"k\u03a9", "kiloohm"},
    {"MOhm", "megaohm"},
    {"S", "siemens"},
    {"mS", "millisiemens"},
    {"W", "watt"},
    {"kW", "kilowatt"},
    {"J", "joule"},
    {"N", "newton"},
    {"Pa", "pascal"},
    {"kPa", "kilopascal"},
    {"hPa", "hectopascal"},
    {"daPa", "decapascal"},
    {"bar", "bar"},
    {"mbar", "millibar"},
    {"K", "kelvin"},
    {"mK", "millikelvin"},
    {"mol", "mole"},
    {"mmol", "millimole"},
    {"cd", "candela"},
    {"lx", "lux"},
    {"T", "tesla"},
    {"uT", "microtesla"},
    {"C", "coulomb"},
    {"F", "farad"},
    {"pF", "picofarad"},
    {"H", "henry"},
    {"Wb", "weber"},
    {"Bq", "becquerel"},
    {"Gy", "gray"},
    {"mGy", "milligray"},
    {"rad", "radian"},
    {"mrad", "milliradian"},
    {"bit", "bit"},
    {"kbit", "kilobit"},
    {"B", "byte"},
    {"kB", "kilobyte"},
    {"GB", "gigabyte"},
    {"%", "percent"},
    {"percent", "percent"},
    {"ppm", "ppm"},
    {"count", "count"},
    {"beat", "beat"},
    {"bpm", "bpm"},
    {"min", "minute"},
    {"h", "hour"},
    {"d", "day"},
    {"week", "week"},
    {"deg", "degree"},
    {"\u00b0", "degree"},
    {"\u00b0C", "degree_Celsius"},
    {"degC", "degree_Celsius"},
    {"\u2103", "degree_Celsius"},
    {"\u00b0F", "degree_Fahrenheit"},
    {"degF", "degree_Fahrenheit"},
    {"dB", "decibel"},  // not decibyte: unprefixed names win
    {"gn", "standard_gravity"},
    {"g0", "standard_gravity"},
    {"g-force", "standard_gravity"},
    {"mmHg", "millimeter_Hg"},
    {"millivolt", "millivolt"},
    {"kilohertz", "kilohertz"},
    {"microsecond", "microsecond"},
    {"kilogram", "kilogram"},
    {"decibel", "decibel"},
};

TEST(UnitsTest, AliasTable) {
  for (const UnitCase& c : kAliases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(ParseUnit(c.input), std::optional<std::string>(c.canonical));
    EXPECT_TRUE(IsCanonicalUnit(c.canonical));
  }
}

constexpr UnitCase kCompounds[] = {
    {"m/s^2", "meter / second ** 2"},
    {"m/s**2", "meter / second ** 2"},
    {"m / s ** 2", "meter / second ** 2"},
    {"m/s/s", "meter / second ** 2"},
    {"meter / second ** 2", "meter / second ** 2"},
    {"mV/ms", "millivolt / millisecond"},
    {"m*m", "meter ** 2"},
    {"m ** 2 * m", "meter ** 3"},
    {"m*m/m", "meter"},
    {"m/m", "dimensionless"},
    {"meter ** 1", "meter"},
    {"V*A", "volt * ampere"},
    {"A * V", "ampere * volt"},
    {"kg*m^2/s^3/A", "kilogram * meter ** 2 / second ** 3 / ampere"},
    {"s / m * kg", "second * kilogram / meter"},
    {"1 / s / m * kg", "kilogram / second / meter"},
    {"1/s", "dimensionless / second"},
    {"dimensionless / second", "dimensionless / second"},
    {"dimensionless * volt", "volt"},
    {"V * 1", "volt"},
    {"dimensionless ** 3", "dimensionless"},
    {"%/s", "percent / second"},
    {"beat / min", "beat / minute"},
    {"uV\t/\tHz ^ 2", "microvolt / hertz ** 2"},
    {"mV * millivolt", "millivolt ** 2"},
    {"ms * s", "millisecond * second"},
    {"m ** 12", "meter ** 12"},
};

TEST(UnitsTest, CompoundUnits) {
  for (const UnitCase& c : kCompounds) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(ParseUnit(c.input), std::optional<std::string>(c.canonical));
    EXPECT_TRUE(IsCanonicalUnit(c.canonical));
  }
}

TEST(UnitsTest, RejectsWhatDoesNotParse) {
  for (const char* text : {"furlongs", "kilo",       "k",
                           "u",        "da",         "m^0",
                           "m ** 0",   "m^02",       "m**01",
                           "m^-1",     "m^+1",       "m^1.5",
                           "m^",       "m**",        "m ** x",
                           "m/",       "/s",         "*m",
                           "m s",      "m//s",       "m***2",
                           "m^2^2",    " ",          "\t",
                           "mvolt",    "megaV",      "Kg",
                           "hz",       "MV2",        "m2",
                           "mm Hg",    "volts",      "m^99999999999",
                           "kilodB",   "kdB",        "mmin",
                           "kh",       "kilominute", "kilo percent",
                           "bad\xff",  "m/s)"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(ParseUnit(text), std::nullopt);
    EXPECT_FALSE(IsCanonicalUnit(text));
  }
}

TEST(UnitsTest, EveryPrefixWithEveryPrefixableName) {
  constexpr std::array<std::pair<const char*, const char*>, 20> kPrefixes = {{
      {"yocto", "y"}, {"zepto", "z"}, {"atto", "a"},  {"femto", "f"}, {"pico", "p"},
      {"nano", "n"},  {"micro", "u"}, {"milli", "m"}, {"centi", "c"}, {"deci", "d"},
      {"deca", "da"}, {"hecto", "h"}, {"kilo", "k"},  {"mega", "M"},  {"giga", "G"},
      {"tera", "T"},  {"peta", "P"},  {"exa", "E"},   {"zetta", "Z"}, {"yotta", "Y"},
  }};
  constexpr std::array<std::pair<const char*, const char*>, 28> kNames = {{
      {"second", "s"},   {"hertz", "Hz"},   {"meter", "m"},   {"gram", "g"},       {"liter", "L"},
      {"volt", "V"},     {"ampere", "A"},   {"ohm", "Ohm"},   {"siemens", "S"},    {"watt", "W"},
      {"joule", "J"},    {"newton", "N"},   {"pascal", "Pa"}, {"bar", "bar"},      {"kelvin", "K"},
      {"mole", "mol"},   {"candela", "cd"}, {"lux", "lx"},    {"tesla", "T"},      {"coulomb", "C"},
      {"farad", "F"},    {"henry", "H"},    {"weber", "Wb"},  {"becquerel", "Bq"}, {"gray", "Gy"},
      {"radian", "rad"}, {"bit", "bit"},    {"byte", "B"},
  }};
  for (const auto& [prefix, prefix_symbol] : kPrefixes) {
    for (const auto& [name, symbol] : kNames) {
      const std::string canonical = std::string(prefix) + name;
      const std::string alias = std::string(prefix_symbol) + symbol;
      SCOPED_TRACE(canonical + " / " + alias);
      EXPECT_TRUE(IsCanonicalUnit(canonical));
      EXPECT_TRUE(IsCanonicalUnit(canonical + " / second ** 2"));
      if (alias == "dB") continue;  // decibel, see AliasTable
      EXPECT_EQ(ParseUnit(alias), canonical);
    }
  }
}

TEST(UnitsTest, CanonicalFormIsExact) {
  EXPECT_TRUE(IsCanonicalUnit("meter / second ** 2"));
  EXPECT_TRUE(IsCanonicalUnit("degree_Celsius"));
  EXPECT_TRUE(IsCanonicalUnit("dimensionless"));
  for (const char* text : {"", "mV", "meter/second**2", "meter / second^2", "meter  / second",
                           "meter ** 1", "second ** 2 * second", "volt * dimensionless", " meter",
                           "meter ", "second / second", "1"}) {
    EXPECT_FALSE(IsCanonicalUnit(text)) << text;
  }
}

TEST(UnitsTest, CanonicalUnitThrowsNamingField) {
  EXPECT_EQ(CanonicalUnit("uV"), "microvolt");
  try {
    CanonicalUnit("furlongs", "signals[3].unit");
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), "signals[3].unit");
    EXPECT_THAT(e.what(), HasSubstr("'furlongs'"));
  }
}

}  // namespace
}  // namespace timef
