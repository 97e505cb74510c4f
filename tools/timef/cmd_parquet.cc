// `timef parquet meta|dump|rewrite`: inspect Parquet files and rewrite them with timef's writer.
// The logic lives in parquet_tool/inspect.h; this file maps options and exit codes.
#include <fmt/core.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "core/json_forms.h"
#include "options.h"
#include "parquet/file_reader.h"
#include "parquet_tool/inspect.h"

namespace timef::cli {
namespace {

struct DumpArgs {
  std::string file;
  std::vector<std::string> columns;
  std::optional<int> row_group;
  std::string rows;
};

struct RewriteArgs {
  std::string input;
  std::string output;
  std::string compression = "zstd";
  std::optional<int> level;
  std::vector<std::string> encodings;
  std::optional<std::int64_t> page_size;
  std::optional<std::int64_t> row_group_rows;
  int data_page_version = 1;
};

int Meta(const std::string& file) {
  parquet::FileReader reader = parquet::FileReader::OpenFile(file);
  std::string text = WriteManifestJson(parquet::MetadataToJson(reader));
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

int Dump(const DumpArgs& args) {
  parquet::DumpOptions options;
  options.columns = args.columns;
  options.row_group = args.row_group;
  std::optional<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> range;
  if (!args.rows.empty()) {
    range = parquet::ParseRowRange(args.rows);
    if (!range) {
      fmt::print(stderr, "timef: error: --rows: expected A:B, A: or :B, got '{}'\n", args.rows);
      return kExitUsage;
    }
  }
  parquet::FileReader reader = parquet::FileReader::OpenFile(args.file);
  if (range) {
    std::int64_t total = reader.num_rows();
    if (args.row_group && *args.row_group >= 0 && *args.row_group < reader.num_row_groups()) {
      total = reader.row_group_num_rows(*args.row_group);
    }
    options.rows = {range->first.value_or(0), range->second.value_or(total)};
  }
  std::string buffer;
  parquet::DumpRows(reader, options, [&](std::string_view line) {
    buffer.append(line);
    buffer += '\n';
    if (buffer.size() >= (1u << 16)) {
      std::fwrite(buffer.data(), 1, buffer.size(), stdout);
      buffer.clear();
    }
  });
  std::fwrite(buffer.data(), 1, buffer.size(), stdout);
  return kExitOk;
}

int Rewrite(const RewriteArgs& args) {
  parquet::RewriteOptions options;
  if (args.compression == "zstd") {
    options.compression = parquet::CompressionCodec::kZstd;
  } else if (args.compression == "none") {
    options.compression = parquet::CompressionCodec::kUncompressed;
  } else {
    fmt::print(stderr, "timef: error: --compression: expected zstd or none, got '{}'\n",
               args.compression);
    return kExitUsage;
  }
  options.compression_level = args.level;
  options.page_size_bytes = args.page_size;
  options.row_group_rows = args.row_group_rows;
  options.data_page_version =
      args.data_page_version == 2 ? parquet::DataPageVersion::kV2 : parquet::DataPageVersion::kV1;
  for (const std::string& setting : args.encodings) {
    std::size_t equals = setting.rfind('=');
    std::optional<parquet::Encoding> encoding;
    if (equals != std::string::npos && equals > 0) {
      encoding = parquet::ParseEncodingName(std::string_view(setting).substr(equals + 1));
    }
    if (!encoding) {
      fmt::print(stderr,
                 "timef: error: --encoding: expected COLUMN=ENCODING with ENCODING one of PLAIN, "
                 "RLE_DICTIONARY, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, "
                 "DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT; got '{}'\n",
                 setting);
      return kExitUsage;
    }
    options.encodings.emplace_back(setting.substr(0, equals), *encoding);
  }
  parquet::RewriteFile(args.input, args.output, options);
  fmt::print(stderr, "wrote {}\n", args.output);
  return kExitOk;
}

}  // namespace

void RegisterParquetCommands(CLI::App& app, Action& action) {
  CLI::App* group = app.add_subcommand("parquet", "Inspect and rewrite Parquet files");
  group->require_subcommand(1);
  group->group(kGroupInspect);

  auto file = std::make_shared<std::string>();
  CLI::App* meta = group->add_subcommand(
      "meta", "Print a Parquet file's metadata (schema, row groups, chunks, pages) as JSON");
  meta->add_option("FILE", *file, "Parquet file")->required();
  meta->callback([&action, file] { action = [file] { return Meta(*file); }; });

  auto dump_args = std::make_shared<DumpArgs>();
  CLI::App* dump = group->add_subcommand("dump", "Print rows as JSON objects, one per line");
  dump->add_option("FILE", dump_args->file, "Parquet file")->required();
  dump->add_option("--columns", dump_args->columns, "Top-level columns to print, in order")
      ->delimiter(',');
  dump->add_option("--row-group", dump_args->row_group, "Only this row group (0-based)");
  dump->add_option("--rows", dump_args->rows,
                   "Rows A:B (half-open; of the row group when --row-group is given)");
  dump->callback([&action, dump_args] { action = [dump_args] { return Dump(*dump_args); }; });

  auto rewrite_args = std::make_shared<RewriteArgs>();
  CLI::App* rewrite = group->add_subcommand(
      "rewrite", "Read a Parquet file and write it again with timef's writer");
  rewrite->add_option("IN", rewrite_args->input, "Input Parquet file")->required();
  rewrite->add_option("OUT", rewrite_args->output, "Output Parquet file")->required();
  rewrite->add_option("--compression", rewrite_args->compression, "zstd (default) or none");
  rewrite->add_option("--level", rewrite_args->level, "ZSTD level (default 19)");
  rewrite->add_option("--encoding", rewrite_args->encodings,
                      "COLUMN=ENCODING (repeatable); other columns PLAIN");
  rewrite->add_option("--page-size", rewrite_args->page_size, "Target data page size in bytes")
      ->check(WholeNumberAtLeast(1));
  rewrite
      ->add_option("--row-group-rows", rewrite_args->row_group_rows,
                   "Rows per output row group (default: keep the input's)")
      ->check(WholeNumberAtLeast(1));
  rewrite
      ->add_option("--data-page-version", rewrite_args->data_page_version,
                   "Data page header version, 1 (default) or 2")
      ->check(CLI::IsMember({1, 2}));
  rewrite->callback(
      [&action, rewrite_args] { action = [rewrite_args] { return Rewrite(*rewrite_args); }; });
}

}  // namespace timef::cli
