// §7.2 step 2: the bytes one timestep counts in the chunk, row-group and shard budgets.
#include <algorithm>
#include <string>

#include "values/values_writer.h"

namespace timef::values {

std::int64_t StepBytes(const model::Spec& spec, const model::ValueArray& values) {
  const std::int64_t width = std::max<std::int64_t>(1, spec.StepWidth());
  if (spec.dtype != model::DType::kStr) {
    // DTypeWidth gives bool 1 and enum 4, as §7.2 counts them.
    return std::max<std::int64_t>(1, model::DTypeWidth(spec.dtype)) * width;
  }
  const std::int64_t scalars = values.size();
  const std::int64_t steps = scalars / width;
  if (steps == 0) return 1;
  std::int64_t utf8_bytes = 0;
  if (const auto* held = std::get_if<std::vector<std::string>>(&values.data())) {
    for (const std::string& text : *held) utf8_bytes += static_cast<std::int64_t>(text.size());
  }
  return std::max<std::int64_t>(1, (utf8_bytes + 4 * scalars) / steps);
}

}  // namespace timef::values
