// Helpers for the reader tests: an in-memory DuckDB (the independent oracle), and one value model
// ("cells") that both DuckDB's results and the reader's ColumnData convert to, so a test compares
// them row by row. A scalar cell holds the value's bytes in the reader's slot layout (INT32-backed
// types as 4 little-endian bytes, floats as their raw bit pattern, UUID as its 16 big-endian
// bytes, strings as their bytes), which makes every comparison bit-exact.
#pragma once

#include <duckdb.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/column_data.h"

namespace timef::parquet::testing {

using Scalar = std::optional<std::string>;  // nullopt = null

struct Cell {
  bool is_list = false;
  Scalar scalar;                                // flat columns
  std::optional<std::vector<Scalar>> elements;  // lists; nullopt = null list
  bool operator==(const Cell&) const = default;
};

inline std::string ScalarText(const Scalar& s) {
  if (!s) return "null";
  std::string out = "0x";
  static constexpr char kDigits[] = "0123456789abcdef";
  for (unsigned char c : *s) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

inline std::string CellText(const Cell& c) {
  if (!c.is_list) return ScalarText(c.scalar);
  if (!c.elements) return "null list";
  std::string out = "[";
  for (const auto& e : *c.elements) {
    if (out.size() > 1) out += ", ";
    out += ScalarText(e);
  }
  return out + "]";
}

class DuckDb {
 public:
  DuckDb() {
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess) throw std::runtime_error("duckdb_open");
    if (duckdb_connect(db_, &con_) != DuckDBSuccess) throw std::runtime_error("duckdb_connect");
  }
  ~DuckDb() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }
  DuckDb(const DuckDb&) = delete;
  DuckDb& operator=(const DuckDb&) = delete;

  void Exec(const std::string& sql) {
    duckdb_result result;
    const bool ok = duckdb_query(con_, sql.c_str(), &result) == DuckDBSuccess;
    const std::string error = ok ? "" : duckdb_result_error(&result);
    duckdb_destroy_result(&result);
    if (!ok) throw std::runtime_error("DuckDB: " + error + "\nSQL: " + sql);
  }

  // Every column of the query's result as cells, column by column.
  std::vector<std::vector<Cell>> Columns(const std::string& sql) {
    duckdb_result result;
    if (duckdb_query(con_, sql.c_str(), &result) != DuckDBSuccess) {
      const std::string error = duckdb_result_error(&result);
      duckdb_destroy_result(&result);
      throw std::runtime_error("DuckDB: " + error + "\nSQL: " + sql);
    }
    const idx_t columns = duckdb_column_count(&result);
    std::vector<std::vector<Cell>> out(columns);
    for (;;) {
      duckdb_data_chunk chunk = duckdb_fetch_chunk(result);
      if (chunk == nullptr) break;
      const idx_t rows = duckdb_data_chunk_get_size(chunk);
      for (idx_t c = 0; c < columns; ++c) {
        duckdb_vector vector = duckdb_data_chunk_get_vector(chunk, c);
        for (idx_t r = 0; r < rows; ++r) out[c].push_back(CellAt(vector, r));
      }
      duckdb_destroy_data_chunk(&chunk);
    }
    duckdb_destroy_result(&result);
    return out;
  }

  // A single scalar result, as text.
  std::string Text(const std::string& sql) {
    duckdb_result result;
    if (duckdb_query(con_, sql.c_str(), &result) != DuckDBSuccess) {
      const std::string error = duckdb_result_error(&result);
      duckdb_destroy_result(&result);
      throw std::runtime_error("DuckDB: " + error + "\nSQL: " + sql);
    }
    char* value = duckdb_value_varchar(&result, 0, 0);
    std::string out = value != nullptr ? value : "NULL";
    duckdb_free(value);
    duckdb_destroy_result(&result);
    return out;
  }

 private:
  static Cell CellAt(duckdb_vector vector, idx_t row) {
    duckdb_logical_type type = duckdb_vector_get_column_type(vector);
    const duckdb_type id = duckdb_get_type_id(type);
    duckdb_destroy_logical_type(&type);
    uint64_t* validity = duckdb_vector_get_validity(vector);
    const bool valid = validity == nullptr || duckdb_validity_row_is_valid(validity, row);
    Cell cell;
    if (id == DUCKDB_TYPE_LIST) {
      cell.is_list = true;
      if (!valid) return cell;
      const auto* entries = static_cast<const duckdb_list_entry*>(duckdb_vector_get_data(vector));
      duckdb_vector child = duckdb_list_vector_get_child(vector);
      cell.elements.emplace();
      for (uint64_t i = 0; i < entries[row].length; ++i) {
        cell.elements->push_back(ScalarAt(child, entries[row].offset + i));
      }
      return cell;
    }
    cell.scalar = ScalarAt(vector, row);
    return cell;
  }

  template <typename T>
  static std::string Raw(T v) {
    std::string out(sizeof(T), '\0');
    std::memcpy(out.data(), &v, sizeof(T));
    return out;
  }

