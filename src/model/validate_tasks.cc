// Tasks: references, targets versus target annotations, scopes and span targets, input
// modalities, from_tasks (T1–T3 of docs/format.md §14).
#include <algorithm>

#include "model/checks.h"
#include "model/validator.h"

namespace timef::model::internal {

void Validator::IndexTasks() {
  const auto& tasks = dataset_.tasks();
  for (size_t i = 0; i < tasks.size(); ++i) {
    const Task& task = *tasks[i];
    std::string name = TaskName(task, i);
    if (tasks_.contains(&task)) {
      Fail(name, "tasks[" + std::to_string(i) + "]",
           "the task appears more than once in the dataset");
    }
    CheckIdUnique(task.id(), "task", name);
    CheckImport(task.import_marker(), "task", name);
    CheckOccurrences(task, name, SpanContext{});
    tasks_.emplace(&task, std::move(name));
  }
}

void Validator::CheckTask(const Task& task, const std::string& name) {
  const auto& inputs = task.inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!records_.contains(inputs[i].get())) {
      Fail(name, "inputs[" + std::to_string(i) + "]",
           inputs[i]->Describe() + " is not a record of the dataset");
    }
  }
  const auto& candidates = task.candidate_records();
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!records_.contains(candidates[i].get())) {
      Fail(name, "candidate_records[" + std::to_string(i) + "]",
           candidates[i]->Describe() + " is not a record of the dataset");
    }
  }

  if (task.scope()) CheckTaskSpan(task, *task.scope(), name, "scope", /*is_scope=*/true);

  if (!task.targets() && task.target_annotations().empty()) {
    Fail(name, "targets",
         "the task has neither inline targets nor target_annotations (use an empty target list "
         "for an explicit empty answer)");
  }
  if (task.targets() && !task.target_annotations().empty()) {
    Fail(name, "targets",
         "the task has both inline targets and target_annotations; its answer is one or the "
         "other");
  }
  if (task.targets()) {
    const auto& targets = *task.targets();
    for (size_t i = 0; i < targets.size(); ++i) {
      const TaskTarget& target = targets[i];
      const std::string where = "targets[" + std::to_string(i) + "]";
      switch (target.kind()) {
        case TargetKind::kText:
          if (const std::string* text = target.text().inline_value()) {
            CheckUtf8(*text, name, where);
          }
          break;
        case TargetKind::kRecord: {
          const Record* record = target.record().get();
          if (!records_.contains(record)) {
            Fail(name, where, record->Describe() + " is not a record of the dataset");
          }
          if (task.type() == TaskType::kTsCorrespondence &&
              std::none_of(candidates.begin(), candidates.end(),
                           [&](const auto& candidate) { return candidate.get() == record; })) {
            Fail(name, where,
                 "the target " + NameOf(record) + " is not one of the task's candidate_records");
          }
          break;
        }
        case TargetKind::kSignal:
          if (!signal_record_.contains(target.signal().get())) {
            Fail(name, where, target.signal()->Describe() + " is not a signal of the dataset");
          }
          break;
        case TargetKind::kTimePoint:
        case TargetKind::kTimeInterval:
        case TargetKind::kStepPoint:
        case TargetKind::kStepInterval:
          CheckTaskSpan(task, target.span(), name, where, /*is_scope=*/false);
          break;
        default:
          break;
      }
    }
  }

  if (task.prompt() && task.prompt()->inline_value()) {
    CheckUtf8(*task.prompt()->inline_value(), name, "prompt");
  }
  if (task.rationale() && task.rationale()->inline_value()) {
    CheckUtf8(*task.rationale()->inline_value(), name, "rationale");
  }
  if (task.target_schema()) CheckUtf8(*task.target_schema(), name, "target_schema");
  CheckInputModalities(task, name);
  CheckAnnotationRefs(task.input_annotations(), name, "input_annotations");
  CheckAnnotationRefs(task.target_annotations(), name, "target_annotations");

  const auto& parents = task.from_tasks();
  for (size_t i = 0; i < parents.size(); ++i) {
    const std::string where = "from_tasks[" + std::to_string(i) + "]";
    if (parents[i].get() == &task) Fail(name, where, "a task cannot derive from itself");
    if (!tasks_.contains(parents[i].get())) {
      Fail(name, where, parents[i]->Describe() + " is not a task of the dataset");
    }
  }
}

