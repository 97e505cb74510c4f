// The rows of annotations and tasks with their targets and references.
#include <span>
#include <variant>
#include <vector>

#include "catalog/write/model_rows.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using model::Annotation;

void AppendSpan(Appender& a, const model::AnnotationSpan& span) {
  a.Varchar(model::SpanTypeName(span));
  if (const auto* p = std::get_if<model::TimePoint>(&span)) {
    a.Int64(p->offset_us).Null();
  } else if (const auto* i = std::get_if<model::TimeInterval>(&span)) {
    a.Int64(i->start_us).Int64(i->end_us);
  } else {
    a.Null().Null();
  }
}

void AppendOccurrenceTail(Appender& a, const Annotation& annotation) {
  if (annotation.provenance()) {
    a.Varchar(Compact(*annotation.provenance()));
  } else {
    a.Null();
  }
  a.DoubleOrNull(annotation.confidence()).Varchar(Compact(annotation.metadata()));
}

std::vector<int64_t> SignalKeys(const Plan& plan, const model::ScopedSpan& span) {
  std::vector<int64_t> keys;
  for (const auto& s : span.signals) keys.push_back(plan.object_key.at(s.get()));
  return keys;
}

}  // namespace

void WriteAnnotations(CatalogWriter& w, const Plan& plan) {
  for (size_t i = 0; i < plan.contents.size(); ++i) {
    const model::AnnotationContent& c = *plan.contents[i];
    const model::AnnotationValue& v = c.value();
    Appender& a = w.Append(CatalogTable::kAnnotationContents);
    a.Int64(static_cast<int64_t>(i + 1)).Varchar(c.name());
    if (v.kind() == model::ValueKind::kMarker) {
      a.Null();
    } else {
      a.Varchar(model::ToString(v.kind()));
    }
    const std::optional<int64_t>& text_key = plan.content_keys[i];
    const bool is_text = v.kind() == model::ValueKind::kText;
    a.VarcharOrNull(is_text && !text_key ? std::optional(v.text().Read()) : std::nullopt);
    a.Int64OrNull(is_text ? text_key : std::nullopt);
    a.Int64OrNull(v.kind() == model::ValueKind::kInteger ? std::optional(v.integer())
                                                         : std::nullopt);
    a.DoubleOrNull(v.kind() == model::ValueKind::kFloat ? std::optional(v.float_value())
                                                        : std::nullopt);
    a.BoolOrNull(v.kind() == model::ValueKind::kBoolean ? std::optional(v.boolean())
                                                        : std::nullopt);
    const bool is_list = v.kind() == model::ValueKind::kTextList;
    if (is_list && !text_key) {
      const std::vector<std::string> list = v.text_list().Read();
      a.VarcharList(std::span<const std::string>(list));
    } else {
      a.Null();
    }
    a.Int64OrNull(is_list ? text_key : std::nullopt)
        .VarcharOrNull(c.unit())
        .VarcharOrNull(c.description());
    a.Varchar(Compact(c.metadata())).EndRow();
  }
  for (const OccurrenceRow& o : plan.occurrences) {
    Appender& a = w.Append(CatalogTable::kAnnotationOccurrences);
    a.Int64(o.key).Int64(o.content_key).Varchar(o.object_type).Int64(o.object_key);
    AppendSpan(a, o.annotation->span());
    AppendOccurrenceTail(a, *o.annotation);
    a.EndRow();
  }
  std::vector<std::pair<int64_t, const Annotation*>> inherited;
  for (const OccurrenceRow& o : plan.occurrences) {
    if (o.annotation->inherited()) inherited.emplace_back(o.key, o.annotation);
  }
  for (const auto& [a, key] : plan.registered) {
    if (a->inherited()) inherited.emplace_back(key, a);
  }
  for (const auto& [key, a] : inherited) {
    w.Append(CatalogTable::kImportedAnnotations).Int64(key).Varchar(*a->inherited_from()).EndRow();
  }
  int64_t position = 0;
  for (const auto& [annotation, key] : plan.registered) {
    Appender& a = w.Append(CatalogTable::kRegisteredAnnotations);
    a.Int64(key).Int64(plan.content_key.at(annotation->content().get())).Int64(position++);
    AppendSpan(a, annotation->span());
    AppendOccurrenceTail(a, *annotation);
    a.EndRow();
  }
}

void AppendScope(Appender& a, const Plan& plan, const std::optional<model::ScopedSpan>& scope) {
  if (!scope) {
    a.Null().Null().Null().Null();
    return;
  }
  a.Varchar(model::ToString(scope->kind())).Int64(scope->start()).Int64OrNull(scope->end());
  if (scope->signals.empty()) {
    a.Null();
  } else {
    a.Int64List(SignalKeys(plan, *scope));
  }
}

