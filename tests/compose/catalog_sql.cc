// catalog_sql: the independent check's SQL runner (issue 12 acceptance). Opens a control.duckdb
// read-only through DuckDB's C API alone (no timef code) and prints the rows of one query as
// JSON arrays, one line per row, values as strings or null. Usage: catalog_sql FILE SQL
#include <duckdb.h>

#include <cstdio>
#include <string>

namespace {

std::string Json(const char* text) {
  if (text == nullptr) return "null";
  std::string out = "\"";
  for (const char* p = text; *p; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    out += *p;
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: catalog_sql FILE SQL\n");
    return 2;
  }
  duckdb_config config;
  duckdb_create_config(&config);
  duckdb_set_config(config, "access_mode", "READ_ONLY");
  duckdb_database db;
  char* error = nullptr;
  if (duckdb_open_ext(argv[1], &db, config, &error) != DuckDBSuccess) {
    std::fprintf(stderr, "catalog_sql: %s: %s\n", argv[1], error ? error : "cannot open");
    duckdb_free(error);
    duckdb_destroy_config(&config);
    return 1;
  }
  duckdb_destroy_config(&config);
  duckdb_connection con;
  duckdb_connect(db, &con);
  duckdb_result result;
  int status = 0;
  if (duckdb_query(con, argv[2], &result) != DuckDBSuccess) {
    std::fprintf(stderr, "catalog_sql: %s\n", duckdb_result_error(&result));
    status = 1;
  } else {
    const idx_t columns = duckdb_column_count(&result);
    const idx_t rows = duckdb_row_count(&result);
    for (idx_t r = 0; r < rows; ++r) {
      std::string line = "[";
      for (idx_t c = 0; c < columns; ++c) {
        char* value =
            duckdb_value_is_null(&result, c, r) ? nullptr : duckdb_value_varchar(&result, c, r);
        line += (c ? "," : "") + Json(value);
        duckdb_free(value);
      }
      std::printf("%s]\n", line.c_str());
    }
  }
  duckdb_destroy_result(&result);
  duckdb_disconnect(&con);
  duckdb_close(&db);
  return status;
}
