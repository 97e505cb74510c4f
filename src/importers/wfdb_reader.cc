// WFDB records as Records: the header parsed and every signal file's length checked when the
// record is opened, the annotation files read then, each signal's samples decoded by a piece
// loader in blocks of frames (its checksum verified at the end of each pass).
#include "importers/wfdb_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>

#include "core/checksum.h"
#include "importers/input_file.h"
#include "importers/wfdb_header.h"
#include "timef/error.h"
#include "timef/units.h"

namespace timef::importers {
namespace {

namespace fs = std::filesystem;

// Bytes of signal file read at once (more when one frame is larger).
constexpr int64_t kWfdbBlockBytes = int64_t{1} << 20;
// Header files are text of a few lines; anything larger is not one.
constexpr int64_t kMaxHeaderBytes = int64_t{16} << 20;

// Signals stored in one file, interleaved frame by frame.
struct WfdbGroup {
  fs::path path;
  const WfdbFormat* format = nullptr;
  int64_t byte_offset = 0;
  int64_t frame_samples = 0;  // Σ samples per frame of its signals
  int64_t file_size = 0;
  std::vector<int> signals;              // header indices
  std::vector<int64_t> offset_in_frame;  // per signal of `signals`
};

struct WfdbData {
  WfdbHeader header;
  std::vector<WfdbGroup> groups;
  int64_t n_frames = 0;
};

std::string SignalWhere(const WfdbSignal& s) {
  return "signal " + std::to_string(s.index) + " '" + s.description + "'";
}

// Reads the header at `path` (a whole file of at most kMaxHeaderBytes).
std::string ReadHeaderText(const fs::path& path) {
  InputFile file(path);
  if (file.size() > kMaxHeaderBytes) {
    throw FormatError(ErrorSite{.file = path},
                      "is " + std::to_string(file.size()) +
                          " bytes, too large for a WFDB header file (a header is a few lines)");
  }
  std::string text(static_cast<size_t>(file.size()), '\0');
  file.ReadAt(0, text);
  return text;
}

// Frames a file of `available` bytes (after the byte offset) holds, or nullopt when its length
// is not a whole number of frames.
std::optional<int64_t> FramesInBytes(const WfdbGroup& g, int64_t available) {
  const WfdbFormat& f = *g.format;
  int64_t samples = available / f.unit_bytes * f.unit_samples;
  const int64_t rest = available % f.unit_bytes;
  for (int k = f.unit_samples - 1; k >= 1; --k) {
    if (WfdbBytesOf(f, k).min <= rest) {
      samples += k;
      break;
    }
  }
  const int64_t frames = samples / g.frame_samples;
  const WfdbByteRange range = WfdbBytesOf(f, frames * g.frame_samples);
  if (available < range.min || available > range.max) return std::nullopt;
  return frames;
}

// The header's groups, each file opened and its length checked against the frame count.
WfdbData OpenRecord(const fs::path& header_path) {
  WfdbData data;
  data.header = ParseWfdbHeader(header_path, ReadHeaderText(header_path));
  const WfdbHeader& h = data.header;
  if (h.signals.empty()) {
    throw FormatError(ErrorSite{.file = header_path, .where = "number of signals"},
                      "the record has no signals: nothing to import");
  }
  for (const WfdbSignal& s : h.signals) {
    if (data.groups.empty() ||
        h.signals[static_cast<size_t>(data.groups.back().signals.back())].file_name !=
            s.file_name) {
      WfdbGroup g;
      g.path = header_path.parent_path() / s.file_name;
      g.format = s.format;
      g.byte_offset = s.byte_offset;
      data.groups.push_back(std::move(g));
    }
    WfdbGroup& g = data.groups.back();
    g.signals.push_back(s.index);
    g.offset_in_frame.push_back(g.frame_samples);
    g.frame_samples += s.samples_per_frame;
  }
  std::optional<int64_t> inferred;
  for (WfdbGroup& g : data.groups) {
    const WfdbSignal& first = h.signals[static_cast<size_t>(g.signals.front())];
    std::error_code ec;
    if (!fs::is_regular_file(g.path, ec)) {
      throw MissingFileError(ErrorSite{.file = g.path, .where = "signal file"},
                             "named by " + header_path.string() + " line " +
                                 std::to_string(first.line) + " (" + SignalWhere(first) +
                                 ") but missing or not a regular file");
    }
    InputFile file(g.path);
    g.file_size = file.size();
    const int64_t available = g.file_size - g.byte_offset;
    const std::string layout = "format " + std::to_string(g.format->code) + ", " +
                               std::to_string(g.frame_samples) + " samples per frame";
    if (h.n_frames) {
      if (*h.n_frames > (std::numeric_limits<int64_t>::max() / 8) / g.frame_samples) {
        throw FormatError(ErrorSite{.file = header_path, .where = "number of samples"},
                          "is too large: " + std::to_string(*h.n_frames));
      }
      const WfdbByteRange need = WfdbBytesOf(*g.format, *h.n_frames * g.frame_samples);
      if (available < need.min || available > need.max) {
        throw FormatError(
            ErrorSite{.file = g.path, .where = "length"},
            "is " + std::to_string(g.file_size) + " bytes; " + header_path.filename().string() +
                " says " + std::to_string(*h.n_frames) + " samples per signal, which need " +
                (need.min == need.max
                     ? std::to_string(need.min)
                     : std::to_string(need.min) + " to " + std::to_string(need.max)) +
                " bytes after a " + std::to_string(g.byte_offset) + "-byte offset (" + layout +
                (available < need.min ? "): the file is truncated" : "): the file is longer"));
      }
    } else {
      const std::optional<int64_t> frames =
          available < 0 ? std::nullopt : FramesInBytes(g, available);
      if (!frames) {
        throw FormatError(ErrorSite{.file = g.path, .where = "length"},
                          "is " + std::to_string(g.file_size) + " bytes, not a " +
                              std::to_string(g.byte_offset) +
                              "-byte offset plus a whole number of frames (" + layout + ")");
      }
      if (inferred && *inferred != *frames) {
        throw FormatError(ErrorSite{.file = g.path, .where = "length"},
                          "holds " + std::to_string(*frames) + " frames, another signal file " +
                              std::to_string(*inferred) + " (the header gives no sample count)");
      }
      inferred = frames;
    }
  }
  data.n_frames = h.n_frames ? *h.n_frames : *inferred;
  if (data.n_frames == 0) {
    throw FormatError(ErrorSite{.file = data.groups.front().path, .where = "length"},
                      "holds no samples");
  }
  return data;
}

// Period of one sample of a signal with `spf` samples per frame: 10^6 · den / (num · spf) µs,
// reduced. FormatError when it is below 1 µs or does not fit.
std::pair<int64_t, int64_t> SamplePeriod(const WfdbHeader& h, int64_t spf) {
  __int128 num = static_cast<__int128>(1'000'000) * h.freq_den;
  __int128 den = static_cast<__int128>(h.freq_num) * spf;
  ReduceFraction(num, den);
  const std::string rate = (h.frequency_text.empty() ? "250" : h.frequency_text) + " Hz × " +
                           std::to_string(spf) + " samples per frame";
  if (num < den) {
    throw FormatError(ErrorSite{.file = h.path, .where = "sampling frequency"},
                      rate + " is faster than 1 MHz: a period below 1 µs cannot be stored");
  }
  if (num > std::numeric_limits<int64_t>::max() || den > std::numeric_limits<int64_t>::max()) {
    throw FormatError(ErrorSite{.file = h.path, .where = "sampling frequency"},
                      rate + " gives a period that does not fit a 64-bit fraction of µs");
  }
  return {static_cast<int64_t>(num), static_cast<int64_t>(den)};
}

model::DType DigitalDType(const WfdbFormat& f) {
  if (f.bits <= 8) return model::DType::kInt8;
  if (f.bits <= 16) return model::DType::kInt16;
  return model::DType::kInt32;
}

// The piece loader of signal `index`: decodes its group's file in blocks of whole packing units,
// emits the signal's samples (physical float32, or digital integers), nulls for the format's
// invalid value, and checks the header's checksum at the end of the pass.
model::PieceLoader SignalLoader(std::shared_ptr<const WfdbData> data, size_t group_index,
                                size_t member, bool keep_digital) {
  return [data, group_index, member, keep_digital](const model::PieceSink& emit) {
    const WfdbGroup& g = data->groups[group_index];
    const WfdbSignal& s = data->header.signals[static_cast<size_t>(g.signals[member])];
    const WfdbFormat& f = *g.format;
    InputFile file(g.path);
    if (file.size() != g.file_size) {
      throw FormatError(ErrorSite{.file = g.path},
                        "the file is " + std::to_string(file.size()) + " bytes now, " +
                            std::to_string(g.file_size) +
                            " when its header was read: it changed during the import");
    }
    // Frames per block: a multiple of `step` so that every block starts on a unit boundary.
    const int64_t step = f.unit_samples / std::gcd<int64_t>(f.unit_samples, g.frame_samples);
    const int64_t frame_bytes =
        std::max<int64_t>(1, g.frame_samples * f.unit_bytes / f.unit_samples);
    const int64_t per_block = std::max<int64_t>(step, kWfdbBlockBytes / frame_bytes / step * step);
    const int64_t spf = s.samples_per_frame;
    const int64_t in_frame = g.offset_in_frame[member];
    const double baseline = static_cast<double>(s.baseline);
    const double gain = s.gain;
    const model::DType digital_dtype = DigitalDType(f);
    uint32_t sum = 0;     // Σ samples mod 2^32 (its low 16 bits are the checksum)
    int64_t invalid = 0;  // samples holding the invalid value
    std::vector<unsigned char> bytes;
    std::vector<int32_t> decoded;
    std::vector<int32_t> picked;
    std::vector<uint8_t> validity;
    for (int64_t first = 0; first < data->n_frames; first += per_block) {
      const int64_t count = std::min(per_block, data->n_frames - first);
      const int64_t samples = count * g.frame_samples;
      const int64_t units = (samples + f.unit_samples - 1) / f.unit_samples;
      const int64_t start = g.byte_offset + first * g.frame_samples / f.unit_samples * f.unit_bytes;
      const int64_t available = std::min<int64_t>(units * f.unit_bytes, g.file_size - start);
      bytes.assign(static_cast<size_t>(units * f.unit_bytes), 0);
      file.ReadAt(start, std::span<char>(reinterpret_cast<char*>(bytes.data()),
                                         static_cast<size_t>(available)));
      decoded.resize(static_cast<size_t>(units * f.unit_samples));
      DecodeWfdbUnits(f, bytes.data(), units, decoded.data());
      picked.resize(static_cast<size_t>(count * spf));
      validity.assign(0, 0);
      bool any_null = false;
      for (int64_t i = 0; i < count; ++i) {
        const int32_t* frame = decoded.data() + i * g.frame_samples + in_frame;
        for (int64_t j = 0; j < spf; ++j) {
          const int32_t v = frame[j];
          sum += static_cast<uint32_t>(v);
          if (v == f.invalid) {
            ++invalid;
            any_null = true;
          }
          picked[static_cast<size_t>(i * spf + j)] = v;
        }
      }
      if (any_null) {
        validity.resize(picked.size());
        for (size_t k = 0; k < picked.size(); ++k) validity[k] = picked[k] == f.invalid ? 0 : 1;
      }
      if (!keep_digital) {
        std::vector<float> out(picked.size());
        for (size_t k = 0; k < picked.size(); ++k) {
          out[k] = picked[k] == f.invalid
                       ? 0.0f
                       : static_cast<float>((static_cast<double>(picked[k]) - baseline) / gain);
        }
        emit(model::ValueArray::Of(std::move(out), std::move(validity)));
      } else if (digital_dtype == model::DType::kInt8) {
        std::vector<int8_t> out(picked.begin(), picked.end());
        for (size_t k = 0; k < out.size(); ++k) {
          if (picked[k] == f.invalid) out[k] = 0;
        }
        emit(model::ValueArray::Of(std::move(out), std::move(validity)));
      } else if (digital_dtype == model::DType::kInt16) {
        std::vector<int16_t> out(picked.size());
        for (size_t k = 0; k < out.size(); ++k) {
          out[k] = picked[k] == f.invalid ? 0 : static_cast<int16_t>(picked[k]);
        }
        emit(model::ValueArray::Of(std::move(out), std::move(validity)));
      } else {
        for (size_t k = 0; k < picked.size(); ++k) {
          if (picked[k] == f.invalid) picked[k] = 0;
        }
        emit(model::ValueArray::Of(std::vector<int32_t>(picked), std::move(validity)));
      }
    }
    // header(5): the checksum is verified when the header gives the number of samples.
    if (s.checksum && data->header.n_frames) {
      const auto low16 = [](int64_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v)); };
      const int16_t want = low16(*s.checksum);
      const int16_t got = low16(sum);
      // WFDB's own writer sums an invalid sample as -32768 whatever the format stores.
      const int16_t got_invalid_as_min =
          low16(static_cast<int64_t>(sum) + invalid * (-32768 - static_cast<int64_t>(f.invalid)));
      if (got != want && got_invalid_as_min != want) {
        throw FormatError(ErrorSite{.file = g.path, .where = SignalWhere(s) + " checksum"},
                          "the samples sum to " + std::to_string(got) +
                              " (16-bit checksum), the header " +
                              data->header.path.filename().string() + " line " +
                              std::to_string(s.line) + " says " + std::to_string(*s.checksum) +
                              ": the signal file is corrupt or does not belong to the header");
      }
    }
  };
}

