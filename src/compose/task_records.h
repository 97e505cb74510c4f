// The records a task references (inputs, candidates, record targets, the records of signal
// targets): what an import needs in the child and what an edit's removal cascades through.
#pragma once

#include <memory>
#include <vector>

#include "timef/model.h"

namespace timef::compose {

// Null entries stand for a signal target whose record is unknown.
std::vector<std::shared_ptr<model::Record>> RecordsOf(const model::Task& task);

}  // namespace timef::compose
