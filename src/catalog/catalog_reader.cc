#include "catalog/catalog_reader.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "catalog/catalog_schema.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

[[noreturn]] void Fail(const Connection& connection, std::string where, std::string_view problem) {
  throw FormatError(ErrorSite{.file = connection.path(), .where = std::move(where)}, problem);
}

void CheckColumns(const Connection& connection, const Relations& found, std::string_view relation,
                  std::string_view kind, std::string_view column, std::string_view type) {
  auto table = found.find(relation);
  if (table == found.end()) Fail(connection, std::string(relation), std::string(kind) + " missing");
  auto c = table->second.find(column);
  std::string where = std::string(relation) + "." + std::string(column);
  if (c == table->second.end()) Fail(connection, where, "column missing");
  if (c->second.type != type) {
    Fail(connection, where, "expected type " + std::string(type) + ", found " + c->second.type);
  }
}

void CheckSchemaVersion(Connection& connection) {
  Result result =
      connection.Query("SELECT \"value\" FROM control_metadata WHERE \"key\" = 'schema_version'",
                       "control_metadata");
  std::vector<std::string> values;
  while (auto chunk = result.Next()) {
    VarcharColumn value = chunk->Varchar(0);
    for (idx_t row = 0; row < chunk->size(); ++row) values.emplace_back(value.Get(row));
  }
  const std::string supported = std::to_string(kSchemaVersion);
  if (values.empty()) {
    Fail(connection, "control_metadata.schema_version",
         "missing (supported schema version " + supported + ")");
  }
  if (values.size() > 1) {
    Fail(connection, "control_metadata.schema_version",
         "appears " + std::to_string(values.size()) + " times");
  }
  if (values[0] != supported) {
    Fail(connection, "control_metadata.schema_version",
         "unsupported schema version '" + values[0] + "' (supported: " + supported + ")");
  }
}

void CheckDataset(Connection& connection, const CatalogIdentity& expected) {
  Result result = connection.Query("SELECT dataset_id, dataset_version FROM datasets", "datasets");
  std::vector<std::pair<std::string, std::string>> rows;
  while (auto chunk = result.Next()) {
    VarcharColumn id = chunk->Varchar(0);
    VarcharColumn version = chunk->Varchar(1);
    for (idx_t row = 0; row < chunk->size(); ++row) {
      rows.emplace_back(id.Get(row), version.Get(row));
    }
  }
  if (rows.size() != 1) {
    Fail(connection, "datasets", "expected exactly one row, found " + std::to_string(rows.size()));
  }
  const std::string want = expected.dataset_id + "@" + expected.dataset_version;
  const std::string got = rows[0].first + "@" + rows[0].second;
  if (got != want) {
    Fail(connection, "datasets",
         "catalog describes " + got + " but the manifest describes " + want);
  }
}

// name -> the CREATE statement DuckDB stores for it (duckdb_tables().sql, duckdb_views().sql).
using Definitions = std::map<std::string, std::string, std::less<>>;

struct SchemaObjects {
  Definitions tables;
  Definitions views;
  std::vector<std::string> others;  // macros and table macros, as "kind schema.name"
};

// Every object the database defines outside DuckDB's own, in any schema of the file.
SchemaObjects ReadSchemaObjects(Connection& connection) {
  SchemaObjects out;
  auto read = [&](std::string_view sql, std::string_view what, Definitions& into) {
    Result result = connection.Query(sql, what);
    while (auto chunk = result.Next()) {
      VarcharColumn name = chunk->Varchar(0);
      VarcharColumn definition = chunk->Varchar(1);
      for (idx_t row = 0; row < chunk->size(); ++row) {
        into[std::string(name.Get(row))] = std::string(definition.Get(row));
      }
    }
  };
  // A table or view outside schema main is named with its schema, so it never matches.
  read(
      "SELECT CASE WHEN schema_name = 'main' THEN table_name ELSE schema_name || '.' || table_name "
      "END, sql FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal",
      "duckdb_tables()", out.tables);
  read(
      "SELECT CASE WHEN schema_name = 'main' THEN view_name ELSE schema_name || '.' || view_name "
      "END, sql FROM duckdb_views() WHERE database_name = current_database() AND NOT internal",
      "duckdb_views()", out.views);
  Definitions functions;
  read(
      "SELECT DISTINCT function_type || ' ' || schema_name || '.' || function_name, '' "
      "FROM duckdb_functions() WHERE database_name = current_database() AND NOT internal",
      "duckdb_functions()", functions);
  for (const auto& [name, unused] : functions) out.others.push_back(name);
  return out;
}

