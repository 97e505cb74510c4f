#include "importers/wfdb_writer.h"

#include <fstream>
#include <map>
#include <stdexcept>

namespace timef::wfdb_writer {
namespace {

void Put16Le(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}

}  // namespace

std::string Pack(int format, const std::vector<int32_t>& s) {
  std::string out;
  const size_t n = s.size();
  switch (format) {
    case 16:
      for (int32_t v : s) Put16Le(out, static_cast<uint32_t>(v));
      break;
    case 61:
      for (int32_t v : s) {
        out += static_cast<char>((static_cast<uint32_t>(v) >> 8) & 0xff);
        out += static_cast<char>(static_cast<uint32_t>(v) & 0xff);
      }
      break;
    case 80:
      for (int32_t v : s) out += static_cast<char>(static_cast<uint8_t>(v + 128));
      break;
    case 160:
      for (int32_t v : s) Put16Le(out, static_cast<uint32_t>(v + 32768));
      break;
    case 24:
      for (int32_t v : s) {
        const auto u = static_cast<uint32_t>(v);
        out += static_cast<char>(u & 0xff);
        out += static_cast<char>((u >> 8) & 0xff);
        out += static_cast<char>((u >> 16) & 0xff);
      }
      break;
    case 32:
      for (int32_t v : s) {
        const auto u = static_cast<uint32_t>(v);
        for (int k = 0; k < 4; ++k) out += static_cast<char>((u >> (8 * k)) & 0xff);
      }
      break;
    case 212:
      // signal(5): sample 1 is the 12 low bits of the first byte pair; sample 2 the pair's 4 high
      // bits (its high nibble) and the next byte.
      for (size_t i = 0; i < n; i += 2) {
        const auto a = static_cast<uint32_t>(s[i]) & 0xfff;
        const uint32_t b = i + 1 < n ? static_cast<uint32_t>(s[i + 1]) & 0xfff : 0;
        out += static_cast<char>(a & 0xff);
        out += static_cast<char>(((a >> 8) & 0x0f) | (((b >> 8) & 0x0f) << 4));
        if (i + 1 < n) out += static_cast<char>(b & 0xff);
      }
      break;
    case 310:
      // Two byte pairs: samples 1 and 2 in bits 1-10 of each, sample 3's low 5 bits in bits
      // 11-15 of the first pair and its high 5 bits in bits 11-15 of the second.
      for (size_t i = 0; i < n; i += 3) {
        const auto a = static_cast<uint32_t>(s[i]) & 0x3ff;
        const uint32_t b = i + 1 < n ? static_cast<uint32_t>(s[i + 1]) & 0x3ff : 0;
        const uint32_t c = i + 2 < n ? static_cast<uint32_t>(s[i + 2]) & 0x3ff : 0;
        Put16Le(out, (a << 1) | ((c & 0x1f) << 11));
        if (i + 1 < n) Put16Le(out, (b << 1) | ((c >> 5) << 11));
      }
      break;
    case 311:
      // One little-endian 32-bit word: bits 0-9, 10-19, 20-29.
      for (size_t i = 0; i < n; i += 3) {
        const auto a = static_cast<uint32_t>(s[i]) & 0x3ff;
        const uint32_t b = i + 1 < n ? static_cast<uint32_t>(s[i + 1]) & 0x3ff : 0;
        const uint32_t c = i + 2 < n ? static_cast<uint32_t>(s[i + 2]) & 0x3ff : 0;
        const uint32_t w = a | (b << 10) | (c << 20);
        const size_t bytes = i + 2 < n ? 4 : (i + 1 < n ? 3 : 2);
        for (size_t k = 0; k < bytes; ++k) out += static_cast<char>((w >> (8 * k)) & 0xff);
      }
      break;
    default:
      throw std::invalid_argument("wfdb_writer: format " + std::to_string(format));
  }
  return out;
}

int64_t Checksum(const std::vector<int32_t>& samples) {
  uint32_t sum = 0;
  for (int32_t v : samples) sum += static_cast<uint32_t>(v);
  return static_cast<int16_t>(static_cast<uint16_t>(sum & 0xffff));
}

std::string HeaderText(const Record& r) {
  std::string out;
  for (const std::string& c : r.comments) out += "# " + c + "\n";
  out += r.name + " " + std::to_string(r.signals.size());
  if (!r.frequency.empty()) {
    int64_t frames = 0;
    if (!r.signals.empty()) {
      frames = static_cast<int64_t>(r.signals[0].samples.size()) / r.signals[0].samples_per_frame;
    }
    out += " " + r.frequency + " " + std::to_string(r.n_frames.value_or(frames));
    if (!r.base_time.empty()) {
      out += " " + r.base_time;
      if (!r.base_date.empty()) out += " " + r.base_date;
    }
  }
  out += "\n";
  for (const Signal& s : r.signals) {
    out += s.file + " " + std::to_string(s.format);
    if (s.samples_per_frame != 1) out += "x" + std::to_string(s.samples_per_frame);
    if (s.byte_offset != 0) out += "+" + std::to_string(s.byte_offset);
    if (!s.gain.empty()) {
      out += " " + s.gain;
      if (s.baseline) out += "(" + std::to_string(*s.baseline) + ")";
      if (!s.units.empty()) out += "/" + s.units;
      const int64_t initial = s.samples.empty() ? 0 : s.samples[0];
      out += " " + std::to_string(s.adc_resolution) + " " + std::to_string(s.adc_zero) + " " +
             std::to_string(initial) + " " +
             std::to_string(s.checksum.value_or(Checksum(s.samples))) + " 0";
      if (!s.description.empty()) out += " " + s.description;
    }
    out += "\n";
  }
  return out;
}

void WriteFile(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("wfdb_writer: cannot write " + path.string());
}

std::filesystem::path Write(const std::filesystem::path& dir, const Record& r) {
  std::filesystem::create_directories(dir);
  // Signals of one file: frames interleaved, each signal's samples_per_frame samples in turn.
  size_t i = 0;
  while (i < r.signals.size()) {
    size_t end = i;
    while (end < r.signals.size() && r.signals[end].file == r.signals[i].file) ++end;
    const int64_t frames =
        static_cast<int64_t>(r.signals[i].samples.size()) / r.signals[i].samples_per_frame;
    std::vector<int32_t> stream;
    for (int64_t f = 0; f < frames; ++f) {
      for (size_t k = i; k < end; ++k) {
        const Signal& s = r.signals[k];
        for (int j = 0; j < s.samples_per_frame; ++j) {
          stream.push_back(s.samples[static_cast<size_t>(f * s.samples_per_frame + j)]);
        }
      }
    }
    std::string bytes(static_cast<size_t>(r.signals[i].byte_offset), static_cast<char>(0xAB));
    bytes += Pack(r.signals[i].format, stream);
    WriteFile(dir / r.signals[i].file, bytes);
    i = end;
  }
  const std::filesystem::path header = dir / (r.name + ".hea");
  WriteFile(header, HeaderText(r));
  return header;
}

std::string EncodeAnnotations(const std::vector<Annotation>& annotations) {
  // annot(5): a 16-bit word, least significant byte first: code in the 6 high bits, the time
  // since the previous annotation (or a pseudo-code's value) in the 10 low bits.
  std::string out;
  auto word = [&out](uint32_t code, uint32_t value) {
    Put16Le(out, (code << 10) | (value & 0x3ff));
  };
  int64_t time = 0;
  int num = 0;
  int chan = 0;
  for (const Annotation& a : annotations) {
    int64_t delta = a.sample - time;
    if (delta < 0) throw std::invalid_argument("wfdb_writer: annotations out of time order");
    if (delta > 1023) {
      // SKIP, then the interval as a PDP-11 long: high 16 bits first, each half low byte first.
      word(59, 0);
      const auto skip = static_cast<uint32_t>(delta);
      Put16Le(out, skip >> 16);
      Put16Le(out, skip & 0xffff);
      delta = 0;
    }
    word(static_cast<uint32_t>(a.code), static_cast<uint32_t>(delta));
    time = a.sample;
    if (a.num != num) {
      word(60, static_cast<uint32_t>(a.num));
      num = a.num;
    }
    if (a.subtype != 0) word(61, static_cast<uint32_t>(a.subtype));
    if (a.chan != chan) {
      word(62, static_cast<uint32_t>(a.chan));
      chan = a.chan;
    }
    if (!a.aux.empty()) {
      word(63, static_cast<uint32_t>(a.aux.size()));
      out += a.aux;
      if (a.aux.size() % 2 != 0) out += '\0';
    }
  }
  word(0, 0);
  return out;
}

}  // namespace timef::wfdb_writer
