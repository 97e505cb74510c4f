// EDF/BDF files as Records: the header parsed once, the annotation channels read when the file is
// opened, each ordinary channel read by a piece loader in blocks of data records.
#include "importers/edf_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <system_error>

#include "core/checksum.h"
#include "importers/edf_header.h"
#include "importers/input_file.h"
#include "timef/error.h"
#include "timef/units.h"

namespace timef::importers {
namespace {

// Bytes of data records read at once (more when one record is larger).
constexpr int64_t kBlockBytes = int64_t{1} << 20;

// Reads the slice [slice_offset, slice_offset + slice_len) of every data record, in blocks, and
// calls fn(first_record, count, packed) with the slices of `count` records packed end to end.
template <class Fn>
void ForEachRecordBlock(const InputFile& file, const EdfHeader& header, int64_t slice_offset,
                        int64_t slice_len, Fn&& fn) {
  if (header.n_records == 0 || slice_len == 0) return;
  std::vector<char> packed;
  if (slice_len * 2 >= header.record_bytes || slice_len >= kBlockBytes / 4) {
    // A large part of each record: read only the slices, several records per block.
    const int64_t per_block = std::max<int64_t>(1, kBlockBytes / slice_len);
    for (int64_t first = 0; first < header.n_records; first += per_block) {
      const int64_t count = std::min(per_block, header.n_records - first);
      packed.resize(static_cast<size_t>(count * slice_len));
      if (slice_len == header.record_bytes) {
        file.ReadAt(header.header_bytes + first * header.record_bytes, packed);
      } else {
        for (int64_t r = 0; r < count; ++r) {
          file.ReadAt(header.header_bytes + (first + r) * header.record_bytes + slice_offset,
                      std::span<char>(packed).subspan(static_cast<size_t>(r * slice_len),
                                                      static_cast<size_t>(slice_len)));
        }
      }
      fn(first, count, std::string_view(packed.data(), packed.size()));
    }
    return;
  }
  // A small part of each record: read whole records and pick the slices out.
  const int64_t per_block = std::max<int64_t>(1, kBlockBytes / header.record_bytes);
  std::vector<char> block;
  for (int64_t first = 0; first < header.n_records; first += per_block) {
    const int64_t count = std::min(per_block, header.n_records - first);
    block.resize(static_cast<size_t>(count * header.record_bytes));
    file.ReadAt(header.header_bytes + first * header.record_bytes, block);
    packed.resize(static_cast<size_t>(count * slice_len));
    for (int64_t r = 0; r < count; ++r) {
      std::memcpy(packed.data() + r * slice_len,
                  block.data() + r * header.record_bytes + slice_offset,
                  static_cast<size_t>(slice_len));
    }
    fn(first, count, std::string_view(packed.data(), packed.size()));
  }
}

inline int32_t SampleAt(const char* p, int64_t sample_bytes) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  if (sample_bytes == 2) return static_cast<int16_t>(static_cast<uint16_t>(b[0] | (b[1] << 8)));
  const uint32_t v = static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
                     (static_cast<uint32_t>(b[2]) << 16);
  return static_cast<int32_t>(v << 8) >> 8;  // sign-extend 24 bits
}

// The piece loader of one ordinary channel.
model::PieceLoader ChannelLoader(std::shared_ptr<const EdfHeader> header, int channel,
                                 bool keep_digital) {
  return [header, channel, keep_digital](const model::PieceSink& emit) {
    const EdfChannel& c = header->channels[static_cast<size_t>(channel)];
    InputFile file(header->path);
    if (file.size() != header->file_size) {
      throw FormatError(ErrorSite{.file = header->path},
                        "the file is " + std::to_string(file.size()) + " bytes now, " +
                            std::to_string(header->file_size) +
                            " when its header was read: it changed during the import");
    }
    const int64_t sb = header->sample_bytes;
    const double dmin = c.digital_min;
    const double prange = c.physical_max - c.physical_min;
    const double drange = static_cast<double>(c.digital_max) - dmin;
    const double pmin = c.physical_min;
    ForEachRecordBlock(
        file, *header, c.offset_in_record, c.samples_per_record * sb,
        [&](int64_t, int64_t count, std::string_view packed) {
          const int64_t n = count * c.samples_per_record;
          const char* p = packed.data();
          if (!keep_digital) {
            std::vector<float> out(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) {
              const double d = SampleAt(p + i * sb, sb);
              out[static_cast<size_t>(i)] = static_cast<float>((d - dmin) * prange / drange + pmin);
            }
            emit(model::ValueArray::Of(std::move(out)));
          } else if (sb == 2) {
            std::vector<int16_t> out(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) {
              out[static_cast<size_t>(i)] = static_cast<int16_t>(SampleAt(p + i * sb, sb));
            }
            emit(model::ValueArray::Of(std::move(out)));
          } else {
            std::vector<int32_t> out(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = SampleAt(p + i * sb, sb);
            emit(model::ValueArray::Of(std::move(out)));
          }
        });
  };
}

std::vector<std::string> SplitSpaces(std::string_view text) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && text[at] == ' ') ++at;
    size_t end = at;
    while (end < text.size() && text[end] != ' ') ++end;
    if (end > at) parts.emplace_back(text.substr(at, end - at));
    at = end;
  }
  return parts;
}

