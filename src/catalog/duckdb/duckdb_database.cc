#include "catalog/duckdb/duckdb_database.h"

#include <array>
#include <fstream>
#include <string>
#include <system_error>

#include "catalog/duckdb/duckdb_appender.h"
#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/write/catalog_writer.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

// DuckDB's main header starts with an 8-byte checksum followed by the magic bytes "DUCK".
constexpr std::string_view kMagic = "DUCK";
constexpr size_t kMagicOffset = 8;

// Owns a duckdb_config.
class Config {
 public:
  Config() {
    if (duckdb_create_config(&config_) != DuckDBSuccess) {
      duckdb_destroy_config(&config_);
      throw Error("cannot allocate a DuckDB configuration");
    }
  }
  ~Config() { duckdb_destroy_config(&config_); }
  Config(const Config&) = delete;
  Config& operator=(const Config&) = delete;

  void Set(const char* name, const char* value) {
    if (duckdb_set_config(config_, name, value) != DuckDBSuccess) {
      throw Error(std::string("cannot set DuckDB option ") + name + "=" + value);
    }
  }
  duckdb_config get() const { return config_; }

 private:
  duckdb_config config_ = nullptr;
};

// Checks, before DuckDB sees the file, that it exists and carries DuckDB's magic, so that a missing
// file and a foreign file get the error classes of docs/format.md §12.
void CheckReadableCatalog(const std::filesystem::path& path) {
  // Only an absent file is "not found"; any other stat failure is reported with its cause.
  std::error_code ec;
  (void)std::filesystem::status(path, ec);
  if (ec == std::errc::no_such_file_or_directory) {
    throw MissingFileError(ErrorSite{.file = path}, "file not found");
  }
  if (ec) throw FileError(ErrorSite{.file = path}, "cannot stat: " + ec.message(), ec);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorSite{.file = path}, "cannot open the file for reading");
  std::array<char, kMagicOffset + kMagic.size()> header{};
  in.read(header.data(), header.size());
  std::string_view magic(header.data() + kMagicOffset, kMagic.size());
  if (in.gcount() != static_cast<std::streamsize>(header.size()) || magic != kMagic) {
    throw FormatError(ErrorSite{.file = path}, "not a DuckDB database (no DuckDB file header)");
  }
  // DuckDB replays a write-ahead log beside the file even on a read-only open, so rows that no
  // checksum covers would be read (docs/format.md §6.1). Any entry of that name is refused.
  const std::filesystem::path wal = WalPath(path);
  if (std::filesystem::symlink_status(wal, ec).type() != std::filesystem::file_type::not_found) {
    throw FormatError(ErrorSite{.file = wal},
                      "a write-ahead log beside the catalog: DuckDB would replay it, so the "
                      "catalog is not opened");
  }
}

}  // namespace

Database Database::Open(const std::filesystem::path& path, AccessMode mode,
                        int64_t new_file_block_size) {
  Config config;
  config.Set("autoinstall_known_extensions", "false");
  config.Set("autoload_known_extensions", "false");
  if (mode == AccessMode::kReadOnly) {
    CheckReadableCatalog(path);
    config.Set("access_mode", "READ_ONLY");
    // Hydration runs many small key-joined queries: waking DuckDB's worker threads for each cost
    // more than the queries (kernel wake-ups and mutexes were ~25 % of a short-series scan).
    config.Set("threads", "1");
    // No spill files next to the catalog, no file access from SQL (a crafted view cannot read
    // other files), and no SET that could undo either.
    config.Set("temp_directory", "");
    config.Set("enable_external_access", "false");
    // A bound on what one query may hold (docs/format.md §6.12): a query that needs more fails
    // with DuckDB's out-of-memory error instead of exhausting the host. With no temp directory
    // nothing spills to disk.
    config.Set("memory_limit", kReadOnlyMemoryLimit);
    config.Set("lock_configuration", "true");
  } else if (new_file_block_size != 0) {
    config.Set("default_block_size", std::to_string(new_file_block_size).c_str());
  }
  duckdb_database db = nullptr;
  char* error = nullptr;
  std::string text = path.string();
  if (duckdb_open_ext(text.c_str(), &db, config.get(), &error) != DuckDBSuccess) {
    std::string message = DuckDbErrorText(error != nullptr ? error : "unknown error");
    duckdb_free(error);
    ErrorSite site{.file = path};
    // The header was DuckDB's, so a refusal other than a lock conflict means a file DuckDB cannot
    // read: a corrupt or unsupported artifact.
    if (mode == AccessMode::kReadOnly && message.find("Could not set lock") == std::string::npos) {
      throw FormatError(std::move(site), "cannot open catalog: " + message);
    }
    throw Error(std::move(site), "cannot open database: " + message);
  }
  return Database(std::make_shared<DatabaseHandle>(db, path, mode));
}

Connection::Connection(const Database& db) {
  duckdb_connection conn = nullptr;
  if (duckdb_connect(db.handle()->get(), &conn) != DuckDBSuccess) {
    throw Error(ErrorSite{.file = db.path()}, "cannot connect to the database");
  }
  handle_ = std::make_shared<ConnectionHandle>(conn, db.handle());
}

Result Connection::Query(std::string_view sql, std::string_view what) {
  handle_->CheckAlive(what);
  handle_->BeginStatement();
  auto result = std::make_unique<duckdb_result>();
  std::string text(sql);
  if (duckdb_query(handle_->get(), text.c_str(), result.get()) != DuckDBSuccess) {
    std::string message = duckdb_result_error(result.get());
    duckdb_error_type type = duckdb_result_error_type(result.get());
    duckdb_destroy_result(result.get());
    handle_->ThrowError(what, type, message);
  }
  Result out(handle_, keep_alive_, what, std::move(result));
  handle_->CheckAlive(what);
  return out;
}

void Connection::Execute(std::string_view sql, std::string_view what) { Query(sql, what); }

PreparedStatement Connection::Prepare(std::string_view sql, std::string_view what) {
  return PreparedStatement(handle_, keep_alive_, sql, what);
}

Result Connection::Stream(std::string_view sql, std::string_view what) {
  auto statement = std::make_shared<PreparedStatement>(Prepare(sql, what));
  return statement->ExecuteStreaming(statement);
}

Appender Connection::Append(std::string_view table) {
  return Appender(handle_, keep_alive_, table);
}

Transaction::Transaction(Connection& connection) : connection_(connection) {
  connection_.Execute("BEGIN TRANSACTION", "transaction");
}

Transaction::~Transaction() {
  if (!open_) return;
  try {
    connection_.Execute("ROLLBACK", "transaction");
  } catch (const Error&) {
    // Nothing to do: the connection is broken or closed, and DuckDB rolls back on disconnect.
  }
}

void Transaction::Commit() {
  open_ = false;
  connection_.Execute("COMMIT", "transaction");
}

}  // namespace timef::catalog