// The definitions the writer's DDL gives (docs/format.md §6.3, §6.8), as this DuckDB spells them:
// the schema created once in an in-memory database.
const SchemaObjects& ExpectedSchemaObjects() {
  static const SchemaObjects expected = [] {
    Database db = Database::Open(":memory:", AccessMode::kReadWrite);
    Connection connection(db);
    CreateSchema(connection, HighWaterMarks{});
    return ReadSchemaObjects(connection);
  }();
  return expected;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// docs/format.md §6.11: the tables, views and macros are exactly those of §6.3 and §6.8, each with
// the definition the format gives. A view or macro runs its author's SQL at query time, and a
// table can hide an expression in a generated column, so nothing else may be read.
void CheckSchemaObjects(Connection& connection) {
  const SchemaObjects found = ReadSchemaObjects(connection);
  const SchemaObjects& expected = ExpectedSchemaObjects();
  if (!found.others.empty()) {
    Fail(connection, "duckdb_functions()",
         "the catalog defines functions or macros, which a TimeF catalog never holds: " +
             Join(found.others));
  }
  auto compare = [&](const Definitions& got, const Definitions& want, std::string_view kind) {
    std::vector<std::string> extra;
    for (const auto& [name, sql] : got) {
      auto w = want.find(name);
      if (w == want.end()) {
        extra.push_back(name);
      } else if (w->second != sql) {
        Fail(connection, name,
             std::string(kind) + " definition differs from docs/format.md: found " + sql);
      }
    }
    if (!extra.empty()) {
      Fail(connection, extra.front(),
           "unexpected " + std::string(kind) + "(s) in the catalog: " + Join(extra));
    }
  };
  compare(found.tables, expected.tables, "table");
  compare(found.views, expected.views, "view");
}

std::string Describe(const std::vector<model::ParentRelease>& parents) {
  std::string out = "[";
  for (size_t i = 0; i < parents.size(); ++i) {
    if (i > 0) out += ", ";
    out += parents[i].alias + "=" + parents[i].dataset_id + "@" + parents[i].version;
  }
  return out + "]";
}

void CheckParents(Connection& connection, const CatalogIdentity& expected) {
  Result result = connection.Query(
      "SELECT alias, dataset_id, version, position FROM dataset_parents ORDER BY position",
      "dataset_parents");
  std::vector<model::ParentRelease> rows;
  std::vector<int64_t> positions;
  while (auto chunk = result.Next()) {
    VarcharColumn alias = chunk->Varchar(0);
    VarcharColumn id = chunk->Varchar(1);
    VarcharColumn version = chunk->Varchar(2);
    Int64Column position = chunk->Int64(3);
    for (idx_t row = 0; row < chunk->size(); ++row) {
      rows.push_back(model::ParentRelease{std::string(alias.Get(row)), std::string(id.Get(row)),
                                          std::string(version.Get(row))});
      positions.push_back(position.Get(row));
    }
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] != static_cast<int64_t>(i)) {
      Fail(connection, "dataset_parents.position",
           "positions are not 0.." + std::to_string(positions.size() - 1) + " (found " +
               std::to_string(positions[i]) + " at rank " + std::to_string(i) + ")");
    }
  }
  if (rows != expected.parents) {
    Fail(connection, "dataset_parents",
         "catalog lists parents " + Describe(rows) + " but the manifest lists " +
             Describe(expected.parents));
  }
}

}  // namespace

void CheckCatalog(Connection& connection, const CatalogIdentity& expected) {
  Relations found = ReadRelations(connection);
  // Without control_metadata this is some other DuckDB file; say so before anything else.
  const TableSpec& metadata = TableSpecOf(CatalogTable::kControlMetadata);
  if (!found.contains(metadata.name)) {
    Fail(connection, std::string(metadata.name), "table missing: not a TimeF catalog");
  }
  for (const ColumnSpec& c : metadata.columns) {
    CheckColumns(connection, found, metadata.name, "table", c.name, SqlTypeName(c.type));
  }
  // The version decides what the rest must look like, so it is checked before the other tables.
  CheckSchemaVersion(connection);
  for (const TableSpec& table : CatalogTables()) {
    for (const ColumnSpec& c : table.columns) {
      CheckColumns(connection, found, table.name, "table", c.name, SqlTypeName(c.type));
    }
  }
  for (const ViewSpec& view : CatalogViews()) {
    for (const ViewColumnSpec& c : view.columns) {
      CheckColumns(connection, found, view.name, "view", c.name, SqlTypeName(c.type));
    }
  }
  CheckSchemaObjects(connection);
  CheckDataset(connection, expected);
  CheckParents(connection, expected);
}

CatalogReader::CatalogReader(std::filesystem::path path, CatalogIdentity expected)
    : session_(CatalogSession::Make(std::move(path),
                                    [expected = std::move(expected)](Connection& connection) {
                                      CheckCatalog(connection, expected);
                                    })) {}

}  // namespace timef::catalog
