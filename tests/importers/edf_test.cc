// The EDF/BDF importer against EDFlib (Debian libedf-dev), used as an independent writer and as the
// oracle of every value and annotation: files are written with EDFlib, read back by EDFlib, and
// imported by timef::ReadEdf / ImportFiles; malformed headers are made by editing one field of
// an EDFlib file and must raise a FormatError naming the file and the field.
#include <edflib.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/checksum.h"
#include "core/text.h"
#include "importers/edf_header.h"
#include "importers/edf_oracle.h"
#include "support/scratch_dir.h"
#include "timef/error.h"
#include "timef/importers.h"
#include "timef/reader.h"

namespace timef {
namespace {

namespace fs = std::filesystem;

using namespace edf_oracle;

// Every signal of `record` (in order) against EDFlib's channels, and every annotation.
void ExpectMatchesEdflib(const model::Record& record, const EdflibRead& oracle, bool digital) {
  const auto signals = record.Signals();
  ASSERT_EQ(signals.size(), static_cast<size_t>(oracle.hdr.edfsignals));
  for (size_t i = 0; i < signals.size(); ++i) {
    const edf_param_struct& p = oracle.hdr.signalparam[i];
    const model::Signal& s = *signals[i];
    SCOPED_TRACE(s.name());
    EXPECT_EQ(s.name(), Trimmed(p.label));
    ASSERT_EQ(s.n_values(), p.smp_in_file);
    // Rate: smp_in_datarecord per datarecord_duration (100 ns units).
    const auto& axis = *s.axis();
    ASSERT_TRUE(axis.is_regular());
    EXPECT_EQ(axis.TimeOfStep(p.smp_in_datarecord), oracle.hdr.datarecord_duration / 10);
    const auto values = s.LoadValues();
    if (digital) {
      ASSERT_EQ(values->dtype(), IsBdf(oracle.hdr.filetype) ? DType::kInt32 : DType::kInt16);
      for (int64_t k = 0; k < s.n_values(); ++k) {
        const int got = IsBdf(oracle.hdr.filetype) ? values->values<int32_t>()[k]
                                                   : values->values<int16_t>()[k];
        ASSERT_EQ(got, oracle.digital[i][k]) << "sample " << k;
      }
      const double gain = s.metadata().at("gain").get<double>();
      const double offset = s.metadata().at("offset").get<double>();
      for (int64_t k = 0; k < s.n_values(); ++k) {
        ASSERT_NEAR(oracle.digital[i][k] * gain + offset, oracle.physical[i][k],
                    1e-9 * std::abs(p.phys_max - p.phys_min))
            << "sample " << k;
      }
    } else {
      ASSERT_EQ(values->dtype(), DType::kFloat32);
      const auto got = values->values<float>();
      for (int64_t k = 0; k < s.n_values(); ++k) {
        // The documented formula on EDFlib's digital sample, bit for bit ...
        ASSERT_EQ(got[k], PhysicalOf(oracle.digital[i][k], p)) << "sample " << k;
        // ... and EDFlib's own physical value (its formula rounds differently in double).
        ASSERT_NEAR(got[k], static_cast<float>(oracle.physical[i][k]),
                    1e-6 * std::abs(p.phys_max - p.phys_min))
            << "sample " << k;
      }
    }
  }
  // Annotations, in EDFlib's order: onset and duration in 100 ns units.
  const auto& annotations = record.annotations();
  ASSERT_EQ(annotations.size(), oracle.annotations.size());
  for (size_t k = 0; k < annotations.size(); ++k) {
    const edf_annotation_struct& want = oracle.annotations[k];
    const model::Annotation& got = *annotations[k];
    SCOPED_TRACE("annotation " + std::to_string(k) + " '" + want.annotation + "'");
    EXPECT_EQ(got.content()->value().text().Read(), std::string(want.annotation));
    const int64_t onset_us = want.onset / 10;
    if (want.duration_l >= 0) {
      EXPECT_EQ(got.key(), "label_interval");
      EXPECT_EQ(got.span(), model::AnnotationSpan(
                                model::TimeInterval{onset_us, onset_us + want.duration_l / 10}));
    } else {
      EXPECT_EQ(got.key(), "label");
      EXPECT_EQ(got.span(), model::AnnotationSpan(model::TimePoint{onset_us}));
    }
  }
  ASSERT_TRUE(record.start_time_us().has_value());
  EXPECT_EQ(*record.start_time_us(), EdflibStartMicros(oracle.hdr));
}

class EdfImportTest : public ::testing::Test {
 protected:
  testing::ScratchDir scratch_;
};

TEST_F(EdfImportTest, EdfPlusValuesAnnotationsAndStartMatchEdflib) {
  const fs::path file = scratch_.path() / "night.edf";
  WriteWithEdflib(file, EdfPlusSpec());
  const EdflibRead oracle = ReadWithEdflib(file);
  ASSERT_EQ(oracle.hdr.filetype, EDFLIB_FILETYPE_EDFPLUS);
  auto record = ReadEdf(file);
  ExpectMatchesEdflib(*record, oracle, /*digital=*/false);
  EXPECT_EQ(record->annotations().size(), EdfPlusSpec().annotations.size());

  // Units, spec types, metadata.
  const auto signals = record->Signals();
  EXPECT_EQ(signals[0]->spec()->spec_type, "eeg");
  EXPECT_EQ(signals[0]->spec()->unit, "microvolt");
  EXPECT_EQ(signals[1]->spec()->spec_type, "eog");
  EXPECT_EQ(signals[2]->spec()->spec_type, "respiration");
  EXPECT_EQ(signals[2]->spec()->unit, "millivolt");
  EXPECT_EQ(signals[3]->spec()->spec_type, "temperature");
  EXPECT_EQ(signals[0]->metadata()["edf"]["transducer"],
            Trimmed(oracle.hdr.signalparam[0].transducer));
  EXPECT_EQ(signals[0]->metadata()["edf"]["prefilter"],
            Trimmed(oracle.hdr.signalparam[0].prefilter));
  const Json& edf = record->metadata()["edf"];
  EXPECT_EQ(edf["format"], "EDF+C");
  EXPECT_EQ(edf["patient_fields"]["code"], std::string(oracle.hdr.patientcode));
  EXPECT_EQ(edf["patient_fields"]["name"], std::string(oracle.hdr.patient_name));
  EXPECT_EQ(edf["recording_fields"]["equipment"], std::string(oracle.hdr.equipment));
  EXPECT_EQ(record->metadata()["source_file"], file.string());
  EXPECT_EQ(record->metadata()["source_sha256"], FileChecksum(file));
  EXPECT_EQ(record->sources().at(0)->name(), "night.edf");
}

TEST_F(EdfImportTest, KeepDigitalStoresEdflibsIntegersWithGainAndOffset) {
  const fs::path file = scratch_.path() / "digital.edf";
  WriteWithEdflib(file, EdfPlusSpec());
  ReadOptions options;
  options.keep_digital = true;
  auto record = ReadEdf(file, options);
  ExpectMatchesEdflib(*record, ReadWithEdflib(file), /*digital=*/true);
  EXPECT_EQ(record->Signals()[0]->spec()->unit, std::nullopt);
  EXPECT_EQ(record->Signals()[0]->metadata()["physical_unit"], "microvolt");
}

TEST_F(EdfImportTest, PlainEdfAndBdfFamilies) {
  struct Case {
    int filetype;
    std::string name;
    std::string format;
  };
  for (const Case& c : {Case{EDFLIB_FILETYPE_EDF, "plain.edf", "EDF"},
                        Case{EDFLIB_FILETYPE_BDF, "plain.bdf", "BDF"},
                        Case{EDFLIB_FILETYPE_BDFPLUS, "plus.bdf", "BDF+C"}}) {
    SCOPED_TRACE(c.name);
    FileSpec spec;
    spec.filetype = c.filetype;
    spec.channels = MixedChannels();
    if (IsBdf(c.filetype)) {
      spec.channels[0].dmin = -8388608;
      spec.channels[0].dmax = 8388607;
      spec.channels[1].dmin = -100000;
      spec.channels[1].dmax = 300000;
    }
    spec.records = 3;
    spec.record_duration_10us = 50000;  // 0.5 s
    spec.seed = 7;
    if (c.filetype == EDFLIB_FILETYPE_BDFPLUS) {
      spec.annotations = {{2500, 2500, "Movement"}, {9000, -1, "Button"}};
    }
    const fs::path file = scratch_.path() / c.name;
    if (c.filetype == EDFLIB_FILETYPE_EDF || c.filetype == EDFLIB_FILETYPE_BDF) {
      // EDFlib writes only EDF+/BDF+: write that, then drop its annotation channel.
      spec.filetype = IsBdf(c.filetype) ? EDFLIB_FILETYPE_BDFPLUS : EDFLIB_FILETYPE_EDFPLUS;
      WriteWithEdflib(file, spec);
      WriteBytes(file, WithoutAnnotationChannel(ReadBytes(file), IsBdf(c.filetype)));
    } else {
      WriteWithEdflib(file, spec);
    }
    const EdflibRead oracle = ReadWithEdflib(file);
    ASSERT_EQ(oracle.hdr.filetype, c.filetype);
    for (bool digital : {false, true}) {
      ReadOptions options;
      options.keep_digital = digital;
      auto record = ReadEdf(file, options);
      ExpectMatchesEdflib(*record, oracle, digital);
      EXPECT_EQ(record->metadata()["edf"]["format"], c.format);
    }
  }
}

TEST_F(EdfImportTest, ImportFilesWritesOneRecordPerFileReadableByTheReader) {
  std::vector<fs::path> files;
  std::vector<EdflibRead> oracles;
  for (int i = 0; i < 2; ++i) {
    FileSpec spec = EdfPlusSpec();
    spec.seed = 100 + i;
    spec.records = 4 + i;  // EdfPlusSpec's annotations end at 3.75 s: within every record
    files.push_back(scratch_.path() / ("in" + std::to_string(i) + ".edf"));
    WriteWithEdflib(files.back(), spec);
    oracles.push_back(ReadWithEdflib(files.back()));
  }
  manifest::Card card;
  card.dataset_id = "test/edf";
  card.dataset_version = "1.0.0";
  card.name = "EDF import";
  card.description = "EDFlib files";
  card.license = manifest::License::kCc0_1_0;
  std::vector<ImportProgress> seen;
  ImportOptions options;
  // An import compresses at its own default level, not the writer's.
  EXPECT_EQ(options.write.compression_level, kImportCompressionLevel);
  EXPECT_NE(kImportCompressionLevel, WriteOptions{}.compression_level);
  options.write.compression_level = 1;
  options.progress = [&](const ImportProgress& p) { seen.push_back(p); };
  const WriteResult result =
      ImportFiles(ImportFormat::kEdf, files, card, scratch_.path() / "root", options);
  EXPECT_EQ(result.release_dir, scratch_.path() / "root" / "test" / "edf" / "1.0.0");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].files_read, 2);
  EXPECT_EQ(seen[1].file, files[1]);

