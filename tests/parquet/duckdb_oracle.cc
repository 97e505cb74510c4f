// parquet_duckdb_oracle: DuckDB as the independent writer and reader of the Parquet interop tests
// in tests/interop (built only with the tests).
//   fixtures DIR  writes the DuckDB inputs of the rewrite acceptance (duckdb_rewrite_cases.h) to
//                 DIR and prints their file names;
//   rewrites      prints the acceptance's `timef parquet rewrite` option sets, one per line:
//                 NAME <tab> 1|0 (DuckDB can read the rewrite) <tab> the CLI arguments;
//   dump FILE     prints FILE's rows as DuckDB's read_parquet reads them, as JSON lines in the
//                 format of `timef parquet dump` (and tests/interop/node/dump.mjs), so a shell
//                 test compares readers with cmp;
//   dump --each FILE...  the same for many files with one DuckDB, into FILE.duckdb each, not
//                 written when DuckDB fails on FILE (the error goes to stderr, exit status 1).
// Types outside the fixtures' (DECIMAL, timestamps, structs, ...) are an error, never a guess.
#include <duckdb.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/duckdb_rewrite_cases.h"

namespace {

using timef::parquet::testing::CliArguments;
using timef::parquet::testing::DuckDbInputs;
using timef::parquet::testing::kRewriteTableSql;
using timef::parquet::testing::RewriteCases;

class Connection {
 public:
  Connection() {
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess) throw std::runtime_error("duckdb_open");
    if (duckdb_connect(db_, &con_) != DuckDBSuccess) {
      duckdb_close(&db_);
      throw std::runtime_error("duckdb_connect");
    }
    Exec("SET threads = 1");  // also keeps read_parquet's rows in file order
  }
  ~Connection() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs `sql`; the caller owns (and must destroy) *result.
  void Query(const std::string& sql, duckdb_result* result) {
    if (duckdb_query(con_, sql.c_str(), result) != DuckDBSuccess) {
      std::string error = duckdb_result_error(result);
      duckdb_destroy_result(result);
      throw std::runtime_error("DuckDB: " + error + "\nSQL: " + sql);
    }
  }
  void Exec(const std::string& sql) {
    duckdb_result result;
    Query(sql, &result);
    duckdb_destroy_result(&result);
  }

 private:
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

std::string SqlString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

void AppendJsonString(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;  // DuckDB's VARCHAR is valid UTF-8, which JSON carries as is
        }
    }
  }
  out += '"';
}

void AppendHex(const unsigned char* bytes, std::size_t size, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < size; ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  out += '"';
}

// Shortest round-trip text (std::to_chars), ".0" added to integral-looking text; non-finite
// values as the JSON strings "NaN", "Infinity", "-Infinity".
template <typename F>
void AppendFloating(F value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
  } else if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    const std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
    out += text;
    if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
  }
}

bool IsValid(duckdb_vector vector, idx_t row) {
  uint64_t* validity = duckdb_vector_get_validity(vector);
  return validity == nullptr || duckdb_validity_row_is_valid(validity, row);
}

template <typename T>
T At(duckdb_vector vector, idx_t row) {
  return static_cast<const T*>(duckdb_vector_get_data(vector))[row];
}

void AppendValue(duckdb_vector vector, idx_t row, std::string& out) {
  if (!IsValid(vector, row)) {
    out += "null";
    return;
  }
  duckdb_logical_type type = duckdb_vector_get_column_type(vector);
  const duckdb_type id = duckdb_get_type_id(type);
  duckdb_destroy_logical_type(&type);
  switch (id) {
    case DUCKDB_TYPE_BOOLEAN:
      out += At<bool>(vector, row) ? "true" : "false";
      return;
    case DUCKDB_TYPE_TINYINT:
      out += std::to_string(At<int8_t>(vector, row));
      return;
    case DUCKDB_TYPE_UTINYINT:
      out += std::to_string(At<uint8_t>(vector, row));
      return;
    case DUCKDB_TYPE_SMALLINT:
      out += std::to_string(At<int16_t>(vector, row));
      return;
    case DUCKDB_TYPE_USMALLINT:
      out += std::to_string(At<uint16_t>(vector, row));
      return;
    case DUCKDB_TYPE_INTEGER:
      out += std::to_string(At<int32_t>(vector, row));
      return;
    case DUCKDB_TYPE_UINTEGER:
      out += std::to_string(At<uint32_t>(vector, row));
      return;
    case DUCKDB_TYPE_BIGINT:
      out += std::to_string(At<int64_t>(vector, row));
      return;
    case DUCKDB_TYPE_UBIGINT:
      out += std::to_string(At<uint64_t>(vector, row));
      return;
    case DUCKDB_TYPE_FLOAT:
      AppendFloating(At<float>(vector, row), out);
      return;
    case DUCKDB_TYPE_DOUBLE:
      AppendFloating(At<double>(vector, row), out);
      return;
    case DUCKDB_TYPE_UUID: {
      // DuckDB keeps a UUID as a hugeint with the top bit flipped (to sort as unsigned); the
      // Parquet value is its 16 big-endian bytes.
      const auto h = At<duckdb_hugeint>(vector, row);
      const uint64_t halves[2] = {static_cast<uint64_t>(h.upper) ^ (uint64_t{1} << 63), h.lower};
      unsigned char bytes[16];
      for (int i = 0; i < 16; ++i)
        bytes[i] = static_cast<unsigned char>(halves[i / 8] >> (56 - 8 * (i % 8)));
      AppendHex(bytes, sizeof(bytes), out);
      return;
    }
    case DUCKDB_TYPE_VARCHAR:
    case DUCKDB_TYPE_BLOB: {
      auto s = At<duckdb_string_t>(vector, row);
      const char* data = duckdb_string_t_data(&s);
      const std::size_t size = duckdb_string_t_length(s);
      if (id == DUCKDB_TYPE_VARCHAR) {
        AppendJsonString(std::string_view(data, size), out);
      } else {
        AppendHex(reinterpret_cast<const unsigned char*>(data), size, out);
      }
      return;
    }
    case DUCKDB_TYPE_LIST: {
      const auto entry = At<duckdb_list_entry>(vector, row);
      duckdb_vector child = duckdb_list_vector_get_child(vector);
      out += '[';
      for (uint64_t i = 0; i < entry.length; ++i) {
        if (i > 0) out += ',';
        AppendValue(child, entry.offset + i, out);
      }
      out += ']';
      return;
    }
    default:
      throw std::runtime_error("unsupported DuckDB type " + std::to_string(id));
  }
}

