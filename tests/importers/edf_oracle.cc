#include "importers/edf_oracle.h"

#include <chrono>
#include <fstream>
#include <random>
#include <stdexcept>

namespace timef::edf_oracle {

bool IsBdf(int filetype) {
  return filetype == EDFLIB_FILETYPE_BDF || filetype == EDFLIB_FILETYPE_BDFPLUS;
}

// Writes `spec` with EDFlib; returns the digital samples written, per channel.
std::vector<std::vector<int>> WriteWithEdflib(const fs::path& path, const FileSpec& spec) {
  const int n = static_cast<int>(spec.channels.size());
  const int handle = edfopen_file_writeonly(path.c_str(), spec.filetype, n);
  if (handle < 0)
    throw std::runtime_error("edfopen_file_writeonly failed: " + std::to_string(handle));
  auto check = [](int rc, const char* what) {
    if (rc != 0) throw std::runtime_error(std::string("EDFlib ") + what + " failed");
  };
  check(edf_set_datarecord_duration(handle, spec.record_duration_10us), "datarecord_duration");
  if (spec.annotation_channels != 1) {
    check(edf_set_number_of_annotation_signals(handle, spec.annotation_channels),
          "number_of_annotation_signals");
  }
  for (int i = 0; i < n; ++i) {
    const ChannelSpec& c = spec.channels[i];
    check(edf_set_samplefrequency(handle, i, c.samples_per_record), "samplefrequency");
    check(edf_set_physical_maximum(handle, i, c.pmax), "physical_maximum");
    check(edf_set_physical_minimum(handle, i, c.pmin), "physical_minimum");
    check(edf_set_digital_maximum(handle, i, c.dmax), "digital_maximum");
    check(edf_set_digital_minimum(handle, i, c.dmin), "digital_minimum");
    check(edf_set_label(handle, i, c.label.c_str()), "label");
    check(edf_set_physical_dimension(handle, i, c.unit.c_str()), "physical_dimension");
    check(edf_set_transducer(handle, i, c.transducer.c_str()), "transducer");
    check(edf_set_prefilter(handle, i, c.prefilter.c_str()), "prefilter");
  }
  check(edf_set_startdatetime(handle, 2021, 3, 14, 15, 9, 26), "startdatetime");
  if (spec.subsecond_100ns != 0) {
    check(edf_set_subsecond_starttime(handle, spec.subsecond_100ns), "subsecond_starttime");
  }
  check(edf_set_patientname(handle, "Doe J"), "patientname");
  check(edf_set_patientcode(handle, "P-0042"), "patientcode");
  check(edf_set_equipment(handle, "Amp-3000"), "equipment");
  std::mt19937 rng(spec.seed);
  std::vector<std::vector<int>> written(n);
  for (int r = 0; r < spec.records; ++r) {
    for (int i = 0; i < n; ++i) {
      const ChannelSpec& c = spec.channels[i];
      std::uniform_int_distribution<int> dist(c.dmin, c.dmax);
      std::vector<int> samples(c.samples_per_record);
      for (int& s : samples) s = dist(rng);
      // The extremes appear in every file.
      samples[0] = c.dmin;
      samples.back() = c.dmax;
      check(edfwrite_digital_samples(handle, samples.data()), "write_digital_samples");
      written[i].insert(written[i].end(), samples.begin(), samples.end());
    }
  }
  for (const AnnotationSpec& a : spec.annotations) {
    check(edfwrite_annotation_utf8(handle, a.onset_100us, a.duration_100us, a.text.c_str()),
          "write_annotation");
  }
  check(edfclose_file(handle), "close");
  return written;
}

std::string Trimmed(const char* text) {
  std::string s(text);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

EdflibRead ReadWithEdflib(const fs::path& path) {
  EdflibRead out;
  if (edfopen_file_readonly(path.c_str(), &out.hdr, EDFLIB_READ_ALL_ANNOTATIONS) != 0) {
    throw std::runtime_error("EDFlib cannot read " + path.string() + ": " +
                             std::to_string(out.hdr.filetype));
  }
  const int h = out.hdr.handle;
  for (int i = 0; i < out.hdr.edfsignals; ++i) {
    const auto n = static_cast<int>(out.hdr.signalparam[i].smp_in_file);
    std::vector<int> digital(n);
    edfseek(h, i, 0, EDFSEEK_SET);
    if (edfread_digital_samples(h, i, n, digital.data()) != n) throw std::runtime_error("digital");
    std::vector<double> physical(n);
    edfseek(h, i, 0, EDFSEEK_SET);
    if (edfread_physical_samples(h, i, n, physical.data()) != n) throw std::runtime_error("phys");
    out.digital.push_back(std::move(digital));
    out.physical.push_back(std::move(physical));
  }
  for (long long k = 0; k < out.hdr.annotations_in_file; ++k) {
    edf_annotation_struct a{};
    if (edf_get_annotation(h, static_cast<int>(k), &a) != 0) throw std::runtime_error("annot");
    out.annotations.push_back(a);
  }
  edfclose_file(h);
  return out;
}

int64_t EdflibStartMicros(const edf_hdr_struct& hdr) {
  using namespace std::chrono;
  const sys_days start_day =
      year_month_day{year(hdr.startdate_year), month(static_cast<unsigned>(hdr.startdate_month)),
                     day(static_cast<unsigned>(hdr.startdate_day))};
  const int64_t seconds = start_day.time_since_epoch().count() * 86400LL +
                          hdr.starttime_hour * 3600LL + hdr.starttime_minute * 60LL +
                          hdr.starttime_second;
  return seconds * 1'000'000 + hdr.starttime_subsecond / 10;
}

float PhysicalOf(int digital, const edf_param_struct& p) {
  return static_cast<float>((static_cast<double>(digital) - p.dig_min) * (p.phys_max - p.phys_min) /
                                (static_cast<double>(p.dig_max) - p.dig_min) +
                            p.phys_min);
}

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A plain EDF (or BDF) file made from an EDF+ (BDF+) one by the EDF specification's layout: the
// annotation channel's header entries and data-record bytes dropped, the reserved field blank
// (BDF: "24BIT").
std::string WithoutAnnotationChannel(const std::string& in, bool bdf) {
  const size_t ns = std::stoul(in.substr(252, 4));
  const size_t widths[] = {16, 80, 8, 8, 8, 8, 8, 80, 8, 32};
  size_t drop = ns;
  std::vector<size_t> spr(ns);
  size_t at = 256;
  for (size_t f = 0; f < 10; ++f) {
    for (size_t i = 0; i < ns; ++i) {
      const std::string field = in.substr(at + i * widths[f], widths[f]);
      if (f == 0 && field.rfind(bdf ? "BDF Annotations" : "EDF Annotations", 0) == 0) drop = i;
      if (f == 8) spr[i] = std::stoul(field);
    }
    at += ns * widths[f];
  }
  if (drop == ns) throw std::runtime_error("no annotation channel");
  const size_t sample = bdf ? 3 : 2;
  std::string out = in.substr(0, 256);
  std::string ns_text = std::to_string(ns - 1);
  ns_text.resize(4, ' ');
  out.replace(252, 4, ns_text);
  std::string header_bytes = std::to_string(256 * ns);
  header_bytes.resize(8, ' ');
  out.replace(184, 8, header_bytes);
  std::string reserved = bdf ? "24BIT" : "";
  reserved.resize(44, ' ');
  out.replace(192, 44, reserved);
  at = 256;
  for (size_t f = 0; f < 10; ++f) {
    for (size_t i = 0; i < ns; ++i) {
      if (i != drop) out += in.substr(at + i * widths[f], widths[f]);
    }
    at += ns * widths[f];
  }
  size_t record_bytes = 0;
  size_t drop_offset = 0;
  for (size_t i = 0; i < ns; ++i) {
    if (i == drop) drop_offset = record_bytes;
    record_bytes += spr[i] * sample;
  }
  const size_t drop_bytes = spr[drop] * sample;
  for (size_t r = at; r + record_bytes <= in.size(); r += record_bytes) {
    out += in.substr(r, drop_offset);
    out += in.substr(r + drop_offset + drop_bytes, record_bytes - drop_offset - drop_bytes);
  }
  return out;
}

std::vector<ChannelSpec> MixedChannels() {
  return {
      {"EEG Fpz-Cz", 100, -200.0, 200.0, -32768, 32767, "uV"},
      {"EOG horizontal", 50, -500.5, 499.25, -2048, 2047, "uV"},
      {"Resp oro-nasal", 7, -1.0, 1.0, -100, 100, "mV"},
      {"Temp rectal", 1, 34.0, 40.0, 0, 6000, "degC"},
  };
}

FileSpec EdfPlusSpec() {
  FileSpec spec;
  spec.channels = MixedChannels();
  spec.records = 4;
  spec.subsecond_100ns = 1234000;  // 0.1234 s
  spec.annotations = {{0, -1, "Recording starts"},
                      {12500, 5000, "Sleep stage W"},
                      {23456, -1, "Lights off ☾"},
                      {30000, 7500, "Sleep stage W"},
                      {35000, 0, "Arousal"}};
  spec.annotation_channels = 2;  // five annotations in four data records
  return spec;
}

}  // namespace timef::edf_oracle