  Reader reader = Reader::Open(result.release_dir);
  auto records = reader.GetRecords({1, 2});
  ASSERT_EQ(records.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(files[i].string());
    EXPECT_EQ(records[i]->metadata()["source_file"], files[i].string());
    ExpectMatchesEdflib(*records[i], oracles[i], /*digital=*/false);
  }
}

TEST_F(EdfImportTest, ValuesStreamInPiecesOfBoundedSize) {
  FileSpec spec;
  spec.channels = {{"ECG II", 20000, -5.0, 5.0, -32768, 32767, "mV"},
                   {"Resp chest", 10, -1.0, 1.0, -1000, 1000, "mV"}};
  spec.records = 100;  // 2,000,000 ECG samples, 4 MB
  const fs::path file = scratch_.path() / "long.edf";
  WriteWithEdflib(file, spec);
  const EdflibRead oracle = ReadWithEdflib(file);
  auto record = ReadEdf(file);
  for (size_t i = 0; i < 2; ++i) {
    const model::Signal& signal = *record->Signals()[i];
    std::vector<int64_t> sizes;
    int64_t at = 0;
    signal.VisitValues([&](model::ValueArray piece) {
      sizes.push_back(piece.size());
      const auto values = piece.values<float>();
      for (int64_t k = 0; k < piece.size(); ++k, ++at) {
        ASSERT_EQ(values[k], PhysicalOf(oracle.digital[i][at], oracle.hdr.signalparam[i]));
      }
    });
    EXPECT_EQ(at, signal.n_values());
    // Blocks of about 1 MiB of the file: at most 512 Ki 16-bit samples per piece.
    for (int64_t size : sizes) {
      EXPECT_LE(size, int64_t{1} << 19);
    }
    if (i == 0) {
      EXPECT_GE(sizes.size(), 4u);
    }
  }
}

