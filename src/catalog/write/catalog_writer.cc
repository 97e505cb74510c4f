#include "catalog/write/catalog_writer.h"

#include <system_error>
#include <utility>

#include "timef/error.h"

namespace timef::catalog {

struct CatalogWriter::State {
  std::filesystem::path path;
  std::optional<Database> database;
  std::optional<Connection> connection;
  std::optional<Appender> appender;
  std::optional<CatalogTable> current;  // table of the last Append()
  bool in_transaction = false;
  bool finished = false;   // Finish() succeeded
  bool discarded = false;  // the file was deleted
};

std::filesystem::path WalPath(const std::filesystem::path& path) {
  std::filesystem::path wal = path;
  wal += ".wal";
  return wal;
}

int64_t CatalogBlockSize(const HighWaterMarks& marks) {
  const int64_t objects = marks.max_record_id + marks.max_signal_id + marks.max_task_id;
  return objects <= kSmallCatalogObjects ? 16 * 1024 : 64 * 1024;
}

CatalogWriter::CatalogWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

CatalogWriter::~CatalogWriter() { Discard(); }

CatalogWriter::CatalogWriter(CatalogWriter&&) noexcept = default;

CatalogWriter& CatalogWriter::operator=(CatalogWriter&& other) noexcept {
  if (this != &other) {
    Discard();
    state_ = std::move(other.state_);
  }
  return *this;
}

const std::filesystem::path& CatalogWriter::path() const { return state_->path; }

CatalogWriter CatalogWriter::Create(const std::filesystem::path& path,
                                    const HighWaterMarks& marks) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) || std::filesystem::exists(WalPath(path), ec)) {
    throw ValidationError(ErrorSite{.file = path}, "catalog file already exists");
  }
  auto state = std::make_unique<State>();
  state->path = path;
  // From here on the writer owns the file: any failure below deletes it.
  CatalogWriter writer(std::move(state));
  writer.state_->database = Database::Open(path, AccessMode::kReadWrite, CatalogBlockSize(marks));
  writer.state_->connection.emplace(*writer.state_->database);
  CreateSchema(*writer.state_->connection, marks);
  writer.state_->connection->Execute("BEGIN TRANSACTION", "transaction");
  writer.state_->in_transaction = true;
  writer.state_->current = CatalogTable::kControlMetadata;
  return writer;
}

Appender& CatalogWriter::Append(CatalogTable table) {
  State& s = *state_;
  if (s.finished || s.discarded) {
    throw Error(ErrorSite{.file = s.path}, "catalog writer already finished or discarded");
  }
  if (table == CatalogTable::kControlMetadata || (s.current && table < *s.current)) {
    throw Error(
        ErrorSite{.file = s.path, .where = std::string(TableName(table))},
        "tables must be appended in creation order (docs/format.md §6.3); current table is " +
            std::string(TableName(*s.current)));
  }
  if (s.appender && s.current == table) return *s.appender;
  if (s.appender) {
    s.appender->Close();
    s.appender.reset();
  }
  s.current = table;
  s.appender.emplace(s.connection->Append(TableName(table)));
  return *s.appender;
}

Result CatalogWriter::Query(std::string_view sql, std::string_view what) {
  State& s = *state_;
  if (s.finished || s.discarded) {
    throw Error(ErrorSite{.file = s.path}, "catalog writer already finished or discarded");
  }
  if (s.appender) {
    s.appender->Close();
    s.appender.reset();
  }
  return s.connection->Query(sql, what);
}

void CatalogWriter::Finish() {
  State& s = *state_;
  if (s.finished) return;
  if (s.discarded) throw Error(ErrorSite{.file = s.path}, "catalog writer was discarded");
  try {
    if (s.appender) {
      s.appender->Close();
      s.appender.reset();
    }
    s.connection->Execute("COMMIT", "transaction");
    s.in_transaction = false;
    s.connection->Execute("CHECKPOINT", "checkpoint");
    s.connection.reset();
    s.database.reset();
    std::error_code ec;
    if (std::filesystem::exists(WalPath(s.path), ec)) {
      throw Error(ErrorSite{.file = WalPath(s.path)},
                  "write-ahead log left after checkpoint and close (is a result still alive?)");
    }
    s.finished = true;
  } catch (...) {
    Discard();
    throw;
  }
}

void CatalogWriter::Discard() noexcept {
  if (state_ == nullptr || state_->finished || state_->discarded) return;
  State& s = *state_;
  s.appender.reset();
  if (s.in_transaction && s.connection) {
    try {
      s.connection->Execute("ROLLBACK", "transaction");
    } catch (const Error&) {
      // The transaction is gone with the connection anyway.
    }
  }
  s.in_transaction = false;
  s.connection.reset();
  s.database.reset();
  std::error_code ec;
  std::filesystem::remove(s.path, ec);
  std::filesystem::remove(WalPath(s.path), ec);
  s.discarded = true;
}

}  // namespace timef::catalog