Json JsonOrNull(const std::optional<int64_t>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// The header path of an input: the path itself when it ends in ".hea", else the record name's
// header `<input>.hea`.
fs::path HeaderPathOf(const fs::path& input) {
  if (input.extension() == ".hea") return input;
  fs::path header = input;
  header += ".hea";
  return header;
}

// Reads the annotation files into `record`'s annotations; returns their descriptions for the
// record's metadata.
Json ReadAnnotationFiles(const WfdbData& data, const fs::path& header_path,
                         const ReadOptions& options,
                         const std::pair<int64_t, int64_t>& frame_period, model::Record& record,
                         Json& source_files) {
  std::vector<std::string> annotators = options.wfdb_annotators;
  const bool defaulted = annotators.empty();
  if (defaulted) annotators.push_back("atr");
  Json out = Json::array();
  std::map<std::string, std::shared_ptr<const model::AnnotationContent>> contents;
  for (const std::string& annotator : annotators) {
    fs::path path = header_path;
    path.replace_extension("." + annotator);
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      if (defaulted) continue;
      throw MissingFileError(ErrorSite{.file = path, .where = "annotator '" + annotator + "'"},
                             "the annotation file of annotator '" + annotator + "' is missing");
    }
    std::string bytes;
    {
      InputFile file(path);
      bytes.resize(static_cast<size_t>(file.size()));
      file.ReadAt(0, bytes);
    }
    WfdbAnnotations parsed = ParseMitAnnotations(path, bytes);
    Json defined = Json::object();
    for (const auto& [code, label] : parsed.defined) {
      defined[std::to_string(code)] = {{"mnemonic", label.mnemonic},
                                       {"description", label.description}};
    }
    if (options.checksum) {
      source_files.push_back({{"file", path.string()}, {"sha256", FileChecksum(path)}});
    }
    Json mnemonics = Json::object();  // the mnemonics used and what they mean
    for (const WfdbAnnotation& a : parsed.annotations) {
      if (a.sample >= data.n_frames) {
        throw FormatError(
            ErrorSite{.file = path, .where = "annotation at sample " + std::to_string(a.sample)},
            "is past the record's end (" + std::to_string(data.n_frames) + " samples per signal)");
      }
      const auto found = parsed.defined.find(a.code);
      const WfdbCode code =
          found != parsed.defined.end() ? found->second : *StandardWfdbCode(a.code);
      mnemonics[code.mnemonic] = code.description;
      auto& content = contents[code.mnemonic];
      if (!content) {
        content = std::make_shared<model::AnnotationContent>(
            "label", model::AnnotationValue::OfText(code.mnemonic));
      }
      const __int128 at_us =
          static_cast<__int128>(a.sample) * frame_period.first / frame_period.second;
      if (at_us > std::numeric_limits<int64_t>::max()) {
        throw FormatError(
            ErrorSite{.file = path, .where = "annotation at sample " + std::to_string(a.sample)},
            "its time in µs does not fit 64 bits");
      }
      const auto at = static_cast<int64_t>(at_us);
      auto occurrence = record.Annotate(content, model::TimePoint{at});
      Json metadata = {{"annotator", annotator},
                       {"sample", a.sample},
                       {"subtype", a.subtype},
                       {"chan", a.chan},
                       {"num", a.num}};
      if (a.aux) metadata["aux"] = *a.aux;
      occurrence->set_metadata(std::move(metadata));
    }
    out.push_back({{"annotator", annotator},
                   {"file", path.string()},
                   {"annotations", parsed.annotations.size()},
                   {"mnemonics", std::move(mnemonics)},
                   {"defined_codes", std::move(defined)}});
  }
  return out;
}

}  // namespace