  static Scalar ScalarAt(duckdb_vector vector, idx_t row) {
    uint64_t* validity = duckdb_vector_get_validity(vector);
    if (validity != nullptr && !duckdb_validity_row_is_valid(validity, row)) return std::nullopt;
    duckdb_logical_type type = duckdb_vector_get_column_type(vector);
    const duckdb_type id = duckdb_get_type_id(type);
    duckdb_destroy_logical_type(&type);
    const void* data = duckdb_vector_get_data(vector);
    switch (id) {
      case DUCKDB_TYPE_BOOLEAN:
        return std::string(1, static_cast<const bool*>(data)[row] ? '\1' : '\0');
      case DUCKDB_TYPE_TINYINT:
        return Raw<int32_t>(static_cast<const int8_t*>(data)[row]);
      case DUCKDB_TYPE_UTINYINT:
        return Raw<uint32_t>(static_cast<const uint8_t*>(data)[row]);
      case DUCKDB_TYPE_SMALLINT:
        return Raw<int32_t>(static_cast<const int16_t*>(data)[row]);
      case DUCKDB_TYPE_USMALLINT:
        return Raw<uint32_t>(static_cast<const uint16_t*>(data)[row]);
      case DUCKDB_TYPE_INTEGER:
      case DUCKDB_TYPE_DATE:
        return Raw<int32_t>(static_cast<const int32_t*>(data)[row]);
      case DUCKDB_TYPE_UINTEGER:
        return Raw<uint32_t>(static_cast<const uint32_t*>(data)[row]);
      case DUCKDB_TYPE_BIGINT:
      case DUCKDB_TYPE_TIMESTAMP:
        return Raw<int64_t>(static_cast<const int64_t*>(data)[row]);
      case DUCKDB_TYPE_UBIGINT:
        return Raw<uint64_t>(static_cast<const uint64_t*>(data)[row]);
      case DUCKDB_TYPE_FLOAT:
        return Raw<float>(static_cast<const float*>(data)[row]);
      case DUCKDB_TYPE_DOUBLE:
        return Raw<double>(static_cast<const double*>(data)[row]);
      case DUCKDB_TYPE_UUID: {
        // DuckDB keeps a UUID as a hugeint whose top bit is flipped (so it sorts as unsigned).
        const auto h = static_cast<const duckdb_hugeint*>(data)[row];
        const uint64_t upper = static_cast<uint64_t>(h.upper) ^ (uint64_t{1} << 63);
        std::string out(16, '\0');
        for (int i = 0; i < 8; ++i) {
          out[i] = static_cast<char>(upper >> (56 - 8 * i));
          out[8 + i] = static_cast<char>(h.lower >> (56 - 8 * i));
        }
        return out;
      }
      case DUCKDB_TYPE_VARCHAR:
      case DUCKDB_TYPE_BLOB: {
        auto s = static_cast<duckdb_string_t*>(const_cast<void*>(data))[row];
        return std::string(duckdb_string_t_data(&s), duckdb_string_t_length(s));
      }
      default:
        throw std::runtime_error("reader test: unsupported DuckDB type " + std::to_string(id));
    }
  }

  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

// The reader's output as cells (one per row).
inline std::vector<Cell> CellsOf(const ColumnData& data) {
  const bool list = !data.list_offsets.empty();
  const std::int32_t width = SlotWidth(data.physical_type, data.type_length);
  auto slot = [&](std::int64_t i) -> Scalar {
    if (!data.validity.empty() && data.validity[i] == 0) return std::nullopt;
    if (data.physical_type == Type::kByteArray) {
      const auto begin = data.byte_offsets[i];
      const auto end = data.byte_offsets[i + 1];
      return std::string(reinterpret_cast<const char*>(data.values.data()) + begin,
                         static_cast<std::size_t>(end - begin));
    }
    return std::string(reinterpret_cast<const char*>(data.values.data()) + i * width,
                       static_cast<std::size_t>(width));
  };
  std::vector<Cell> cells;
  cells.reserve(data.num_rows);
  for (std::int64_t r = 0; r < data.num_rows; ++r) {
    Cell cell;
    if (list) {
      cell.is_list = true;
      if (data.list_validity.empty() || data.list_validity[r] != 0) {
        cell.elements.emplace();
        for (auto i = data.list_offsets[r]; i < data.list_offsets[r + 1]; ++i) {
          cell.elements->push_back(slot(i));
        }
      }
    } else {
      cell.scalar = slot(r);
    }
    cells.push_back(std::move(cell));
  }
  return cells;
}

// Compares cell vectors, reporting the first few differences with their row numbers.
inline ::testing::AssertionResult SameCells(const std::vector<Cell>& expected,
                                            const std::vector<Cell>& actual,
                                            std::int64_t first_row = 0) {
  if (expected.size() != actual.size()) {
    return ::testing::AssertionFailure()
           << "expected " << expected.size() << " rows, got " << actual.size();
  }
  int reported = 0;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == actual[i]) continue;
    if (reported++ < 5) {
      failure << "row " << first_row + static_cast<std::int64_t>(i) << ": expected "
              << CellText(expected[i]) << ", got " << CellText(actual[i]) << "\n";
    }
  }
  if (reported == 0) return ::testing::AssertionSuccess();
  return failure << reported << " rows differ";
}

}  // namespace timef::parquet::testing
