// C10 read order, H1 source forests, H2 spec consistency and the manifest schema, H3 spec rules,
// A1 axis columns, A2 irregular axis lengths (non-deep part).
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "catalog/audit/audit_probe.h"

namespace timef::catalog::audit {
namespace {

std::string ListText(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ",";
    out += values[i];
  }
  return out + "]";
}

std::string ListText(const std::vector<int64_t>& values) {
  std::vector<std::string> text;
  for (int64_t v : values) text.push_back(std::to_string(v));
  return ListText(text);
}

// value_kind -> the schema's value_type (§6.4 annotation_contents).
constexpr const char* kValueTypeSql =
    "CASE c.value_kind WHEN 'text' THEN 'str' WHEN 'integer' THEN 'int' WHEN 'float' THEN 'float' "
    "WHEN 'boolean' THEN 'bool' WHEN 'text_list' THEN 'list' END";

}  // namespace

void CheckC10(const Context& ctx) {
  ProbeBatch batch(ctx, "C10");
  batch.Add("records.read_order", "read_order values outside 0..n-1 or repeated",
            "SELECT read_order FROM records WHERE read_order < 0 OR read_order >= "
            "(SELECT count(*) FROM records) UNION ALL "
            "SELECT read_order FROM records GROUP BY read_order HAVING count(*) > 1");
  // §6.6: K(r) is the smallest chunk locator of r's signals; records sort by K (records without
  // chunks last), ties by record_id.
  batch.Add("records.read_order", "records whose read_order breaks the rule of §6.6",
            "WITH locators AS ("
            "  SELECT src.record_key, c.payload_source, c.value_path, c.chunk_major_index, "
            "    c.chunk_minor_index, row_number() OVER (PARTITION BY src.record_key ORDER BY "
            "    c.payload_source ASC NULLS FIRST, c.value_path, c.chunk_major_index, "
            "    c.chunk_minor_index ASC NULLS FIRST) AS rank "
            "  FROM signal_chunks c JOIN signals g ON g.signal_key = c.signal_key "
            "  JOIN sources src ON src.source_key = g.source_key), "
            "first AS (SELECT * FROM locators WHERE rank = 1), "
            "expected AS (SELECT r.record_id, r.read_order, row_number() OVER (ORDER BY "
            "  f.record_key IS NULL, f.payload_source ASC NULLS FIRST, f.value_path, "
            "  f.chunk_major_index, f.chunk_minor_index ASC NULLS FIRST, r.record_id) - 1 AS want "
            "  FROM records r LEFT JOIN first f ON f.record_key = r.record_key) "
            "SELECT record_id FROM expected WHERE read_order <> want");
  batch.Run();
}

void CheckH1(const Context& ctx) {
  ProbeBatch batch(ctx, "H1");
  batch.Add("sources.parent_source_key", "sources that are their own parent",
            "SELECT source_key FROM sources WHERE parent_source_key = source_key");
  batch.Add(
      "sources.parent_source_key", "sources whose parent is in another record",
      "SELECT s.source_key FROM sources s JOIN sources p ON p.source_key = s.parent_source_key "
      "WHERE p.record_key <> s.record_key");
  // UNION (not UNION ALL) stops the walk once no new (start, ancestor) pair appears, cycles
  // included.
  batch.Add(
      "sources.parent_source_key", "sources on a parent cycle",
      "WITH RECURSIVE up(start, ancestor) AS ("
      "  SELECT source_key, parent_source_key FROM sources WHERE parent_source_key IS NOT NULL "
      "  UNION SELECT up.start, s.parent_source_key FROM up "
      "  JOIN sources s ON s.source_key = up.ancestor WHERE s.parent_source_key IS NOT NULL) "
      "SELECT DISTINCT start FROM up WHERE start = ancestor");
  batch.Run();
}