void WriteTaskRows(CatalogWriter& w, const Plan& plan) {
  for (size_t i = 0; i < plan.tasks.size(); ++i) {
    const auto& [t, key] = plan.tasks[i];
    const std::optional<int64_t>& prompt_key = plan.prompt_keys[i];
    const std::optional<int64_t>& rationale_key = plan.rationale_keys[i];
    Appender& a = w.Append(CatalogTable::kTasks);
    a.Int64(key).Int64(*t->id()).Varchar(model::ToString(t->type()));
    a.VarcharOrNull(t->prompt() && !prompt_key ? std::optional(t->prompt()->Read()) : std::nullopt)
        .Int64OrNull(prompt_key);
    std::vector<std::string> modalities;
    for (auto m : t->InputModalities()) modalities.emplace_back(model::ToString(m));
    a.VarcharList(std::span<const std::string>(modalities));
    a.VarcharOrNull(t->split() ? std::optional(model::ToString(*t->split())) : std::nullopt);
    AppendScope(a, plan, t->scope());
    a.Bool(t->has_inline_targets());
    a.VarcharOrNull(t->target_schema()).VarcharOrNull(t->unit()).VarcharOrNull(t->target_name());
    a.VarcharOrNull(t->mode() ? std::optional(model::ToString(*t->mode())) : std::nullopt);
    a.VarcharOrNull(t->rationale() && !rationale_key ? std::optional(t->rationale()->Read())
                                                     : std::nullopt)
        .Int64OrNull(rationale_key);
    a.Varchar(Compact(t->metadata())).EndRow();
  }
  std::vector<const model::Task*> imported;
  for (const auto& [t, key] : plan.tasks) {
    if (t->import_marker()) imported.push_back(t);
  }
  for (const model::Task* t : imported) {  // plan.tasks is in task_id order
    w.Append(CatalogTable::kImportedTasks)
        .Int64(*t->id())
        .Varchar(t->import_marker()->alias)
        .Int64(t->import_marker()->parent_id)
        .EndRow();
  }
}

void WriteTargets(CatalogWriter& w, const Plan& plan) {
  using model::TargetKind;
  for (size_t i = 0; i < plan.tasks.size(); ++i) {
    const auto& [t, key] = plan.tasks[i];
    if (!t->targets()) continue;
    const std::vector<std::optional<int64_t>>& text_keys = plan.target_keys[i];
    int64_t position = 0;
    for (const model::TaskTarget& target : *t->targets()) {
      const TargetKind kind = target.kind();
      std::optional<int64_t> text_key;
      if (!text_keys.empty()) text_key = text_keys[static_cast<size_t>(position)];
      Appender& a = w.Append(CatalogTable::kTaskTargets);
      a.Int64(key).Int64(position++).Varchar(model::ToString(kind));
      a.VarcharOrNull(kind == TargetKind::kText && !text_key ? std::optional(target.text().Read())
                                                             : std::nullopt)
          .Int64OrNull(text_key);
      a.Int64OrNull(kind == TargetKind::kInteger ? std::optional(target.integer()) : std::nullopt);
      a.DoubleOrNull(kind == TargetKind::kFloat ? std::optional(target.float_value())
                                                : std::nullopt);
      a.BoolOrNull(kind == TargetKind::kBoolean ? std::optional(target.boolean()) : std::nullopt);
      a.Int64OrNull(kind == TargetKind::kRecord
                        ? std::optional(plan.object_key.at(target.record().get()))
                        : std::nullopt);
      a.Int64OrNull(kind == TargetKind::kSignal
                        ? std::optional(plan.object_key.at(target.signal().get()))
                        : std::nullopt);
      const bool is_span = kind >= TargetKind::kTimePoint;
      if (is_span) {
        const model::ScopedSpan& span = target.span();
        a.Int64(span.start()).Int64OrNull(span.end());
        if (span.signals.empty()) {
          a.Null();
        } else {
          a.Int64List(SignalKeys(plan, span));
        }
      } else {
        a.Null().Null().Null();
      }
      a.EndRow();
    }
  }
}

void WriteTaskRefs(CatalogWriter& w, const Plan& plan) {
  for (const auto& [t, key] : plan.tasks) {
    // Rows sorted by (task_key, field, position): "candidate_records" < "inputs".
    for (const auto& [field, refs] :
         {std::pair<std::string_view, const std::vector<std::shared_ptr<model::Record>>*>{
              "candidate_records", &t->candidate_records()},
          {"inputs", &t->inputs()}}) {
      int64_t position = 0;
      for (const auto& r : *refs) {
        w.Append(CatalogTable::kTaskRecordRefs)
            .Int64(key)
            .Varchar(field)
            .Int64(position++)
            .Int64(plan.object_key.at(r.get()))
            .EndRow();
      }
    }
  }
  for (const auto& [t, key] : plan.tasks) {
    for (const auto& [field, refs] :
         {std::pair<std::string_view, const std::vector<std::shared_ptr<Annotation>>*>{
              "input_annotations", &t->input_annotations()},
          {"target_annotations", &t->target_annotations()}}) {
      int64_t position = 0;
      for (const auto& r : *refs) {
        auto it = plan.occurrence_key.find(r.get());
        if (it == plan.occurrence_key.end()) {
          throw ValidationError({.object = t->Describe(), .where = std::string(field)},
                                "references an annotation that no object carries and that is "
                                "not registered");
        }
        w.Append(CatalogTable::kTaskAnnotationRefs)
            .Int64(key)
            .Varchar(field)
            .Int64(position++)
            .Int64(it->second)
            .EndRow();
      }
    }
  }
  for (const auto& [t, key] : plan.tasks) {
    int64_t position = 0;
    for (const auto& parent : t->from_tasks()) {
      w.Append(CatalogTable::kTaskDependencies)
          .Int64(key)
          .Int64(position++)
          .Int64(plan.object_key.at(parent.get()))
          .EndRow();
    }
  }
}

}  // namespace timef::catalog
