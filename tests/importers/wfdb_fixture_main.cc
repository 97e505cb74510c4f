// Writes the WFDB records of the CLI test, the example and the Python tests with
// tests/importers/wfdb_writer (independent of the reader):
//
//   wfdb_fixture OUT_DIR [ECG_DIGITAL_FILE]
//
// OUT_DIR/rec212.{hea,dat,atr}: two signals interleaved in format 212 at 360 Hz with beat and
// rhythm annotations; OUT_DIR/rec212.ch0.txt its signal 0's physical values ((d − baseline) /
// gain as float32, 9 significant digits); OUT_DIR/rec16.{hea,dat}: format 16, units "NU" (not a
// known unit); OUT_DIR/bad/: a checksum mismatch (checksum), a truncated signal file (truncated),
// a header naming a missing signal file (missingdat), an annotation file with an unknown code
// (badcode), a sampling frequency of 0 (rate0), a non-numeric gain (nonnumeric).
// With ECG_DIGITAL_FILE (little-endian int16 samples, e.g. scipy's MIT-BIH record 208 excerpt):
// OUT_DIR/208.{hea,dat}, those samples as a format-212 record at 360 Hz, gain 200, ADC zero 1024,
// 11-bit ADC, as the MIT-BIH Arrhythmia Database stores them.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "importers/wfdb_writer.h"

namespace fs = std::filesystem;
namespace ww = timef::wfdb_writer;

namespace {

std::vector<int32_t> Wave(int64_t n, int32_t amplitude, int32_t period, int32_t phase) {
  std::vector<int32_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    // A triangle wave with a spike every period: integer arithmetic only.
    const int32_t t = static_cast<int32_t>((i + phase) % period);
    int32_t v = (t < period / 2 ? t : period - t) * 2 * amplitude / period - amplitude / 2;
    if (t == 3) v = amplitude;
    out[static_cast<size_t>(i)] = v;
  }
  return out;
}

ww::Record Rec212() {
  ww::Record r;
  r.name = "rec212";
  r.frequency = "360";
  r.base_time = "08:30:00";
  r.base_date = "14/03/2021";
  r.comments = {"69 M 1085 1629 x1", "Rhythm: Normal sinus rhythm, atrial fibrillation"};
  r.signals.push_back({.file = "rec212.dat",
                       .format = 212,
                       .gain = "200",
                       .adc_resolution = 11,
                       .adc_zero = 1024,
                       .description = "MLII",
                       .samples = Wave(3600, 1000, 300, 0)});
  for (auto& v : r.signals[0].samples) v += 1024;
  r.signals.push_back({.file = "rec212.dat",
                       .format = 212,
                       .gain = "200",
                       .baseline = -12,
                       .adc_resolution = 11,
                       .description = "ECG V1",
                       .samples = Wave(3600, 700, 300, 40)});
  return r;
}

std::vector<ww::Annotation> Rec212Annotations() {
  std::vector<ww::Annotation> out = {{.sample = 0, .code = 28, .aux = "(N"}};
  for (int64_t beat = 3; beat < 3600; beat += 300) {
    out.push_back({.sample = beat, .code = beat == 903 ? 5 : 1});
  }
  out.push_back({.sample = 1800, .code = 28, .aux = "(AFIB"});
  out.push_back({.sample = 2500, .code = 14, .subtype = 1, .chan = 1});
  std::stable_sort(out.begin(), out.end(), [](const ww::Annotation& a, const ww::Annotation& b) {
    return a.sample < b.sample;
  });
  return out;
}

int Fail(const std::string& what) {
  std::cerr << "wfdb_fixture: " << what << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::cerr << "usage: wfdb_fixture OUT_DIR [ECG_DIGITAL_FILE]\n";
    return 2;
  }
  try {
    const fs::path out = argv[1];
    fs::create_directories(out / "bad");
    const ww::Record rec = Rec212();
    ww::Write(out, rec);
    std::vector<ww::Annotation> annotations = Rec212Annotations();
    ww::WriteFile(out / "rec212.atr", ww::EncodeAnnotations(annotations));
    {
      std::ofstream txt(out / "rec212.ch0.txt");
      for (int32_t d : rec.signals[0].samples) {
        char line[64];
        std::snprintf(line, sizeof line, "%.9g\n",
                      static_cast<double>(static_cast<float>((d - 1024.0) / 200.0)));
        txt << line;
      }
    }
    ww::Record r16;
    r16.name = "rec16";
    r16.frequency = "125";
    r16.signals.push_back({.file = "rec16.dat",
                           .format = 16,
                           .gain = "1000",
                           .units = "NU",
                           .adc_resolution = 16,
                           .description = "Pleth",
                           .samples = Wave(1250, 20000, 125, 0)});
    ww::Write(out, r16);

    const fs::path bad = out / "bad";
    ww::Record checksum = rec;
    checksum.name = "checksum";
    for (auto& s : checksum.signals) s.file = "checksum.dat";
    checksum.signals[1].checksum = ww::Checksum(checksum.signals[1].samples) ^ 0x10;
    ww::Write(bad, checksum);

    ww::Record truncated = rec;
    truncated.name = "truncated";
    for (auto& s : truncated.signals) s.file = "truncated.dat";
    ww::Write(bad, truncated);
    fs::resize_file(bad / "truncated.dat", fs::file_size(bad / "truncated.dat") - 100);

    ww::Record missing = rec;
    missing.name = "missingdat";
    for (auto& s : missing.signals) s.file = "missingdat.dat";
    ww::Write(bad, missing);
    fs::remove(bad / "missingdat.dat");

    ww::Record badcode = rec;
    badcode.name = "badcode";
    for (auto& s : badcode.signals) s.file = "badcode.dat";
    ww::Write(bad, badcode);
    annotations.push_back({.sample = 3000, .code = 44});
    std::stable_sort(
        annotations.begin(), annotations.end(),
        [](const ww::Annotation& a, const ww::Annotation& b) { return a.sample < b.sample; });
    ww::WriteFile(bad / "badcode.atr", ww::EncodeAnnotations(annotations));

    ww::Record rate0 = rec;
    rate0.name = "rate0";
    rate0.frequency = "0";
    for (auto& s : rate0.signals) s.file = "rate0.dat";
    ww::Write(bad, rate0);

    ww::Record nonnumeric = rec;
    nonnumeric.name = "nonnumeric";
    nonnumeric.signals[1].gain = "2OO";
    for (auto& s : nonnumeric.signals) s.file = "nonnumeric.dat";
    ww::Write(bad, nonnumeric);

    if (argc == 3) {
      std::ifstream in(argv[2], std::ios::binary);
      if (!in) return Fail(std::string("cannot read ") + argv[2]);
      const std::string bytes((std::istreambuf_iterator<char>(in)), {});
      ww::Record ecg;
      ecg.name = "208";
      ecg.frequency = "360";
      ww::Signal s{.file = "208.dat",
                   .format = 212,
                   .gain = "200",
                   .units = "mV",
                   .adc_resolution = 11,
                   .adc_zero = 1024,
                   .description = "MLII"};
      for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
        s.samples.push_back(static_cast<int16_t>(
            static_cast<uint16_t>(static_cast<unsigned char>(bytes[i]) |
                                  (static_cast<unsigned char>(bytes[i + 1]) << 8))));
      }
      ecg.signals.push_back(std::move(s));
      ww::Write(out, ecg);
    }
    return 0;
  } catch (const std::exception& error) {
    return Fail(error.what());
  }
}
