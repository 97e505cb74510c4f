// The catalog audit (FORMAT.md §14): the valid fixture passes; each case breaks one thing (SQL on
// a copy of the fixture and/or a changed manifest fact) and the audit must name the invariant, the
// table/column and the offending keys. Earlier invariants must still hold in each case, so every
// case also pins the order in which the audit reports.
#include "catalog/audit/audit.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "catalog_test_util.h"
#include "core/checksum.h"

namespace timef::catalog {
namespace {

using testing::MakeValidCatalog;
using testing::RunSql;
using testing::ScratchDir;
using testing::ValidFacts;

struct BreakCase {
  std::string name;
  std::string invariant;
  std::string where;         // expected AuditError::where()
  std::string message_part;  // must appear in what(), e.g. an example key
  std::vector<std::string> sql;
  std::function<void(AuditFacts&)> facts = nullptr;
};

// gtest prints parameters; the case name is enough.
void PrintTo(const BreakCase& c, std::ostream* os) { *os << c.name; }

std::string NullRow(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += ", NULL";
  return out;
}

const std::vector<BreakCase>& Cases() {
  static const std::vector<BreakCase> cases = {
      // C1 control_metadata
      {"C1UnknownKey",
       "C1",
       "control_metadata.key",
       "extra",
       {"INSERT INTO control_metadata VALUES ('extra', 'x')"}},
      {"C1MissingKey",
       "C1",
       "control_metadata.key",
       "max_task_id",
       {"DELETE FROM control_metadata WHERE \"key\" = 'max_task_id'"}},
      {"C1DuplicateKey",
       "C1",
       "control_metadata.key",
       "max_task_id",
       {"INSERT INTO control_metadata VALUES ('max_task_id', '3')"}},
      {"C1SchemaVersion",
       "C1",
       "control_metadata.schema_version",
       "e.g. 2",
       {"UPDATE control_metadata SET \"value\" = '2' WHERE \"key\" = 'schema_version'"}},
      {"C1MarkNotDecimal",
       "C1",
       "control_metadata.value",
       "max_signal_id=04",
       {"UPDATE control_metadata SET \"value\" = '04' WHERE \"key\" = 'max_signal_id'"}},
      {"C1MarkBelowLargestId",
       "C1",
       "control_metadata.value",
       "max_record_id=2 < 3",
       {"UPDATE control_metadata SET \"value\" = '2' WHERE \"key\" = 'max_record_id'"}},
      // C2 schema shape
      {"C2CheckConstraint",
       "C2",
       "duckdb_constraints()",
       "task_dependencies: CHECK",
       {"DROP TABLE task_dependencies",
        "CREATE TABLE task_dependencies (task_key BIGINT NOT NULL, position BIGINT NOT NULL "
        "CHECK (position >= 0), parent_task_key BIGINT NOT NULL)",
        "INSERT INTO task_dependencies VALUES (16, 0, 15), (17, 0, 16)"}},
      {"C2Index",
       "C2",
       "duckdb_indexes()",
       "records: by_id",
       {"CREATE INDEX by_id ON records (record_id)"}},
      {"C2MissingTable", "C2", "imported_tasks", "imported_tasks", {"DROP TABLE imported_tasks"}},
      {"C2MissingColumn",
       "C2",
       "signals.source_id",
       "signals.source_id",
       {"ALTER TABLE signals DROP COLUMN source_id"}},
      {"C2WrongType",
       "C2",
       "axes.offsets_row",
       "axes.offsets_row INTEGER (expected BIGINT)",
       {"ALTER TABLE axes ALTER COLUMN offsets_row TYPE INTEGER"}},
      {"C2WrongNullability",
       "C2",
       "records.metadata",
       "records.metadata nullable",
       {"ALTER TABLE records ALTER COLUMN metadata DROP NOT NULL"}},
      {"C2ExtraColumn",
       "C2",
       "records.extra",
       "records.extra",
       {"ALTER TABLE records ADD COLUMN extra BIGINT"}},
      {"C2ExtraTable", "C2", "notes", "notes", {"CREATE TABLE notes (x INTEGER)"}},
      {"C2ViewReplacedByTable",
       "C2",
       "import_refs",
       "import_refs is not a view",
       {"DROP VIEW import_refs",
        "CREATE TABLE import_refs (kind VARCHAR, local_id BIGINT, parent_alias VARCHAR, "
        "parent_id BIGINT)"}},
      {"C2MissingSequence",
       "C2",
       "duckdb_sequences()",
       "text_key_sequence",
       {"ALTER TABLE text_payloads ALTER COLUMN text_key DROP DEFAULT",
        "DROP SEQUENCE text_key_sequence"}},
      // C3 identity
      {"C3TwoDatasets",
       "C3",
       "datasets",
       "2 rows",
       {"INSERT INTO datasets VALUES (99, 'acme/demo', '1.0.0')"}},
      {"C3DatasetDiffers",
       "C3",
       "datasets",
       "acme/demo@1.0.0",
       {},
       [](AuditFacts& f) { f.identity.dataset_version = "1.0.1"; }},
      {"C3ParentDiffers",
       "C3",
       "dataset_parents",
       "base=acme/base@2.0.0",
       {"UPDATE dataset_parents SET version = '2.0.0'"}},
      // C4 keys
      {"C4DuplicateSignalKey",
       "C4",
       "signals.signal_key",
       "duplicate keys (e.g. 5)",
       {"UPDATE signals SET signal_key = 5 WHERE signal_key = 6"}},
      {"C4SharedObjectKey",
       "C4",
       "object_key_sequence",
       "e.g. 2",
       {"UPDATE tasks SET task_key = 2 WHERE task_key = 17"}},
      {"C4DuplicateChunk",
       "C4",
       "signal_chunks.(signal_key, chunk_index)",
       "5#0",
       {"UPDATE signal_chunks SET chunk_index = 0 WHERE signal_key = 5 AND chunk_index = 1"}},
      {"C4NonPositiveKey",
       "C4",
       "axes.axis_key",
       "e.g. 0",
       {"UPDATE axes SET axis_key = 0 WHERE axis_key = 3"}},
      {"C4SharedOccurrenceKey",
       "C4",
       "occurrence_key_sequence",
       "e.g. 9",
       {"UPDATE registered_annotations SET occurrence_key = 9"}},
      {"C4DuplicateRegisteredPosition",
       "C4",
       "registered_annotations.position",
       "e.g. 0",
       {"INSERT INTO registered_annotations VALUES (11, 8, 0, 'static', NULL, NULL, NULL, NULL, "
        "'{}')"}},
      {"C4DuplicateRefPosition",
       "C4",
       "task_record_refs.(task_key, field, position)",
       "17#candidate_records#0",
       {"UPDATE task_record_refs SET position = 0 WHERE task_key = 17 AND record_key = 12"}},
      // C5 public IDs
      {"C5SignalIdZero",
       "C5",
       "signals.signal_id",
       "not positive (e.g. 0)",
       {"UPDATE signals SET signal_id = 0 WHERE signal_key = 9"}},
      {"C5DuplicateTaskId",
       "C5",
       "tasks.task_id",
       "duplicate IDs (e.g. 1)",
       {"UPDATE tasks SET task_id = 1 WHERE task_key = 16"}},
      // C6 dangling rows of every relationship
      {"C6RecordClock",
       "C6",
       "records.clock_id",
       "e.g. 99",
       {"UPDATE records SET clock_id = 99 WHERE record_key = 7"}},
      {"C6SourceRecord",
       "C6",
       "sources.record_key",
       "e.g. 99",
       {"UPDATE sources SET record_key = 99 WHERE source_key = 8"}},
      {"C6SourceParent",
       "C6",
       "sources.parent_source_key",
       "e.g. 99",
       {"UPDATE sources SET parent_source_key = 99 WHERE source_key = 4"}},
      {"C6SignalSource",
       "C6",
       "signals.source_key",
       "e.g. 99",
       {"UPDATE signals SET source_key = 99 WHERE signal_key = 9"}},
      {"C6SignalAxis",
       "C6",
       "signals.axis_key",
       "e.g. 99",
       {"UPDATE signals SET axis_key = 99 WHERE signal_key = 9"}},
      {"C6ChunkSignal",
       "C6",
       "signal_chunks.signal_key",
       "e.g. 99",
       {"INSERT INTO signal_chunks VALUES (99, 0, NULL, 'time_series/part-00000000.parquet', 0, "
        "2, 1)"}},
      {"C6ContentTextKey",
       "C6",
       "annotation_contents.text_value_text_key",
       "e.g. 99",
       {"UPDATE annotation_contents SET text_value_text_key = 99 WHERE content_key = 7"}},
      {"C6ContentTextListKey",
       "C6",
       "annotation_contents.text_list_value_text_key",
       "e.g. 99",
       {"UPDATE annotation_contents SET text_list_value_text_key = 99 WHERE content_key = 8"}},
      {"C6OccurrenceContent",
       "C6",
       "annotation_occurrences.content_key",
       "e.g. 99",
       {"UPDATE annotation_occurrences SET content_key = 99 WHERE occurrence_key = 3"}},
      {"C6RegisteredContent",
       "C6",
       "registered_annotations.content_key",
       "e.g. 99",
       {"UPDATE registered_annotations SET content_key = 99"}},
      {"C6ImportedAnnotation",
       "C6",
       "imported_annotations.occurrence_key",
       "e.g. 99",
       {"INSERT INTO imported_annotations VALUES (99, 'base')"}},
      {"C6PromptTextKey",
       "C6",
       "tasks.prompt_text_key",
       "e.g. 99",
       {"UPDATE tasks SET prompt_text_key = 99 WHERE task_key = 16"}},
      {"C6RationaleTextKey",
       "C6",
       "tasks.rationale_text_key",
       "e.g. 99",
       {"UPDATE tasks SET rationale = NULL, rationale_text_key = 99 WHERE task_key = 16"}},
      {"C6ScopeSignal",
       "C6",
       "tasks.scope_signal_keys",
       "e.g. 99",
       {"UPDATE tasks SET scope_signal_keys = [5, 99] WHERE task_key = 16"}},
      {"C6TargetTask",
       "C6",
       "task_targets.task_key",
       "e.g. 99",
       {"INSERT INTO task_targets VALUES (99, 0, 'integer', NULL, NULL, 1" + NullRow(7) + ")"}},
      {"C6TargetTextKey",
       "C6",
       "task_targets.text_value_text_key",
       "e.g. 99",
       {"INSERT INTO task_targets VALUES (15, 1, 'text', NULL, 99" + NullRow(8) + ")"}},
      {"C6TargetRecord",
       "C6",
       "task_targets.record_key",
       "e.g. 99",
       {"UPDATE task_targets SET record_key = 99 WHERE task_key = 17"}},
      {"C6TargetSignal",
       "C6",
       "task_targets.signal_key",
       "e.g. 99",
       {"INSERT INTO task_targets VALUES (15, 1, 'signal'" + NullRow(6) + ", 99" + NullRow(3) +
        ")"}},
      {"C6TargetSignalKeys",
       "C6",
       "task_targets.signal_keys",
       "e.g. 99",
       {"INSERT INTO task_targets VALUES (15, 1, 'time_point'" + NullRow(7) + ", 5, NULL, [99])"}},
      {"C6RecordRefTask",
       "C6",
       "task_record_refs.task_key",
       "e.g. 99",
       {"INSERT INTO task_record_refs VALUES (99, 'inputs', 0, 2)"}},
      {"C6RecordRefRecord",
       "C6",
       "task_record_refs.record_key",
       "e.g. 99",
       {"UPDATE task_record_refs SET record_key = 99 WHERE task_key = 15"}},
      {"C6AnnotationRefTask",
       "C6",
       "task_annotation_refs.task_key",
       "e.g. 99",
       {"INSERT INTO task_annotation_refs VALUES (99, 'input_annotations', 0, 10)"}},
      {"C6AnnotationRefOccurrence",
       "C6",
       "task_annotation_refs.occurrence_key",
       "e.g. 99",
       {"UPDATE task_annotation_refs SET occurrence_key = 99 WHERE task_key = 16"}},
      {"C6DependencyTask",
       "C6",
       "task_dependencies.task_key",
       "e.g. 99",
       {"INSERT INTO task_dependencies VALUES (99, 0, 15)"}},
      {"C6DependencyParent",
       "C6",
       "task_dependencies.parent_task_key",
       "e.g. 99",
       {"UPDATE task_dependencies SET parent_task_key = 99 WHERE task_key = 17"}},
      // C7 enumerations
      {"C7AxisType",
       "C7",
       "axes.axis_type",
       "3: weird",
       {"UPDATE axes SET axis_type = 'weird' WHERE axis_key = 3"}},
      {"C7Dtype",
       "C7",
       "signals.dtype",
       "float16",
       {"UPDATE signals SET dtype = 'float16' WHERE signal_key = 9"}},
      {"C7Modality",
       "C7",
       "signals.modality",
       "no_input",
       {"UPDATE signals SET modality = 'no_input' WHERE signal_key = 9"}},
      {"C7TextKind",
       "C7",
       "text_payloads.kind",
       "blob",
       {"UPDATE text_payloads SET kind = 'blob' WHERE text_key = 1"}},
      {"C7ValueKind",
       "C7",
       "annotation_contents.value_kind",
       "number",
       {"UPDATE annotation_contents SET value_kind = 'number' WHERE content_key = 2"}},
      {"C7ObjectType",
       "C7",
       "annotation_occurrences.object_type",
       "Thing",
       {"UPDATE annotation_occurrences SET object_type = 'Thing' WHERE occurrence_key = 2"}},
      {"C7SpanType",
       "C7",
       "annotation_occurrences.span_type",
       "range",
       {"UPDATE annotation_occurrences SET span_type = 'range' WHERE occurrence_key = 2"}},
      {"C7RegisteredSpanType",
       "C7",
       "registered_annotations.span_type",
       "x",
       {"UPDATE registered_annotations SET span_type = 'x'"}},
      {"C7TaskType",
       "C7",
       "tasks.task_type",
       "ranking",
       {"UPDATE tasks SET task_type = 'ranking' WHERE task_key = 17"}},
      {"C7Split",
       "C7",
       "tasks.split",
       "dev",
       {"UPDATE tasks SET split = 'dev' WHERE task_key = 15"}},
      {"C7ScopeType",
       "C7",
       "tasks.scope_type",
       "record",
       {"UPDATE tasks SET scope_type = 'record' WHERE task_key = 16"}},
      {"C7Mode",
       "C7",
       "tasks.mode",
       "dense",
       {"UPDATE tasks SET mode = 'dense' WHERE task_key = 16"}},
      {"C7InputModality",
       "C7",
       "tasks.input_modalities",
       "video",
       {"UPDATE tasks SET input_modalities = ['text', 'video'] WHERE task_key = 15"}},
      {"C7TargetKind",
       "C7",
       "task_targets.target_kind",
       "json",
       {"UPDATE task_targets SET target_kind = 'json' WHERE task_key = 15"}},
      {"C7RecordRefField",
       "C7",
       "task_record_refs.field",
       "outputs",
       {"UPDATE task_record_refs SET field = 'outputs' WHERE task_key = 15"}},
      {"C7AnnotationRefField",
       "C7",
       "task_annotation_refs.field",
       "labels",
       {"UPDATE task_annotation_refs SET field = 'labels' WHERE task_key = 15"}},
      {"C7UnitNotCanonical",
       "C7",
       "signals.unit",
       "'mV'",
       {"UPDATE signals SET unit = 'mV' WHERE spec_type = 'ecg_lead'"}},
      // C8 JSON
      {"C8MetadataNotObject",
       "C8",
       "records.metadata",
       "2: not an object",
       {"UPDATE records SET metadata = '[1, 2]' WHERE record_key = 7"}},
      {"C8DuplicateKeys",
       "C8",
       "tasks.metadata",
       "duplicate object key",
       {"UPDATE tasks SET metadata = '{\"a\":1,\"a\":2}' WHERE task_key = 17"}},
      {"C8ProvenanceDuplicateKeys",
       "C8",
       "annotation_occurrences.provenance",
       "e.g. 2:",
       {"UPDATE annotation_occurrences SET provenance = '{\"x\":1,\"x\":1}' "
        "WHERE occurrence_key = 2"}},
      // C9 counts
      {"C9Records",
       "C9",
       "counts",
       "records 4 vs 3",
       {},
       [](AuditFacts& f) { f.counts.records = 4; }},
      {"C9OwnChunks",
       "C9",
       "counts",
       "signal_chunks 5 vs 4",
       {},
       [](AuditFacts& f) { f.counts.signal_chunks = 5; }},
      {"C9TaskTypes",
       "C9",
       "counts",
       "tasks.classification 2 vs 1",
       {},
       [](AuditFacts& f) { f.counts.tasks["classification"] = 2; }},
      {"C9SignalsBySpec",
       "C9",
       "counts",
       "signals_by_spec.acc 0 vs 1",
       {},
       [](AuditFacts& f) { f.counts.signals_by_spec.erase("acc"); }},
      // C10 read order
      {"C10RuleBroken",
       "C10",
       "records.read_order",
       "e.g. 1, 2",
       {"UPDATE records SET read_order = CASE record_key WHEN 2 THEN 1 WHEN 7 THEN 0 ELSE "
        "read_order END"}},
      {"C10NotAPermutation",
       "C10",
       "records.read_order",
       "e.g. 0",
       {"UPDATE records SET read_order = 0 WHERE record_key = 7"}},
      // H1 source forests
      {"H1SelfParent",
       "H1",
       "sources.parent_source_key",
       "e.g. 3",
       {"UPDATE sources SET parent_source_key = 3 WHERE source_key = 3"}},
      {"H1ParentInOtherRecord",
       "H1",
       "sources.parent_source_key",
       "e.g. 4",
       {"UPDATE sources SET parent_source_key = 8 WHERE source_key = 4"}},
      {"H1Cycle",
       "H1",
       "sources.parent_source_key",
       "cycle (e.g. 3, 4)",
       {"UPDATE sources SET parent_source_key = 4 WHERE source_key = 3"}},
      // H2 specs and schema
      {"H2NoTimesteps",
       "H2",
       "signals.n_values",
       "e.g. 4",
       {"UPDATE signals SET n_values = 0 WHERE signal_key = 14"}},
      {"H2SpecsDisagree",
       "H2",
       "signals.spec_type",
       "e.g. ecg_lead",
       {"UPDATE signals SET spec_name = 'Other' WHERE signal_key = 14"}},
      {"H2SpecDiffersFromManifest",
       "H2",
       "schema.time_series_specs",
       "ecg_lead is ECG lead",
       {},
       [](AuditFacts& f) { f.schema.time_series_specs[1].name = "Lead"; }},
      {"H2SpecMissingFromManifest",
       "H2",
       "schema.time_series_specs",
       "acc missing",
       {},
       [](AuditFacts& f) { f.schema.time_series_specs.erase(f.schema.time_series_specs.begin()); }},
      {"H2DescriptorDiffers",
       "H2",
       "schema.annotations",
       "quality",
       {},
       [](AuditFacts& f) { f.schema.annotations[4].unit.reset(); }},
      {"H2DescriptorMissing",
       "H2",
       "schema.annotations",
       "beat missing",
       {},
       [](AuditFacts& f) { f.schema.annotations.erase(f.schema.annotations.begin() + 1); }},
      {"H2TaskTypeMissing",
       "H2",
       "schema.tasks",
       "ts_correspondence missing",
       {},
       [](AuditFacts& f) { f.schema.tasks.pop_back(); }},
      // H3 spec rules (the manifest follows the catalog so that H2 holds)
      {"H3CategoriesWithoutEnum",
       "H3",
       "signals.categories",
       "e.g. 1, 2, 4",
       {"UPDATE signals SET categories = ['x'] WHERE spec_type = 'ecg_lead'"},
       [](AuditFacts& f) { f.schema.time_series_specs[1].categories = {"x"}; }},
      {"H3RepeatedCategories",
       "H3",
       "signals.categories",
       "e.g. 3",
       {"UPDATE signals SET categories = ['lo', 'lo'] WHERE spec_type = 'acc'"},
       [](AuditFacts& f) {
         f.schema.time_series_specs[0].categories = {"lo", "lo"};
       }},
      {"H3DimensionNames",
       "H3",
       "signals.dimension_names",
       "e.g. 1, 2, 4",
       {"UPDATE signals SET dimension_names = ['a'] WHERE spec_type = 'ecg_lead'"},
       [](AuditFacts& f) { f.schema.time_series_specs[1].dimension_names = {"a"}; }},
      {"H3ReservedSpecType",
       "H3",
       "signals.spec_type",
       "e.g. 3",
       {"UPDATE signals SET spec_type = '_validity' WHERE spec_type = 'acc'"},
       [](AuditFacts& f) {
         f.schema.time_series_specs[0].spec_type = "_validity";
         f.counts.signals_by_spec.erase("acc");
         f.counts.signals_by_spec["_validity"] = 1;
       }},
      {"H3ShapeInParquet",
       "H3",
       "signals.value_shape",
       "stored in Parquet (e.g. 1, 2, 4)",
       {"UPDATE signals SET value_shape = [2] WHERE spec_type = 'ecg_lead'"},
       [](AuditFacts& f) { f.schema.time_series_specs[1].value_shape = {2}; }},
      {"H3StrInZarr",
       "H3",
       "signals.dtype",
       "e.g. 3",
       {"UPDATE signals SET dtype = 'str', categories = [] WHERE spec_type = 'acc'",
        "UPDATE signal_chunks SET value_path = 'time_series.zarr/acc', chunk_minor_index = NULL "
        "WHERE signal_key = 9",
        "UPDATE records SET read_order = CASE record_key WHEN 2 THEN 1 WHEN 7 THEN 0 ELSE "
        "read_order END"},
       [](AuditFacts& f) {
         f.schema.time_series_specs[0].dtype = DType::kStr;
         f.schema.time_series_specs[0].categories = {};
       }},
      // A1/A2 axes
      {"A1NotReduced",
       "A1",
       "axes",
       "regular axes",
       {"UPDATE axes SET period_numerator_us = 20000, period_denominator = 882 "
        "WHERE axis_key = 1"}},
      {"A1PeriodBelowOneMicrosecond",
       "A1",
       "axes",
       "e.g. 1",
       {"UPDATE axes SET period_numerator_us = 400 WHERE axis_key = 1"}},
      {"A1RegularWithEndpoints",
       "A1",
       "axes",
       "e.g. 1",
       {"UPDATE axes SET first_us = 0 WHERE axis_key = 1"}},
      {"A1BadDigest",
       "A1",
       "axes",
       "irregular axes",
       {"UPDATE axes SET offsets_digest = 'sha256:XYZ' WHERE axis_key = 2"}},
      {"A1FirstAfterLast",
       "A1",
       "axes",
       "e.g. 2",
       {"UPDATE axes SET first_us = 1000 WHERE axis_key = 2"}},
      {"A1OrdinalWithOffset",
       "A1",
       "axes",
       "ordinal axes with parameters (e.g. 3)",
       {"UPDATE axes SET offset_us = 0 WHERE axis_key = 3"}},
      {"A2IrregularLength",
       "A2",
       "signals.n_values",
       "e.g. 3",
       {"UPDATE axes SET offsets_n_values = 4 WHERE axis_key = 2"}},
      // V1 chunks
      {"V1ChunkGap",
       "V1",
       "signal_chunks.chunk_index",
       "e.g. 5",
       {"UPDATE signal_chunks SET chunk_index = 2 WHERE signal_key = 5 AND chunk_index = 1"}},
      {"V1ChunkTooSmall",
       "V1",
       "signal_chunks.n_values",
       "e.g. 6#0",
       {"UPDATE signal_chunks SET n_values = 0 WHERE signal_key = 6"}},
      {"V1ChunksDoNotAddUp",
       "V1",
       "signal_chunks.n_values",
       "e.g. 1",
       {"UPDATE signal_chunks SET n_values = 50 WHERE signal_key = 5 AND chunk_index = 1"}},
      {"V1SignalWithoutChunks",
       "V1",
       "signal_chunks.n_values",
       "e.g. 2",
       {"DELETE FROM signal_chunks WHERE signal_key = 6"},
       [](AuditFacts& f) { f.counts.signal_chunks = 3; }},
      {"V1UnknownBackend",
       "V1",
       "signal_chunks.value_path",
       "part-00000001.bin",
       {"UPDATE signal_chunks SET value_path = 'time_series/part-00000001.bin' "
        "WHERE signal_key = 9"}},
      {"V1ParquetWithoutRow",
       "V1",
       "signal_chunks.chunk_minor_index",
       "e.g. 9#0",
       {"UPDATE signal_chunks SET chunk_minor_index = NULL WHERE signal_key = 9"}},
      {"V1OwnZarrChunkInParquetRelease",
       "V1",
       "signal_chunks.value_path",
       "time_series.zarr/acc",
       {"UPDATE signal_chunks SET value_path = 'time_series.zarr/acc', chunk_minor_index = NULL "
        "WHERE signal_key = 9",
        "UPDATE records SET read_order = CASE record_key WHEN 2 THEN 1 WHEN 7 THEN 0 ELSE "
        "read_order END"}},
      // V2 listed files
      {"V2OwnFileNotListed",
       "V2",
       "locators",
       "signal_chunks time_series/part-00000001.parquet",
       {},
       [](AuditFacts& f) { f.own_time_series.pop_back(); }},
      {"V2PinMissing",
       "V2",
       "locators",
       "acme/base@1.0.0:time_series/part-00000000.parquet",
       {},
       [](AuditFacts& f) {
         f.payload_sources["acme/base@1.0.0"] = {"time_series/part-00000009.parquet"};
       }},
      {"V2SourceNotAKey",
       "V2",
       "locators",
       "acme/other@1.0.0",
       {"UPDATE signal_chunks SET payload_source = 'acme/other@1.0.0' WHERE signal_key = 14"}},
      {"V2NotARelativePath",
       "V2",
       "locators",
       "../x.parquet",
       {"UPDATE text_payloads SET file = '../x.parquet' WHERE text_key = 3"}},
      // N1 annotations
      {"N1ExtraValueColumn",
       "N1",
       "annotation_contents.value_kind",
       "e.g. 1",
       {"UPDATE annotation_contents SET integer_value = 1 WHERE content_key = 1"}},
      {"N1MarkerWithValue",
       "N1",
       "annotation_contents.value_kind",
       "e.g. 6",
       {"UPDATE annotation_contents SET boolean_value = true WHERE content_key = 6"}},
      {"N1InlineAndPacked",
       "N1",
       "annotation_contents.value_kind",
       "e.g. 7",
       {"UPDATE annotation_contents SET text_value = 'x' WHERE content_key = 7"}},
      {"N1EmptyName",
       "N1",
       "annotation_contents.name",
       "e.g. 4",
       {"UPDATE annotation_contents SET name = '' WHERE content_key = 4"},
       [](AuditFacts& f) { f.schema.annotations[0].key = ""; }},
      {"N1NullListElement",
       "N1",
       "annotation_contents.text_list_value",
       "e.g. 5",
       {"UPDATE annotation_contents SET text_list_value = ['a', NULL] WHERE content_key = 5"}},
      {"N1PointWithEnd",
       "N1",
       "annotation_occurrences.span_type",
       "e.g. 4",
       {"UPDATE annotation_occurrences SET end_us = 150 WHERE occurrence_key = 4"}},
      {"N1IntervalReversed",
       "N1",
       "annotation_occurrences.span_type",
       "e.g. 5",
       {"UPDATE annotation_occurrences SET start_us = 30 WHERE occurrence_key = 5"}},
      {"N1DatasetNotStatic",
       "N1",
       "annotation_occurrences.span_type",
       "e.g. 1",
       {"UPDATE annotation_occurrences SET span_type = 'point', start_us = 0 "
        "WHERE occurrence_key = 1"},
       [](AuditFacts& f) { f.schema.annotations[2].annotation_type = AnnotationType::kPoint; }},
      {"N1RegisteredNotStatic",
       "N1",
       "registered_annotations.span_type",
       "e.g. 10",
       {"UPDATE registered_annotations SET span_type = 'point', start_us = 1"},
       [](AuditFacts& f) { f.schema.annotations[7].annotation_type = AnnotationType::kPoint; }},
      {"N1ObjectMissing",
       "N1",
       "annotation_occurrences.object_key",
       "e.g. 3",
       {"UPDATE annotation_occurrences SET object_key = 99 WHERE occurrence_key = 3"}},
      {"N1ObjectOfAnotherType",
       "N1",
       "annotation_occurrences.object_key",
       "e.g. 2",
       {"UPDATE annotation_occurrences SET object_type = 'Signal' WHERE occurrence_key = 2"}},
      {"N1Confidence",
       "N1",
       "annotation_occurrences.confidence",
       "e.g. 2",
       {"UPDATE annotation_occurrences SET confidence = 1.5 WHERE occurrence_key = 2"}},
      {"N1RegisteredPosition",
       "N1",
       "registered_annotations.position",
       "e.g. 1",
       {"UPDATE registered_annotations SET position = 1"}},
      // N2
      {"N2UnusedContent",
       "N2",
       "annotation_contents",
       "e.g. 9",
       {"INSERT INTO annotation_contents VALUES (9, 'label', 'text', 'other'" + NullRow(8) +
        ", '{}')"},
       [](AuditFacts& f) { f.counts.annotation_contents = 9; }},
      {"N2ConflictingDescriptors",
       "N2",
       "annotation_contents.name",
       "e.g. quality",
       {"INSERT INTO annotation_occurrences VALUES (11, 2, 'Record', 7, 'point', 5, NULL, NULL, "
        "NULL, '{}')"},
       [](AuditFacts& f) { f.counts.annotation_occurrences = 10; }},
      // T1 tasks
      {"T1UnsortedModalities",
       "T1",
       "tasks.input_modalities",
       "e.g. 1",
       {"UPDATE tasks SET input_modalities = ['time_series', 'text'] WHERE task_key = 15"}},
      {"T1PromptWithoutText",
       "T1",
       "tasks.input_modalities",
       "without the text modality (e.g. 1)",
       {"UPDATE tasks SET input_modalities = ['time_series'] WHERE task_key = 15"}},
      {"T1NoInputWithInputs",
       "T1",
       "tasks.input_modalities",
       "e.g. 3",
       {"UPDATE tasks SET input_modalities = ['no_input', 'text'] WHERE task_key = 17"}},
      {"T1IntervalScopeWithoutEnd",
       "T1",
       "tasks.scope_type",
       "e.g. 2",
       {"UPDATE tasks SET scope_end = NULL WHERE task_key = 16"}},
      {"T1StepScopeWithTwoSignals",
       "T1",
       "tasks.scope_type",
       "e.g. 2",
       {"UPDATE tasks SET scope_type = 'step_point', scope_end = NULL WHERE task_key = 16"}},
      {"T1ScopeOverTwoRecords",
       "T1",
       "tasks.scope_signal_keys",
       "e.g. 2",
       {"UPDATE tasks SET scope_signal_keys = [5, 9] WHERE task_key = 16"}},
      {"T1ScopeOutsideInputs",
       "T1",
       "tasks.scope_signal_keys",
       "e.g. 2",
       {"UPDATE tasks SET scope_signal_keys = [9] WHERE task_key = 16"}},
      {"T1WholeRecordScopeWithTwoInputs",
       "T1",
       "tasks.scope_signal_keys",
       "e.g. 2",
       {"UPDATE tasks SET scope_signal_keys = NULL WHERE task_key = 16",
        "INSERT INTO task_record_refs VALUES (16, 'inputs', 1, 7)"}},
      {"T1ConfigOfOtherType",
       "T1",
       "tasks",
       "e.g. 3",
       {"UPDATE tasks SET target_schema = 'x' WHERE task_key = 17"}},
      {"T1TargetColumns",
       "T1",
       "task_targets",
       "e.g. 1#0",
       {"UPDATE task_targets SET integer_value = 1 WHERE task_key = 15"}},
      {"T1TimeTargetOutsideInputs",
       "T1",
       "task_targets.signal_keys",
       "e.g. 1#1",
       {"INSERT INTO task_targets VALUES (15, 1, 'time_point'" + NullRow(7) + ", 5, NULL, [9])"}},
      // T2 answers
      {"T2AnnotationAnswerWithRows",
       "T2",
       "tasks.has_inline_targets",
       "e.g. 2",
       {"INSERT INTO task_targets VALUES (16, 0, 'integer', NULL, NULL, 1" + NullRow(7) + ")"}},
      {"T2AnnotationAnswerWithoutAnnotation",
       "T2",
       "tasks.has_inline_targets",
       "e.g. 2",
       {"DELETE FROM task_annotation_refs WHERE task_key = 16"}},
      {"T2InlineAndAnnotations",
       "T2",
       "tasks.has_inline_targets",
       "e.g. 1",
       {"INSERT INTO task_annotation_refs VALUES (15, 'target_annotations', 0, 4)"}},
      {"T2CorrespondenceOutsideCandidates",
       "T2",
       "task_targets.record_key",
       "e.g. 3#0",
       {"UPDATE task_targets SET record_key = 2 WHERE task_key = 17"}},
      // T3 from_tasks and positions
      {"T3SelfDependency",
       "T3",
       "task_dependencies.parent_task_key",
       "e.g. 2",
       {"UPDATE task_dependencies SET parent_task_key = 16 WHERE task_key = 16"}},
      {"T3Cycle",
       "T3",
       "task_dependencies.parent_task_key",
       "cycle (e.g. 1, 2, 3)",
       {"INSERT INTO task_dependencies VALUES (15, 0, 17)"}},
      {"T3RefPositions",
       "T3",
       "task_record_refs.position",
       "e.g. 3",
       {"UPDATE task_record_refs SET position = 2 WHERE task_key = 17 AND record_key = 12"}},
      {"T3DependencyPositions",
       "T3",
       "task_dependencies.position",
       "e.g. 2",
       {"UPDATE task_dependencies SET position = 1 WHERE task_key = 16"}},
      // X1 packed text
      {"X1PromptInlineAndPacked",
       "X1",
       "tasks.prompt_text_key",
       "e.g. 2",
       {"UPDATE tasks SET prompt = 'x' WHERE task_key = 16"}},
      {"X1WrongKind",
       "X1",
       "annotation_contents.text_value_text_key",
       "e.g. 2",
       {"UPDATE annotation_contents SET text_value_text_key = 2 WHERE content_key = 7"}},
      {"X1NegativeLength",
       "X1",
       "text_payloads",
       "e.g. 1",
       {"UPDATE text_payloads SET length = -1 WHERE text_key = 1"}},
      // P1 imports
      {"P1LocalIdMissing",
       "P1",
       "record_imports.record_id",
       "e.g. 9",
       {"UPDATE record_imports SET record_id = 9"}},
      {"P1LocalIdTwice",
       "P1",
       "record_imports.record_id",
       "e.g. 3",
       {"INSERT INTO record_imports VALUES (3, 'base', 12)"}},
      {"P1UnknownAlias",
       "P1",
       "imported_signals.parent_alias",
       "e.g. other",
       {"UPDATE imported_signals SET parent_alias = 'other'"}},
      {"P1ParentIdTwice",
       "P1",
       "imported_tasks.parent_task_id",
       "e.g. base:31",
       {"INSERT INTO imported_tasks VALUES (2, 'base', 31)"}},
      {"P1AnnotationAlias",
       "P1",
       "imported_annotations.parent_alias",
       "e.g. zzz",
       {"UPDATE imported_annotations SET parent_alias = 'zzz'"}},
      {"P1AnnotationTwice",
       "P1",
       "imported_annotations.occurrence_key",
       "e.g. 8",
       {"INSERT INTO imported_annotations VALUES (8, 'base')"}},
      // P2 payload sources
      {"P2SelfAsSource",
       "P2",
       "payload_sources",
       "acme/demo@1.0.0",
       {},
       [](AuditFacts& f) {
         f.payload_sources["acme/demo@1.0.0"] = {"payloads/text-00000000.parquet"};
       }},
      {"P2ControlPin",
       "P2",
       "payload_sources",
       "acme/base@1.0.0:control.duckdb",
       {},
       [](AuditFacts& f) { f.payload_sources["acme/base@1.0.0"].push_back("control.duckdb"); }},
      {"P2UnusedSource",
       "P2",
       "payload_sources",
       "acme/zzz@2.0.0 is a key no locator uses",
       {},
       [](AuditFacts& f) {
         f.payload_sources["acme/zzz@2.0.0"] = {"time_series/part-00000000.parquet"};
       }},
      {"P2UnusedPin",
       "P2",
       "payload_sources",
       "part-00000005.parquet is pinned but not used",
       {},
       [](AuditFacts& f) {
         f.payload_sources["acme/base@1.0.0"].push_back("time_series/part-00000005.parquet");
       }},
  };
  return cases;
}

TEST(AuditTest, ValidCatalogPassesAndStaysUnchanged) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  MakeValidCatalog(path);
  const std::string before = FileChecksum(path);
  EXPECT_NO_THROW(Audit(path, ValidFacts()));
  EXPECT_NO_THROW(Audit(path, ValidFacts(), 4));
  EXPECT_EQ(FileChecksum(path), before);
}

TEST(AuditTest, OnSeveralConnectionsTheEarliestFailingCheckIsRaised) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  MakeValidCatalog(path);
  // Two invariants broken: C4 (duplicate keys) comes before P2 (an unused payload source) in
  // the order, and is what every lane count raises, though the lanes check P2 too.
  RunSql(path, {"UPDATE signals SET signal_key = 5 WHERE signal_key = 6"});
  AuditFacts facts = ValidFacts();
  facts.payload_sources["acme/zzz@2.0.0"] = {"time_series/part-00000000.parquet"};
  for (const int threads : {1, 2, 3, 25, 64}) {
    try {
      Audit(path, facts, threads);
      ADD_FAILURE() << "audit passed with " << threads << " threads";
    } catch (const AuditError& e) {
      EXPECT_EQ(e.invariant(), "C4") << threads << " threads: " << e.what();
      EXPECT_NE(e.problem().find("(e.g. 5)"), std::string::npos) << threads << ": " << e.what();
    }
  }
}

