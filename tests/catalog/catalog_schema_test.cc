// The DDL against FORMAT.md §6.2, §6.3, §6.5. The oracle below is the "columns" cell of each §6.3
// row, copied verbatim from the spec; the test parses it and compares it with what DuckDB reports
// (duckdb_columns(), duckdb_constraints(), duckdb_sequences(), duckdb_views()) for a fresh schema.
#include "catalog/catalog_schema.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog_test_util.h"

namespace timef::catalog {
namespace {

using testing::QueryRows;
using testing::ScratchDir;

struct SpecTable {
  const char* name;
  const char* columns;
};

// FORMAT.md §6.3, in creation order.
const SpecTable kSpec[] = {
    {"control_metadata", "key VARCHAR NN, value VARCHAR NN"},
    {"datasets", "dataset_key BIGINT NN, dataset_id VARCHAR NN, dataset_version VARCHAR NN"},
    {"dataset_parents",
     "alias VARCHAR NN, dataset_id VARCHAR NN, version VARCHAR NN, position BIGINT NN"},
    {"clocks", "clock_id BIGINT NN, start_time_us BIGINT"},
    {"records",
     "record_key BIGINT NN, record_id BIGINT NN, clock_id BIGINT NN, time_span_start_us BIGINT, "
     "time_span_end_us BIGINT, metadata JSON NN, read_order BIGINT NN"},
    {"record_imports", "record_id BIGINT NN, parent_alias VARCHAR NN, parent_record_id BIGINT NN"},
    {"sources",
     "source_key BIGINT NN, record_key BIGINT NN, parent_source_key BIGINT, name VARCHAR NN, "
     "metadata JSON NN"},
    {"axes",
     "axis_key BIGINT NN, axis_type VARCHAR NN, period_numerator_us BIGINT, period_denominator "
     "BIGINT, start_index BIGINT, offset_us BIGINT, first_us BIGINT, last_us BIGINT, "
     "offsets_payload_source VARCHAR, offsets_path VARCHAR, offsets_row BIGINT, offsets_n_values "
     "BIGINT, offsets_digest VARCHAR"},
    {"signals",
     "signal_key BIGINT NN, signal_id BIGINT NN, source_key BIGINT NN, name VARCHAR NN, axis_key "
     "BIGINT NN, spec_type VARCHAR NN, spec_name VARCHAR NN, unit VARCHAR, dtype VARCHAR NN, "
     "categories VARCHAR[] NN, value_shape BIGINT[] NN, dimension_names VARCHAR[] NN, nullable "
     "BOOLEAN NN, n_values BIGINT NN, metadata JSON NN, modality VARCHAR NN, source_id VARCHAR"},
    {"imported_signals",
     "signal_id BIGINT NN, parent_alias VARCHAR NN, parent_signal_id BIGINT NN"},
    {"signal_chunks",
     "signal_key BIGINT NN, chunk_index BIGINT NN, payload_source VARCHAR, value_path VARCHAR NN, "
     "chunk_major_index BIGINT NN, chunk_minor_index BIGINT, n_values BIGINT NN"},
    {"text_payloads",
     "text_key BIGINT NN, payload_source VARCHAR, file VARCHAR NN, row BIGINT NN, kind VARCHAR NN, "
     "length BIGINT NN"},
    {"annotation_contents",
     "content_key BIGINT NN, name VARCHAR NN, value_kind VARCHAR, text_value VARCHAR, "
     "text_value_text_key BIGINT, integer_value BIGINT, float_value DOUBLE, boolean_value BOOLEAN, "
     "text_list_value VARCHAR[], text_list_value_text_key BIGINT, unit VARCHAR, description "
     "VARCHAR, metadata JSON NN"},
    {"annotation_occurrences",
     "occurrence_key BIGINT NN, content_key BIGINT NN, object_type VARCHAR NN, object_key BIGINT "
     "NN, span_type VARCHAR NN, start_us BIGINT, end_us BIGINT, provenance JSON, confidence "
     "DOUBLE, metadata JSON NN"},
    {"imported_annotations", "occurrence_key BIGINT NN, parent_alias VARCHAR NN"},
    {"registered_annotations",
     "occurrence_key BIGINT NN, content_key BIGINT NN, position BIGINT NN, span_type VARCHAR NN, "
     "start_us BIGINT, end_us BIGINT, provenance JSON, confidence DOUBLE, metadata JSON NN"},
    {"tasks",
     "task_key BIGINT NN, task_id BIGINT NN, task_type VARCHAR NN, prompt VARCHAR, prompt_text_key "
     "BIGINT, input_modalities VARCHAR[] NN, split VARCHAR, scope_type VARCHAR, scope_start "
     "BIGINT, scope_end BIGINT, scope_signal_keys BIGINT[], has_inline_targets BOOLEAN NN, "
     "target_schema VARCHAR, unit VARCHAR, target_name VARCHAR, mode VARCHAR, rationale VARCHAR, "
     "rationale_text_key BIGINT, metadata JSON NN"},
    {"imported_tasks", "task_id BIGINT NN, parent_alias VARCHAR NN, parent_task_id BIGINT NN"},
    {"task_targets",
     "task_key BIGINT NN, position BIGINT NN, target_kind VARCHAR NN, text_value VARCHAR, "
     "text_value_text_key BIGINT, integer_value BIGINT, float_value DOUBLE, boolean_value BOOLEAN, "
     "record_key BIGINT, signal_key BIGINT, span_start BIGINT, span_end BIGINT, signal_keys "
     "BIGINT[]"},
    {"task_record_refs",
     "task_key BIGINT NN, field VARCHAR NN, position BIGINT NN, record_key BIGINT NN"},
    {"task_annotation_refs",
     "task_key BIGINT NN, field VARCHAR NN, position BIGINT NN, occurrence_key BIGINT NN"},
    {"task_dependencies", "task_key BIGINT NN, position BIGINT NN, parent_task_key BIGINT NN"},
};

// "table|column|TYPE|nullable" rows in creation and column order.
std::vector<std::string> ParsedOracle() {
  std::vector<std::string> rows;
  for (const SpecTable& t : kSpec) {
    std::stringstream cells(t.columns);
    std::string cell;
    while (std::getline(cells, cell, ',')) {
      std::stringstream words(cell);
      std::string name, type, nn;
      words >> name >> type >> nn;
      rows.push_back(std::string(t.name) + "|" + name + "|" + type + "|" +
                     (nn == "NN" ? "false" : "true"));
    }
  }
  return rows;
}

class CatalogSchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_.emplace(Database::Open(dir_ / "control.duckdb", AccessMode::kReadWrite));
    connection_.emplace(*db_);
    CreateSchema(*connection_,
                 HighWaterMarks{.max_record_id = 12, .max_signal_id = 0, .max_task_id = 7});
  }
  ScratchDir dir_;
  std::optional<Database> db_;
  std::optional<Connection> connection_;
};

