// A file from a third writer: parquet-wasm (arrow-rs) writes data page v2, many small pages per
// chunk and a page index, which DuckDB does not (fixture: tests/parquet/data/, made by
// make_format_fixtures.mjs). timef reads it whole, by row ranges through its OffsetIndex and by
// scanning, and must match DuckDB's reading of the same file bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/reader_test_support.h"

namespace timef::parquet {
namespace {

using testing::CellsOf;
using testing::SameCells;

const std::string kFixture =
    std::string(TIMEF_SOURCE_DIR) + "/tests/parquet/data/parquet_wasm_v2_page_index.parquet";

TEST(ReaderInteropTest, ParquetWasmV2PagesWithPageIndexMatchDuckDb) {
  testing::DuckDb db;
  const auto expected = db.Columns("SELECT * FROM read_parquet('" + kFixture + "')");
  for (const bool use_index : {true, false}) {
    SCOPED_TRACE(use_index ? "page index" : "scan");
    ReaderOptions options;
    options.use_page_index = use_index;
    FileReader reader = FileReader::OpenFile(kFixture, options);
    ASSERT_EQ(reader.columns().size(), expected.size());
    ASSERT_GT(reader.num_row_groups(), 1);
    std::mt19937_64 rng(5);
    ColumnData data;
    bool several_pages = false;
    for (std::size_t c = 0; c < expected.size(); ++c) {
      std::int64_t start = 0;
      for (int g = 0; g < reader.num_row_groups(); ++g) {
        const int column = static_cast<int>(c);
        const std::int64_t rows = reader.row_group_num_rows(g);
        const OffsetIndex* index = reader.offset_index(g, column);
        ASSERT_NE(index, nullptr);
        EXPECT_GT(index->page_locations.size(), 1u);
        const auto& first_page = index->page_locations.front();
        const auto header_bytes =
            OpenPreadFile(kFixture)->Read(first_page.offset, first_page.compressed_page_size);
        EXPECT_EQ(ReadThrift<PageHeader>(header_bytes).type, PageType::kDataPageV2);
        reader.ResetStats();
        reader.ReadColumnChunk(g, column, data);
        several_pages = several_pages || reader.stats().data_pages_decoded > 1;
        ASSERT_TRUE(SameCells({expected[c].begin() + start, expected[c].begin() + start + rows},
                              CellsOf(data), start));
        for (int k = 0; k < 20; ++k) {
          std::int64_t first = static_cast<std::int64_t>(rng() % rows);
          std::int64_t last =
              k % 2 == 0 ? first + 1 : static_cast<std::int64_t>(rng() % (rows + 1));
          if (first > last) std::swap(first, last);
          reader.ResetStats();
          reader.ReadRows(g, column, first, last, data);
          ASSERT_TRUE(
              SameCells({expected[c].begin() + start + first, expected[c].begin() + start + last},
                        CellsOf(data), start + first))
              << "column " << c << " group " << g << " rows [" << first << ", " << last << ")";
          if (use_index && last == first + 1) {
            EXPECT_EQ(reader.stats().data_pages_decoded, 1u);
          }
        }
        start += rows;
      }
    }
    EXPECT_TRUE(several_pages);
  }
}

}  // namespace
}  // namespace timef::parquet