void Dump(Connection& db, const std::string& file, std::FILE* stream) {
  duckdb_result result;
  db.Query("SELECT * FROM read_parquet(" + SqlString(file) + ")", &result);
  const idx_t columns = duckdb_column_count(&result);
  std::vector<std::string> keys;
  for (idx_t c = 0; c < columns; ++c) {
    std::string key;
    AppendJsonString(duckdb_column_name(&result, c), key);
    keys.push_back(key + ":");
  }
  std::string out;
  try {
    for (;;) {
      duckdb_data_chunk chunk = duckdb_fetch_chunk(result);
      if (chunk == nullptr) break;
      const idx_t rows = duckdb_data_chunk_get_size(chunk);
      for (idx_t r = 0; r < rows; ++r) {
        out += '{';
        for (idx_t c = 0; c < columns; ++c) {
          if (c > 0) out += ',';
          out += keys[c];
          AppendValue(duckdb_data_chunk_get_vector(chunk, c), r, out);
        }
        out += "}\n";
      }
      duckdb_destroy_data_chunk(&chunk);
      std::fwrite(out.data(), 1, out.size(), stream);
      out.clear();
    }
  } catch (...) {
    duckdb_destroy_result(&result);
    throw;
  }
  // A read error surfaces here rather than in duckdb_query for a streamed scan.
  const char* error = duckdb_result_error(&result);
  const std::string message = error != nullptr ? error : "";
  duckdb_destroy_result(&result);
  if (!message.empty()) throw std::runtime_error("DuckDB: " + message);
}

int DumpEach(const std::vector<std::string>& files) {
  Connection db;
  int status = 0;
  for (const auto& file : files) {
    const std::string output = file + ".duckdb";
    std::FILE* stream = std::fopen(output.c_str(), "wb");
    if (stream == nullptr) throw std::runtime_error("cannot write " + output);
    std::string error;
    try {
      Dump(db, file, stream);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (std::fclose(stream) != 0 && error.empty()) error = "cannot write " + output;
    if (!error.empty()) {
      std::remove(output.c_str());
      std::cerr << file << ": " << error << '\n';
      status = 1;
    }
  }
  return status;
}

void WriteFixtures(const std::string& dir) {
  Connection db;
  db.Exec(kRewriteTableSql);
  for (const auto& input : DuckDbInputs()) {
    const std::string name = "duckdb_" + input.name + ".parquet";
    db.Exec("COPY t TO " + SqlString(dir + "/" + name) + " (FORMAT parquet, " + input.copy_options +
            ")");
    std::cout << name << '\n';
  }
}

void PrintRewrites() {
  for (const auto& rewrite : RewriteCases()) {
    std::cout << rewrite.name << '\t' << (rewrite.duckdb_reads_rewrite ? 1 : 0) << '\t';
    const auto args = CliArguments(rewrite);
    for (std::size_t i = 0; i < args.size(); ++i) std::cout << (i > 0 ? " " : "") << args[i];
    std::cout << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "fixtures" && argc == 3) {
      WriteFixtures(argv[2]);
    } else if (command == "rewrites" && argc == 2) {
      PrintRewrites();
    } else if (command == "dump" && argc == 3) {
      Connection db;
      Dump(db, argv[2], stdout);
    } else if (command == "dump" && argc > 3 && std::string_view(argv[2]) == "--each") {
      return DumpEach(std::vector<std::string>(argv + 3, argv + argc));
    } else {
      std::cerr << "usage: parquet_duckdb_oracle fixtures DIR | rewrites | dump FILE | dump --each "
                   "FILE...\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "parquet_duckdb_oracle: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
