// Metadata values with every field set (and minimal ones), shared by the metadata and fuzz tests.
#pragma once

#include <string>

#include "parquet/metadata.h"

namespace timef::parquet::testing {

inline Statistics FullStatistics() {
  Statistics s;
  s.max = std::string("\xff\x00\x01", 3);
  s.min = std::string("\x00", 1);
  s.null_count = 3;
  s.distinct_count = 17;
  s.max_value = "zebra";
  s.min_value = "aardvark";
  s.is_max_value_exact = false;
  s.is_min_value_exact = true;
  s.nan_count = 0;
  return s;
}

inline std::vector<SchemaElement> FullSchema() {
  std::vector<SchemaElement> schema;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 4;
  schema.push_back(root);

  SchemaElement id;
  id.name = "id";
  id.type = Type::kInt64;
  id.repetition_type = FieldRepetitionType::kRequired;
  id.field_id = 7;
  schema.push_back(id);

  SchemaElement name;
  name.name = "name";
  name.type = Type::kByteArray;
  name.repetition_type = FieldRepetitionType::kOptional;
  name.converted_type = ConvertedType::kUtf8;
  name.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
  schema.push_back(name);

  SchemaElement price;
  price.name = "price";
  price.type = Type::kFixedLenByteArray;
  price.type_length = 16;
  price.repetition_type = FieldRepetitionType::kOptional;
  price.converted_type = ConvertedType::kDecimal;
  price.scale = 2;
  price.precision = 38;
  price.logical_type = LogicalType::Decimal(2, 38);
  schema.push_back(price);

  SchemaElement values;
  values.name = "values";
  values.repetition_type = FieldRepetitionType::kRequired;
  values.num_children = 1;
  values.converted_type = ConvertedType::kList;
  values.logical_type = LogicalType::Simple(LogicalType::Kind::kList);
  schema.push_back(values);

  SchemaElement list;
  list.name = "list";
  list.repetition_type = FieldRepetitionType::kRepeated;
  list.num_children = 1;
  schema.push_back(list);

  SchemaElement element;
  element.name = "element";
  element.type = Type::kInt32;
  element.repetition_type = FieldRepetitionType::kOptional;
  element.converted_type = ConvertedType::kUint16;
  element.logical_type = LogicalType::Integer(16, false);
  schema.push_back(element);
  return schema;
}

inline ColumnMetaData FullColumnMetaData() {
  ColumnMetaData m;
  m.type = Type::kByteArray;
  m.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
  m.path_in_schema = {"values", "list", "element"};
  m.codec = CompressionCodec::kZstd;
  m.num_values = 1'000'000'000'000LL;
  m.total_uncompressed_size = 123456789;
  m.total_compressed_size = 23456789;
  m.key_value_metadata = std::vector<KeyValue>{{"k", "v"}, {"only-key", std::nullopt}};
  m.data_page_offset = 4;
  m.index_page_offset = 5;
  m.dictionary_page_offset = 6;
  m.statistics = FullStatistics();
  m.encoding_stats =
      std::vector<PageEncodingStats>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                     {PageType::kDataPage, Encoding::kRleDictionary, 40}};
  m.bloom_filter_offset = 99;
  m.bloom_filter_length = 100;
  SizeStatistics size;
  size.unencoded_byte_array_data_bytes = 4096;
  size.repetition_level_histogram = std::vector<std::int64_t>{10, 20};
  size.definition_level_histogram = std::vector<std::int64_t>{1, 2, 3};
  m.size_statistics = size;
  return m;
}

inline ColumnChunk FullColumnChunk() {
  ColumnChunk c;
  c.file_path = "other.parquet";
  c.file_offset = 12345;
  c.meta_data = FullColumnMetaData();
  c.offset_index_offset = 1'000'000;
  c.offset_index_length = 300;
  c.column_index_offset = 1'000'300;
  c.column_index_length = 200;
  c.encrypted_column_metadata = std::string("\x01\x02", 2);
  return c;
}

inline RowGroup FullRowGroup() {
  RowGroup g;
  g.columns = {FullColumnChunk(), FullColumnChunk()};
  g.columns[1].file_path.reset();
  g.columns[1].encrypted_column_metadata.reset();
  g.total_byte_size = 1 << 20;
  g.num_rows = 5000;
  g.sorting_columns = std::vector<SortingColumn>{{0, false, true}, {2, true, false}};
  g.file_offset = 4;
  g.total_compressed_size = 1 << 19;
  g.ordinal = 3;
  return g;
}

