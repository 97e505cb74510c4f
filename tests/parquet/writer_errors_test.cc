// Misuse raises timef::ValidationError naming the column and leaves the writer usable; a failing
// stream leaves it unusable.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/file_writer.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Cell;
using writer_testing::Column;
using writer_testing::ParseFile;
using writer_testing::Raw;
using writer_testing::Rows;

// Runs `fn`, expecting a ValidationError whose location names `column` and whose message
// contains `text`.
template <typename Fn>
void ExpectRejected(Fn&& fn, const std::string& column, const std::string& text) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one about " << column << ": " << text;
  } catch (const ValidationError& e) {
    if (!column.empty()) {
      EXPECT_EQ(e.where(), "column " + column) << e.what();
    }
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

WriterOptions With(std::vector<Encoding> encodings) {
  WriterOptions options;
  for (Encoding e : encodings) options.columns.push_back(ColumnWriteOptions{e});
  return options;
}

TEST(WriterErrorsTest, EncodingsMustFitTheType) {
  MemoryOutputStream out;
  struct Case {
    Type type;
    Encoding encoding;
  };
  for (const Case& c :
       {Case{Type::kInt32, Encoding::kByteStreamSplit},
        Case{Type::kDouble, Encoding::kDeltaBinaryPacked},
        Case{Type::kBoolean, Encoding::kRleDictionary}, Case{Type::kInt64, Encoding::kRle},
        Case{Type::kInt32, Encoding::kDeltaLengthByteArray},
        Case{Type::kFloat, Encoding::kDeltaByteArray},
        Case{Type::kByteArray, Encoding::kPlainDictionary},
        Case{Type::kByteArray, Encoding::kBitPacked}}) {
    ExpectRejected(
        [&] {
          FileWriter w(out, {Column("ok", Type::kInt32), Column("bad", c.type)},
                       With({Encoding::kPlain, c.encoding}));
        },
        "bad", ToString(c.encoding));
  }

  WriterOptions fallback = With({Encoding::kRleDictionary});
  fallback.columns[0].dictionary_fallback = Encoding::kByteStreamSplit;
  ExpectRejected([&] { FileWriter w(out, {Column("i", Type::kInt64)}, fallback); }, "i",
                 "BYTE_STREAM_SPLIT");
  fallback.columns[0].dictionary_fallback = Encoding::kRleDictionary;
  ExpectRejected([&] { FileWriter w(out, {Column("i", Type::kInt64)}, fallback); }, "i",
                 "fallback");
  WriterOptions preset = With({Encoding::kPlain});
  preset.columns[0].dictionary_preset = {"a"};
  ExpectRejected([&] { FileWriter w(out, {Column("s", Type::kByteArray)}, preset); }, "s",
                 "preset");
  preset.columns[0].encoding = Encoding::kRleDictionary;
  preset.columns[0].dictionary_preset = {"a", "b", "a"};
  ExpectRejected([&] { FileWriter w(out, {Column("s", Type::kByteArray)}, preset); }, "s",
                 "repeats");
  EXPECT_TRUE(out.bytes().empty()) << "nothing is written before the setup is accepted";
}

TEST(WriterErrorsTest, SchemaAndOptionsAreChecked) {
  MemoryOutputStream out;
  ExpectRejected([&] { FileWriter w(out, {}, {}); }, "", "no columns");
  ExpectRejected(
      [&] {
        FileWriter w(out, {Column("a", Type::kInt32), Column("a", Type::kInt64)});
      },
      "a", "duplicate");
  ExpectRejected([&] { FileWriter w(out, {Column("", Type::kInt32)}); }, "#0", "empty");
  ExpectRejected([&] { FileWriter w(out, {Column("f", Type::kFixedLenByteArray)}); }, "f",
                 "type_length");
  ExpectRejected([&] { FileWriter w(out, {Column("t", Type::kInt96)}); }, "t", "INT96");
  ExpectRejected(
      [&] {
        FileWriter w(out, {Column("a", Type::kInt32)}, With({Encoding::kPlain, Encoding::kPlain}));
      },
      "", "options list 2 columns");
  WriterOptions options;
  options.data_page_target_bytes = 0;
  ExpectRejected([&] { FileWriter w(out, {Column("a", Type::kInt32)}, options); }, "",
                 "data_page_target_bytes");
  options = {};
  options.compression = CompressionCodec::kBrotli;
  ExpectRejected([&] { FileWriter w(out, {Column("a", Type::kInt32)}, options); }, "", "BROTLI");
  options = {};
  options.compression_level = 99;
  EXPECT_THROW({ FileWriter w(out, {Column("a", Type::kInt32)}, options); }, ValidationError);
}

TEST(WriterErrorsTest, BadBatchesAreRejectedAndTheWriterStaysUsable) {
  const ColumnDescriptor flat = Column("flat", Type::kInt32);
  const ColumnDescriptor list = Column("list", Type::kInt64, false, true, false);
  const ColumnDescriptor text = Column("text", Type::kByteArray, true);
  const std::vector<ColumnDescriptor> schema = {flat, list, text};
  MemoryOutputStream out;
  FileWriter writer(out, schema);

  const Rows flat_rows = {Cell{true, {Raw<std::int32_t>(1)}}, Cell{true, {Raw<std::int32_t>(2)}}};
  const Rows list_rows = {Cell{true, {Raw<std::int64_t>(7), Raw<std::int64_t>(8)}}, Cell{true, {}}};
  const Rows text_rows = {Cell{true, {std::string("x")}}, Cell{true, {std::nullopt}}};

  ColumnData bad = writer_testing::ToColumnData(flat, flat_rows);
  bad.physical_type = Type::kInt64;
  ExpectRejected([&] { writer.WriteColumn(0, bad.View()); }, "flat", "physical type");
  bad = writer_testing::ToColumnData(flat, flat_rows);
  bad.validity[1] = 0;
  ExpectRejected([&] { writer.WriteColumn(0, bad.View()); }, "flat", "null value at slot 1");
  bad.validity[1] = 1;
  bad.values.resize(5);
  ExpectRejected([&] { writer.WriteColumn(0, bad.View()); }, "flat", "values has 5 bytes");
  bad = writer_testing::ToColumnData(flat, flat_rows);
  bad.list_offsets = {0, 1, 2};
  ExpectRejected([&] { writer.WriteColumn(0, bad.View()); }, "flat", "not a list");

  ColumnData bad_list = writer_testing::ToColumnData(list, list_rows);
  bad_list.list_validity[1] = 0;
  ExpectRejected([&] { writer.WriteColumn(1, bad_list.View()); }, "list", "required");
  bad_list = writer_testing::ToColumnData(list, list_rows);
  bad_list.validity[0] = 0;
  ExpectRejected([&] { writer.WriteColumn(1, bad_list.View()); }, "list", "null element");
  bad_list = writer_testing::ToColumnData(list, list_rows);
  bad_list.list_offsets = {0, 2};
  ExpectRejected([&] { writer.WriteColumn(1, bad_list.View()); }, "list", "list_offsets has 2");
  bad_list = writer_testing::ToColumnData(list, list_rows);
  bad_list.list_offsets = {2, 1, 2};
  ExpectRejected([&] { writer.WriteColumn(1, bad_list.View()); }, "list", "decrease");
  bad_list = writer_testing::ToColumnData(list, list_rows);
  bad_list.list_offsets = {0, 2, 3};
  bad_list.validity.clear();
  ExpectRejected([&] { writer.WriteColumn(1, bad_list.View()); }, "list", "values has 16 bytes");

  ColumnData bad_text = writer_testing::ToColumnData(text, text_rows);
  bad_text.byte_offsets[1] = 100;
  ExpectRejected([&] { writer.WriteColumn(2, bad_text.View()); }, "text", "outside the values");
  bad_text.byte_offsets.resize(1);
  ExpectRejected([&] { writer.WriteColumn(2, bad_text.View()); }, "text", "byte_offsets has 1");
  ExpectRejected([&] { writer.WriteColumn(3, bad_text.View()); }, "#3", "no such column");

  // Nothing of the rejected batches was kept.
  EXPECT_EQ(writer.pending_rows(0), 0);
  EXPECT_EQ(writer.pending_rows(1), 0);

  // Unequal row counts: the flush names a column, then succeeds once they match.
  const ColumnData good_flat = writer_testing::ToColumnData(flat, flat_rows);
  const ColumnData good_list = writer_testing::ToColumnData(list, list_rows);
  const ColumnData good_text = writer_testing::ToColumnData(text, text_rows);
  writer.WriteColumn(0, good_flat.View());
  writer.WriteColumn(1, good_list.View());
  ExpectRejected([&] { writer.FlushRowGroup(); }, "text", "has 0 rows");
  writer.WriteColumn(2, good_text.View());
  writer.FlushRowGroup();
  writer.Close();
  const auto parsed = ParseFile(out.bytes());
  EXPECT_EQ(parsed.meta.num_rows, 2);
  EXPECT_EQ(writer_testing::DecodeChunk(list, parsed.chunks[0][1]).rows, list_rows);
  EXPECT_EQ(writer_testing::DecodeChunk(text, parsed.chunks[0][2]).rows, text_rows);

  EXPECT_THROW(writer.WriteColumn(0, good_flat.View()), std::logic_error);
  EXPECT_THROW(writer.FlushRowGroup(), std::logic_error);
}

TEST(WriterErrorsTest, AStreamFailureLeavesTheWriterUnusable) {
  const ColumnDescriptor column = Column("a", Type::kInt64);
  writer_testing::FailingStream out(10);
  FileWriter writer(out, {column});
  Rows rows;
  for (int i = 0; i < 1000; ++i) rows.push_back(Cell{true, {Raw<std::int64_t>(i)}});
  const ColumnData data = writer_testing::ToColumnData(column, rows);
  writer.WriteColumn(0, data.View());
  EXPECT_THROW(writer.FlushRowGroup(), std::runtime_error);
  EXPECT_THROW(writer.WriteColumn(0, data.View()), std::logic_error);
  EXPECT_THROW(writer.Close(), std::logic_error);
}

}  // namespace
}  // namespace timef::parquet
