#include "catalog/write/model_plan.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "timef/error.h"

namespace timef::catalog {
namespace {

using model::Annotatable;

class Planner {
 public:
  Planner(const model::Dataset& dataset, PayloadSink& sink) : dataset_(dataset), sink_(sink) {}

  Plan Run() {
    int64_t next = 2;  // dataset_key = 1
    for (const auto& record : dataset_.records()) {
      const int64_t key = next++;
      plan_.records.emplace_back(record.get(), key);
      plan_.object_key[record.get()] = key;
      auto [it, inserted] =
          plan_.clock_id.emplace(record->start_time_us(), plan_.clocks.size() + 1);
      if (inserted) plan_.clocks.push_back(record->start_time_us());
      plan_.record_clock.push_back(it->second);
      for (const auto& root : record->sources()) WalkSource(*root, key, std::nullopt, next);
    }
    std::vector<const model::Task*> tasks;
    for (const auto& task : dataset_.tasks()) tasks.push_back(task.get());
    std::sort(tasks.begin(), tasks.end(),
              [](const model::Task* a, const model::Task* b) { return *a->id() < *b->id(); });
    for (const model::Task* task : tasks) {
      plan_.tasks.emplace_back(task, next);
      plan_.object_key[task] = next++;
    }

    int64_t occurrence = 1;
    AddOccurrences(dataset_, "Dataset", 1, occurrence);
    for (const auto& [record, key] : plan_.records) {
      AddOccurrences(*record, "Record", key, occurrence);
      for (const SourceRow& row : plan_.sources) {
        if (row.record_key != key) continue;
        AddOccurrences(*row.source, "Source", row.key, occurrence);
        for (const auto& signal : row.source->signals()) {
          AddOccurrences(*signal, "Signal", plan_.object_key.at(signal.get()), occurrence);
        }
      }
    }
    for (const auto& [task, key] : plan_.tasks) AddOccurrences(*task, "Task", key, occurrence);
    for (const auto& annotation : dataset_.registered_annotations()) {
      ContentKey(*annotation->content());
      plan_.registered.emplace_back(annotation.get(), occurrence);
      plan_.occurrence_key[annotation.get()] = occurrence++;
    }
    return std::move(plan_);
  }

 private:
  void WalkSource(const model::Source& source, int64_t record_key,
                  std::optional<int64_t> parent_key, int64_t& next) {
    const int64_t key = next++;
    plan_.object_key[&source] = key;
    plan_.sources.push_back({&source, key, record_key, parent_key});
    for (const auto& signal : source.signals()) {
      const int64_t signal_key = next++;
      plan_.object_key[signal.get()] = signal_key;
      SignalRow row{signal.get(), signal_key, key, AxisKey(signal->axis()), {}};
      row.chunks = sink_.Chunks(*signal);
      plan_.signals.push_back(std::move(row));
    }
    for (const auto& child : source.children()) WalkSource(*child, record_key, key, next);
  }

  int64_t AxisKey(const std::shared_ptr<const model::TimeAxis>& axis) {
    auto it = plan_.axis_key.find(axis.get());
    if (it != plan_.axis_key.end()) return it->second;
    std::optional<OffsetsLocator> locator;
    if (axis->is_irregular()) {
      locator = sink_.StoreOffsets(*axis);
      if (!locator) {
        throw ValidationError({.object = "axes", .where = "offsets_path"},
                              "irregular axis without an offsets locator (the catalog stores no "
                              "inline offsets)");
      }
    }
    plan_.axes.emplace_back(axis.get(), std::move(locator));
    const int64_t key = static_cast<int64_t>(plan_.axes.size());
    plan_.axis_key[axis.get()] = key;
    return key;
  }

  int64_t ContentKey(const model::AnnotationContent& content) {
    auto [it, inserted] = plan_.content_key.emplace(&content, plan_.contents.size() + 1);
    if (inserted) plan_.contents.push_back(&content);
    return it->second;
  }

  void AddOccurrences(const Annotatable& object, std::string_view type, int64_t object_key,
                      int64_t& next) {
    for (const auto& annotation : object.annotations()) {
      if (plan_.occurrence_key.contains(annotation.get())) {
        throw ValidationError({.object = object.Describe(), .where = "annotations"},
                              "one annotation occurrence attached twice");
      }
      const int64_t content = ContentKey(*annotation->content());
      plan_.occurrences.push_back({annotation.get(), next, content, type, object_key});
      plan_.occurrence_key[annotation.get()] = next++;
    }
  }

  const model::Dataset& dataset_;
  PayloadSink& sink_;
  Plan plan_;
};

// Asks the sink to pack every text-bearing value in the packing order that payload_sink.h
// documents and assigns text keys in that order.
class TextPacker {
 public:
  TextPacker(Plan& plan, PayloadSink& sink) : plan_(plan), sink_(sink) {}

