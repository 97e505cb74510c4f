// The WFDB importer against records written by tests/importers/wfdb_writer (an independent writer
// made from PhysioNet's header(5), signal(5) and annot(5)): every sample format, interleaved
// signals, several samples per frame, invalid samples, checksums, MIT annotations with every
// pseudo-code, and malformed records that must raise an error naming the file and the field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/checksum.h"
#include "importers/wfdb_header.h"
#include "importers/wfdb_writer.h"
#include "support/scratch_dir.h"
#include "timef/error.h"
#include "timef/importers.h"
#include "timef/reader.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
namespace ww = wfdb_writer;

// Digital samples covering a format's range: its extremes (but the invalid value) and random ones.
std::vector<int32_t> RangeSamples(int bits, int64_t n, uint32_t seed) {
  const int64_t lo = -(int64_t{1} << (bits - 1)) + 1;  // the invalid value lo - 1 left out
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<int32_t> out(static_cast<size_t>(n));
  for (auto& v : out) v = static_cast<int32_t>(dist(rng));
  out[0] = static_cast<int32_t>(lo);
  out[1] = static_cast<int32_t>(hi);
  out[2] = 0;
  return out;
}

int BitsOf(int format) {
  switch (format) {
    case 80:
      return 8;
    case 212:
      return 12;
    case 310:
    case 311:
      return 10;
    case 24:
      return 24;
    case 32:
      return 32;
    default:
      return 16;
  }
}

float Physical(int32_t d, int64_t baseline, double gain) {
  return static_cast<float>((static_cast<double>(d) - static_cast<double>(baseline)) / gain);
}

manifest::Card TestCard(const std::string& id) {
  manifest::Card card;
  card.dataset_id = id;
  card.dataset_version = "1.0.0";
  card.name = "WFDB import";
  card.description = "records written by tests/importers/wfdb_writer";
  card.license = manifest::License::kCc0_1_0;
  return card;
}

class WfdbImportTest : public ::testing::Test {
 protected:
  testing::ScratchDir scratch_;
};