// An EDF+ subfield: spaces are written as '_' (EDF+ spec 2.1.3.1).
std::string Subfield(std::string text) {
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

std::string JoinFrom(const std::vector<std::string>& parts, size_t from) {
  std::string out;
  for (size_t i = from; i < parts.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += parts[i];
  }
  return out;
}

Json RecordMetadata(const EdfHeader& header, int64_t start_offset_us) {
  Json edf = Json::object();
  edf["format"] = std::string(VariantName(header.variant));
  edf["patient"] = header.patient;
  edf["recording"] = header.recording;
  edf["startdate"] = header.start_date;
  edf["starttime"] = header.start_time;
  edf["reserved"] = header.reserved;
  edf["data_records"] = header.n_records;
  edf["data_record_duration"] = header.record_duration_text;
  if (header.plus()) {
    edf["start_offset_us"] = start_offset_us;
    // EDF+ subfields ("X" = not known, '_' read as a space), when the field has them all.
    const std::vector<std::string> patient = SplitSpaces(header.patient);
    if (patient.size() >= 4) {
      edf["patient_fields"] = {{"code", Subfield(patient[0])},
                               {"sex", patient[1]},
                               {"birthdate", patient[2]},
                               {"name", Subfield(patient[3])},
                               {"additional", JoinFrom(patient, 4)}};
    }
    const std::vector<std::string> recording = SplitSpaces(header.recording);
    if (recording.size() >= 5 && recording[0] == "Startdate") {
      edf["recording_fields"] = {{"startdate", recording[1]},
                                 {"admincode", Subfield(recording[2])},
                                 {"technician", Subfield(recording[3])},
                                 {"equipment", Subfield(recording[4])},
                                 {"additional", JoinFrom(recording, 5)}};
    }
  }
  Json metadata = Json::object();
  metadata["source_file"] = header.path.string();
  metadata["edf"] = std::move(edf);
  return metadata;
}

// The annotation channels: each TAL text becomes an annotation on `record` (key "label_interval"
// with a duration, "label" without); the time-keeping TAL of each data record is checked. Returns
// the first data record's start (µs after the header's start time).
int64_t ReadAnnotations(const InputFile& file, const EdfHeader& header, model::Record& record) {
  std::vector<const EdfChannel*> channels;
  for (const EdfChannel& c : header.channels) {
    if (c.annotations) channels.push_back(&c);
  }
  if (channels.empty()) return 0;
  const int64_t begin = channels.front()->offset_in_record;
  const int64_t end =
      channels.back()->offset_in_record + channels.back()->samples_per_record * header.sample_bytes;
  std::map<std::string, std::shared_ptr<const model::AnnotationContent>, std::less<>> contents[2];
  auto content = [&](int which, const std::string& text) {
    auto& cache = contents[which];
    auto it = cache.find(text);
    if (it == cache.end()) {
      auto made = std::make_shared<model::AnnotationContent>(
          which == 0 ? "label_interval" : "label", model::AnnotationValue::OfText(text));
      it = cache.emplace(text, std::move(made)).first;
    }
    return it->second;
  };
  struct Pending {
    int64_t onset_us;
    std::optional<int64_t> duration_us;
    std::string text;
  };
  std::vector<Pending> pending;
  int64_t first_onset = 0;
  ForEachRecordBlock(
      file, header, begin, end - begin, [&](int64_t first, int64_t count, std::string_view packed) {
        for (int64_t r = 0; r < count; ++r) {
          const int64_t record_index = first + r;
          const std::string_view bytes = packed.substr(static_cast<size_t>(r * (end - begin)),
                                                       static_cast<size_t>(end - begin));
          for (size_t k = 0; k < channels.size(); ++k) {
            const EdfChannel& c = *channels[k];
            const std::string where = "data record " + std::to_string(record_index) + ", channel " +
                                      std::to_string(c.index) + " '" + c.label + "'";
            const std::vector<Tal> tals = ParseTals(
                bytes.substr(static_cast<size_t>(c.offset_in_record - begin),
                             static_cast<size_t>(c.samples_per_record * header.sample_bytes)),
                header.path, where);
            size_t t = 0;
            size_t skip_texts = 0;
            if (k == 0) {
              // The first TAL of the first annotation channel keeps time: its first text is empty.
              if (tals.empty() || tals[0].texts[0].empty() == false) {
                throw FormatError(ErrorSite{.file = header.path, .where = where},
                                  "the data record does not start with a time-keeping TAL "
                                  "('+onset\\x14\\x14')");
              }
              const int64_t onset = tals[0].onset_us;
              if (record_index == 0) {
                first_onset = onset;
              } else {
                // EDF+C: record n starts n record durations after record 0 (to 1 µs).
                const __int128 expected_scaled =
                    static_cast<__int128>(record_index) * header.duration_num * 1'000'000;
                const __int128 got_scaled =
                    static_cast<__int128>(onset - first_onset) * header.duration_den;
                const __int128 diff = got_scaled - expected_scaled;
                if (diff >= header.duration_den || diff <= -header.duration_den) {
                  throw FormatError(ErrorSite{.file = header.path, .where = where},
                                    "the time-keeping TAL puts the data record at " +
                                        std::to_string(onset) +
                                        " µs, not contiguous with data record 0 at " +
                                        std::to_string(first_onset) + " µs and records of " +
                                        header.record_duration_text + " s, as " +
                                        std::string(VariantName(header.variant)) + " requires");
                }
              }
              skip_texts = 1;
            }
            for (; t < tals.size(); ++t) {
              const Tal& tal = tals[t];
              for (size_t x = (t == 0 ? skip_texts : 0); x < tal.texts.size(); ++x) {
                if (tal.texts[x].empty()) continue;
                pending.push_back({tal.onset_us, tal.duration_us, tal.texts[x]});
              }
            }
          }
        }
      });
  for (const Pending& p : pending) {
    const int64_t at = p.onset_us - first_onset;
    if (p.duration_us) {
      record.Annotate(content(0, p.text), model::TimeInterval{at, at + *p.duration_us});
    } else {
      record.Annotate(content(1, p.text), model::TimePoint{at});
    }
  }
  return first_onset;
}

}  // namespace