void CheckH2(const Context& ctx) {
  ProbeBatch batch(ctx, "H2");
  batch.Add("signals.n_values", "signals without timesteps",
            "SELECT signal_id FROM signals WHERE n_values <= 0");
  batch.Add("signals.spec_type", "spec_types whose signals disagree on the spec columns",
            "SELECT spec_type FROM (SELECT DISTINCT spec_type, spec_name, unit, dtype, categories, "
            "value_shape, dimension_names, nullable, modality FROM signals) "
            "GROUP BY spec_type HAVING count(*) > 1");

  batch.Run();

  // Specs: the catalog's (one row per spec_type now) against the manifest's.
  std::map<std::string, std::string> catalog_specs;
  for (const Row& row : Rows(ctx,
                             "SELECT DISTINCT spec_type, spec_name, unit, dtype, categories, "
                             "value_shape, dimension_names, nullable, modality FROM signals",
                             "signals")) {
    std::string text;
    for (size_t i = 1; i < row.size(); ++i) {
      if (i > 1) text += '|';
      text += row[i].value_or("NULL");
    }
    catalog_specs[*row[0]] = text;
  }
  std::map<std::string, std::string> manifest_specs;
  for (const model::Spec& s : ctx.facts.schema.time_series_specs) {
    manifest_specs[s.spec_type] = s.name + "|" + s.unit.value_or("NULL") + "|" + ToString(s.dtype) +
                                  "|" + ListText(s.categories) + "|" + ListText(s.value_shape) +
                                  "|" + ListText(s.dimension_names) + "|" +
                                  (s.nullable ? "true" : "false") + "|" + ToString(s.modality);
  }
  std::vector<std::string> spec_problems;
  for (const auto& [type, text] : catalog_specs) {
    auto m = manifest_specs.find(type);
    if (m == manifest_specs.end()) {
      spec_problems.push_back(type + " missing from the manifest");
    } else if (m->second != text) {
      spec_problems.push_back(type + " is " + text + " in the catalog, " + m->second +
                              " in the manifest");
    }
  }
  for (const auto& [type, text] : manifest_specs) {
    if (!catalog_specs.contains(type)) spec_problems.push_back(type + " has no signal");
  }
  FailIfAny(ctx, "H2", "schema.time_series_specs", "specs that differ from the catalog",
            spec_problems);

  // Annotation descriptors: keys present, and their fields where the key's shape is unambiguous
  // (conflicting shapes are N2's to report).
  std::map<std::string, std::set<std::string>> catalog_descriptors;
  for (const Row& row : Rows(ctx,
                             std::string("SELECT DISTINCT c.name, u.span_type, ") + kValueTypeSql +
                                 ", c.unit, c.description FROM annotation_contents c JOIN ("
                                 "SELECT content_key, span_type FROM annotation_occurrences "
                                 "UNION ALL SELECT content_key, span_type FROM "
                                 "registered_annotations) u ON u.content_key = c.content_key",
                             "annotation_contents")) {
    catalog_descriptors[*row[0]].insert(row[1].value_or("NULL") + "|" + row[2].value_or("NULL") +
                                        "|" + row[3].value_or("NULL") + "|" +
                                        row[4].value_or("NULL"));
  }
  std::vector<std::string> descriptor_problems;
  std::set<std::string> manifest_keys;
  for (const model::AnnotationDescriptor& d : ctx.facts.schema.annotations) {
    manifest_keys.insert(d.key);
    auto c = catalog_descriptors.find(d.key);
    if (c == catalog_descriptors.end()) {
      descriptor_problems.push_back(d.key + " has no annotation");
      continue;
    }
    std::string text = ToString(d.annotation_type) + "|" +
                       (d.value_type ? ToString(*d.value_type) : std::string("NULL")) + "|" +
                       d.unit.value_or("NULL") + "|" + d.description.value_or("NULL");
    if (c->second.size() == 1 && *c->second.begin() != text) {
      descriptor_problems.push_back(d.key + " is " + *c->second.begin() + " in the catalog, " +
                                    text + " in the manifest");
    }
  }
  for (const auto& [key, shapes] : catalog_descriptors) {
    if (!manifest_keys.contains(key))
      descriptor_problems.push_back(key + " missing from the manifest");
  }
  FailIfAny(ctx, "H2", "schema.annotations", "annotation descriptors that differ from the catalog",
            descriptor_problems);

  std::set<std::string> catalog_tasks;
  for (const Row& row : Rows(ctx, "SELECT DISTINCT task_type FROM tasks", "tasks")) {
    catalog_tasks.insert(*row[0]);
  }
  std::set<std::string> manifest_tasks;
  for (TaskType t : ctx.facts.schema.tasks) manifest_tasks.insert(ToString(t));
  std::vector<std::string> task_problems;
  for (const std::string& t : catalog_tasks) {
    if (!manifest_tasks.contains(t)) task_problems.push_back(t + " missing from the manifest");
  }
  for (const std::string& t : manifest_tasks) {
    if (!catalog_tasks.contains(t)) task_problems.push_back(t + " has no task");
  }
  FailIfAny(ctx, "H2", "schema.tasks", "task types that differ from the catalog", task_problems);
}