std::shared_ptr<model::Record> ReadWfdbRecord(const fs::path& input, const ReadOptions& options,
                                              SpecTable& specs) {
  const fs::path header_path = HeaderPathOf(input);
  auto data = std::make_shared<WfdbData>(OpenRecord(header_path));
  const WfdbHeader& h = data->header;

  auto record = std::make_shared<model::Record>();
  if (h.start_unix_us) record->set_start_time_us(*h.start_unix_us);
  Json source_files = Json::array();
  if (options.checksum) {
    for (const WfdbGroup& g : data->groups) {
      source_files.push_back({{"file", g.path.string()}, {"sha256", FileChecksum(g.path)}});
    }
  }
  const std::pair<int64_t, int64_t> frame_period = SamplePeriod(h, 1);
  Json annotations =
      ReadAnnotationFiles(*data, header_path, options, frame_period, *record, source_files);

  Json wfdb = {{"record", h.record_name},
               {"signals", h.n_signals},
               {"frequency", h.frequency_text.empty() ? Json(nullptr) : Json(h.frequency_text)},
               {"counter", h.counter_text},
               {"samples_per_signal", data->n_frames},
               {"samples_given", h.n_frames.has_value()},
               {"base_time", h.base_time_text},
               {"base_date", h.base_date_text},
               {"comments", h.comments},
               {"annotation_files", std::move(annotations)}};
  Json metadata = Json::object();
  metadata["source_file"] = header_path.string();
  if (options.checksum) {
    metadata["source_sha256"] = FileChecksum(header_path);
    metadata["source_files"] = std::move(source_files);
  }
  metadata["wfdb"] = std::move(wfdb);
  record->set_metadata(std::move(metadata));

  auto source = record->AddSource(h.record_name);
  std::map<int64_t, std::shared_ptr<const model::TimeAxis>> axes;  // by samples per frame
  for (size_t gi = 0; gi < data->groups.size(); ++gi) {
    const WfdbGroup& g = data->groups[gi];
    for (size_t m = 0; m < g.signals.size(); ++m) {
      const WfdbSignal& s = h.signals[static_cast<size_t>(g.signals[m])];
      auto& axis = axes[s.samples_per_frame];
      if (!axis) {
        const auto [num, den] = SamplePeriod(h, s.samples_per_frame);
        axis = model::TimeAxis::Regular(num, den);
      }
      const std::string label = s.description;
      Json signal_metadata = Json::object();
      Json w = {{"signal", s.index},
                {"file", s.file_name},
                {"format", s.format_code},
                {"samples_per_frame", s.samples_per_frame},
                {"byte_offset", s.byte_offset},
                {"adc_gain", s.adc_gain},
                {"baseline", s.baseline},
                {"units", s.units ? Json(*s.units) : Json(nullptr)},
                {"adc_resolution", s.adc_resolution},
                {"adc_zero", s.adc_zero},
                {"initial_value", JsonOrNull(s.initial_value)},
                {"checksum", JsonOrNull(s.checksum)},
                {"block_size", s.block_size},
                {"description", s.description_given ? Json(s.description) : Json(nullptr)},
                {"calibrated", s.adc_gain > 0}};
      // header(5): a signal without units is in millivolts.
      const std::string units_text = s.units.value_or("mV");
      std::optional<std::string> unit = ParseUnit(units_text);
      if (!unit) {
        const std::string warning = header_path.string() + ": line " + std::to_string(s.line) +
                                    ", units: '" + units_text + "' of '" + label +
                                    "' is not a known unit; the signal's unit is stored as unknown";
        signal_metadata["unit_warning"] = warning;
        if (options.warn) options.warn(warning);
      }
      const auto found = options.spec_types.find(label);
      const std::string spec_type = found != options.spec_types.end()
                                        ? found->second
                                        : std::string(ModalityOfLabel(label).spec_type);
      model::Spec spec{.spec_type = spec_type, .name = SpecNameOf(spec_type)};
      spec.nullable = true;  // the format's invalid value is a null
      if (options.keep_digital) {
        signal_metadata["gain"] = 1.0 / s.gain;
        signal_metadata["offset"] = -static_cast<double>(s.baseline) / s.gain;
        if (unit) signal_metadata["physical_unit"] = *unit;
        spec.dtype = DigitalDType(*s.format);
      } else {
        spec.unit = unit;
        spec.dtype = model::DType::kFloat32;
      }
      signal_metadata["wfdb"] = std::move(w);
      auto shared_spec = specs.Intern(std::move(spec), header_path,
                                      "line " + std::to_string(s.line) + ", description", label);
      auto signal = std::make_shared<model::Signal>(label, shared_spec, axis,
                                                    data->n_frames * s.samples_per_frame);
      signal->set_metadata(std::move(signal_metadata));
      signal->SetPieceLoader(SignalLoader(data, gi, m, options.keep_digital));
      source->AddSignal(signal);
    }
  }
  return record;
}

}  // namespace timef::importers

namespace timef {

std::shared_ptr<model::Record> ReadWfdb(const std::filesystem::path& path,
                                        const ReadOptions& options) {
  importers::SpecTable specs;
  return importers::ReadWfdbRecord(path, options, specs);
}

}  // namespace timef
