// Importers (docs/importing.md): recordings in other formats read into model Records, and a
// release written from a list of input files. The EDF family (EDF, EDF+C, BDF, BDF+C) and WFDB
// records are read here, with no third-party library: the header is parsed and every field used
// is validated when the file is opened; each channel's values are read lazily, data record by data
// record, through a piece loader (timef/model/values.h), so a recording larger than memory is
// written in bounded memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/vocabulary.h"
#include "timef/writer.h"

namespace timef {

// ---- The modality table (docs/importing.md, "Modalities") ----

// A channel label whose first characters are `prefix` (ASCII case-insensitive) gets `spec_type`,
// with `name` as the spec's name. The first matching row wins; a label that matches none gets
// kGenericSpecType.
struct ModalityEntry {
  std::string_view prefix;
  std::string_view spec_type;
  std::string_view name;
};
inline constexpr std::string_view kGenericSpecType = "signal";
inline constexpr std::string_view kGenericSpecName = "Signal";

// The rows, in match order.
std::span<const ModalityEntry> ModalityTable();
// The row a (trimmed) label matches, or the generic {"", "signal", "Signal"}.
ModalityEntry ModalityOfLabel(std::string_view label);

// ---- What every reader takes ----

// ---- CSV / TSV options (docs/importing.md, "CSV and TSV") ----

// How the time column's cells are read. kAuto: from the column's name (a unit suffix `(ms)`,
// `[ms]`, `_ms` → milliseconds; `(s)`, `[s]`, `_s` → seconds), else from its first cell (a
// number → seconds, otherwise ISO-8601).
enum class CsvTimeUnit { kAuto, kSeconds, kMilliseconds, kIso8601 };
const std::string& ToString(CsvTimeUnit unit);
// "auto", "s", "ms", "iso" → the unit; nullopt otherwise.
std::optional<CsvTimeUnit> ParseCsvTimeUnit(std::string_view name);

struct CsvOptions {
  // The time column by name (trimmed header, or the header without its unit suffix). Unset: the
  // first column named time, t, timestamp or datetime (unit suffix aside); none is an error unless
  // `rate_hz` is given.
  std::optional<std::string> time_column;
  CsvTimeUnit time_unit = CsvTimeUnit::kAuto;
  // No time column: row i is at i / rate seconds. A positive decimal ("250", "0.5"), ≤ 1 MHz.
  std::optional<std::string> rate_hz;
  // Signal name (or trimmed header) → unit text, wins over a header's `(unit)` / `[unit]` suffix.
  // A key that names no signal column is a ValidationError (ReadCsv: of the file; ImportFiles: of
  // any of the files).
  std::map<std::string, std::string> units;
  // The field delimiter; unset: ',' for `.csv`, tab for `.tsv` / `.tab`, else an error.
  std::optional<char> delimiter;
  // float64 (every decimal as its nearest double) or float32 (only when each cell's decimal is
  // exactly the float32's shortest representation: a cell float32 cannot hold is an error).
  DType dtype = DType::kFloat64;
  // Evenly spaced times within this many µs of a regular axis make a regular axis; else irregular.
  int64_t tolerance_us = 1;
};

struct ReadOptions {
  // Store each channel's digital integers (int16 for EDF, int32 for BDF) instead of physical
  // float32 values; the signal's metadata then holds `gain` and `offset` (physical ≈ digital ×
  // gain + offset, the exact formula in docs/importing.md) and the spec's unit is unknown.
  bool keep_digital = false;
  // Trimmed channel label → spec_type; wins over the modality table.
  std::map<std::string, std::string> spec_types;
  // Hash the input file into the record's metadata (`source_sha256`), a read of the whole file.
  bool checksum = true;
  // Called once per warning (a physical dimension that is not a known unit, stored as unknown).
  // Null: warnings are dropped from the output but still recorded in the signal's metadata.
  std::function<void(const std::string&)> warn;
  // CSV / TSV only.
  CsvOptions csv;
  // WFDB: the annotators whose MIT-format files `<record>.<annotator>` are read. Empty: `atr`
  // when that file exists. A named annotator's missing file is a MissingFileError.
  std::vector<std::string> wfdb_annotators;
};

// Reads one EDF/EDF+C/BDF/BDF+C file as a Record: one root source named after the file, one
// signal per ordinary channel (values loaded lazily), the annotation channels' TAL entries as
// annotations on the record, the start time and the header's text fields in metadata
// (docs/importing.md, "EDF and BDF"). FormatError naming the file and the header field (or data
// record) for a malformed file or an EDF+D/BDF+D (discontinuous) one; FileError for a file that
// cannot be read. The values are read when the writer (or LoadValues) asks for them; a file that
// changed size since then raises FormatError at that point.
std::shared_ptr<model::Record> ReadEdf(const std::filesystem::path& path,
                                       const ReadOptions& options = {});

// Reads one CSV/TSV file as a Record (docs/importing.md, "CSV and TSV"): a header line, then one
// row per time step; one root source named after the file, one nullable signal per column other
// than the time column (values read again from the file, column by column, when the writer asks
// for them), on one regular axis when the times are evenly spaced within
// CsvOptions::tolerance_us, else an irregular axis. FormatError naming the file, line and column
// for a ragged row, a cell that is not a number, a time that does not parse, time going back, an
// empty file or one without data rows; FileError for a file that cannot be read.
std::shared_ptr<model::Record> ReadCsv(const std::filesystem::path& path,
                                       const ReadOptions& options = {});

// Reads one WFDB record (PhysioNet header(5), signal(5), annot(5)) as a Record; `path` is its
// `.hea` file or its record name (the header path without `.hea`). One root source named after
// the record, one signal per signal line named by its description (values loaded lazily, the
// format's invalid value as a null, the header's checksum verified when the values are read),
// the annotators' beats and events as point annotations (key `label`, the mnemonic as text;
// sample, subtype, chan, num and aux note in the occurrence's metadata), the header's fields in
// metadata (docs/importing.md, "WFDB"). FormatError naming the file and the line/field (or the
// byte of an annotation file) for a malformed record, a multi-segment record, a format other
// than 16, 24, 32, 61, 80, 160, 212, 310, 311, a signal file whose length contradicts the header;
// MissingFileError for a missing header, signal or named annotation file.
std::shared_ptr<model::Record> ReadWfdb(const std::filesystem::path& path,
                                        const ReadOptions& options = {});

// ---- Releases from files ----

enum class ImportFormat {
  kEdf,
  kCsv,
  kWfdb,
};
const std::string& ToString(ImportFormat format);
// "edf" → kEdf, "csv" → kCsv, "wfdb" → kWfdb; nullopt otherwise.
std::optional<ImportFormat> ParseImportFormat(std::string_view name);

struct ImportProgress {
  // Files whose headers were read, of `files_total` (then the write reports through
  // ImportOptions::write.progress).
  int64_t files_read = 0;
  int64_t files_total = 0;
  std::filesystem::path file;  // the file just read
};

// The zstd level of an import's values and payload pages unless the caller sets one: 3, not the
// writer's 19. On the benchmark's EDF files level 19 took 4-5 times the CPU of level 3 for a
// release 0.3 % smaller, and an import runs at the writer's speed (docs/importing.md "Jobs").
// `timef import --compression-level` and `timef.import_files(compression_level=)` default to it.
inline constexpr int kImportCompressionLevel = 3;

struct ImportOptions {
  ReadOptions read;
  // write.threads is the import's jobs (`timef import --jobs`, docs/importing.md "Jobs"): the
  // loaders decode on the calling thread while row groups are encoded and compressed in the
  // background. write.compression_level starts at kImportCompressionLevel.
  WriteOptions write = [] {
    WriteOptions options;
    options.compression_level = kImportCompressionLevel;
    return options;
  }();
  std::function<void(const ImportProgress&)> progress;
};

// Reads every input (one record per file, in the given order) and writes them as one release
// `<root>/<card.dataset_id>/<card.dataset_version>`. The records of all files share one spec per
// spec_type: a label whose unit or dtype differs from an earlier channel of the same spec_type is
// a ValidationError naming both files and channels (map one label to another spec_type with
// ReadOptions::spec_types). Nothing is published when any file fails.
WriteResult ImportFiles(ImportFormat format, const std::vector<std::filesystem::path>& inputs,
                        manifest::Card card, const std::filesystem::path& root,
                        const ImportOptions& options = {});

}  // namespace timef
