#include "timef/model/signal.h"

#include <algorithm>
#include <unordered_map>

#include "core/text.h"
#include "model/checks.h"
#include "timef/error.h"

namespace timef::model {
namespace {

// Maps enum labels to codes (null steps take code 0) and checks codes against the categories.
ValueArray ConformEnum(ValueArray values, const Spec& spec, int64_t step_width, int64_t base,
                       const std::string& object) {
  const auto n_categories = static_cast<int32_t>(spec.categories.size());
  auto step_of = [&](size_t i) { return static_cast<int64_t>(i) / step_width; };
  if (values.holds_enum_labels()) {
    std::unordered_map<std::string_view, int32_t> code_of;
    for (int32_t c = 0; c < n_categories; ++c) code_of.emplace(spec.categories[c], c);
    auto labels = values.values<std::string>();
    std::vector<int32_t> codes(labels.size(), 0);
    for (size_t i = 0; i < labels.size(); ++i) {
      if (!values.IsValid(step_of(i))) continue;
      auto found = code_of.find(labels[i]);
      if (found == code_of.end()) {
        internal::Fail(object, "values[" + std::to_string(base + static_cast<int64_t>(i)) + "]",
                       "label " + internal::Quoted(labels[i]) + " is not one of the categories");
      }
      codes[i] = found->second;
    }
    return ValueArray::EnumCodes(std::move(codes), values.validity());
  }
  auto codes = values.values<int32_t>();
  for (size_t i = 0; i < codes.size(); ++i) {
    if (values.IsValid(step_of(i)) && (codes[i] < 0 || codes[i] >= n_categories)) {
      internal::Fail(object, "values[" + std::to_string(base + static_cast<int64_t>(i)) + "]",
                     "code " + std::to_string(codes[i]) + " is outside the " +
                         std::to_string(n_categories) + " categories");
    }
  }
  return values;
}

}  // namespace

Signal::Signal(std::string name, std::shared_ptr<const Spec> spec,
               std::shared_ptr<const TimeAxis> axis, int64_t n_values)
    : name_(std::move(name)), spec_(std::move(spec)), axis_(std::move(axis)), n_values_(n_values) {
  CheckShape();
}

Signal::Signal(std::string name, std::shared_ptr<const Spec> spec,
               std::shared_ptr<const TimeAxis> axis, ValueArray values)
    : name_(std::move(name)), spec_(std::move(spec)), axis_(std::move(axis)) {
  if (!spec_) internal::Fail(Describe(), "spec", "a signal needs a spec");
  n_values_ = values.size() / spec_->StepWidth();
  CheckShape();
  SetValues(std::move(values));
}

void Signal::CheckShape() const {
  internal::CheckUtf8(
      name_, [this] { return Describe(); }, "name");
  if (!spec_) internal::Fail(Describe(), "spec", "a signal needs a spec");
  spec_->Check();
  if (!axis_) internal::Fail(Describe(), "axis", "a signal needs a time axis");
  if (n_values_ <= 0) {
    internal::Fail(Describe(), "n_values",
                   "a signal has at least one timestep, got n_values " + std::to_string(n_values_));
  }
  if (axis_->is_irregular() && axis_->n_values() != n_values_) {
    internal::Fail(Describe(), "n_values",
                   "the irregular axis has " + std::to_string(axis_->n_values()) +
                       " offsets but the signal has " + std::to_string(n_values_) + " timesteps");
  }
}

void Signal::set_id(std::optional<int64_t> id) {
  if (id && *id <= 0) {
    internal::Fail(Describe(), "signal_id", "a public ID is > 0, got " + std::to_string(*id));
  }
  id_ = id;
}

void Signal::set_name(std::string name) {
  internal::CheckUtf8(
      name, [this] { return Describe(); }, "name");
  name_ = std::move(name);
}

void Signal::set_metadata(Json metadata) {
  internal::CheckMetadata(
      metadata, [this] { return Describe(); }, "metadata");
  metadata_ = std::move(metadata);
}

void Signal::set_import_marker(std::optional<ImportMarker> marker) {
  if (marker) marker->Check(Describe(), "import");
  import_marker_ = std::move(marker);
}

void Signal::SetValues(ValueArray values) {
  values_ = std::make_shared<const InMemoryValues>(ConformValues(std::move(values)));
}

void Signal::SetLoader(LoaderValues::Loader loader) {
  if (!loader) internal::Fail(Describe(), "values", "the loader must not be empty");
  values_ = std::make_shared<const LoaderValues>(std::move(loader));
}

void Signal::SetPieceLoader(PieceLoader loader) {
  if (!loader) internal::Fail(Describe(), "values", "the piece loader must not be empty");
  values_ = std::make_shared<const PieceLoaderValues>(std::move(loader));
}

void Signal::SetValuesSource(std::shared_ptr<const SignalValues> source) {
  values_ = std::move(source);
}

ValueArray Signal::ConformValues(ValueArray values) const {
  const std::string object = Describe();
  const Spec& spec = *spec_;
  if (values.dtype() != spec.dtype) {
    internal::Fail(object, "values",
                   "the values are " + std::string(ToString(values.dtype())) + " but the spec " +
                       internal::Quoted(spec.spec_type) + " is " +
                       std::string(ToString(spec.dtype)));
  }
  const int64_t width = spec.StepWidth();
  int64_t expected = 0;
  if (__builtin_mul_overflow(n_values_, width, &expected) || values.size() != expected) {
    internal::Fail(object, "values",
                   "expected " + std::to_string(n_values_) + " timesteps × " +
                       std::to_string(width) + " scalars, got " + std::to_string(values.size()) +
                       " scalars");
  }
  if (values.has_validity() && static_cast<int64_t>(values.validity().size()) != n_values_) {
    internal::Fail(object, "values.validity",
                   "expected one validity byte per timestep (" + std::to_string(n_values_) +
                       "), got " + std::to_string(values.validity().size()));
  }
  return ConformContent(std::move(values), 0);
}

ValueArray Signal::ConformPiece(ValueArray piece, int64_t first_step) const {
  const std::string object = Describe();
  const Spec& spec = *spec_;
  const std::string where = "values (piece at step " + std::to_string(first_step) + ")";
  if (piece.dtype() != spec.dtype) {
    internal::Fail(object, where,
                   "the piece is " + std::string(ToString(piece.dtype())) + " but the spec " +
                       internal::Quoted(spec.spec_type) + " is " +
                       std::string(ToString(spec.dtype)));
  }
  const int64_t width = spec.StepWidth();
  if (width <= 0 || piece.size() % width != 0) {
    internal::Fail(object, where,
                   "holds " + std::to_string(piece.size()) + " scalars, not whole timesteps of " +
                       std::to_string(width));
  }
  const int64_t steps = width > 0 ? piece.size() / width : 0;
  if (steps > n_values_ - first_step) {
    internal::Fail(object, where,
                   "brings the pieces to " + std::to_string(first_step + steps) +
                       " timesteps, more than n_values = " + std::to_string(n_values_));
  }
  if (piece.has_validity() && static_cast<int64_t>(piece.validity().size()) != steps) {
    internal::Fail(object, where + ".validity",
                   "expected one validity byte per timestep of the piece (" +
                       std::to_string(steps) + "), got " + std::to_string(piece.validity().size()));
  }
  return ConformContent(std::move(piece), first_step);
}

ValueArray Signal::ConformContent(ValueArray values, int64_t first_step) const {
  const std::string object = Describe();
  const Spec& spec = *spec_;
  const int64_t width = spec.StepWidth();
  const int64_t base = first_step * width;
  if (values.has_validity() && !spec.nullable) {
    for (size_t step = 0; step < values.validity().size(); ++step) {
      if (values.validity()[step] == 0) {
        const int64_t at = first_step + static_cast<int64_t>(step);
        internal::Fail(object, "values.validity[" + std::to_string(at) + "]",
                       "null at step " + std::to_string(at) + " but the spec " +
                           internal::Quoted(spec.spec_type) + " is not nullable");
      }
    }
  }
  switch (spec.dtype) {
    case DType::kEnum:
      return ConformEnum(std::move(values), spec, width, base, object);
    case DType::kBool: {
      auto bytes = values.values<uint8_t>();
      for (size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] > 1) {
          internal::Fail(object, "values[" + std::to_string(base + static_cast<int64_t>(i)) + "]",
                         "a bool value is 0 or 1, got " + std::to_string(bytes[i]));
        }
      }
      break;
    }
    case DType::kStr: {
      auto strings = values.values<std::string>();
      for (size_t i = 0; i < strings.size(); ++i) {
        internal::CheckUtf8(strings[i], object,
                            "values[" + std::to_string(base + static_cast<int64_t>(i)) + "]");
      }
      break;
    }
    default:
      break;
  }
  return values;
}