TEST_F(CatalogSchemaTest, TablesAndColumnsMatchTheSpecExactly) {
  // duckdb_tables() lists tables in creation (oid) order.
  std::vector<std::string> tables = QueryRows(
      *connection_, "SELECT table_name FROM duckdb_tables() WHERE NOT internal ORDER BY table_oid");
  std::vector<std::string> spec_tables;
  for (const SpecTable& t : kSpec) spec_tables.emplace_back(t.name);
  EXPECT_EQ(tables, spec_tables);

  std::vector<std::string> columns = QueryRows(
      *connection_,
      "SELECT c.table_name, c.column_name, c.data_type, c.is_nullable FROM duckdb_columns() c "
      "JOIN duckdb_tables() t USING (table_oid) WHERE NOT t.internal "
      "ORDER BY t.table_oid, c.column_index");
  EXPECT_EQ(columns, ParsedOracle());
}

TEST_F(CatalogSchemaTest, ConstraintsAreNotNullOnlyAndExactlyTheSpecOnes) {
  EXPECT_EQ(QueryRows(*connection_,
                      "SELECT DISTINCT constraint_type FROM duckdb_constraints() "
                      "WHERE database_name = current_database()"),
            std::vector<std::string>{"NOT NULL"});
  std::vector<std::string> not_null = QueryRows(
      *connection_,
      "SELECT table_name || '.' || constraint_column_names[1] FROM duckdb_constraints() "
      "WHERE database_name = current_database() ORDER BY table_oid, constraint_column_indexes[1]");
  std::vector<std::string> expected;
  for (const std::string& row : ParsedOracle()) {
    std::stringstream fields(row);
    std::string table, column, type, nullable;
    std::getline(fields, table, '|');
    std::getline(fields, column, '|');
    std::getline(fields, type, '|');
    std::getline(fields, nullable, '|');
    if (nullable == "false") expected.push_back(table + "." + column);
  }
  EXPECT_EQ(not_null, expected);
  EXPECT_EQ(QueryRows(*connection_, "SELECT count(*) FROM duckdb_indexes()"),
            std::vector<std::string>{"0"});
}