TEST(AuditTest, ChecksTheListedInvariantsInOrder) {
  EXPECT_EQ(AuditedInvariants(),
            (std::vector<std::string>{"C1",  "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9",
                                      "C10", "H1", "H2", "H3", "A1", "A2", "V1", "V2", "N1",
                                      "N2",  "T1", "T2", "T3", "X1", "P1", "P2"}));
}

TEST(AuditTest, EveryAuditedInvariantHasABreakingCase) {
  for (const std::string& id : AuditedInvariants()) {
    bool covered = false;
    for (const BreakCase& c : Cases()) covered = covered || c.invariant == id;
    EXPECT_TRUE(covered) << id;
  }
}

TEST(AuditTest, MessageNamesInvariantColumnCountAndExamples) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  MakeValidCatalog(path);
  RunSql(path, {"UPDATE signals SET signal_key = 5 WHERE signal_key = 6",
                "UPDATE signals SET signal_key = 9 WHERE signal_key = 14"});
  try {
    Audit(path, ValidFacts());
    FAIL() << "audit passed";
  } catch (const AuditError& e) {
    EXPECT_EQ(e.invariant(), "C4");
    EXPECT_EQ(e.where(), "signals.signal_key");
    EXPECT_EQ(e.problem(), "C4: 2 duplicate keys (e.g. 5, 9)");
    EXPECT_EQ(std::string(e.what()),
              path.string() + ": signals.signal_key: C4: 2 duplicate keys (e.g. 5, 9)");
  }
}