inline FileMetaData FullFileMetaData() {
  FileMetaData f;
  f.version = 2;
  f.schema = FullSchema();
  f.num_rows = 10000;
  f.row_groups = {FullRowGroup(), FullRowGroup()};
  f.key_value_metadata = std::vector<KeyValue>{{"timef.spec_type", "ecg"}, {"empty", ""}};
  f.created_by = "timef version 0.1.0";
  f.column_orders = std::vector<ColumnOrder>{{ColumnOrder::Kind::kTypeDefinedOrder},
                                             {ColumnOrder::Kind::kIeee754TotalOrder},
                                             {ColumnOrder::Kind::kInt96TimestampOrder},
                                             {ColumnOrder::Kind::kTypeDefinedOrder}};
  return f;
}

inline FileMetaData MinimalFileMetaData() {
  FileMetaData f;
  f.version = 1;
  SchemaElement root;
  root.name = "root";
  f.schema = {root};
  return f;
}

inline PageHeader FullDataPageV1Header() {
  PageHeader h;
  h.type = PageType::kDataPage;
  h.uncompressed_page_size = 16384;
  h.compressed_page_size = 5000;
  h.crc = -123456789;
  DataPageHeader d;
  d.num_values = 4096;
  d.encoding = Encoding::kByteStreamSplit;
  d.definition_level_encoding = Encoding::kRle;
  d.repetition_level_encoding = Encoding::kBitPacked;
  d.statistics = FullStatistics();
  h.data_page_header = d;
  return h;
}

inline PageHeader FullDataPageV2Header() {
  PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = 70000;
  h.compressed_page_size = 9000;
  h.crc = 42;
  DataPageHeaderV2 d;
  d.num_values = 1000;
  d.num_nulls = 10;
  d.num_rows = 100;
  d.encoding = Encoding::kDeltaBinaryPacked;
  d.definition_levels_byte_length = 30;
  d.repetition_levels_byte_length = 40;
  d.is_compressed = false;
  d.statistics = FullStatistics();
  h.data_page_header_v2 = d;
  return h;
}

inline PageHeader FullDictionaryPageHeader() {
  PageHeader h;
  h.type = PageType::kDictionaryPage;
  h.uncompressed_page_size = 800;
  h.compressed_page_size = 800;
  h.crc = 7;
  h.dictionary_page_header = DictionaryPageHeader{100, Encoding::kPlainDictionary, true};
  return h;
}

inline PageHeader IndexPageHeaderSample() {
  PageHeader h;
  h.type = PageType::kIndexPage;
  h.uncompressed_page_size = 10;
  h.compressed_page_size = 10;
  h.index_page_header = IndexPageHeader{};
  return h;
}

inline ColumnIndex FullColumnIndex() {
  ColumnIndex c;
  c.null_pages = {false, true,  false, false, false, false, false, false,
                  false, false, false, false, false, false, true,  false};  // 16: long list form
  for (int i = 0; i < 16; ++i) {
    c.min_values.push_back(c.null_pages[i] ? "" : std::string(1, static_cast<char>('a' + i)));
    c.max_values.push_back(c.null_pages[i] ? "" : std::string(2, static_cast<char>('a' + i)));
  }
  c.boundary_order = BoundaryOrder::kAscending;
  c.null_counts = std::vector<std::int64_t>(16, 0);
  (*c.null_counts)[1] = 100;
  c.repetition_level_histograms = std::vector<std::int64_t>(32, 5);
  c.definition_level_histograms = std::vector<std::int64_t>(48, 6);
  c.nan_counts = std::vector<std::int64_t>(16, 0);
  return c;
}

inline OffsetIndex FullOffsetIndex() {
  OffsetIndex o;
  for (int i = 0; i < 20; ++i) {
    o.page_locations.push_back(PageLocation{4 + 20000LL * i, 19990, 1000LL * i});
  }
  o.unencoded_byte_array_data_bytes = std::vector<std::int64_t>(20, 1 << 14);
  return o;
}

}  // namespace timef::parquet::testing