// Two signals interleaved in one file, in every format, with an odd number of frames (so 212,
// 310 and 311 end on a partial unit): physical and digital values, units, rates, metadata.
TEST_F(WfdbImportTest, EveryFormatInterleavedMatchesTheWrittenSamples) {
  for (int format : {16, 61, 80, 160, 212, 24, 32, 310, 311}) {
    SCOPED_TRACE("format " + std::to_string(format));
    const int bits = BitsOf(format);
    const int64_t frames = 1001;
    ww::Record r;
    r.name = "f" + std::to_string(format);
    r.frequency = "500";
    r.signals.push_back({.file = r.name + ".dat",
                         .format = format,
                         .gain = "200.5",
                         .baseline = -37,
                         .units = "mV",
                         .adc_resolution = bits,
                         .description = "ECG lead II",
                         .samples = RangeSamples(bits, frames, 1)});
    r.signals.push_back({.file = r.name + ".dat",
                         .format = format,
                         .gain = "10",
                         .units = "mmHg",
                         .adc_resolution = bits,
                         .adc_zero = 3,
                         .description = "ABP",
                         .samples = RangeSamples(bits, frames, 2)});
    const fs::path header = ww::Write(scratch_.path(), r);
    auto record = ReadWfdb(header);
    const auto signals = record->Signals();
    ASSERT_EQ(signals.size(), 2u);
    EXPECT_EQ(record->sources().at(0)->name(), r.name);
    EXPECT_EQ(signals[0]->name(), "ECG lead II");
    EXPECT_EQ(signals[0]->spec()->spec_type, "ecg");
    EXPECT_EQ(signals[0]->spec()->unit, "millivolt");
    EXPECT_TRUE(signals[0]->spec()->nullable);
    EXPECT_EQ(signals[1]->name(), "ABP");
    EXPECT_EQ(signals[1]->spec()->spec_type, "signal");
    EXPECT_EQ(signals[1]->spec()->unit, "millimeter_Hg");
    const int64_t baselines[2] = {-37, 3};  // the second's baseline is its ADC zero
    const double gains[2] = {200.5, 10};
    for (size_t i = 0; i < 2; ++i) {
      const model::Signal& s = *signals[i];
      ASSERT_EQ(s.n_values(), frames);
      EXPECT_EQ(s.axis()->TimeOfStep(500), 1'000'000);
      EXPECT_EQ(s.axis()->TimeOfStep(1), 2'000);
      const auto values = s.LoadValues();
      ASSERT_EQ(values->dtype(), DType::kFloat32);
      EXPECT_FALSE(values->has_validity());
      const auto got = values->values<float>();
      for (int64_t k = 0; k < frames; ++k) {
        ASSERT_EQ(got[k], Physical(r.signals[i].samples[k], baselines[i], gains[i]))
            << "sample " << k << " digital " << r.signals[i].samples[k];
      }
      EXPECT_EQ(s.metadata()["wfdb"]["format"], format);
      EXPECT_EQ(s.metadata()["wfdb"]["baseline"], baselines[i]);
      EXPECT_EQ(s.metadata()["wfdb"]["checksum"], ww::Checksum(r.signals[i].samples));
    }
    // The digital integers, with gain and offset (physical = digital × gain + offset).
    ReadOptions digital;
    digital.keep_digital = true;
    auto kept = ReadWfdb(header, digital);
    for (size_t i = 0; i < 2; ++i) {
      const model::Signal& s = *kept->Signals()[i];
      const auto values = s.LoadValues();
      const DType want = bits <= 8 ? DType::kInt8 : bits <= 16 ? DType::kInt16 : DType::kInt32;
      ASSERT_EQ(values->dtype(), want);
      EXPECT_EQ(s.spec()->unit, std::nullopt);
      const double gain = s.metadata()["gain"].get<double>();
      const double offset = s.metadata()["offset"].get<double>();
      EXPECT_DOUBLE_EQ(gain, 1.0 / gains[i]);
      EXPECT_DOUBLE_EQ(offset, -static_cast<double>(baselines[i]) / gains[i]);
      for (int64_t k = 0; k < frames; ++k) {
        int64_t v = 0;
        if (want == DType::kInt8) v = values->values<int8_t>()[k];
        if (want == DType::kInt16) v = values->values<int16_t>()[k];
        if (want == DType::kInt32) v = values->values<int32_t>()[k];
        ASSERT_EQ(v, r.signals[i].samples[k]) << "sample " << k;
      }
    }
  }
}

// Signals in two files, one with two samples per frame and a byte offset; the record by its
// name (no .hea); base time and date; comments; the sha256 of every file.
TEST_F(WfdbImportTest, GroupsSamplesPerFrameOffsetsAndRecordMetadata) {
  ww::Record r;
  r.name = "multi";
  r.frequency = "125";
  r.base_time = "13:05:09.25";
  r.base_date = "25/4/1989";
  r.comments = {"age: 61 sex: F"};
  const int64_t frames = 301;
  r.signals.push_back({.file = "multi_a.dat",
                       .format = 212,
                       .description = "Resp chest",
                       .samples = RangeSamples(12, frames, 3)});
  r.signals.push_back({.file = "multi_b.dat",
                       .format = 16,
                       .byte_offset = 24,
                       .description = "ECG V1",
                       .samples = RangeSamples(16, frames, 4)});
  r.signals.push_back({.file = "multi_b.dat",
                       .format = 16,
                       .samples_per_frame = 2,
                       .byte_offset = 24,
                       .units = "uV",
                       .description = "EEG C3",
                       .samples = RangeSamples(16, frames * 2, 5)});
  ww::Write(scratch_.path(), r);
  auto record = ReadWfdb(scratch_.path() / "multi");
  const auto signals = record->Signals();
  ASSERT_EQ(signals.size(), 3u);
  EXPECT_EQ(signals[0]->spec()->spec_type, "respiration");
  EXPECT_EQ(signals[2]->spec()->spec_type, "eeg");
  EXPECT_EQ(signals[2]->spec()->unit, "microvolt");
  EXPECT_EQ(signals[0]->n_values(), frames);
  EXPECT_EQ(signals[2]->n_values(), frames * 2);
  EXPECT_EQ(signals[0]->axis()->TimeOfStep(1), 8'000);
  EXPECT_EQ(signals[2]->axis()->TimeOfStep(1), 4'000);
  for (size_t i = 0; i < 3; ++i) {
    const auto loaded = signals[i]->LoadValues();
    const auto got = loaded->values<float>();
    for (int64_t k = 0; k < signals[i]->n_values(); ++k) {
      ASSERT_EQ(got[k], Physical(r.signals[i].samples[k], 0, 200)) << i << " sample " << k;
    }
  }
  // 25 April 1989 13:05:09.25 UTC.
  EXPECT_EQ(record->start_time_us(), int64_t{609'512'709} * 1'000'000 + 250'000);
  const Json& m = record->metadata();
  EXPECT_EQ(m["source_file"], (scratch_.path() / "multi.hea").string());
  EXPECT_EQ(m["source_sha256"], FileChecksum(scratch_.path() / "multi.hea"));
  ASSERT_EQ(m["source_files"].size(), 2u);
  EXPECT_EQ(m["source_files"][1]["sha256"], FileChecksum(scratch_.path() / "multi_b.dat"));
  EXPECT_EQ(m["wfdb"]["comments"][0], "age: 61 sex: F");
  EXPECT_EQ(m["wfdb"]["samples_per_signal"], frames);
  EXPECT_EQ(signals[2]->metadata()["wfdb"]["samples_per_frame"], 2);
  EXPECT_EQ(signals[1]->metadata()["wfdb"]["byte_offset"], 24);
}

// The format's invalid value (e.g. -2048 in format 212) is a null, never a value; the header's
// checksum counts it either as stored or as WFDB's -32768.
TEST_F(WfdbImportTest, InvalidSamplesAreNulls) {
  for (int format : {212, 16, 80, 311}) {
    SCOPED_TRACE(format);
    const int bits = BitsOf(format);
    const int32_t invalid = -(1 << (bits - 1));
    ww::Record r;
    r.name = "inv" + std::to_string(format);
    std::vector<int32_t> samples = RangeSamples(bits, 40, 6);
    samples[5] = invalid;
    samples[39] = invalid;
    r.signals.push_back(
        {.file = r.name + ".dat", .format = format, .description = "ECG", .samples = samples});
    const fs::path header = ww::Write(scratch_.path(), r);
    for (bool digital : {false, true}) {
      ReadOptions options;
      options.keep_digital = digital;
      const auto values = ReadWfdb(header, options)->Signals()[0]->LoadValues();
      EXPECT_EQ(values->null_count(), 2);
      EXPECT_FALSE(values->IsValid(5));
      EXPECT_FALSE(values->IsValid(39));
      EXPECT_TRUE(values->IsValid(6));
    }
    // A checksum computed with the invalid samples as -32768 (the WFDB library's writer).
    uint32_t sum = 0;
    for (int32_t v : samples) sum += static_cast<uint32_t>(v == invalid ? -32768 : v);
    r.signals[0].checksum = static_cast<int16_t>(static_cast<uint16_t>(sum & 0xffff));
    ww::Write(scratch_.path(), r);
    EXPECT_EQ(ReadWfdb(header)->Signals()[0]->LoadValues()->null_count(), 2);
  }
}

TEST_F(WfdbImportTest, ChecksumMismatchNamesTheFileAndSignal) {
  ww::Record r;
  r.name = "sum";
  r.signals.push_back({.file = "sum.dat",
                       .format = 212,
                       .description = "ECG I",
                       .samples = RangeSamples(12, 100, 7)});
  r.signals.push_back({.file = "sum.dat",
                       .format = 212,
                       .description = "ECG II",
                       .samples = RangeSamples(12, 100, 8)});
  r.signals[1].checksum = ww::Checksum(r.signals[1].samples) + 1;
  const fs::path header = ww::Write(scratch_.path(), r);
  auto record = ReadWfdb(header);
  EXPECT_NO_THROW(record->Signals()[0]->LoadValues());
  try {
    record->Signals()[1]->LoadValues();
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.path(), scratch_.path() / "sum.dat");
    EXPECT_EQ(e.where(), "signal 1 'ECG II' checksum");
    EXPECT_NE(std::string(e.what()).find("sum.hea line 3"), std::string::npos) << e.what();
  }
  // Nothing is published when a checksum fails during the write.
  EXPECT_THROW(
      ImportFiles(ImportFormat::kWfdb, {header}, TestCard("test/sum"), scratch_.path() / "root"),
      FormatError);
  EXPECT_FALSE(fs::exists(scratch_.path() / "root" / "test" / "sum" / "1.0.0"));
}

// annot(5): SKIP for long intervals, NUM and CHN carried to later annotations, SUB for one, AUX
// text; a modification label defining code 42.
TEST_F(WfdbImportTest, MitAnnotationsWithEveryPseudoCode) {
  ww::Record r;
  r.name = "ann";
  r.frequency = "360";
  r.signals.push_back({.file = "ann.dat",
                       .format = 212,
                       .description = "MLII",
                       .samples = RangeSamples(12, 400000, 9)});
  const fs::path header = ww::Write(scratch_.path(), r);
  const std::vector<ww::Annotation> written = {
      {.sample = 0, .code = 22, .aux = "## 42 X Extra beat kind"},
      {.sample = 0, .code = 28, .aux = "(N"},
      {.sample = 18, .code = 1},
      {.sample = 300, .code = 5, .subtype = 3, .chan = 1},
      {.sample = 301, .code = 1, .chan = 1, .num = 7},
      // A SKIP (interval > 1023); CHN and NUM carried over from the annotation before.
      {.sample = 300000, .code = 28, .chan = 1, .num = 7, .aux = "(AFIB"},
      {.sample = 300001, .code = 42, .num = 7},
      {.sample = 399999, .code = 14, .subtype = 1023, .num = 7, .aux = "qq"},
  };
  ww::WriteFile(scratch_.path() / "ann.atr", ww::EncodeAnnotations(written));
  auto record = ReadWfdb(header);
  const auto& got = record->annotations();
  ASSERT_EQ(got.size(), written.size() - 1);  // the modification label is not an annotation
  const std::vector<std::string> mnemonics = {"+", "N", "V", "N", "+", "X", "~"};
  for (size_t i = 0; i < got.size(); ++i) {
    const ww::Annotation& w = written[i + 1];
    const model::Annotation& a = *got[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(a.key(), "label");
    EXPECT_EQ(a.content()->value().text().Read(), mnemonics[i]);
    // floor(sample × 10^6 / 360) µs: the time of that sample on the signal's axis.
    EXPECT_EQ(a.span(), model::AnnotationSpan(model::TimePoint{w.sample * 1'000'000 / 360}));
    EXPECT_EQ(a.span(), model::AnnotationSpan(
                            model::TimePoint{record->Signals()[0]->axis()->TimeOfStep(w.sample)}));
    EXPECT_EQ(a.metadata()["sample"], w.sample);
    EXPECT_EQ(a.metadata()["subtype"], w.subtype);
    EXPECT_EQ(a.metadata()["chan"], w.chan);
    EXPECT_EQ(a.metadata()["num"], w.num);
    EXPECT_EQ(a.metadata()["annotator"], "atr");
    if (w.aux.empty()) {
      EXPECT_FALSE(a.metadata().contains("aux"));
    } else {
      EXPECT_EQ(a.metadata()["aux"], w.aux);
    }
  }
  // The writer wrote NUM and CHN only where they change: later annotations carry them.
  EXPECT_EQ(got[6]->metadata()["num"], 7);
  EXPECT_EQ(got[4]->metadata()["chan"], 1);
  EXPECT_TRUE(got[1]->content() == got[3]->content());  // one content per mnemonic
  const Json& files = record->metadata()["wfdb"]["annotation_files"];
  EXPECT_EQ(files[0]["defined_codes"]["42"]["mnemonic"], "X");
  EXPECT_EQ(files[0]["mnemonics"]["X"], "Extra beat kind");
  EXPECT_EQ(files[0]["mnemonics"]["N"], "Normal beat");
  EXPECT_EQ(files[0]["mnemonics"].size(), 5u);  // +, N, V, X, ~

  // Another annotator by name; a named annotator's missing file is an error.
  ww::WriteFile(scratch_.path() / "ann.qrs", ww::EncodeAnnotations({{.sample = 5, .code = 1}}));
  ReadOptions options;
  options.wfdb_annotators = {"qrs"};
  auto qrs = ReadWfdb(header, options);
  ASSERT_EQ(qrs->annotations().size(), 1u);
  EXPECT_EQ(qrs->annotations()[0]->metadata()["annotator"], "qrs");
  options.wfdb_annotators = {"ecg"};
  EXPECT_THROW(ReadWfdb(header, options), MissingFileError);

  // Through a release: the annotations and their metadata read back.
  const WriteResult result =
      ImportFiles(ImportFormat::kWfdb, {header}, TestCard("test/ann"), scratch_.path() / "root");
  Reader reader = Reader::Open(result.release_dir);
  auto records = reader.GetRecords({1});
  ASSERT_EQ(records.size(), 1u);
  const auto& back = records[0]->annotations();
  ASSERT_EQ(back.size(), got.size());
  for (size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i]->span(), got[i]->span());
    EXPECT_EQ(back[i]->content()->value(), got[i]->content()->value());
    ASSERT_EQ(back[i]->metadata().size(), got[i]->metadata().size());
    for (const auto& [key, value] : got[i]->metadata().items()) {
      EXPECT_EQ(back[i]->metadata()[key], value) << key;  // key order is the reader's
    }
  }
  const auto loaded = records[0]->Signals()[0]->LoadValues();
  const auto values = loaded->values<float>();
  for (int64_t k = 0; k < 400000; k += 997) {
    ASSERT_EQ(values[k], Physical(r.signals[0].samples[k], 0, 200));
  }
}

void ExpectFormatError(const std::function<void()>& fn, const fs::path& file,
                       const std::string& where, const std::string& text = "") {
  try {
    fn();
    ADD_FAILURE() << "no error for " << file << " " << where;
  } catch (const FormatError& e) {
    EXPECT_EQ(e.path(), file) << e.what();
    EXPECT_EQ(e.where(), where) << e.what();
    if (!text.empty()) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  }
}

TEST_F(WfdbImportTest, MalformedRecordsNameTheFileAndField) {
  ww::Record good;
  good.name = "bad";
  good.signals.push_back({.file = "bad.dat",
                          .format = 212,
                          .description = "ECG",
                          .samples = RangeSamples(12, 11, 10)});
  const fs::path dir = scratch_.path();
  const fs::path header = dir / "bad.hea";
  auto with_header = [&](const std::string& text) { ww::WriteFile(header, text); };
  auto read = [&] { ReadWfdb(header); };

  ww::Write(dir, good);
  // A truncated signal file, and one longer than the header's count.
  const std::string dat = ww::Pack(212, good.signals[0].samples);
  ww::WriteFile(dir / "bad.dat", dat.substr(0, dat.size() - 3));
  ExpectFormatError(read, dir / "bad.dat", "length", "truncated");
  ww::WriteFile(dir / "bad.dat", dat + "xyz");
  ExpectFormatError(read, dir / "bad.dat", "length", "longer");
  ww::WriteFile(dir / "bad.dat", dat);
  EXPECT_NO_THROW(read());

  const std::string text = ww::HeaderText(good);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    return t;
  };
  with_header(replaced("bad 1 250 11", "bad 1 250 12"));
  ExpectFormatError(read, dir / "bad.dat", "length", "truncated");
  with_header(replaced("bad 1 250 11", "bad 1 250 1x"));
  ExpectFormatError(read, header, "line 1, number of samples");
  with_header(replaced("bad 1 250 11", "bad 1 0 11"));
  ExpectFormatError(read, header, "line 1, sampling frequency");
  with_header(replaced("bad 1 250 11", "bad 1 abc 11"));
  ExpectFormatError(read, header, "line 1, sampling frequency");
  with_header(replaced("bad 1 250 11", "bad/2 1 250 11"));
  ExpectFormatError(read, header, "line 1, record name", "multi-segment");
  with_header(replaced("bad 1 250 11", "bad 2 250 11"));
  ExpectFormatError(read, header, "line 2, signal lines");
  with_header(replaced(" 200/mV", " 2x0/mV"));
  ExpectFormatError(read, header, "line 2, ADC gain");
  with_header(replaced("bad.dat 212", "bad.dat 8"));
  ExpectFormatError(read, header, "line 2, format", "format 8");
  with_header(replaced("bad.dat 212", "bad.dat 212:3"));
  ExpectFormatError(read, header, "line 2, skew");
  with_header(replaced(" 12 0 ", " twelve 0 "));
  ExpectFormatError(read, header, "line 2, ADC resolution");
  with_header(replaced("bad 1 250 11", "bad 1 250 11 25:00:00"));
  ExpectFormatError(read, header, "line 1, base time");
  with_header(replaced("bad 1 250 11", "bad 1 250 11 10:00:00 31/02/2020"));
  ExpectFormatError(read, header, "line 1, base date");
  with_header(replaced("bad 1 250 11", "bad 1 2000000 11"));
  ExpectFormatError(read, header, "sampling frequency", "1 MHz");
  with_header("");
  ExpectFormatError(read, header, "record line");
  // A header naming a missing signal file.
  with_header(replaced("bad.dat 212", "gone.dat 212"));
  try {
    read();
    ADD_FAILURE() << "no error";
  } catch (const MissingFileError& e) {
    EXPECT_EQ(e.path(), dir / "gone.dat");
    EXPECT_NE(std::string(e.what()).find("bad.hea line 2"), std::string::npos) << e.what();
  }
  // Without a sample count the length decides; one that is not whole frames is refused.
  with_header(replaced("bad 1 250 11", "bad 1 250"));
  EXPECT_EQ(ReadWfdb(header)->Signals()[0]->n_values(), 11);
  ww::WriteFile(dir / "bad.dat", dat.substr(0, dat.size() - 1));
  ExpectFormatError(read, dir / "bad.dat", "length", "whole number of frames");
  ww::WriteFile(dir / "bad.dat", dat);
  with_header(text);
  EXPECT_THROW(ReadWfdb(dir / "nothere"), MissingFileError);

  // Annotation files: an unknown code, a truncated file, a time past the record's end.
  const fs::path atr = dir / "bad.atr";
  ww::WriteFile(atr, ww::EncodeAnnotations({{.sample = 1, .code = 45}}));
  ExpectFormatError(read, atr, "annotation at sample 1", "unknown annotation code 45");
  ww::WriteFile(atr, ww::EncodeAnnotations({{.sample = 1, .code = 52}}));
  ExpectFormatError(read, atr, "byte 0", "code 52");
  std::string bytes = ww::EncodeAnnotations({{.sample = 1, .code = 1, .aux = "(AFIB"}});
  ww::WriteFile(atr, bytes.substr(0, 6));
  ExpectFormatError(read, atr, "byte 2", "inside an AUX");
  ww::WriteFile(atr, bytes.substr(0, bytes.size() - 2));
  ExpectFormatError(read, atr, "byte " + std::to_string(bytes.size() - 2), "end-of-file");
  ww::WriteFile(atr, ww::EncodeAnnotations({{.sample = 11, .code = 1}}));
  ExpectFormatError(read, atr, "annotation at sample 11", "past the record's end");
}

TEST_F(WfdbImportTest, ValuesStreamInPiecesOfBoundedSize) {
  ww::Record r;
  r.name = "long";
  r.frequency = "1000";
  const int64_t frames = 1'500'001;
  r.signals.push_back({.file = "long.dat",
                       .format = 212,
                       .description = "ECG",
                       .samples = RangeSamples(12, frames, 11)});
  r.signals.push_back({.file = "long.dat",
                       .format = 212,
                       .description = "Resp",
                       .samples = RangeSamples(12, frames, 12)});
  const fs::path header = ww::Write(scratch_.path(), r);
  auto record = ReadWfdb(header);
  for (size_t i = 0; i < 2; ++i) {
    std::vector<int64_t> sizes;
    int64_t at = 0;
    record->Signals()[i]->VisitValues([&](model::ValueArray piece) {
      sizes.push_back(piece.size());
      const auto values = piece.values<float>();
      for (int64_t k = 0; k < piece.size(); ++k, ++at) {
        ASSERT_EQ(values[k], Physical(r.signals[i].samples[at], 0, 200));
      }
    });
    EXPECT_EQ(at, frames);
    // Blocks of about 1 MiB of the file (3 bytes per frame here).
    for (int64_t size : sizes) EXPECT_LE(size, (int64_t{1} << 20) / 3 + 2);
    EXPECT_GE(sizes.size(), 4u);
  }
}

TEST(WfdbParserTest, HeaderFieldsAndDefaults) {
  const std::string text =
      "# a comment\n"
      "100 2 360/100(5) 650000\r\n"
      "\n"
      "100.dat 212 200 11 1024 995 -22131 0 MLII\n"
      "100.dat 212 0(-3) 11 1024 1011 20052 0   V5  lead \n";
  const auto h = importers::ParseWfdbHeader("100.hea", text);
  EXPECT_EQ(h.record_name, "100");
  EXPECT_EQ(h.freq_num, 360);
  EXPECT_EQ(h.freq_den, 1);
  EXPECT_EQ(h.counter_text, "100(5)");
  EXPECT_EQ(h.n_frames, 650000);
  ASSERT_EQ(h.signals.size(), 2u);
  EXPECT_EQ(h.signals[0].baseline, 1024);  // the ADC zero
  EXPECT_EQ(h.signals[0].checksum, -22131);
  EXPECT_EQ(h.signals[0].units, std::nullopt);
  EXPECT_EQ(h.signals[1].description, "V5  lead");
  EXPECT_EQ(h.signals[1].baseline, -3);
  EXPECT_EQ(h.signals[1].gain, 200);  // gain 0: uncalibrated, DEFGAIN assumed
  EXPECT_EQ(h.comments.size(), 1u);
  const auto f = importers::ParseWfdbHeader("x.hea", "x 1 62.5e0\nx.dat 16\n");
  EXPECT_EQ(f.freq_num, 125);
  EXPECT_EQ(f.freq_den, 2);
  EXPECT_EQ(f.signals[0].description, "record x, signal 0");
  EXPECT_EQ(f.n_frames, std::nullopt);
}

// Bytes whose samples are known from outside this code: the first three bytes of the MIT-BIH
// Arrhythmia Database's 100.dat (format 212) hold the two samples its header gives as initial
// values, 995 and 1011; 310 and 311 words built bit by bit from signal(5)'s description.
TEST(WfdbParserTest, DecodesKnownBytes) {
  int32_t out[3] = {};
  const unsigned char mitdb100[3] = {0xe3, 0x33, 0xf3};
  importers::DecodeWfdbUnits(*importers::FindWfdbFormat(212), mitdb100, 1, out);
  EXPECT_EQ(out[0], 995);
  EXPECT_EQ(out[1], 1011);
  const unsigned char negative212[3] = {0xff, 0x8f, 0x00};  // -1 and -2048
  importers::DecodeWfdbUnits(*importers::FindWfdbFormat(212), negative212, 1, out);
  EXPECT_EQ(out[0], -1);
  EXPECT_EQ(out[1], -2048);
  // 310: samples 5, -3, 300 (0b01001 01100 in 10 bits: low 5 bits 0b01100 in the first pair's
  // bits 11-15, high 5 bits 0b01001 in the second's). Pair 1 = 5 << 1 | 12 << 11 = 0x600a; pair 2
  // = (-3 & 0x3ff) << 1 | 9 << 11 = 0x4ffa.
  const unsigned char f310[4] = {0x0a, 0x60, 0xfa, 0x4f};
  importers::DecodeWfdbUnits(*importers::FindWfdbFormat(310), f310, 1, out);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], -3);
  EXPECT_EQ(out[2], 300);
  // 311: 5 | (-3 & 0x3ff) << 10 | 300 << 20 = 0x12cff405.
  const unsigned char f311[4] = {0x05, 0xf4, 0xcf, 0x12};
  importers::DecodeWfdbUnits(*importers::FindWfdbFormat(311), f311, 1, out);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], -3);
  EXPECT_EQ(out[2], 300);
  const unsigned char f61[2] = {0xff, 0xfe};  // big-endian -2
  importers::DecodeWfdbUnits(*importers::FindWfdbFormat(61), f61, 1, out);
  EXPECT_EQ(out[0], -2);
}

}  // namespace
}  // namespace timef