void Validator::CheckTaskSpan(const Task& task, const ScopedSpan& span, const std::string& name,
                              const std::string& where, bool is_scope) {
  for (size_t i = 0; i < span.signals.size(); ++i) {
    if (!signal_record_.contains(span.signals[i].get())) {
      Fail(name, where + ".signals[" + std::to_string(i) + "]",
           span.signals[i]->Describe() + " is not a signal of the dataset");
    }
  }
  if (span.end() && span.start() > *span.end()) {
    Fail(
        name, where,
        "interval start " + std::to_string(span.start()) + " > end " + std::to_string(*span.end()));
  }
  const auto& inputs = task.inputs();
  auto is_input = [&](const Record* record) {
    return std::any_of(inputs.begin(), inputs.end(),
                       [&](const auto& input) { return input.get() == record; });
  };

  if (span.is_step()) {
    const Signal& signal = *span.signals.at(0);
    const Record* record = signal_record_.at(&signal);
    if (is_scope && !is_input(record)) {
      Fail(name, where + ".signals[0]",
           "the step scope's signal belongs to " + NameOf(record) +
               ", which is not an input of the task");
    }
    bool inside = span.end() ? *span.end() <= signal.n_values() : span.start() < signal.n_values();
    if (span.start() < 0 || !inside) {
      std::string steps = span.end() ? "steps [" : "step ";
      steps += std::to_string(span.start());
      if (span.end()) {
        steps += ", ";
        steps += std::to_string(*span.end());
        steps += ')';
      }
      Fail(name, where,
           steps + " exceed the " + std::to_string(signal.n_values()) + " steps of " +
               signal_names_.at(&signal));
    }
    return;
  }

  // A time span resolves to exactly one input record: the only input, or the record of its
  // signals.
  const Record* record = nullptr;
  if (span.signals.empty()) {
    if (inputs.size() != 1) {
      Fail(name, where,
           "a time span without signals resolves to the task's single input record, but the task "
           "has " +
               std::to_string(inputs.size()) + " inputs");
    }
    record = inputs[0].get();
  } else {
    record = signal_record_.at(span.signals[0].get());
    for (size_t i = 1; i < span.signals.size(); ++i) {
      if (signal_record_.at(span.signals[i].get()) != record) {
        Fail(name, where + ".signals[" + std::to_string(i) + "]",
             "the span's signals belong to more than one record; a time span resolves to one "
             "input record");
      }
    }
    if (!is_input(record)) {
      Fail(
          name, where,
          "the span's signals belong to " + NameOf(record) + ", which is not an input of the task");
    }
  }
  if (!span.signals.empty()) {
    for (size_t i = 0; i < span.signals.size(); ++i) {
      if (span.signals[i]->axis()->is_ordinal()) {
        Fail(name, where + ".signals[" + std::to_string(i) + "]",
             "a time span needs a timeline, but " + signal_names_.at(span.signals[i].get()) +
                 " has an ordinal axis");
      }
    }
  } else if (!records_.at(record).has_timeline) {
    Fail(name, where,
         "a time span needs a timeline, but " + NameOf(record) +
             " has no time span and only ordinal signals");
  }
  CheckTimeInWindow(*record, span.start(), span.end(), name, where);
}

void Validator::CheckInputModalities(const Task& task, const std::string& name) {
  const std::vector<InputModality> modalities = task.InputModalities();
  auto has = [&](InputModality m) {
    return std::find(modalities.begin(), modalities.end(), m) != modalities.end();
  };
  if (modalities.empty()) Fail(name, "input_modalities", "the input modalities are empty");
  if (task.prompt() && !has(InputModality::kText)) {
    Fail(name, "input_modalities", "a task with a prompt has the text input modality");
  }
  if (has(InputModality::kNoInput)) {
    if (!has(InputModality::kText)) {
      Fail(name, "input_modalities", "no_input appears only together with text");
    }
    if (!task.inputs().empty()) {
      Fail(name, "input_modalities",
           "no_input is declared but the task has " + std::to_string(task.inputs().size()) +
               " input records");
    }
  }
}

void Validator::CheckAnnotationRefs(const std::vector<std::shared_ptr<Annotation>>& refs,
                                    const std::string& name, const char* field) {
  for (size_t i = 0; i < refs.size(); ++i) {
    if (!occurrences_.contains(refs[i].get())) {
      Fail(name, std::string(field) + "[" + std::to_string(i) + "]",
           refs[i]->Describe() +
               " is neither attached to an object of the dataset nor a registered annotation");
    }
  }
}

void Validator::CheckFromTaskCycles() {
  enum class Mark { kOnPath, kDone };
  std::unordered_map<const Task*, Mark> marks;
  struct Frame {
    const Task* task;
    size_t next = 0;
  };
  for (const auto& root : dataset_.tasks()) {
    if (marks.contains(root.get())) continue;
    std::vector<Frame> path{{root.get()}};
    marks[root.get()] = Mark::kOnPath;
    while (!path.empty()) {
      Frame& frame = path.back();
      const auto& parents = frame.task->from_tasks();
      if (frame.next == parents.size()) {
        marks[frame.task] = Mark::kDone;
        path.pop_back();
        continue;
      }
      const Task* parent = parents[frame.next++].get();
      auto mark = marks.find(parent);
      if (mark == marks.end()) {
        marks[parent] = Mark::kOnPath;
        path.push_back({parent});
      } else if (mark->second == Mark::kOnPath) {
        auto start = std::find_if(path.begin(), path.end(),
                                  [&](const Frame& f) { return f.task == parent; });
        std::string cycle;
        for (auto it = start; it != path.end(); ++it) cycle += tasks_.at(it->task) + " → ";
        cycle += tasks_.at(parent);
        Fail(tasks_.at(parent), "from_tasks", "from_tasks form a cycle: " + cycle);
      }
    }
  }
}

}  // namespace timef::model::internal