void CheckH3(const Context& ctx) {
  ProbeBatch batch(ctx, "H3");
  batch.Add("signals.categories", "signals with categories that break the enum rule",
            "SELECT signal_id FROM signals WHERE (dtype = 'enum') <> (len(categories) > 0) "
            "OR len(list_distinct(categories)) <> len(categories) "
            "OR len(list_filter(categories, lambda c: c IS NULL OR c = '')) > 0");
  batch.Add("signals.value_shape", "signals with a dimension below 1",
            "SELECT signal_id FROM signals "
            "WHERE len(list_filter(value_shape, lambda d: d IS NULL OR d < 1)) > 0");
  batch.Add("signals.dimension_names", "signals whose dimension names break the rule",
            "SELECT signal_id FROM signals WHERE len(dimension_names) > 0 AND ("
            "len(dimension_names) <> len(value_shape) "
            "OR len(list_distinct(dimension_names)) <> len(dimension_names) "
            "OR len(list_filter(dimension_names, lambda n: n IS NULL OR n = '')) > 0)");
  batch.Add("signals.spec_type", "signals with a reserved spec_type",
            "SELECT signal_id FROM signals "
            "WHERE spec_type IN ('', '.', '..', '_irregular', '_time_offsets', '_validity')");
  // The backend of a signal's values is read from its locators (§6.4 signal_chunks).
  batch.Add("signals.value_shape", "signals with a value_shape stored in Parquet",
            "SELECT DISTINCT g.signal_id FROM signals g JOIN signal_chunks c ON c.signal_key = "
            "g.signal_key WHERE len(g.value_shape) > 0 AND NOT starts_with(c.value_path, "
            "'time_series.zarr/') AND ends_with(c.value_path, '.parquet')");
  batch.Add(
      "signals.dtype", "str signals stored in Zarr",
      "SELECT DISTINCT g.signal_id FROM signals g JOIN signal_chunks c ON c.signal_key = "
      "g.signal_key WHERE g.dtype = 'str' AND starts_with(c.value_path, 'time_series.zarr/')");
  batch.Run();
}

void CheckA1(const Context& ctx) {
  ProbeBatch batch(ctx, "A1");
  const std::string none_of_offsets =
      "offsets_payload_source IS NULL AND offsets_path IS NULL AND offsets_row IS NULL AND "
      "offsets_n_values IS NULL AND offsets_digest IS NULL";
  const std::string none_of_regular =
      "period_numerator_us IS NULL AND period_denominator IS NULL AND start_index IS NULL AND "
      "offset_us IS NULL";
  batch.Add(
      "axes", "regular axes whose columns break the rule",
      "SELECT axis_key FROM axes WHERE axis_type = 'regular' AND " +
          Violates("period_denominator > 0 AND period_numerator_us >= period_denominator AND "
                   "gcd(period_numerator_us, period_denominator) = 1 AND start_index >= 0 AND "
                   "offset_us IS NOT NULL AND first_us IS NULL AND last_us IS NULL AND " +
                   none_of_offsets));
  batch.Add("axes", "irregular axes whose columns break the rule",
            "SELECT axis_key FROM axes WHERE axis_type = 'irregular' AND " +
                Violates("0 <= first_us AND first_us <= last_us AND offsets_path IS NOT NULL AND "
                         "offsets_row >= 0 AND offsets_n_values > 0 AND "
                         "regexp_full_match(offsets_digest, 'sha256:[0-9a-f]{64}') AND " +
                         none_of_regular));
  batch.Add("axes", "ordinal axes with parameters",
            "SELECT axis_key FROM axes WHERE axis_type = 'ordinal' AND " +
                Violates(none_of_regular + " AND first_us IS NULL AND last_us IS NULL AND " +
                         none_of_offsets));
  batch.Run();
}

void CheckA2(const Context& ctx) {
  ProbeBatch batch(ctx, "A2");
  batch.Add("signals.n_values", "signals whose length differs from their irregular axis",
            "SELECT g.signal_id FROM signals g JOIN axes a ON a.axis_key = g.axis_key "
            "WHERE a.axis_type = 'irregular' AND g.n_values IS DISTINCT FROM a.offsets_n_values");
  batch.Run();
}

}  // namespace timef::catalog::audit