void Signal::VisitValues(const PieceSink& emit) const {
  if (!values_) internal::Fail(Describe(), "values", "the signal has no values");
  const auto* pieces = dynamic_cast<const PieceLoaderValues*>(values_.get());
  if (pieces == nullptr) {
    std::shared_ptr<const ValueArray> all = LoadValues();
    emit(*all);
    return;
  }
  int64_t steps = 0;
  const int64_t width = std::max<int64_t>(1, spec_->StepWidth());
  pieces->Run([&](ValueArray piece) {
    ValueArray conformed = ConformPiece(std::move(piece), steps);
    steps += conformed.size() / width;
    if (conformed.size() > 0) emit(std::move(conformed));
  });
  if (steps != n_values_) {
    internal::Fail(Describe(), "values",
                   "the pieces hold " + std::to_string(steps) +
                       " timesteps, expected n_values = " + std::to_string(n_values_));
  }
}

bool Signal::has_piecewise_values() const {
  return dynamic_cast<const PieceLoaderValues*>(values_.get()) != nullptr;
}

std::shared_ptr<const ValueArray> Signal::LoadValues() const {
  if (!values_) internal::Fail(Describe(), "values", "the signal has no values");
  if (const auto* loader = dynamic_cast<const LoaderValues*>(values_.get())) {
    return std::make_shared<const ValueArray>(ConformValues(loader->Run()));
  }
  if (has_piecewise_values()) {
    std::vector<ValueArray> pieces;
    VisitValues([&](ValueArray piece) { pieces.push_back(std::move(piece)); });
    return std::make_shared<const ValueArray>(
        ConcatSteps(spec_->dtype, pieces, spec_->StepWidth()));
  }
  return values_->Load();
}

ValueArray Signal::ReadSteps(int64_t begin, int64_t end) const {
  if (begin < 0 || begin > end) {
    internal::Fail(Describe(), "steps",
                   "a window needs 0 ≤ begin ≤ end, got [" + std::to_string(begin) + ", " +
                       std::to_string(end) + ")");
  }
  if (!values_) internal::Fail(Describe(), "values", "the signal has no values");
  end = std::min(end, n_values_);
  begin = std::min(begin, end);
  if (dynamic_cast<const LoaderValues*>(values_.get()) != nullptr || has_piecewise_values()) {
    return LoadValues()->SliceSteps(begin, end, spec_->StepWidth());
  }
  return values_->ReadSteps(begin, end, spec_->StepWidth());
}

std::string Signal::Describe() const {
  std::string out = "signal ";
  if (id_) out += std::to_string(*id_) + " ";
  return out + internal::Quoted(name_);
}

}  // namespace timef::model
