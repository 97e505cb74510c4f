#include "catalog_test_util.h"

#include <cstdlib>
#include <random>
#include <string>

#include "catalog/catalog_schema.h"
#include "catalog/duckdb/duckdb_result.h"
#include "timef/error.h"

namespace timef::catalog::testing {

ScratchDir::ScratchDir() {
  std::filesystem::path base = std::filesystem::temp_directory_path();
  if (const char* out = std::getenv("TIMEF_TEST_OUT"); out != nullptr && *out != '\0') base = out;
  std::random_device rd;
  path_ = base / ("catalog-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void RunSql(const std::filesystem::path& path, const std::vector<std::string>& statements) {
  Database db = Database::Open(path, AccessMode::kReadWrite);
  Connection connection(db);
  for (const std::string& sql : statements) connection.Execute(sql, "test sql");
}

namespace {

constexpr std::string_view kDigest =
    "'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'";

// Keys: dataset 1; records 2, 7, 12; sources 3, 4, 8, 13; signals 5, 6, 9, 14; tasks 15, 16, 17
// (one shared object key space). Record 12, signal 14 and task 17 are imported from alias base.
const std::vector<std::string>& ValidRows() {
  static const std::vector<std::string> rows = {
      "INSERT INTO datasets VALUES (1, 'acme/demo', '1.0.0')",
      "INSERT INTO dataset_parents VALUES ('base', 'acme/base', '1.0.0', 0)",
      "INSERT INTO clocks VALUES (1, 1700000000000000), (2, NULL)",
      "INSERT INTO records VALUES "
      "(2, 1, 1, 0, 10000000, '{\"site\":\"Zürich\"}', 0), "
      "(7, 2, 2, NULL, NULL, '{}', 1), "
      "(12, 3, 1, NULL, NULL, '{}', 2)",
      "INSERT INTO record_imports VALUES (3, 'base', 11)",
      "INSERT INTO sources VALUES (3, 2, NULL, 'ecg', '{}'), (4, 2, 3, 'lead', '{\"gain\":2}'), "
      "(8, 7, NULL, 'acc', '{}'), (13, 12, NULL, 'imp', '{}')",
      std::string("INSERT INTO axes VALUES "
                  "(1, 'regular', 10000, 441, 5, 100, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
                  "(2, 'irregular', NULL, NULL, NULL, NULL, 0, 900, NULL, "
                  "'payloads/offsets-00000000.parquet', 0, 3, ") +
          std::string(kDigest) +
          "), (3, 'ordinal', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
      "INSERT INTO signals VALUES "
      "(5, 1, 4, 'I', 1, 'ecg_lead', 'ECG lead', 'millivolt', 'float32', [], [], [], false, 100, "
      "'{}', 'time_series', 'rec-1'), "
      "(6, 2, 4, 'II', 1, 'ecg_lead', 'ECG lead', 'millivolt', 'float32', [], [], [], false, 100, "
      "'{}', 'time_series', NULL), "
      "(9, 3, 8, 'x', 2, 'acc', 'Acceleration', NULL, 'enum', ['lo', 'hi'], [], [], true, 3, "
      "'{}', 'time_series', NULL), "
      "(14, 4, 13, 'imp', 3, 'ecg_lead', 'ECG lead', 'millivolt', 'float32', [], [], [], false, "
      "10, '{}', 'time_series', NULL)",
      "INSERT INTO imported_signals VALUES (4, 'base', 21)",
      "INSERT INTO signal_chunks VALUES "
      "(5, 0, NULL, 'time_series/part-00000000.parquet', 0, 0, 60), "
      "(5, 1, NULL, 'time_series/part-00000000.parquet', 1, 0, 40), "
      "(6, 0, NULL, 'time_series/part-00000000.parquet', 0, 1, 100), "
      "(9, 0, NULL, 'time_series/part-00000001.parquet', 0, 0, 3), "
      "(14, 0, 'acme/base@1.0.0', 'time_series/part-00000000.parquet', 0, 0, 10)",
      "INSERT INTO text_payloads VALUES "
      "(1, NULL, 'payloads/text-00000000.parquet', 0, 'text', 300), "
      "(2, NULL, 'payloads/text-00000000.parquet', 1, 'text_list', 3), "
      "(3, NULL, 'payloads/text-00000000.parquet', 2, 'text', 400)",
      "INSERT INTO annotation_contents VALUES "
      "(1, 'label', 'text', 'normal', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '{}'), "
      "(2, 'quality', 'integer', NULL, NULL, 3, NULL, NULL, NULL, NULL, 'count', NULL, '{}'), "
      "(3, 'score', 'float', NULL, NULL, NULL, 0.5, NULL, NULL, NULL, NULL, 'a score', '{}'), "
      "(4, 'artifact', 'boolean', NULL, NULL, NULL, NULL, true, NULL, NULL, NULL, NULL, '{}'), "
      "(5, 'tags', 'text_list', NULL, NULL, NULL, NULL, NULL, ['a', 'b'], NULL, NULL, NULL, '{}'), "
      "(6, 'beat', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '{}'), "
      "(7, 'note', 'text', NULL, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '{}'), "
      "(8, 'vocab', 'text_list', NULL, NULL, NULL, NULL, NULL, NULL, 2, NULL, NULL, '{}')",
      "INSERT INTO annotation_occurrences VALUES "
      "(1, 1, 'Dataset', 1, 'static', NULL, NULL, NULL, NULL, '{}'), "
      "(2, 2, 'Record', 2, 'static', NULL, NULL, '{\"by\":\"rater\"}', 0.9, '{}'), "
      "(3, 3, 'Source', 3, 'static', NULL, NULL, NULL, NULL, '{}'), "
      "(4, 6, 'Signal', 5, 'point', 100, NULL, NULL, NULL, '{}'), "
      "(5, 4, 'Signal', 6, 'interval', 10, 20, NULL, 1.0, '{}'), "
      "(6, 5, 'Task', 15, 'static', NULL, NULL, NULL, NULL, '{}'), "
      "(7, 7, 'Record', 7, 'static', NULL, NULL, NULL, NULL, '{}'), "
      "(8, 2, 'Record', 12, 'static', NULL, NULL, NULL, NULL, '{}'), "
      "(9, 6, 'Signal', 9, 'point', 300, NULL, NULL, 0.0, '{}')",
      "INSERT INTO imported_annotations VALUES (8, 'base')",
      "INSERT INTO registered_annotations VALUES "
      "(10, 8, 0, 'static', NULL, NULL, NULL, NULL, '{}')",
      "INSERT INTO tasks VALUES "
      "(15, 1, 'classification', 'Is it normal?', NULL, ['text', 'time_series'], 'train', "
      "NULL, NULL, NULL, NULL, true, 'rhythm', NULL, NULL, NULL, NULL, NULL, '{}'), "
      "(16, 2, 'temporal_localization', NULL, 3, ['text', 'time_series'], 'test', "
      "'time_interval', 0, 1000, [5, 6], false, NULL, NULL, NULL, 'sparse', 'because', NULL, "
      "'{\"k\":[1,2]}'), "
      "(17, 3, 'ts_correspondence', NULL, NULL, ['time_series'], NULL, "
      "NULL, NULL, NULL, NULL, true, NULL, NULL, NULL, NULL, NULL, NULL, '{}')",
      "INSERT INTO imported_tasks VALUES (3, 'base', 31)",
      "INSERT INTO task_targets VALUES "
      "(15, 0, 'text', 'normal', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
      "(17, 0, 'record', NULL, NULL, NULL, NULL, NULL, 7, NULL, NULL, NULL, NULL)",
      "INSERT INTO task_record_refs VALUES "
      "(15, 'inputs', 0, 2), (16, 'inputs', 0, 2), (17, 'inputs', 0, 2), "
      "(17, 'candidate_records', 0, 7), (17, 'candidate_records', 1, 12)",
      "INSERT INTO task_annotation_refs VALUES "
      "(15, 'input_annotations', 0, 10), (16, 'target_annotations', 0, 4)",
      "INSERT INTO task_dependencies VALUES (16, 0, 15), (17, 0, 16)",
  };
  return rows;
}

void BuildValidCatalog(const std::filesystem::path& path) {
  Database db = Database::Open(path, AccessMode::kReadWrite);
  Connection connection(db);
  CreateSchema(connection,
               HighWaterMarks{.max_record_id = 3, .max_signal_id = 4, .max_task_id = 3});
  Transaction transaction(connection);
  for (const std::string& sql : ValidRows()) connection.Execute(sql, "fixture");
  transaction.Commit();
  connection.Execute("CHECKPOINT", "fixture");
}

}  // namespace

// Building the catalog costs a DuckDB open and a checkpoint; the tests break many copies of it,
// so it is built once per test process and copied.
void MakeValidCatalog(const std::filesystem::path& path) {
  static const ScratchDir template_dir;
  static const bool built = (BuildValidCatalog(template_dir / "template.duckdb"), true);
  (void)built;
  std::filesystem::copy_file(template_dir / "template.duckdb", path);
}

CatalogIdentity ValidIdentity() {
  return CatalogIdentity{.dataset_id = "acme/demo",
                         .dataset_version = "1.0.0",
                         .parents = {model::ParentRelease{"base", "acme/base", "1.0.0"}}};
}

AuditFacts ValidFacts() {
  AuditFacts f;
  f.identity = ValidIdentity();
  f.counts = manifest::Counts{
      .records = 3,
      .sources = 4,
      .signals = 4,
      .axes = 3,
      .annotation_contents = 8,
      .annotation_occurrences = 9,
      .signal_chunks = 4,
      .tasks = {{"classification", 1}, {"temporal_localization", 1}, {"ts_correspondence", 1}},
      .signals_by_spec = {{"acc", 1}, {"ecg_lead", 3}}};
  f.schema.time_series_specs = {
      model::Spec{.spec_type = "acc",
                  .name = "Acceleration",
                  .unit = std::nullopt,
                  .dtype = DType::kEnum,
                  .categories = {"lo", "hi"},
                  .nullable = true,
                  .modality = Modality::kTimeSeries},
      model::Spec{.spec_type = "ecg_lead",
                  .name = "ECG lead",
                  .unit = "millivolt",
                  .dtype = DType::kFloat32,
                  .modality = Modality::kTimeSeries},
  };
  using AT = AnnotationType;
  using VT = AnnotationValueType;
  f.schema.annotations = {
      {"artifact", AT::kInterval, VT::kBool, std::nullopt, std::nullopt},
      {"beat", AT::kPoint, std::nullopt, std::nullopt, std::nullopt},
      {"label", AT::kStatic, VT::kStr, std::nullopt, std::nullopt},
      {"note", AT::kStatic, VT::kStr, std::nullopt, std::nullopt},
      {"quality", AT::kStatic, VT::kInt, "count", std::nullopt},
      {"score", AT::kStatic, VT::kFloat, std::nullopt, "a score"},
      {"tags", AT::kStatic, VT::kList, std::nullopt, std::nullopt},
      {"vocab", AT::kStatic, VT::kList, std::nullopt, std::nullopt},
  };
  f.schema.tasks = {TaskType::kClassification, TaskType::kTemporalLocalization,
                    TaskType::kTsCorrespondence};
  f.values_backend = "parquet";
  f.own_time_series = {"time_series/part-00000000.parquet", "time_series/part-00000001.parquet"};
  f.own_payloads = {"payloads/offsets-00000000.parquet", "payloads/text-00000000.parquet"};
  f.payload_sources = {{"acme/base@1.0.0", {"time_series/part-00000000.parquet"}}};
  return f;
}

std::vector<std::string> QueryRows(Connection& connection, std::string_view sql) {
  Result result = connection.Query(sql, "test query");
  std::vector<std::string> rows;
  while (auto chunk = result.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) {
      std::string line;
      for (idx_t c = 0; c < result.column_count(); ++c) {
        if (c > 0) line += "|";
        line += chunk->Text(c, row).value_or("NULL");
      }
      rows.push_back(line);
    }
  }
  return rows;
}

ModelWriteSummary WriteValidated(const std::filesystem::path& path, model::Dataset& dataset,
                                 PayloadSink& sink) {
  dataset.AssignIds();
  dataset.Validate();
  return WriteCatalog(path, dataset, sink);
}

AuditFacts FactsFromModel(const model::Dataset& dataset, const ModelWriteSummary& summary) {
  AuditFacts facts;
  facts.identity.dataset_id = dataset.dataset_id();
  facts.identity.dataset_version = dataset.version();
  facts.identity.parents = dataset.parents();
  facts.counts = summary.counts;
  facts.schema = model::DeriveSchema(dataset);
  facts.own_time_series = summary.time_series_paths;
  facts.own_payloads = summary.payload_paths;
  return facts;
}

}  // namespace timef::catalog::testing