TEST_F(CatalogSchemaTest, SequencesStartAtOneAndFeedTheKeyColumns) {
  EXPECT_EQ(QueryRows(*connection_,
                      "SELECT sequence_name, start_value, increment_by FROM duckdb_sequences() "
                      "ORDER BY sequence_oid"),
            (std::vector<std::string>{"object_key_sequence|1|1", "axis_key_sequence|1|1",
                                      "content_key_sequence|1|1", "occurrence_key_sequence|1|1",
                                      "text_key_sequence|1|1"}));
  EXPECT_EQ(QueryRows(*connection_,
                      "SELECT table_name || '.' || column_name || '=' || column_default "
                      "FROM duckdb_columns() WHERE column_default IS NOT NULL ORDER BY table_oid"),
            (std::vector<std::string>{
                "datasets.dataset_key=nextval('object_key_sequence')",
                "records.record_key=nextval('object_key_sequence')",
                "sources.source_key=nextval('object_key_sequence')",
                "axes.axis_key=nextval('axis_key_sequence')",
                "signals.signal_key=nextval('object_key_sequence')",
                "text_payloads.text_key=nextval('text_key_sequence')",
                "annotation_contents.content_key=nextval('content_key_sequence')",
                "annotation_occurrences.occurrence_key=nextval('occurrence_key_sequence')",
                "registered_annotations.occurrence_key=nextval('occurrence_key_sequence')",
                "tasks.task_key=nextval('object_key_sequence')",
            }));
  // One shared object key space: keys drawn by different tables never collide.
  connection_->Execute("INSERT INTO datasets (dataset_id, dataset_version) VALUES ('a/b', '1.0.0')",
                       "datasets");
  connection_->Execute("INSERT INTO clocks VALUES (1, NULL)", "clocks");
  connection_->Execute(
      "INSERT INTO records (record_id, clock_id, metadata, read_order) VALUES (1, 1, '{}', 0)",
      "records");
  EXPECT_EQ(QueryRows(*connection_, "SELECT dataset_key FROM datasets"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(QueryRows(*connection_, "SELECT record_key FROM records"),
            std::vector<std::string>{"2"});
}

TEST_F(CatalogSchemaTest, ViewsHaveTheSpecColumnsAndDefinitions) {
  EXPECT_EQ(QueryRows(*connection_,
                      "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_oid"),
            (std::vector<std::string>{"signal_refs", "annotation_refs", "import_refs"}));
  EXPECT_EQ(QueryRows(*connection_,
                      "SELECT c.table_name || '.' || c.column_name || ' ' || c.data_type "
                      "FROM duckdb_columns() c JOIN duckdb_views() v ON v.view_oid = c.table_oid "
                      "WHERE NOT v.internal ORDER BY v.view_oid, c.column_index"),
            (std::vector<std::string>{
                "signal_refs.signal_key BIGINT", "signal_refs.signal_id BIGINT",
                "signal_refs.record_key BIGINT", "annotation_refs.occurrence_key BIGINT",
                "annotation_refs.content_key BIGINT", "annotation_refs.object_type VARCHAR",
                "annotation_refs.object_key BIGINT", "annotation_refs.object_id BIGINT",
                "annotation_refs.registered BOOLEAN", "annotation_refs.inherited BOOLEAN",
                "import_refs.kind VARCHAR", "import_refs.local_id BIGINT",
                "import_refs.parent_alias VARCHAR", "import_refs.parent_id BIGINT"}));
}

TEST_F(CatalogSchemaTest, ControlMetadataRows) {
  EXPECT_EQ(QueryRows(*connection_, "SELECT \"key\", \"value\" FROM control_metadata"),
            (std::vector<std::string>{"schema_version|1", "max_record_id|12", "max_signal_id|0",
                                      "max_task_id|7"}));
  // Nothing else holds rows.
  EXPECT_EQ(QueryRows(*connection_,
                      "SELECT sum(estimated_size)::BIGINT FROM duckdb_tables() "
                      "WHERE table_name <> 'control_metadata'"),
            std::vector<std::string>{"0"});
}

TEST(CatalogSchemaViewsTest, ViewsJoinAsTheSpecSays) {
  ScratchDir dir;
  testing::MakeValidCatalog(dir / "control.duckdb");
  Database db = Database::Open(dir / "control.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  EXPECT_EQ(QueryRows(connection, "SELECT * FROM signal_refs ORDER BY signal_key"),
            (std::vector<std::string>{"5|1|2", "6|2|2", "9|3|7", "14|4|12"}));
  EXPECT_EQ(
      QueryRows(connection, "SELECT * FROM annotation_refs ORDER BY occurrence_key"),
      (std::vector<std::string>{"1|1|Dataset|1|NULL|false|false", "2|2|Record|2|1|false|false",
                                "3|3|Source|3|3|false|false", "4|6|Signal|5|1|false|false",
                                "5|4|Signal|6|2|false|false", "6|5|Task|15|1|false|false",
                                "7|7|Record|7|2|false|false", "8|2|Record|12|3|false|true",
                                "9|6|Signal|9|3|false|false", "10|8|NULL|NULL|NULL|true|false"}));
  EXPECT_EQ(QueryRows(connection, "SELECT * FROM import_refs ORDER BY kind"),
            (std::vector<std::string>{"Record|3|base|11", "Signal|4|base|21", "Task|3|base|31"}));
}

TEST(CatalogSchemaStatementsTest, HighWaterMarksMustNotBeNegative) {
  ScratchDir dir;
  Database db = Database::Open(dir / "c.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  EXPECT_THROW(CreateSchema(connection, HighWaterMarks{.max_record_id = -1}), ValidationError);
}

}  // namespace
}  // namespace timef::catalog