  void Run() {
    const size_t n = plan_.tasks.size();
    plan_.prompt_keys.assign(n, std::nullopt);
    plan_.rationale_keys.assign(n, std::nullopt);
    plan_.target_keys.assign(n, {});
    plan_.content_keys.assign(plan_.contents.size(), std::nullopt);
    for (size_t i = 0; i < n; ++i) {
      const model::Task& t = *plan_.tasks[i].first;
      if (t.prompt()) plan_.prompt_keys[i] = Pack(*t.prompt(), t.Describe(), "prompt");
      if (t.rationale()) plan_.rationale_keys[i] = Pack(*t.rationale(), t.Describe(), "rationale");
    }
    for (size_t i = 0; i < n; ++i) {
      const model::Task& t = *plan_.tasks[i].first;
      if (!t.targets()) continue;
      for (const model::TaskTarget& target : *t.targets()) {
        plan_.target_keys[i].push_back(target.kind() == model::TargetKind::kText
                                           ? Pack(target.text(), t.Describe(), "targets")
                                           : std::nullopt);
      }
    }
    for (size_t i = 0; i < plan_.contents.size(); ++i) {
      const model::AnnotationContent& c = *plan_.contents[i];
      const model::AnnotationValue& v = c.value();
      if (v.kind() == model::ValueKind::kText) {
        plan_.content_keys[i] = Pack(v.text(), c.Describe(), "value");
      } else if (v.kind() == model::ValueKind::kTextList) {
        plan_.content_keys[i] = PackList(v.text_list(), c.Describe());
      }
    }
  }

 private:
  std::optional<int64_t> Pack(const model::Text& text, const std::string& object,
                              std::string_view field) {
    return Add(sink_.PackText(text), text.size(), "text", object, field);
  }

  std::optional<int64_t> PackList(const model::TextList& list, const std::string& object) {
    return Add(sink_.PackTextList(list), list.size(), "text_list", object, "value");
  }

  std::optional<int64_t> Add(std::optional<TextLocator> packed, int64_t size, std::string_view kind,
                             const std::string& object, std::string_view field) {
    if (!packed) return std::nullopt;
    std::string problem;
    if (packed->file.empty()) problem = "packed text locator without a file";
    if (packed->row < 0) problem = "packed text locator with a negative row";
    if (packed->length != size) {
      problem = "packed " + std::string(kind) + " length " + std::to_string(packed->length) +
                " differs from the value's size " + std::to_string(size);
    }
    if (!problem.empty())
      throw ValidationError({.object = object, .where = std::string(field)}, problem);
    plan_.texts.emplace_back(std::move(*packed), kind);
    return static_cast<int64_t>(plan_.texts.size());
  }

  Plan& plan_;
  PayloadSink& sink_;
};

// K(r) of §6.6: NULL payload_source and NULL minor sort first.
using ReadKey =
    std::tuple<bool, std::string, std::string, int64_t, bool, int64_t>;  // (has_src, src, ...)

ReadKey KeyOf(const ChunkLocator& c) {
  return {c.payload_source.has_value(),
          c.payload_source.value_or(""),
          c.value_path,
          c.major,
          c.minor.has_value(),
          c.minor.value_or(0)};
}

}  // namespace

Plan PlanCatalog(const model::Dataset& dataset, PayloadSink& sink) {
  Plan plan = Planner(dataset, sink).Run();
  TextPacker(plan, sink).Run();
  return plan;
}

std::vector<int64_t> ReadOrder(const Plan& plan) {
  std::unordered_map<int64_t, std::optional<ReadKey>> best;  // record_key -> K
  std::unordered_map<int64_t, int64_t> source_record;
  for (const SourceRow& s : plan.sources) source_record[s.key] = s.record_key;
  for (const SignalRow& s : plan.signals) {
    auto& k = best[source_record.at(s.source_key)];
    for (const ChunkLocator& c : s.chunks) {
      ReadKey key = KeyOf(c);
      if (!k || key < *k) k = std::move(key);
    }
  }
  std::vector<size_t> order(plan.records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto k_of = [&](size_t i) -> const std::optional<ReadKey>& {
    static const std::optional<ReadKey> kNone;
    auto it = best.find(plan.records[i].second);
    return it == best.end() ? kNone : it->second;
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const auto& ka = k_of(a);
    const auto& kb = k_of(b);
    if (ka.has_value() != kb.has_value()) return ka.has_value();  // no chunks last
    if (ka && *ka != *kb) return *ka < *kb;
    return *plan.records[a].first->id() < *plan.records[b].first->id();
  });
  std::vector<int64_t> rank(order.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
  return rank;
}

}  // namespace timef::catalog
