#include "catalog/hydrate/signal_locators.h"

#include <map>
#include <string>
#include <utility>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/hydrate/chunk_rows.h"
#include "catalog/hydrate/spec_row.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

// Signals without chunk rows (no values) come out once with NULL chunk columns.
std::string LocatorSql(bool by_ids) {
  return "SELECT s.signal_id, r.record_id, s.n_values, sc.chunk_index, " +
         std::string(kChunkColumns) + ", " + std::string(kSpecColumns) +
         " FROM signals s JOIN sources so ON so.source_key = s.source_key "
         "JOIN records r ON r.record_key = so.record_key " +
         (by_ids ? "JOIN (SELECT DISTINCT unnest($1::BIGINT[]) AS id) q ON q.id = s.signal_id "
                 : "") +
         "LEFT JOIN signal_chunks sc ON sc.signal_key = s.signal_key "
         "ORDER BY s.signal_id, sc.chunk_index";
}

}  // namespace

void ForEachSignalLocator(Connection& connection, std::optional<std::span<const int64_t>> ids,
                          const std::function<void(SignalLocatorRow&&)>& row) {
  Result result = [&] {
    if (!ids) return connection.Query(LocatorSql(false), "signal_chunks");
    PreparedStatement statement = connection.Prepare(LocatorSql(true), "signal_chunks");
    statement.BindInt64List(1, std::vector<int64_t>(ids->begin(), ids->end()));
    return statement.Execute();
  }();

  std::map<std::string, std::shared_ptr<const model::Spec>> specs;
  SignalLocatorRow current;
  bool open = false;  // `current` holds a signal not yet handed to `row`
  ChunkSequence chunks;
  auto finish = [&] {
    if (!open) return;
    if (!chunks.empty()) current.chunks = chunks.Take(current.signal_id, current.n_values);
    row(std::exchange(current, SignalLocatorRow{}));
    open = false;
  };
  while (std::optional<Chunk> chunk = result.Next()) {
    const Chunk& c = *chunk;
    auto signal_id = c.Int64(0);
    auto chunk_index = c.Int64(3);
    for (idx_t i = 0; i < c.size(); ++i) {
      const int64_t id = signal_id.Get(i);
      if (!open || current.signal_id != id) {
        finish();
        open = true;
        current.signal_id = id;
        current.record_id = c.Int64(1).Get(i);
        current.n_values = c.Int64(2).Get(i);
        model::Spec spec = SpecAt(c, i, 9);
        std::shared_ptr<const model::Spec>& cached = specs[spec.spec_type];
        if (!cached || !(*cached == spec)) cached = model::Spec::Make(std::move(spec));
        current.spec = cached;
      }
      const std::optional<int64_t> index = chunk_index.Optional(i);
      if (index) chunks.Add(id, *index, c, i, 4);
    }
  }
  finish();
}

}  // namespace timef::catalog
