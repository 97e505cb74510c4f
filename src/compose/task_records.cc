#include "compose/task_records.h"

namespace timef::compose {

std::vector<std::shared_ptr<model::Record>> RecordsOf(const model::Task& task) {
  std::vector<std::shared_ptr<model::Record>> out(task.inputs().begin(), task.inputs().end());
  out.insert(out.end(), task.candidate_records().begin(), task.candidate_records().end());
  if (task.targets()) {
    for (const model::TaskTarget& target : *task.targets()) {
      if (target.kind() == model::TargetKind::kRecord) out.push_back(target.record());
      if (target.kind() == model::TargetKind::kSignal) {
        const auto source = target.signal()->source();
        out.push_back(source ? source->record() : nullptr);
      }
    }
  }
  return out;
}

}  // namespace timef::compose
