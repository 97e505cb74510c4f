#include "parquet_tool/inspect.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <system_error>

#include "parquet/file_writer.h"
#include "parquet_tool/render.h"

namespace timef::parquet {
namespace {

std::string Dotted(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

template <typename T>
Json Optional(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

template <typename Enum>
Json NameList(const std::vector<Enum>& values) {
  Json out = Json::array();
  for (Enum value : values) out.push_back(ToString(value));
  return out;
}

std::string TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return "MILLIS";
    case TimeUnit::kMicros:
      return "MICROS";
    case TimeUnit::kNanos:
      return "NANOS";
  }
  return std::to_string(static_cast<int>(unit));
}

Json LogicalTypeJson(const std::optional<LogicalType>& type) {
  if (!type) return nullptr;
  using Kind = LogicalType::Kind;
  Json out = Json::object();
  switch (type->kind) {
    case Kind::kString:
      out["type"] = "STRING";
      break;
    case Kind::kMap:
      out["type"] = "MAP";
      break;
    case Kind::kList:
      out["type"] = "LIST";
      break;
    case Kind::kEnum:
      out["type"] = "ENUM";
      break;
    case Kind::kDecimal:
      out["type"] = "DECIMAL";
      out["scale"] = type->scale;
      out["precision"] = type->precision;
      break;
    case Kind::kDate:
      out["type"] = "DATE";
      break;
    case Kind::kTime:
    case Kind::kTimestamp:
      out["type"] = type->kind == Kind::kTime ? "TIME" : "TIMESTAMP";
      out["is_adjusted_to_utc"] = type->is_adjusted_to_utc;
      out["unit"] = TimeUnitName(type->unit);
      break;
    case Kind::kInteger:
      out["type"] = "INTEGER";
      out["bit_width"] = static_cast<int>(type->bit_width);
      out["is_signed"] = type->is_signed;
      break;
    case Kind::kUnknown:
      out["type"] = "UNKNOWN";
      break;
    case Kind::kJson:
      out["type"] = "JSON";
      break;
    case Kind::kBson:
      out["type"] = "BSON";
      break;
    case Kind::kUuid:
      out["type"] = "UUID";
      break;
    case Kind::kFloat16:
      out["type"] = "FLOAT16";
      break;
    default:
      out["type"] = std::to_string(static_cast<int>(type->kind));
      break;
  }
  return out;
}

Json SchemaElementJson(const SchemaElement& element) {
  Json out = Json::object();
  out["name"] = element.name;
  out["type"] = element.type ? Json(ToString(*element.type)) : Json(nullptr);
  out["type_length"] = Optional(element.type_length);
  out["repetition_type"] =
      element.repetition_type ? Json(ToString(*element.repetition_type)) : Json(nullptr);
  out["num_children"] = Optional(element.num_children);
  out["converted_type"] =
      element.converted_type ? Json(ToString(*element.converted_type)) : Json(nullptr);
  out["logical_type"] = LogicalTypeJson(element.logical_type);
  out["scale"] = Optional(element.scale);
  out["precision"] = Optional(element.precision);
  out["field_id"] = Optional(element.field_id);
  return out;
}

Json ColumnJson(const ColumnDescriptor& column) {
  Json out = Json::object();
  out["name"] = column.name;
  out["path"] = Dotted(column.path_in_schema);
  out["physical_type"] = ToString(column.physical_type);
  if (column.physical_type == Type::kFixedLenByteArray) out["type_length"] = column.type_length;
  out["logical_type"] = LogicalTypeJson(column.logical_type);
  out["converted_type"] =
      column.converted_type ? Json(ToString(*column.converted_type)) : Json(nullptr);
  out["nullable"] = column.nullable;
  out["is_list"] = column.is_list;
  if (column.is_list) out["element_nullable"] = column.element_nullable;
  out["max_definition_level"] = column.max_definition_level();
  out["max_repetition_level"] = column.max_repetition_level();
  return out;
}

Json KeyValuesJson(const std::optional<std::vector<KeyValue>>& pairs) {
  Json out = Json::array();
  if (!pairs) return out;
  for (const KeyValue& pair : *pairs) {
    out.push_back(Json{{"key", pair.key}, {"value", Optional(pair.value)}});
  }
  return out;
}

Json BoundJson(const ColumnDescriptor& column, const std::optional<std::string>& plain) {
  if (!plain) return nullptr;
  return Json::parse(RenderStatisticsValue(column, *plain));
}

Json StatisticsJson(const ColumnDescriptor& column, const std::optional<Statistics>& stats) {
  if (!stats) return nullptr;
  Json out = Json::object();
  out["null_count"] = Optional(stats->null_count);
  out["distinct_count"] = Optional(stats->distinct_count);
  out["nan_count"] = Optional(stats->nan_count);
  out["min_value"] = BoundJson(column, stats->min_value);
  out["max_value"] = BoundJson(column, stats->max_value);
  out["is_min_value_exact"] = Optional(stats->is_min_value_exact);
  out["is_max_value_exact"] = Optional(stats->is_max_value_exact);
  // The deprecated signed-order bounds, only when a writer still sets them.
  if (stats->min) out["min"] = BoundJson(column, stats->min);
  if (stats->max) out["max"] = BoundJson(column, stats->max);
  return out;
}

Json ChunkJson(FileReader& reader, int row_group, int column_index) {
  const ColumnDescriptor& column = reader.columns()[static_cast<std::size_t>(column_index)];
  const ColumnChunk& chunk = reader.column_chunk(row_group, column_index);
  Json out = Json::object();
  out["column"] = column.name;
  out["file_offset"] = chunk.file_offset;
  if (chunk.meta_data) {
    const ColumnMetaData& meta = *chunk.meta_data;
    out["path"] = Dotted(meta.path_in_schema);
    out["type"] = ToString(meta.type);
    out["encodings"] = NameList(meta.encodings);
    out["codec"] = ToString(meta.codec);
    out["num_values"] = meta.num_values;
    out["total_compressed_size"] = meta.total_compressed_size;
    out["total_uncompressed_size"] = meta.total_uncompressed_size;
    out["data_page_offset"] = meta.data_page_offset;
    out["dictionary_page_offset"] = Optional(meta.dictionary_page_offset);
    out["index_page_offset"] = Optional(meta.index_page_offset);
    out["statistics"] = StatisticsJson(column, meta.statistics);
    Json stats = nullptr;
    if (meta.encoding_stats) {
      stats = Json::array();
      for (const PageEncodingStats& entry : *meta.encoding_stats) {
        stats.push_back(Json{{"page_type", ToString(entry.page_type)},
                             {"encoding", ToString(entry.encoding)},
                             {"count", entry.count}});
      }
    }
    out["encoding_stats"] = std::move(stats);
    out["key_value_metadata"] = KeyValuesJson(meta.key_value_metadata);
  }
  out["column_index_offset"] = Optional(chunk.column_index_offset);
  out["column_index_length"] = Optional(chunk.column_index_length);
  out["offset_index_offset"] = Optional(chunk.offset_index_offset);
  out["offset_index_length"] = Optional(chunk.offset_index_length);
  const OffsetIndex* index = reader.offset_index(row_group, column_index);
  if (index == nullptr) {
    out["pages"] = nullptr;
  } else {
    Json pages = Json::array();
    for (const PageLocation& page : index->page_locations) {
      pages.push_back(Json{{"offset", page.offset},
                           {"compressed_page_size", page.compressed_page_size},
                           {"first_row_index", page.first_row_index}});
    }
    out["pages"] = std::move(pages);
  }
  return out;
}

}  // namespace

Json MetadataToJson(FileReader& reader) {
  const FileMetaData& meta = reader.metadata();
  Json out = Json::object();
  out["file"] = reader.path().string();
  out["version"] = meta.version;
  out["created_by"] = Optional(meta.created_by);
  out["num_rows"] = meta.num_rows;
  out["num_row_groups"] = reader.num_row_groups();
  out["key_value_metadata"] = KeyValuesJson(meta.key_value_metadata);
  Json schema = Json::array();
  for (const SchemaElement& element : meta.schema) schema.push_back(SchemaElementJson(element));
  out["schema"] = std::move(schema);
  Json columns = Json::array();
  for (const ColumnDescriptor& column : reader.columns()) columns.push_back(ColumnJson(column));
  out["columns"] = std::move(columns);
  Json row_groups = Json::array();
  for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
    const RowGroup& group = meta.row_groups[static_cast<std::size_t>(rg)];
    Json entry = Json::object();
    entry["index"] = rg;
    entry["num_rows"] = group.num_rows;
    entry["total_byte_size"] = group.total_byte_size;
    entry["total_compressed_size"] = Optional(group.total_compressed_size);
    entry["file_offset"] = Optional(group.file_offset);
    Json chunks = Json::array();
    for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) {
      chunks.push_back(ChunkJson(reader, rg, c));
    }
    entry["columns"] = std::move(chunks);
    row_groups.push_back(std::move(entry));
  }
  out["row_groups"] = std::move(row_groups);
  return out;
}

