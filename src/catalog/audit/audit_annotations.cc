// N1 annotation values, spans and owners; N2 content use and descriptor conflicts.
#include <algorithm>
#include <string>
#include <vector>

#include "catalog/audit/audit_probe.h"

namespace timef::catalog::audit {
namespace {

const std::vector<std::string> kValueColumns = {
    "text_value",    "text_value_text_key", "integer_value",           "float_value",
    "boolean_value", "text_list_value",     "text_list_value_text_key"};

// "all of the value columns except `keep` are NULL".
std::string OtherValuesNull(const std::vector<std::string>& keep) {
  return AllNullExcept(kValueColumns, keep);
}

std::string SpanRule(const std::string& span, const std::string& start, const std::string& end) {
  return "CASE " + span + " WHEN 'static' THEN " + start + " IS NULL AND " + end +
         " IS NULL WHEN 'point' THEN " + start + " IS NOT NULL AND " + end +
         " IS NULL WHEN 'interval' THEN " + start + " <= " + end + " END";
}

}  // namespace

void CheckN1(const Context& ctx) {
  ProbeBatch batch(ctx, "N1");
  const std::string value_rule =
      "CASE value_kind "
      "WHEN 'text' THEN " +
      ExactlyOne("text_value", "text_value_text_key") + " AND " +
      OtherValuesNull({"text_value", "text_value_text_key"}) +
      " WHEN 'integer' THEN integer_value IS NOT NULL AND " + OtherValuesNull({"integer_value"}) +
      " WHEN 'float' THEN float_value IS NOT NULL AND " + OtherValuesNull({"float_value"}) +
      " WHEN 'boolean' THEN boolean_value IS NOT NULL AND " + OtherValuesNull({"boolean_value"}) +
      " WHEN 'text_list' THEN " + ExactlyOne("text_list_value", "text_list_value_text_key") +
      " AND " + OtherValuesNull({"text_list_value", "text_list_value_text_key"}) + " ELSE " +
      OtherValuesNull({}) + " END";
  batch.Add("annotation_contents.value_kind", "contents whose value columns do not match",
            "SELECT content_key FROM annotation_contents WHERE " + Violates(value_rule));
  batch.Add("annotation_contents.name", "contents with an empty name",
            "SELECT content_key FROM annotation_contents WHERE name = ''");
  batch.Add("annotation_contents.text_list_value", "text lists with NULL elements",
            "SELECT content_key FROM annotation_contents "
            "WHERE len(list_filter(text_list_value, lambda v: v IS NULL)) > 0");
  batch.Add("annotation_occurrences.span_type", "occurrences whose bounds do not match",
            "SELECT occurrence_key FROM annotation_occurrences WHERE " +
                Violates(SpanRule("span_type", "start_us", "end_us")));
  batch.Add("registered_annotations.span_type", "registered annotations that are not static",
            "SELECT occurrence_key FROM registered_annotations WHERE " +
                Violates("span_type = 'static' AND start_us IS NULL AND end_us IS NULL"));
  batch.Add("annotation_occurrences.span_type", "Dataset or Task occurrences that are not static",
            "SELECT occurrence_key FROM annotation_occurrences "
            "WHERE object_type IN ('Dataset', 'Task') AND span_type <> 'static'");
  batch.Add("annotation_occurrences.object_key", "occurrences whose object does not exist",
            "SELECT o.occurrence_key FROM annotation_occurrences o "
            "LEFT JOIN datasets d ON o.object_type = 'Dataset' AND d.dataset_key = o.object_key "
            "LEFT JOIN records r ON o.object_type = 'Record' AND r.record_key = o.object_key "
            "LEFT JOIN sources s ON o.object_type = 'Source' AND s.source_key = o.object_key "
            "LEFT JOIN signals g ON o.object_type = 'Signal' AND g.signal_key = o.object_key "
            "LEFT JOIN tasks t ON o.object_type = 'Task' AND t.task_key = o.object_key "
            "WHERE d.dataset_key IS NULL AND r.record_key IS NULL AND s.source_key IS NULL "
            "AND g.signal_key IS NULL AND t.task_key IS NULL");
  for (const char* table : {"annotation_occurrences", "registered_annotations"}) {
    batch.Add(std::string(table) + ".confidence", "confidences outside [0, 1]",
              std::string("SELECT occurrence_key FROM ") + table +
                  " WHERE confidence IS NOT NULL AND NOT (confidence BETWEEN 0 AND 1)");
  }
  batch.Add("registered_annotations.position", "positions outside 0..m-1",
            "SELECT position FROM registered_annotations WHERE position < 0 OR position >= "
            "(SELECT count(*) FROM registered_annotations)");
  batch.Run();
}

void CheckN2(const Context& ctx) {
  ProbeBatch batch(ctx, "N2");
  batch.Add("annotation_contents", "contents no occurrence or registered annotation uses",
            "SELECT c.content_key FROM annotation_contents c ANTI JOIN ("
            "SELECT content_key FROM annotation_occurrences UNION ALL "
            "SELECT content_key FROM registered_annotations) u ON u.content_key = c.content_key");
  // A descriptor is (annotation_type, value_type, unit, description) per key (§5.3).
  batch.Add("annotation_contents.name", "annotation keys with conflicting descriptors",
            "SELECT name FROM (SELECT DISTINCT c.name, u.span_type, c.value_kind, c.unit, "
            "c.description FROM annotation_contents c JOIN ("
            "SELECT content_key, span_type FROM annotation_occurrences UNION ALL "
            "SELECT content_key, span_type FROM registered_annotations) u "
            "ON u.content_key = c.content_key) GROUP BY name HAVING count(*) > 1");
  batch.Run();
}

}  // namespace timef::catalog::audit