TEST_F(EdfImportTest, UnknownUnitIsStoredAsUnknownWithAWarning) {
  FileSpec spec = EdfPlusSpec();
  spec.channels[3].unit = "furlongs";
  const fs::path file = scratch_.path() / "unit.edf";
  WriteWithEdflib(file, spec);
  std::vector<std::string> warnings;
  ReadOptions options;
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  auto record = ReadEdf(file, options);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("furlongs"), std::string::npos);
  EXPECT_NE(warnings[0].find(file.string()), std::string::npos);
  EXPECT_EQ(record->Signals()[3]->spec()->unit, std::nullopt);
  EXPECT_EQ(record->Signals()[3]->metadata()["edf"]["physical_dimension"], "furlongs");
  EXPECT_EQ(record->Signals()[3]->metadata()["unit_warning"], warnings[0]);
}

TEST_F(EdfImportTest, ConflictingSpecsNameBothFilesAndTheOverrideResolvesThem) {
  FileSpec a = EdfPlusSpec();
  FileSpec b = EdfPlusSpec();
  b.channels[0].unit = "mV";  // eeg in millivolt here, microvolt in a
  const fs::path fa = scratch_.path() / "a.edf";
  const fs::path fb = scratch_.path() / "b.edf";
  WriteWithEdflib(fa, a);
  WriteWithEdflib(fb, b);
  manifest::Card card;
  card.dataset_id = "test/conflict";
  card.dataset_version = "1.0.0";
  card.name = "c";
  card.description = "c";
  card.license = manifest::License::kCc0_1_0;
  const fs::path root = scratch_.path() / "root";
  try {
    ImportFiles(ImportFormat::kEdf, {fa, fb}, card, root);
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.path(), fb);
    EXPECT_EQ(e.where(), "label[0]");
    EXPECT_NE(e.problem().find(fa.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(root / "test" / "conflict" / "1.0.0"));
  ImportOptions options;
  options.read.spec_types["EEG Fpz-Cz"] = "eeg_fpz";
  ImportFiles(ImportFormat::kEdf, {fa}, card, root, options);
  EXPECT_TRUE(fs::exists(root / "test" / "conflict" / "1.0.0" / "manifest.json"));
}

// ---- malformed files ----

// Offset of channel field `field_offset` (bytes per channel `width`) of channel `i` in a header
// with `ns` channels (EDF spec order).
size_t ChannelFieldAt(size_t ns, size_t before_per_channel, size_t width, size_t i) {
  return 256 + ns * before_per_channel + i * width;
}

void Put(std::string& bytes, size_t at, std::string_view text, size_t width) {
  std::string field(text);
  field.resize(width, ' ');
  bytes.replace(at, width, field);
}

class MalformedEdfTest : public EdfImportTest {
 protected:
  void SetUp() override {
    good_ = scratch_.path() / "good.edf";
    FileSpec spec;
    spec.channels = {MixedChannels()[0], MixedChannels()[2]};
    spec.records = 2;
    spec.annotations = {{5000, -1, "Mark"}};
    WriteWithEdflib(good_, spec);
    bytes_ = ReadBytes(good_);
    ASSERT_NO_THROW(ReadEdf(good_));
  }

  // Writes `bytes` and expects ReadEdf to raise FormatError naming the file and `where`.
  void ExpectFormatError(const std::string& bytes, const std::string& where,
                         const std::string& problem_part) {
    const fs::path bad = scratch_.path() / "bad.edf";
    WriteBytes(bad, bytes);
    try {
      ReadEdf(bad);
      ADD_FAILURE() << "no error for " << where;
    } catch (const FormatError& e) {
      EXPECT_EQ(e.path(), bad) << e.what();
      EXPECT_EQ(e.where(), where) << e.what();
      EXPECT_NE(e.problem().find(problem_part), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos);
    }
  }

  static constexpr size_t kNs = 3;  // two ordinary channels and EDFlib's annotation channel
  fs::path good_;
  std::string bytes_;
};

TEST_F(MalformedEdfTest, FixedHeaderFields) {
  std::string b = bytes_;
  Put(b, 236, "two", 8);
  ExpectFormatError(b, "number of data records", "not an integer");
  b = bytes_;
  Put(b, 236, "-1", 8);
  ExpectFormatError(b, "number of data records", "unknown");
  b = bytes_;
  Put(b, 236, "3", 8);  // more records than the file holds
  ExpectFormatError(b, "number of data records", "truncated");
  ExpectFormatError(bytes_.substr(0, bytes_.size() - 10), "number of data records", "truncated");
  ExpectFormatError(bytes_ + "xx", "number of data records", "trailing");
  b = bytes_;
  Put(b, 184, "512", 8);
  ExpectFormatError(b, "number of bytes in header", "256 × (signals + 1)");
  b = bytes_;
  Put(b, 168, "31.02.21", 8);
  ExpectFormatError(b, "startdate", "no such date");
  b = bytes_;
  Put(b, 176, "25.00.00", 8);
  ExpectFormatError(b, "starttime", "no such time");
  b = bytes_;
  Put(b, 192, "EDF+D", 44);
  ExpectFormatError(b, "reserved", "discontinuous");
  b = bytes_;
  Put(b, 244, "0", 8);
  ExpectFormatError(b, "duration of a data record", "sample rate of zero");
  b = bytes_;
  Put(b, 244, "1s", 8);
  ExpectFormatError(b, "duration of a data record", "decimal");
  b = bytes_;
  Put(b, 0, "1", 8);
  ExpectFormatError(b, "version", "not an EDF or BDF file");
  b = bytes_;
  b[100] = '\x01';
  ExpectFormatError(b, "local recording identification", "printable US-ASCII");
  ExpectFormatError(bytes_.substr(0, 100), "header", "shorter than the 256-byte fixed header");
}

TEST_F(MalformedEdfTest, ChannelFields) {
  std::string b = bytes_;
  // digital minimum of channel 1 (fields: label 16, transducer 80, dimension 8, pmin 8, pmax 8,
  // dmin 8, dmax 8, prefilter 80, samples 8, reserved 32).
  Put(b, ChannelFieldAt(kNs, 16 + 80 + 8 + 8 + 8, 8, 1), "200", 8);
  ExpectFormatError(b, "digital minimum[1]", "not below digital maximum");
  b = bytes_;
  Put(b, ChannelFieldAt(kNs, 16 + 80 + 8 + 8 + 8 + 8, 8, 0), "40000", 8);
  ExpectFormatError(b, "digital maximum[0]", "16-bit range");
  b = bytes_;
  Put(b, ChannelFieldAt(kNs, 16 + 80 + 8, 8, 0), "200", 8);  // pmin = pmax = 200
  ExpectFormatError(b, "physical minimum[0]", "equals physical maximum");
  b = bytes_;
  Put(b, ChannelFieldAt(kNs, 16 + 80 + 8 + 8, 8, 1), "1,5", 8);
  ExpectFormatError(b, "physical maximum[1]", "not a finite decimal");
  b = bytes_;
  Put(b, ChannelFieldAt(kNs, 16 + 80 + 8 + 8 + 8 + 8 + 8 + 80, 8, 0), "0", 8);
  ExpectFormatError(b, "number of samples in each data record[0]", "sample rate of zero");
  b = bytes_;
  b[ChannelFieldAt(kNs, 0, 16, 1) + 2] = '\xe9';
  ExpectFormatError(b, "label[1]", "printable US-ASCII");
  b = bytes_;
  Put(b, ChannelFieldAt(kNs, 0, 16, 2), "Annotations", 16);  // EDF+ without annotation channel
  ExpectFormatError(b, "label", "needs an 'EDF Annotations' channel");
}

TEST_F(MalformedEdfTest, AnnotationChannel) {
  // The annotation channel is the last of each data record: spr(0) 100 + spr(1) 7 samples first.
  const size_t header = 256 * (kNs + 1);
  const size_t annot = header + (100 + 7) * 2;
  std::string b = bytes_;
  ASSERT_EQ(b[annot], '+');
  b[annot] = 'x';
  ExpectFormatError(b, "data record 0, channel 2 'EDF Annotations'", "onset");
  b = bytes_;
  // The second record's time-keeping onset: "+1" → "+7" (not contiguous).
  const size_t record_bytes = (bytes_.size() - header) / 2;
  ASSERT_EQ(b.substr(annot + record_bytes, 2), "+1");
  b[annot + record_bytes + 1] = '7';
  ExpectFormatError(b, "data record 1, channel 2 'EDF Annotations'", "not contiguous");
}

TEST_F(MalformedEdfTest, MissingFileAndFileChangedBeforeItsValuesAreRead) {
  try {
    ReadEdf(scratch_.path() / "missing.edf");
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_EQ(e.path(), scratch_.path() / "missing.edf");
  }
  auto record = ReadEdf(good_);
  WriteBytes(good_, bytes_.substr(0, bytes_.size() - 2));
  try {
    record->Signals()[0]->LoadValues();
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.path(), good_);
    EXPECT_NE(e.problem().find("changed"), std::string::npos) << e.what();
  }
}