std::optional<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> ParseRowRange(
    std::string_view text) {
  std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto parse = [](std::string_view part, std::optional<std::int64_t>& value) {
    if (part.empty()) return true;
    std::int64_t number = 0;
    auto result = std::from_chars(part.data(), part.data() + part.size(), number);
    if (result.ec != std::errc() || result.ptr != part.data() + part.size() || number < 0) {
      return false;
    }
    value = number;
    return true;
  };
  std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> range;
  if (!parse(text.substr(0, colon), range.first) || !parse(text.substr(colon + 1), range.second)) {
    return std::nullopt;
  }
  return range;
}

void DumpRows(FileReader& reader, const DumpOptions& options,
              const std::function<void(std::string_view)>& emit) {
  ErrorSite site{reader.path(), "", ""};
  std::vector<int> columns;
  if (options.columns.empty()) {
    for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) columns.push_back(c);
  } else {
    columns = reader.ColumnIndices(options.columns);
  }
  int first_group = 0;
  int last_group = reader.num_row_groups();
  if (options.row_group) {
    int rg = *options.row_group;
    if (rg < 0 || rg >= reader.num_row_groups()) {
      throw ValidationError(site, "row group " + std::to_string(rg) + " out of range (file has " +
                                      std::to_string(reader.num_row_groups()) + ")");
    }
    first_group = rg;
    last_group = rg + 1;
  }
  std::int64_t total = 0;
  for (int g = first_group; g < last_group; ++g) total += reader.row_group_num_rows(g);
  std::int64_t first = 0;
  std::int64_t last = total;
  if (options.rows) {
    first = options.rows->first;
    last = options.rows->second;
    if (first < 0 || first > last || last > total) {
      throw ValidationError(site, "rows " + std::to_string(first) + ":" + std::to_string(last) +
                                      " out of range (0:" + std::to_string(total) + ")");
    }
  }
  // Keys are the same for every row: render them once.
  std::vector<std::string> keys;
  for (int c : columns) {
    std::string key;
    const std::string& name = reader.columns()[static_cast<std::size_t>(c)].name;
    AppendJsonString(std::as_bytes(std::span(name.data(), name.size())), key);
    key += ':';
    keys.push_back(std::move(key));
  }
  std::vector<ColumnData> data(columns.size());
  std::string line;
  std::int64_t group_start = 0;  // relative to the selection
  for (int g = first_group; g < last_group; ++g) {
    std::int64_t rows = reader.row_group_num_rows(g);
    std::int64_t begin = std::max(first, group_start) - group_start;
    std::int64_t end = std::min(last, group_start + rows) - group_start;
    group_start += rows;
    if (begin >= end) continue;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (begin == 0 && end == rows) {
        reader.ReadColumnChunk(g, columns[i], data[i]);
      } else {
        reader.ReadRows(g, columns[i], begin, end, data[i]);
      }
    }
    for (std::int64_t r = 0; r < end - begin; ++r) {
      line.clear();
      line += '{';
      for (std::size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) line += ',';
        line += keys[i];
        AppendRowValue(reader.columns()[static_cast<std::size_t>(columns[i])], data[i], r, line);
      }
      line += '}';
      emit(line);
    }
  }
}