TEST(AuditTest, ExamplesStopAtFive) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  MakeValidCatalog(path);
  RunSql(path, {"INSERT INTO clocks SELECT 7, NULL FROM range(3)",
                "INSERT INTO clocks SELECT range + 10, NULL FROM range(8)",
                "INSERT INTO clocks SELECT range + 10, NULL FROM range(8)"});
  try {
    Audit(path, ValidFacts());
    FAIL() << "audit passed";
  } catch (const AuditError& e) {
    EXPECT_EQ(e.problem(), "C4: 9 duplicate keys (e.g. 7, 10, 11, 12, 13)");
  }
}

TEST(AuditTest, MissingAndForeignFiles) {
  ScratchDir dir;
  EXPECT_THROW(Audit(dir / "nope.duckdb", ValidFacts()), FileError);
  RunSql(dir / "foreign.duckdb", {"CREATE TABLE t (x INTEGER)"});
  try {
    Audit(dir / "foreign.duckdb", ValidFacts());
    FAIL();
  } catch (const AuditError& e) {
    EXPECT_EQ(e.invariant(), "C1");
  }
}

class AuditBreakTest : public ::testing::TestWithParam<BreakCase> {};

TEST_P(AuditBreakTest, NamesTheInvariant) {
  const BreakCase& c = GetParam();
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  MakeValidCatalog(path);
  if (!c.sql.empty()) RunSql(path, c.sql);
  AuditFacts facts = ValidFacts();
  if (c.facts) c.facts(facts);
  // Half the cases (by the name's hash, so always the same half) audit on three connections at
  // once: the failure raised must be the one the checks in order raise, whichever lane ran it.
  const int threads = std::hash<std::string>{}(c.name) % 2 == 0 ? 1 : 3;
  try {
    Audit(path, facts, threads);
    FAIL() << "audit passed";
  } catch (const AuditError& e) {
    EXPECT_EQ(e.invariant(), c.invariant) << e.what();
    EXPECT_EQ(e.where(), c.where) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.message_part), std::string::npos) << e.what();
    RecordProperty("message", e.what());
  }
}

INSTANTIATE_TEST_SUITE_P(Invariants, AuditBreakTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<BreakCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace timef::catalog