TEST(EdfTal, OnsetsAndDurationsToMicros) {
  using importers::ParseSecondsToMicros;
  EXPECT_EQ(ParseSecondsToMicros("+0", true), 0);
  EXPECT_EQ(ParseSecondsToMicros("+12.5", true), 12'500'000);
  EXPECT_EQ(ParseSecondsToMicros("-0.000001", true), -1);
  EXPECT_EQ(ParseSecondsToMicros("+1.0000010", true), 1'000'001);
  EXPECT_EQ(ParseSecondsToMicros("+1.0000001", true), std::nullopt);  // below 1 µs
  EXPECT_EQ(ParseSecondsToMicros("12", true), std::nullopt);          // the sign is required
  EXPECT_EQ(ParseSecondsToMicros("12", false), 12'000'000);
  EXPECT_EQ(ParseSecondsToMicros("+1.2.3", true), std::nullopt);
  EXPECT_EQ(ParseSecondsToMicros("+", true), std::nullopt);

  const std::string bytes(
      "+0\x14\x14Start\x14\x00+1.5\x15"
      "2\x14"
      "A\x14"
      "B\x14\x00\x00\x00",
      25);
  const auto tals = importers::ParseTals(bytes, "f.edf", "w");
  ASSERT_EQ(tals.size(), 2u);
  EXPECT_EQ(tals[0].onset_us, 0);
  EXPECT_EQ(tals[0].duration_us, std::nullopt);
  EXPECT_EQ(tals[0].texts, (std::vector<std::string>{"", "Start"}));
  EXPECT_EQ(tals[1].onset_us, 1'500'000);
  EXPECT_EQ(tals[1].duration_us, 2'000'000);
  EXPECT_EQ(tals[1].texts, (std::vector<std::string>{"A", "B"}));
  for (const std::string& bad : {std::string("+1\x14"
                                             "A",
                                             4),
                                 std::string("+1\x14\x00", 4),
                                 std::string("+1\x15-2\x14"
                                             "A\x14\x00",
                                             9),
                                 std::string("+1\x14\xff\x14\x00", 6)}) {
    EXPECT_THROW(importers::ParseTals(bad, "f.edf", "w"), FormatError)
        << core::PrintableForMessage(bad);
  }
}

TEST(ModalityTable, LabelsMapToSpecTypes) {
  EXPECT_EQ(ModalityOfLabel("EEG Fpz-Cz").spec_type, "eeg");
  EXPECT_EQ(ModalityOfLabel("eeg c3").spec_type, "eeg");
  EXPECT_EQ(ModalityOfLabel("EKG II").spec_type, "ecg");
  EXPECT_EQ(ModalityOfLabel("SaO2").spec_type, "spo2");
  EXPECT_EQ(ModalityOfLabel("Event marker").spec_type, kGenericSpecType);
  for (const ModalityEntry& entry : ModalityTable()) {
    EXPECT_EQ(ModalityOfLabel(entry.prefix).spec_type, entry.spec_type) << entry.prefix;
  }
}

}  // namespace
}  // namespace timef
