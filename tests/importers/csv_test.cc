// The CSV/TSV importer (docs/importing.md, "CSV and TSV"): files written here, as a spreadsheet or
// pandas would, read by timef::ReadCsv / ImportFiles; every value, null, unit, axis and time
// checked, and every kind of bad input refused with a FormatError naming the file, line and
// column.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "support/scratch_dir.h"
#include "timef/error.h"
#include "timef/importers.h"
#include "timef/reader.h"

namespace timef {
namespace {

namespace fs = std::filesystem;

class CsvImportTest : public ::testing::Test {
 protected:
  fs::path Write(const std::string& name, const std::string& text) {
    const fs::path path = scratch_.path() / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  testing::ScratchDir scratch_;
};

std::vector<double> Doubles(const model::Signal& signal) {
  const auto values = signal.LoadValues();
  const auto span = values->values<double>();
  return {span.begin(), span.end()};
}

TEST_F(CsvImportTest, RegularSecondsWithUnitsNullsAndMetadata) {
  const fs::path file = Write("walk.csv",
                              "time, ECG II (mV) ,Resp [mV],x\r\n"
                              "0.000,0.5,1,-2.5e-3\r\n"
                              "0.004,0.25,,7\r\n"
                              "\r\n"
                              "0.008,\"-0.125\",3,+8\r\n"
                              "0.012,1e3,4,nan\r\n");
  auto record = ReadCsv(file);
  ASSERT_EQ(record->sources().size(), 1u);
  EXPECT_EQ(record->sources()[0]->name(), "walk.csv");
  const auto signals = record->Signals();
  ASSERT_EQ(signals.size(), 3u);
  EXPECT_EQ(signals[0]->name(), "ECG II");
  EXPECT_EQ(signals[0]->spec()->spec_type, "ecg");
  EXPECT_EQ(signals[0]->spec()->unit, "millivolt");
  EXPECT_EQ(signals[0]->spec()->dtype, DType::kFloat64);
  EXPECT_TRUE(signals[0]->spec()->nullable);
  EXPECT_EQ(signals[1]->name(), "Resp");
  EXPECT_EQ(signals[1]->spec()->spec_type, "respiration");
  EXPECT_EQ(signals[2]->name(), "x");
  EXPECT_EQ(signals[2]->spec()->spec_type, "signal");
  EXPECT_EQ(signals[2]->spec()->unit, std::nullopt);
  for (const auto& s : signals) {
    EXPECT_EQ(s->n_values(), 4);
    ASSERT_TRUE(s->axis()->is_regular());
    EXPECT_EQ(s->axis()->TimeOfStep(1), 4000);
    EXPECT_EQ(s->axis()->TimeOfStep(3), 12000);
  }
  EXPECT_EQ(Doubles(*signals[0]), (std::vector<double>{0.5, 0.25, -0.125, 1000.0}));
  const auto resp = signals[1]->LoadValues();
  EXPECT_EQ(resp->validity(), (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(resp->values<double>()[2], 3.0);
  const auto x = Doubles(*signals[2]);
  EXPECT_EQ(x[0], -2.5e-3);
  EXPECT_EQ(x[2], 8.0);
  EXPECT_TRUE(std::isnan(x[3]));  // "nan" is a value, not a null
  EXPECT_FALSE(record->start_time_us().has_value());
  const Json& meta = record->metadata();
  EXPECT_EQ(meta["source_file"], file.string());
  EXPECT_EQ(meta["source_sha256"].get<std::string>().substr(0, 7), "sha256:");
  EXPECT_EQ(meta["csv"]["axis"], "regular");
  EXPECT_EQ(meta["csv"]["time_column"], "time");
  EXPECT_EQ(meta["csv"]["time_unit"], "s");
  EXPECT_EQ(meta["csv"]["rows"], 4);
  EXPECT_EQ(signals[0]->metadata()["csv"]["header"], "ECG II (mV)");
  EXPECT_EQ(signals[0]->metadata()["csv"]["unit"], "mV");
}

TEST_F(CsvImportTest, UnevenTimesMakeAnIrregularAxisAndTheToleranceIsOneMicrosecond) {
  auto irregular = ReadCsv(Write("a.csv", "t,v\n1.5,1\n1.6,2\n1.75,3\n1.75,4\n"));
  const auto& axis = *irregular->Signals()[0]->axis();
  ASSERT_TRUE(axis.is_irregular());
  EXPECT_EQ(*axis.LoadOffsets(),
            (std::vector<int64_t>{1'500'000, 1'600'000, 1'750'000, 1'750'000}));
  // Times written to 1 µs at 3 µs ± 1 µs: regular (period 10/3 µs, starting at 2 s).
  auto jitter = ReadCsv(Write("b.csv", "time_ms,v\n2000,1\n2000.003,2\n2000.007,3\n2000.010,4\n"));
  const auto& regular = *jitter->Signals()[0]->axis();
  ASSERT_TRUE(regular.is_regular());
  EXPECT_EQ(regular.offset_us(), 2'000'000);
  EXPECT_EQ(regular.period_numerator_us(), 10);
  EXPECT_EQ(regular.period_denominator(), 3);
  EXPECT_EQ(jitter->metadata()["csv"]["time_unit"], "ms");
  // 2 µs off: irregular, unless the tolerance allows it.
  const fs::path off = Write("c.csv", "time (ms),v\n0,1\n0.010,2\n0.022,3\n0.030,4\n");
  EXPECT_TRUE(ReadCsv(off)->Signals()[0]->axis()->is_irregular());
  ReadOptions loose;
  loose.csv.tolerance_us = 2;
  EXPECT_TRUE(ReadCsv(off, loose)->Signals()[0]->axis()->is_regular());
  ReadOptions exact;
  exact.csv.tolerance_us = 0;
  EXPECT_TRUE(ReadCsv(Write("d.csv", "t,v\n0,1\n0.000003,2\n0.000007,3\n0.00001,4\n"), exact)
                  ->Signals()[0]
                  ->axis()
                  ->is_irregular());
  // One row: an irregular axis of one offset.
  EXPECT_TRUE(ReadCsv(Write("e.csv", "t,v\n3,1\n"))->Signals()[0]->axis()->is_irregular());
}

TEST_F(CsvImportTest, IsoTimestampsSetTheStartTime) {
  auto record = ReadCsv(Write("iso.tsv",
                              "timestamp\tHR (bpm)\tSpO2 (%)\n"
                              "2024-02-29T23:59:59.5+01:00\t61\t97\n"
                              "2024-02-29 23:00:00.5Z\t62\t98\n"
                              "2024-02-29T23:00:01.5\t63\t\n"));
  // 23:59:59.5+01:00 = 22:59:59.5Z; the next rows are 1 s apart.
  ASSERT_TRUE(record->start_time_us().has_value());
  EXPECT_EQ(*record->start_time_us(), 1709247599'500000);
  const auto signals = record->Signals();
  ASSERT_EQ(signals.size(), 2u);
  ASSERT_TRUE(signals[0]->axis()->is_regular());
  EXPECT_EQ(signals[0]->axis()->offset_us(), 0);
  EXPECT_EQ(signals[0]->axis()->TimeOfStep(2), 2'000'000);
  EXPECT_EQ(signals[1]->spec()->spec_type, "spo2");
  EXPECT_EQ(signals[1]->spec()->unit, "percent");
  EXPECT_EQ(record->metadata()["csv"]["time_unit"], "iso");
  EXPECT_EQ(record->metadata()["csv"]["delimiter"], "\t");
  // Dates alone are midnight UTC: daily rows make a regular axis of one day.
  auto daily = ReadCsv(Write("daily.csv", "date,steps\n2023-12-31,8000\n2024-01-01,9500\n"), [] {
    ReadOptions o;
    o.csv.time_column = "date";
    return o;
  }());
  EXPECT_EQ(*daily->start_time_us(), int64_t{1703980800} * 1'000'000);
  EXPECT_EQ(daily->Signals()[0]->axis()->TimeOfStep(1), int64_t{86400} * 1'000'000);
}

TEST_F(CsvImportTest, RateUnitsDelimiterTimeColumnAndSpecTypes) {
  ReadOptions options;
  options.csv.rate_hz = "2.5";
  options.csv.units = {{"a", "uV"}, {"Pleth", "furlongs"}};
  options.csv.delimiter = ';';
  options.spec_types = {{"a", "eeg"}};
  std::vector<std::string> warnings;
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  auto record = ReadCsv(Write("rate.txt", "a;Pleth\n1;2\n3;4\n5;6\n"), options);
  const auto signals = record->Signals();
  ASSERT_TRUE(signals[0]->axis()->is_regular());
  EXPECT_EQ(signals[0]->axis()->TimeOfStep(1), 400'000);
  EXPECT_EQ(signals[0]->spec()->spec_type, "eeg");
  EXPECT_EQ(signals[0]->spec()->unit, "microvolt");
  EXPECT_EQ(signals[1]->spec()->unit, std::nullopt);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("furlongs"), std::string::npos);
  EXPECT_EQ(signals[1]->metadata()["unit_warning"], warnings[0]);
  EXPECT_EQ(record->metadata()["csv"]["rate_hz"], "2.5");

  ReadOptions named;
  named.csv.time_column = "when";
  named.csv.time_unit = CsvTimeUnit::kMilliseconds;
  auto by_name = ReadCsv(Write("named.csv", "v,when\n1,10\n2,20\n"), named);
  ASSERT_EQ(by_name->Signals().size(), 1u);
  EXPECT_EQ(by_name->Signals()[0]->axis()->TimeOfStep(1), 20'000);
}

TEST_F(CsvImportTest, Float32OnlyWhenExact) {
  ReadOptions options;
  options.csv.dtype = DType::kFloat32;
  auto record = ReadCsv(Write("f.csv", "t,v\n0,0.1\n1,-2.5\n2,\n3,3.4028235e38\n"), options);
  const auto values = record->Signals()[0]->LoadValues();
  ASSERT_EQ(values->dtype(), DType::kFloat32);
  EXPECT_EQ(values->values<float>()[0], 0.1f);
  EXPECT_EQ(values->validity(), (std::vector<uint8_t>{1, 1, 0, 1}));
  try {
    ReadCsv(Write("g.csv", "t,v\n0,0.1\n1,0.123456789\n"), options);
    FAIL() << "0.123456789 is not exact in float32";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.where(), "line 3, column 'v'");
  }
}

// The FormatError of reading `text` as a CSV.
template <class E = FormatError>
E ErrorOf(const fs::path& path, const ReadOptions& options = {}) {
  try {
    ReadCsv(path, options);
  } catch (const E& e) {
    return e;
  }
  ADD_FAILURE() << path << " was accepted";
  return E(ErrorSite{}, "");
}

TEST_F(CsvImportTest, BadInputNamesTheFileLineAndColumn) {
  struct Case {
    std::string text;
    std::string where;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"", "line 1", "empty"},
      {"\n  \n", "line 1", "empty"},
      {"t,v\n", "line 2", "no data rows"},
      {"t,v\n0,1\n1,2,3\n", "line 3", "3 fields, the header 2"},
      {"t,v\n0,1\n1\n", "line 3", "1 fields"},
      {"t,v\n0,1\n1,abc\n", "line 3, column 'v'", "'abc' is not a number"},
      {"t,v\n0,1\n1,1.5.2\n", "line 3, column 'v'", "not a number"},
      {"t,v\n0,1\nsoon,2\n", "line 3, column 't'", "not a time in seconds"},
      {"t,v\n0,1\n,2\n", "line 3, column 't'", "not a time"},
      {"t,v\n0,1\n2,2\n1,3\n", "line 4, column 't'", "time goes back"},
      {"t,v\n-1,1\n", "line 2, column 't'", "negative"},
      {"t,v\n2024-01-01T00:00:00Z,1\n2024-13-01T00:00:00Z,2\n", "line 3, column 't'", "ISO-8601"},
      {"t,v\n2024-01-01T00:00:01Z,1\n2024-01-01T00:00:00Z,2\n", "line 3, column 't'", "goes back"},
      {"t,v\n0,\"1\n", "line 2", "quote"},
      {"t,v,v\n0,1,2\n", "line 1", "two columns are named 'v'"},
      {"t,,v\n0,1,2\n", "line 1", "column 2 has no name"},
      {"t\n0\n", "line 1", "no signal columns"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].text);
    const fs::path file = Write("bad" + std::to_string(i) + ".csv", cases[i].text);
    const FormatError e = ErrorOf(file);
    ASSERT_TRUE(e.path().has_value());
    EXPECT_EQ(*e.path(), file);
    EXPECT_EQ(e.where(), cases[i].where);
    EXPECT_NE(e.problem().find(cases[i].says), std::string::npos) << e.problem();
  }
  // Options that do not fit the file.
  const fs::path plain = Write("plain.csv", "a,b\n1,2\n");
  EXPECT_NE(ErrorOf<ValidationError>(plain).problem().find("no time column"), std::string::npos);
  ReadOptions unit;
  unit.csv.rate_hz = "10";
  unit.csv.units = {{"c", "mV"}};
  EXPECT_NE(ErrorOf<ValidationError>(plain, unit).problem().find("'c'"), std::string::npos);
  ReadOptions rate;
  rate.csv.rate_hz = "0";
  EXPECT_EQ(ErrorOf<ValidationError>(plain, rate).where(), "rate");
  rate.csv.rate_hz = "2000000";
  EXPECT_EQ(ErrorOf<ValidationError>(plain, rate).where(), "rate");
  EXPECT_EQ(ErrorOf<ValidationError>(Write("x.dat", "t,v\n0,1\n")).where(), "delimiter");
  EXPECT_THROW(ReadCsv(scratch_.path() / "missing.csv"), FileError);
}

TEST_F(CsvImportTest, ValuesStreamInPiecesAndAChangedFileIsRefused) {
  std::string text = "t,v\n";
  const int64_t rows = 200'000;
  for (int64_t i = 0; i < rows; ++i) {
    text += std::to_string(i) + "," + (i % 7 == 0 ? "" : std::to_string(i * 0.5)) + "\n";
  }
  const fs::path file = Write("long.csv", text);
  auto record = ReadCsv(file);
  const model::Signal& signal = *record->Signals()[0];
  ASSERT_TRUE(signal.axis()->is_regular());
  std::vector<int64_t> sizes;
  int64_t at = 0;
  signal.VisitValues([&](model::ValueArray piece) {
    sizes.push_back(piece.size());
    for (int64_t k = 0; k < piece.size(); ++k, ++at) {
      ASSERT_EQ(piece.IsValid(k), at % 7 != 0);
      if (at % 7 != 0) {
        ASSERT_EQ(piece.values<double>()[k], at * 0.5);
      }
    }
  });
  EXPECT_EQ(at, rows);
  EXPECT_EQ(sizes.size(), 4u);  // 65,536 rows a piece
  for (int64_t size : sizes) EXPECT_LE(size, 65536);
  Write("long.csv", text + "200000,1\n");
  EXPECT_THROW(signal.LoadValues(), FormatError);
}

TEST_F(CsvImportTest, ImportFilesWritesAReleaseTheReaderReadsBack) {
  const std::vector<fs::path> files = {
      Write("one.csv", "time,ECG (mV),Temp (degC)\n0,1.5,36.5\n0.5,2.5,\n1.0,3.5,36.75\n"),
      Write("two.csv", "time,ECG (mV),Temp (degC)\n0,-1,37\n0.25,-2,37.25\n1,-3,37.5\n")};
  manifest::Card card;
  card.dataset_id = "test/csv";
  card.dataset_version = "1.0.0";
  card.name = "CSV import";
  card.description = "two CSV files";
  card.license = manifest::License::kCc0_1_0;
  ImportOptions options;
  options.write.compression_level = 1;
  const WriteResult result =
      ImportFiles(ImportFormat::kCsv, files, card, scratch_.path() / "root", options);
  Reader reader = Reader::Open(result.release_dir);
  auto records = reader.GetRecords({1, 2});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]->metadata()["source_file"], files[0].string());
  const auto first = records[0]->Signals();
  EXPECT_EQ(Doubles(*first[0]), (std::vector<double>{1.5, 2.5, 3.5}));
  const auto temp = first[1]->LoadValues();
  EXPECT_EQ(temp->validity(), (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(first[1]->spec()->unit, "degree_Celsius");
  const auto second = records[1]->Signals();
  ASSERT_TRUE(second[0]->axis()->is_irregular());
  EXPECT_EQ(*second[0]->axis()->LoadOffsets(), (std::vector<int64_t>{0, 250'000, 1'000'000}));
  EXPECT_EQ(Doubles(*second[1]), (std::vector<double>{37, 37.25, 37.5}));
  EXPECT_EQ(ParseImportFormat("csv"), ImportFormat::kCsv);
  EXPECT_EQ(ToString(ImportFormat::kCsv), "csv");
}

}  // namespace
}  // namespace timef
