// C1 control_metadata, C2 schema shape, C3 dataset identity, C9 manifest counts.
#include <algorithm>
#include <map>
#include <string>

#include "catalog/audit/audit_probe.h"
#include "catalog/catalog_schema.h"

namespace timef::catalog::audit {
namespace {

const std::vector<std::string> kMetadataKeys = {"schema_version", "max_record_id", "max_signal_id",
                                                "max_task_id"};

bool HasColumn(const Context& ctx, std::string_view table, std::string_view column,
               std::string_view type) {
  auto t = ctx.relations.find(table);
  if (t == ctx.relations.end()) return false;
  auto c = t->second.find(column);
  return c != t->second.end() && c->second.type == type;
}

}  // namespace

void CheckC1(const Context& ctx) {
  ProbeBatch batch(ctx, "C1");
  if (!HasColumn(ctx, "control_metadata", "key", "VARCHAR") ||
      !HasColumn(ctx, "control_metadata", "value", "VARCHAR")) {
    Fail(ctx, "C1", "control_metadata", 1, "table missing or without VARCHAR key/value columns",
         {});
  }
  const std::string keys = SqlList(kMetadataKeys);
  batch.Add("control_metadata.key", "unknown keys",
            "SELECT \"key\" FROM control_metadata WHERE \"key\" NOT IN (" + keys + ")");
  batch.Add("control_metadata.key", "duplicate keys",
            "SELECT \"key\" FROM control_metadata GROUP BY \"key\" HAVING count(*) > 1");
  batch.Add("control_metadata.key", "missing keys",
            "SELECT k FROM (SELECT unnest([" + keys +
                "]) AS k) "
                "WHERE k NOT IN (SELECT \"key\" FROM control_metadata)");
  batch.Add(
      "control_metadata.schema_version", "unsupported schema versions",
      "SELECT \"value\" FROM control_metadata WHERE \"key\" = 'schema_version' AND \"value\" <> " +
          SqlQuote(std::to_string(kSchemaVersion)));
  batch.Add(
      "control_metadata.value", "high-water marks that are not decimal integers >= 0",
      "SELECT \"key\" || '=' || \"value\" FROM control_metadata WHERE \"key\" LIKE 'max\\_%' "
      "ESCAPE '\\' AND (TRY_CAST(\"value\" AS BIGINT) IS NULL OR TRY_CAST(\"value\" AS BIGINT) < 0 "
      "OR CAST(TRY_CAST(\"value\" AS BIGINT) AS VARCHAR) <> \"value\")");
  // The mark-versus-ID comparison needs the ID columns; without them C2 reports the schema.
  if (HasColumn(ctx, "records", "record_id", "BIGINT") &&
      HasColumn(ctx, "signals", "signal_id", "BIGINT") &&
      HasColumn(ctx, "tasks", "task_id", "BIGINT")) {
    batch.Add(
        "control_metadata.value", "high-water marks below the largest ID of their kind",
        "SELECT m.\"key\" || '=' || m.\"value\" || ' < ' || x.top FROM control_metadata m JOIN ("
        "SELECT 'max_record_id' AS k, max(record_id) AS top FROM records UNION ALL "
        "SELECT 'max_signal_id', max(signal_id) FROM signals UNION ALL "
        "SELECT 'max_task_id', max(task_id) FROM tasks) x ON x.k = m.\"key\" "
        "WHERE TRY_CAST(m.\"value\" AS BIGINT) < x.top");
  }
  batch.Run();
}

void CheckC2(const Context& ctx) {
  ProbeBatch batch(ctx, "C2");
  batch.Add("duckdb_constraints()", "constraints other than NOT NULL",
            "SELECT table_name || ': ' || constraint_type FROM duckdb_constraints() "
            "WHERE database_name = current_database() AND constraint_type <> 'NOT NULL'");
  batch.Add("duckdb_indexes()", "indexes",
            "SELECT table_name || ': ' || index_name FROM duckdb_indexes() "
            "WHERE database_name = current_database()");
  batch.Run();

  std::vector<std::string> missing_relations;
  std::vector<std::string> wrong_kind;
  std::vector<std::string> missing_columns;
  std::vector<std::string> wrong_types;
  std::vector<std::string> wrong_nullability;
  std::vector<std::string> extra_columns;
  std::set<std::string, std::less<>> known;
  auto check_relation = [&](std::string_view name, bool is_view, auto columns) {
    known.emplace(name);
    auto rel = ctx.relations.find(name);
    if (rel == ctx.relations.end()) {
      missing_relations.emplace_back(name);
      return;
    }
    if (ctx.views.contains(name) != is_view) {
      wrong_kind.push_back(std::string(name) + (is_view ? " is not a view" : " is a view"));
    }
    std::set<std::string_view> listed;
    for (const auto& c : columns) {
      listed.insert(c.name);
      std::string where = std::string(name) + "." + std::string(c.name);
      auto found = rel->second.find(c.name);
      if (found == rel->second.end()) {
        missing_columns.push_back(where);
        continue;
      }
      std::string_view want = SqlTypeName(c.type);
      if (found->second.type != want) {
        wrong_types.push_back(where + " " + found->second.type + " (expected " + std::string(want) +
                              ")");
      }
      if constexpr (requires { c.not_null; }) {
        if (found->second.nullable == c.not_null) {
          wrong_nullability.push_back(where + (c.not_null ? " nullable" : " NOT NULL"));
        }
      }
    }
    for (const auto& [column, info] : rel->second) {
      if (!listed.contains(column)) extra_columns.push_back(std::string(name) + "." + column);
    }
  };
  for (const TableSpec& t : CatalogTables()) check_relation(t.name, false, t.columns);
  for (const ViewSpec& v : CatalogViews()) check_relation(v.name, true, v.columns);
  std::vector<std::string> extra_relations;
  for (const auto& [name, columns] : ctx.relations) {
    if (!known.contains(name)) extra_relations.push_back(name);
  }
  // The message names the first offender's table or column.
  auto fail_if_any = [&](std::string_view what, const std::vector<std::string>& offenders) {
    if (offenders.empty()) return;
    FailIfAny(ctx, "C2", offenders.front().substr(0, offenders.front().find(' ')), what, offenders);
  };
  fail_if_any("missing tables or views", missing_relations);
  fail_if_any("tables or views of the wrong kind", wrong_kind);
  fail_if_any("missing columns", missing_columns);
  fail_if_any("columns of the wrong type", wrong_types);
  fail_if_any("columns with the wrong nullability", wrong_nullability);
  fail_if_any("unexpected columns", extra_columns);
  fail_if_any("unexpected tables or views", extra_relations);

  std::vector<std::string> sequences;
  for (const Row& row : Rows(ctx,
                             "SELECT sequence_name FROM duckdb_sequences() "
                             "WHERE database_name = current_database()",
                             "duckdb_sequences()")) {
    sequences.push_back(row[0].value_or(""));
  }
  std::vector<std::string> missing_sequences;
  for (std::string_view s : KeySequences()) {
    if (std::find(sequences.begin(), sequences.end(), s) == sequences.end()) {
      missing_sequences.emplace_back(s);
    }
  }
  FailIfAny(ctx, "C2", "duckdb_sequences()", "missing sequences", missing_sequences);
}

void CheckC3(const Context& ctx) {
  const CatalogIdentity& id = ctx.facts.identity;
  std::vector<Row> datasets =
      Rows(ctx, "SELECT dataset_id || '@' || dataset_version FROM datasets ORDER BY 1", "datasets");
  std::vector<std::string> refs;
  for (const Row& row : datasets) refs.push_back(row[0].value_or("NULL"));
  if (refs.size() != 1) {
    Fail(ctx, "C3", "datasets", static_cast<int64_t>(refs.size()), "rows (expected exactly 1)",
         refs);
  }
  const std::string want = id.dataset_id + "@" + id.dataset_version;
  if (refs[0] != want) {
    Fail(ctx, "C3", "datasets", 1, "rows that differ from the manifest's " + want, refs);
  }
  std::vector<Row> parents = Rows(
      ctx,
      "SELECT alias, dataset_id, version, position FROM dataset_parents ORDER BY position, alias",
      "dataset_parents");
  std::vector<std::string> differences;
  for (size_t i = 0; i < std::max(parents.size(), id.parents.size()); ++i) {
    std::string got = "none";
    if (i < parents.size()) {
      const Row& p = parents[i];
      got = p[0].value_or("") + "=" + p[1].value_or("") + "@" + p[2].value_or("") +
            " at position " + p[3].value_or("");
    }
    std::string expected = "none";
    if (i < id.parents.size()) {
      const model::ParentRelease& p = id.parents[i];
      expected =
          p.alias + "=" + p.dataset_id + "@" + p.version + " at position " + std::to_string(i);
    }
    if (got != expected) differences.push_back(got + " (manifest: " + expected + ")");
  }
  FailIfAny(ctx, "C3", "dataset_parents", "parent rows that differ from metadata.parents",
            differences);
}

void CheckC9(const Context& ctx) {
  const manifest::Counts& want = ctx.facts.counts;
  std::vector<Row> rows =
      Rows(ctx,
           "SELECT (SELECT count(*) FROM records), (SELECT count(*) FROM sources), "
           "(SELECT count(*) FROM signals), (SELECT count(*) FROM axes), "
           "(SELECT count(*) FROM annotation_contents), "
           "(SELECT count(*) FROM annotation_occurrences), "
           "(SELECT count(*) FROM signal_chunks WHERE payload_source IS NULL)",
           "counts");
  const Row& got = rows.at(0);
  const std::pair<const char*, int64_t> expected[] = {
      {"records", want.records},
      {"sources", want.sources},
      {"signals", want.signals},
      {"axes", want.axes},
      {"annotation_contents", want.annotation_contents},
      {"annotation_occurrences", want.annotation_occurrences},
      {"signal_chunks", want.signal_chunks},
  };
  std::vector<std::string> differences;
  for (size_t i = 0; i < std::size(expected); ++i) {
    std::string value = got[i].value_or("0");
    if (value != std::to_string(expected[i].second)) {
      differences.push_back(std::string(expected[i].first) + " " +
                            std::to_string(expected[i].second) + " vs " + value);
    }
  }
  auto compare_map = [&](std::string_view sql, std::string_view name,
                         const std::map<std::string, int64_t>& manifest) {
    std::map<std::string, int64_t> catalog;
    for (const Row& row : Rows(ctx, sql, name)) {
      catalog[row[0].value_or("")] = std::stoll(row[1].value_or("0"));
    }
    std::set<std::string> keys;
    for (const auto& [k, v] : catalog) keys.insert(k);
    for (const auto& [k, v] : manifest) keys.insert(k);
    for (const std::string& k : keys) {
      int64_t m = manifest.contains(k) ? manifest.at(k) : 0;
      int64_t c = catalog.contains(k) ? catalog.at(k) : 0;
      // A zero entry is not written (§5.5): only types/specs with at least one object appear.
      if (m != c || (manifest.contains(k) && m == 0)) {
        differences.push_back(std::string(name) + "." + k + " " + std::to_string(m) + " vs " +
                              std::to_string(c));
      }
    }
  };
  compare_map("SELECT task_type, count(*) FROM tasks GROUP BY 1", "tasks", want.tasks);
  compare_map("SELECT spec_type, count(*) FROM signals GROUP BY 1", "signals_by_spec",
              want.signals_by_spec);
  FailIfAny(ctx, "C9", "counts", "counts that differ (manifest vs catalog)", differences);
}

}  // namespace timef::catalog::audit