std::shared_ptr<model::Record> ReadEdfFile(const std::filesystem::path& path,
                                           const ReadOptions& options, SpecTable& specs) {
  auto header_ptr = std::make_shared<EdfHeader>();
  {
    InputFile file(path);
    std::string first(static_cast<size_t>(std::min<int64_t>(file.size(), 256)), '\0');
    file.ReadAt(0, first);
    const int64_t size = EdfHeaderSize(path, first);
    if (size > file.size()) {
      throw FormatError(ErrorSite{.file = path, .where = "header"},
                        "the file is " + std::to_string(file.size()) + " bytes, shorter than its " +
                            std::to_string(size) + "-byte header");
    }
    std::string bytes(static_cast<size_t>(size), '\0');
    file.ReadAt(0, bytes);
    *header_ptr = ParseEdfHeader(path, bytes, file.size());
  }
  const EdfHeader& header = *header_ptr;
  if (header.n_records == 0) {
    throw FormatError(ErrorSite{.file = path, .where = "number of data records"},
                      "is 0: the file holds no samples");
  }

  auto record = std::make_shared<model::Record>();
  int64_t start_offset_us = 0;
  {
    InputFile file(path);
    start_offset_us = ReadAnnotations(file, header, *record);
  }
  record->set_start_time_us(header.start_unix_us + start_offset_us);
  Json metadata = RecordMetadata(header, start_offset_us);
  if (options.checksum) metadata["source_sha256"] = FileChecksum(path);
  record->set_metadata(std::move(metadata));

  auto source = record->AddSource(path.filename().string());
  std::map<int64_t, std::shared_ptr<const model::TimeAxis>> axes;  // by samples per record
  for (const EdfChannel& c : header.channels) {
    if (c.annotations) continue;
    const std::string channel_field = "label[" + std::to_string(c.index) + "]";
    // Period of one sample: duration / spr seconds = 10^6 · num / (den · spr) µs, at least 1 µs.
    const __int128 period_num = static_cast<__int128>(header.duration_num) * 1'000'000;
    const __int128 period_den = static_cast<__int128>(header.duration_den) * c.samples_per_record;
    if (period_num < period_den) {
      throw FormatError(
          ErrorSite{
              .file = path,
              .where = "number of samples in each data record[" + std::to_string(c.index) + "]"},
          "'" + c.label + "' is sampled faster than 1 MHz (" +
              std::to_string(c.samples_per_record) + " samples per " + header.record_duration_text +
              " s): a period below 1 µs cannot be stored");
    }
    auto& axis = axes[c.samples_per_record];
    if (!axis) {
      axis = model::TimeAxis::Regular(static_cast<int64_t>(period_num),
                                      static_cast<int64_t>(period_den));
    }

    Json signal_metadata = Json::object();
    Json edf = {{"channel", c.index},
                {"label", c.label},
                {"transducer", c.transducer},
                {"prefilter", c.prefilter},
                {"physical_dimension", c.physical_dimension},
                {"physical_min", c.physical_min},
                {"physical_max", c.physical_max},
                {"digital_min", c.digital_min},
                {"digital_max", c.digital_max},
                {"samples_per_record", c.samples_per_record},
                {"reserved", c.reserved}};
    std::optional<std::string> unit;
    if (!c.physical_dimension.empty()) {
      unit = ParseUnit(c.physical_dimension);
      if (!unit) {
        const std::string warning = path.string() + ": physical dimension[" +
                                    std::to_string(c.index) + "]: '" + c.physical_dimension +
                                    "' of '" + c.label +
                                    "' is not a known unit; the signal's unit is stored as unknown";
        signal_metadata["unit_warning"] = warning;
        if (options.warn) options.warn(warning);
      }
    }
    const auto found = options.spec_types.find(c.label);
    const std::string spec_type = found != options.spec_types.end()
                                      ? found->second
                                      : std::string(ModalityOfLabel(c.label).spec_type);
    model::Spec spec{.spec_type = spec_type, .name = SpecNameOf(spec_type)};
    if (options.keep_digital) {
      const double gain =
          (c.physical_max - c.physical_min) / (static_cast<double>(c.digital_max) - c.digital_min);
      signal_metadata["gain"] = gain;
      signal_metadata["offset"] = c.physical_min - c.digital_min * gain;
      if (unit) signal_metadata["physical_unit"] = *unit;
      spec.dtype = header.bdf() ? model::DType::kInt32 : model::DType::kInt16;
    } else {
      spec.unit = unit;
      spec.dtype = model::DType::kFloat32;
    }
    signal_metadata["edf"] = std::move(edf);
    auto shared_spec = specs.Intern(std::move(spec), path, channel_field, c.label);
    auto signal = std::make_shared<model::Signal>(c.label, shared_spec, axis,
                                                  header.n_records * c.samples_per_record);
    signal->set_metadata(std::move(signal_metadata));
    signal->SetPieceLoader(ChannelLoader(header_ptr, c.index, options.keep_digital));
    source->AddSignal(signal);
  }
  return record;
}

}  // namespace timef::importers

namespace timef {

std::shared_ptr<model::Record> ReadEdf(const std::filesystem::path& path,
                                       const ReadOptions& options) {
  importers::SpecTable specs;
  return importers::ReadEdfFile(path, options, specs);
}

}  // namespace timef