std::optional<Encoding> ParseEncodingName(std::string_view name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static constexpr Encoding kOffered[] = {Encoding::kPlain,
                                          Encoding::kRleDictionary,
                                          Encoding::kRle,
                                          Encoding::kDeltaBinaryPacked,
                                          Encoding::kDeltaLengthByteArray,
                                          Encoding::kDeltaByteArray,
                                          Encoding::kByteStreamSplit};
  for (Encoding encoding : kOffered) {
    if (ToString(encoding) == upper) return encoding;
  }
  return std::nullopt;
}

namespace {

// Removes the temporary output unless released, so a failed rewrite leaves nothing behind.
class TempFileGuard {
 public:
  explicit TempFileGuard(std::filesystem::path path) : path_(std::move(path)) {}
  ~TempFileGuard() {
    if (!path_.empty()) {
      std::error_code ignored;
      std::filesystem::remove(path_, ignored);
    }
  }
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;
  void Release() { path_.clear(); }

 private:
  std::filesystem::path path_;
};

std::filesystem::path TempPathFor(const std::filesystem::path& output, int attempt) {
  auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  std::filesystem::path temp = output;
  temp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(stamp) + "-" +
          std::to_string(attempt);
  return temp;
}

}  // namespace

void RewriteFile(const std::filesystem::path& input, const std::filesystem::path& output,
                 const RewriteOptions& options) {
  FileReader reader = FileReader::OpenFile(input);
  std::vector<ColumnDescriptor> schema = reader.columns();
  WriterOptions writer_options;
  writer_options.compression = options.compression;
  if (options.compression_level) writer_options.compression_level = *options.compression_level;
  if (options.page_size_bytes) writer_options.data_page_target_bytes = *options.page_size_bytes;
  writer_options.data_page_version = options.data_page_version;
  writer_options.name = output.string();
  if (reader.metadata().key_value_metadata) {
    writer_options.key_value_metadata = *reader.metadata().key_value_metadata;
  }
  writer_options.columns.resize(schema.size());
  for (const auto& [name, encoding] : options.encodings) {
    int index = reader.ColumnIndex(name);
    writer_options.columns[static_cast<std::size_t>(index)].encoding = encoding;
  }
  for (std::size_t c = 0; c < schema.size(); ++c) {
    // The writer gives lists its standard three-level names, whatever the input used.
    schema[c].path_in_schema = StandardPathInSchema(schema[c]);
    ValidateColumnOptions(schema[c], writer_options.columns[c], output.string());
  }
  ValidateWriterSetup(schema, writer_options);
  if (options.row_group_rows && *options.row_group_rows <= 0) {
    throw ValidationError(ErrorSite{output, "", ""}, "--row-group-rows must be positive");
  }

  std::filesystem::path temp;
  std::optional<FileOutputStream> stream;
  for (int attempt = 0; !stream; ++attempt) {
    temp = TempPathFor(output, attempt);
    try {
      stream.emplace(temp, FileOutputOptions{.fsync_on_close = true, .exclusive = true});
    } catch (const FileError& e) {
      if (e.code() != std::errc::file_exists || attempt >= 8) throw;
    }
  }
  TempFileGuard guard(temp);
  {
    FileWriter writer(*stream, schema, writer_options);
    ColumnData data;
    // Output row groups: the input's, or consecutive slices of row_group_rows rows.
    std::vector<std::int64_t> group_starts;  // file row of each input row group
    std::int64_t file_rows = 0;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      group_starts.push_back(file_rows);
      file_rows += reader.row_group_num_rows(g);
    }
    std::int64_t step = options.row_group_rows.value_or(0);
    auto copy_rows = [&](std::int64_t first, std::int64_t last) {
      for (std::size_t c = 0; c < schema.size(); ++c) {
        for (int g = 0; g < reader.num_row_groups(); ++g) {
          std::int64_t start = group_starts[static_cast<std::size_t>(g)];
          std::int64_t rows = reader.row_group_num_rows(g);
          std::int64_t begin = std::max(first, start);
          std::int64_t end = std::min(last, start + rows);
          if (begin >= end) continue;
          if (begin == start && end == start + rows) {
            reader.ReadColumnChunk(g, static_cast<int>(c), data);
          } else {
            reader.ReadRows(g, static_cast<int>(c), begin - start, end - start, data);
          }
          writer.WriteColumn(c, data.View());
        }
      }
      writer.FlushRowGroup();
    };
    if (step == 0) {
      for (int g = 0; g < reader.num_row_groups(); ++g) {
        std::int64_t start = group_starts[static_cast<std::size_t>(g)];
        copy_rows(start, start + reader.row_group_num_rows(g));
      }
    } else {
      for (std::int64_t first = 0; first < file_rows; first += step) {
        copy_rows(first, std::min(file_rows, first + step));
      }
    }
    writer.Close();
  }
  stream->Close();
  std::filesystem::rename(temp, output);
  guard.Release();
}

}  // namespace timef::parquet
