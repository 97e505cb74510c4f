#include "timef/model/values.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "model/checks.h"
#include "timef/error.h"

namespace timef::model {
namespace {

// The index of alternative A in variant V.
template <class V, class A, size_t I = 0>
constexpr size_t AlternativeIndex() {
  if constexpr (std::is_same_v<std::variant_alternative_t<I, V>, A>) {
    return I;
  } else {
    return AlternativeIndex<V, A, I + 1>();
  }
}

constexpr size_t kStringIndex = AlternativeIndex<ValueArray::Data, std::vector<std::string>>();

// Index into ValueArray::Data of the storage each dtype uses (enum: codes; labels are the last).
size_t StorageIndex(DType dtype) {
  if (dtype == DType::kStr) return kStringIndex;
  return WithScalarStorage(dtype, []<class T>(std::type_identity<T>) {
    return AlternativeIndex<ValueArray::Data, std::vector<T>>();
  });
}

template <class T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_same_v<T, std::string>) {
    return a == b;
  } else {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
  }
}

}  // namespace

namespace values_detail {
void ThrowNoScalarStorage(DType dtype) {
  internal::Fail(
      "values", "dtype",
      std::string(ToString(dtype)) + " values have no fixed-width storage; load them as an array");
}

void ThrowStorageMismatch(DType dtype, std::string_view requested) {
  throw Error("value array: values of a " + std::string(ToString(dtype)) +
              " array are not stored as " + std::string(requested));
}
}  // namespace values_detail

ValueArray::ValueArray() : dtype_(DType::kFloat32), data_(std::vector<float>()) {}

ValueArray::ValueArray(DType dtype, Data data, std::vector<uint8_t> validity)
    : dtype_(dtype), data_(std::move(data)), validity_(std::move(validity)) {
  size_t held = data_.index();
  bool fits = held == StorageIndex(dtype) || (dtype == DType::kEnum && held == kStringIndex);
  if (!fits) {
    internal::Fail("value array", "dtype",
                   "the storage does not hold " + std::string(ToString(dtype)) + " values");
  }
}

ValueArray ValueArray::Bools(const std::vector<bool>& values, std::vector<uint8_t> validity) {
  std::vector<uint8_t> bytes(values.begin(), values.end());
  return ValueArray(DType::kBool, Data(std::move(bytes)), std::move(validity));
}

ValueArray ValueArray::EnumCodes(std::vector<int32_t> codes, std::vector<uint8_t> validity) {
  return ValueArray(DType::kEnum, Data(std::move(codes)), std::move(validity));
}

ValueArray ValueArray::EnumLabels(std::vector<std::string> labels, std::vector<uint8_t> validity) {
  return ValueArray(DType::kEnum, Data(std::move(labels)), std::move(validity));
}

int64_t ValueArray::size() const {
  return std::visit([](const auto& v) { return static_cast<int64_t>(v.size()); }, data_);
}

bool ValueArray::holds_enum_labels() const {
  return dtype_ == DType::kEnum && data_.index() == kStringIndex;
}

int64_t ValueArray::null_count() const {
  return static_cast<int64_t>(std::count(validity_.begin(), validity_.end(), uint8_t{0}));
}

ValueArray ValueArray::SliceSteps(int64_t begin, int64_t end, int64_t step_width) const {
  int64_t steps = step_width > 0 ? size() / step_width : 0;
  begin = std::clamp<int64_t>(begin, 0, steps);
  end = std::clamp<int64_t>(end, begin, steps);
  Data sliced = std::visit(
      [&](const auto& v) -> Data {
        using Vector = std::decay_t<decltype(v)>;
        return Vector(v.begin() + begin * step_width, v.begin() + end * step_width);
      },
      data_);
  std::vector<uint8_t> validity;
  if (!validity_.empty()) {
    auto held = static_cast<int64_t>(validity_.size());
    validity.assign(validity_.begin() + std::min(begin, held),
                    validity_.begin() + std::min(end, held));
  }
  ValueArray out;
  out.dtype_ = dtype_;
  out.data_ = std::move(sliced);
  out.validity_ = std::move(validity);
  return out;
}

bool operator==(const ValueArray& a, const ValueArray& b) {
  if (a.dtype_ != b.dtype_ || a.data_.index() != b.data_.index() || a.validity_ != b.validity_) {
    return false;
  }
  return std::visit(
      [&](const auto& left) {
        using Vector = std::decay_t<decltype(left)>;
        return SameBits(left, std::get<Vector>(b.data_));
      },
      a.data_);
}

ValueArray SignalValues::ReadSteps(int64_t begin, int64_t end, int64_t step_width) const {
  return Load()->SliceSteps(begin, end, step_width);
}

void SignalValues::LoadInto(ScalarSpan out, std::span<uint8_t> validity,
                            const std::string& object) const {
  const int64_t nulls = CopyValuesInto(*Load(), out, validity, object);
  if (nulls > 0 && validity.empty()) ThrowNullsWithoutValidity(nulls, object);
}

bool HoldsStorageOf(const ScalarSpan& out, DType dtype) {
  return dtype != DType::kStr && out.index() == StorageIndex(dtype);
}

void CheckValueBuffers(DType dtype, int64_t scalars, int64_t steps, const ScalarSpan& out,
                       std::span<const uint8_t> validity, const std::string& object) {
  if (dtype == DType::kStr) {
    internal::Fail(object, "values",
                   "str values have no fixed-width buffer; load them as an array");
  }
  if (!HoldsStorageOf(out, dtype)) {
    internal::Fail(object, "values",
                   "the buffer's element type is not the storage of " +
                       std::string(ToString(dtype)) + " values");
  }
  const auto held = static_cast<int64_t>(std::visit([](auto span) { return span.size(); }, out));
  if (held != scalars) {
    internal::Fail(object, "values",
                   "the buffer holds " + std::to_string(held) + " values, the signal has " +
                       std::to_string(scalars));
  }
  if (!validity.empty() && static_cast<int64_t>(validity.size()) != steps) {
    internal::Fail(object, "validity",
                   "the validity buffer holds " + std::to_string(validity.size()) +
                       " bytes, the signal has " + std::to_string(steps) + " steps");
  }
}

void ThrowNullsWithoutValidity(int64_t nulls, const std::string& object) {
  internal::Fail(
      object, "validity",
      std::to_string(nulls) + " step(s) are null and no validity buffer was given to mark them");
}

int64_t CopyValuesInto(const ValueArray& from, ScalarSpan out, std::span<uint8_t> validity,
                       const std::string& object) {
  if (out.index() != from.data().index() ||
      std::visit([](auto span) { return span.size(); }, out) != static_cast<size_t>(from.size()) ||
      (!validity.empty() && from.has_validity() && validity.size() != from.validity().size())) {
    throw Error({.object = object, .where = "values"},
                "the loaded values do not fit the buffers checked for them");
  }
  std::visit(
      [&](auto span) {
        using T = typename decltype(span)::value_type;
        const auto& held = std::get<std::vector<T>>(from.data());
        if (!held.empty()) std::memcpy(span.data(), held.data(), held.size() * sizeof(T));
      },
      out);
  if (validity.empty()) return from.null_count();
  if (from.has_validity()) {
    std::memcpy(validity.data(), from.validity().data(), validity.size());
  } else {
    std::fill(validity.begin(), validity.end(), uint8_t{1});
  }
  return from.null_count();
}

std::shared_ptr<const ValueArray> LoaderValues::Load() const {
  return std::make_shared<const ValueArray>(loader_());
}

std::shared_ptr<const ValueArray> PieceLoaderValues::Load() const {
  std::vector<ValueArray> pieces;
  DType dtype = DType::kFloat32;
  loader_([&](ValueArray piece) {
    if (pieces.empty()) dtype = piece.dtype();
    pieces.push_back(std::move(piece));
  });
  if (pieces.empty()) return std::make_shared<const ValueArray>();
  // Width 1: validity is per step, and an unconformed piece's step width is unknown here;
  // Signal::LoadValues() gathers conformed pieces with the spec's width instead.
  return std::make_shared<const ValueArray>(ConcatSteps(dtype, pieces, 1));
}

ValueArray ConcatSteps(DType dtype, const std::vector<ValueArray>& parts, int64_t step_width) {
  // The storage of the first non-empty part (enum: codes or labels), else the dtype's own.
  size_t storage = StorageIndex(dtype);
  for (const ValueArray& part : parts) {
    if (part.size() > 0) {
      storage = part.data().index();
      break;
    }
  }
  bool any_null = false;
  size_t total = 0;
  for (const ValueArray& part : parts) {
    if (part.dtype() != dtype || (part.size() > 0 && part.data().index() != storage)) {
      internal::Fail("value array", "dtype",
                     "cannot join a " + std::string(ToString(part.dtype())) + " piece to " +
                         std::string(ToString(dtype)) + " values (or enum codes to labels)");
    }
    any_null = any_null || part.null_count() > 0;
    total += static_cast<size_t>(part.size());
  }
  const auto width = static_cast<size_t>(std::max<int64_t>(1, step_width));
  std::vector<uint8_t> validity;
  if (any_null) validity.reserve(total / width);
  ValueArray::Data data;
  auto join = [&](auto empty) {
    using Vector = decltype(empty);
    Vector out;
    out.reserve(total);
    for (const ValueArray& part : parts) {
      if (part.size() == 0) continue;
      const auto& in = std::get<Vector>(part.data());
      out.insert(out.end(), in.begin(), in.end());
      if (!any_null) continue;
      if (part.has_validity()) {
        validity.insert(validity.end(), part.validity().begin(), part.validity().end());
      } else {
        validity.insert(validity.end(), in.size() / width, uint8_t{1});
      }
    }
    data = std::move(out);
  };
  switch (storage) {
    case 0:
      join(std::vector<uint8_t>());
      break;
    case 1:
      join(std::vector<int8_t>());
      break;
    case 2:
      join(std::vector<int16_t>());
      break;
    case 3:
      join(std::vector<int32_t>());
      break;
    case 4:
      join(std::vector<uint16_t>());
      break;
    case 5:
      join(std::vector<uint32_t>());
      break;
    case 6:
      join(std::vector<float>());
      break;
    case 7:
      join(std::vector<double>());
      break;
    default:
      join(std::vector<std::string>());
      break;
  }
  return ValueArray(dtype, std::move(data), std::move(validity));
}

namespace {

template <class T>
std::string NumberText(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;  // shortest form
    return std::string(buffer, end);
  } else {
    return std::to_string(value);
  }
}

// The checked conversion of ConvertValues into the storage type To of `spec.dtype`. `problem`
// gives what is wrong with one value ("" when it converts without changing its meaning).
template <class To, class From>
std::vector<To> ConvertChecked(std::span<const From> in, const Spec& spec,
                               const std::vector<uint8_t>& validity, const std::string& object,
                               int64_t first_step) {
  const int64_t width = std::max<int64_t>(1, spec.StepWidth());
  const std::string target(ToString(spec.dtype));
  std::vector<To> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t step = static_cast<int64_t>(i) / width;
    if (!validity.empty() && static_cast<size_t>(step) < validity.size() && validity[step] == 0) {
      continue;  // a null step stores 0
    }
    const From x = in[i];
    std::string problem;
    if constexpr (std::is_floating_point_v<To>) {
      const To y = static_cast<To>(x);
      if constexpr (std::is_floating_point_v<From>) {
        if (!std::isnan(x) && std::isnan(y)) {
          problem = "would become NaN";
        } else if (std::isfinite(x) && !std::isfinite(y)) {
          problem =
              "is too large for " + target + " (it would become " + (y > 0 ? "inf" : "-inf") + ")";
        }
      }
      out[i] = y;
    } else {
      // Integer storage: bool, enum codes and the integer dtypes.
      int64_t lo = std::numeric_limits<To>::min();
      int64_t hi = std::numeric_limits<To>::max();
      if (spec.dtype == DType::kBool) hi = 1;
      if (spec.dtype == DType::kEnum) {
        lo = 0;
        hi = static_cast<int64_t>(spec.categories.size()) - 1;
      }
      const std::string range = spec.dtype == DType::kBool ? "a bool value is 0 or 1"
                                : spec.dtype == DType::kEnum
                                    ? "outside the " + std::to_string(spec.categories.size()) +
                                          " categories (codes 0 to " + std::to_string(hi) + ")"
                                    : "outside the range of " + target + " (" + std::to_string(lo) +
                                          " to " + std::to_string(hi) + ")";
      if constexpr (std::is_floating_point_v<From>) {
        if (std::isnan(x)) {
          problem = "NaN has no " + target + " value";
        } else if (std::isinf(x)) {
          problem = "an infinity has no " + target + " value";
        } else if (x != std::trunc(x)) {
          problem = "is fractional; " + target + " holds integers";
        } else if (static_cast<double>(x) < static_cast<double>(lo) ||
                   static_cast<double>(x) > static_cast<double>(hi)) {
          problem = "is " + range;
        } else {
          out[i] = static_cast<To>(x);
        }
      } else {
        if (!std::in_range<int64_t>(x) || static_cast<int64_t>(x) < lo ||
            static_cast<int64_t>(x) > hi) {
          problem = "is " + range;
        } else {
          out[i] = static_cast<To>(x);
        }
      }
    }
    if (!problem.empty()) {
      const int64_t at = first_step * width + static_cast<int64_t>(i);
      std::string where = "step " + std::to_string(first_step + step);
      if (width > 1) where += " (scalar " + std::to_string(at) + ")";
      internal::Fail(object, "values[" + std::to_string(at) + "]",
                     where + ": " + NumberText(x) + " " + problem + " (spec " +
                         internal::Quoted(spec.spec_type) + " is " + target +
                         "; a conversion must not change a value)");
    }
  }
  return out;
}

}  // namespace

template <class From>
ValueArray ConvertValues(std::span<const From> values, const Spec& spec,
                         std::vector<uint8_t> validity, const std::string& object,
                         int64_t first_step) {
  static_assert(std::is_arithmetic_v<From> && !std::is_same_v<From, bool>);
  // Each conversion reads `validity` before the array takes it.
  auto make = [&](DType dtype, auto to) {
    using To = decltype(to);
    std::vector<To> data = ConvertChecked<To, From>(values, spec, validity, object, first_step);
    return ValueArray(dtype, std::move(data), std::move(validity));
  };
  switch (spec.dtype) {
    case DType::kBool:
    case DType::kUint8:
      return make(spec.dtype, uint8_t{});
    case DType::kInt8:
      return make(spec.dtype, int8_t{});
    case DType::kInt16:
      return make(spec.dtype, int16_t{});
    case DType::kInt32:
    case DType::kEnum:
      return make(spec.dtype, int32_t{});
    case DType::kUint16:
      return make(spec.dtype, uint16_t{});
    case DType::kUint32:
      return make(spec.dtype, uint32_t{});
    case DType::kFloat32:
      return make(spec.dtype, float{});
    case DType::kFloat64:
      return make(spec.dtype, double{});
    case DType::kStr:
      break;
  }
  internal::Fail(object, "values",
                 "numbers given for the str spec " + internal::Quoted(spec.spec_type) +
                     " (give text: a number is not converted to text)");
}

#define TIMEF_CONVERT_VALUES(T)                                                               \
  template ValueArray ConvertValues<T>(std::span<const T>, const Spec&, std::vector<uint8_t>, \
                                       const std::string&, int64_t);
TIMEF_CONVERT_VALUES(int8_t)
TIMEF_CONVERT_VALUES(int16_t)
TIMEF_CONVERT_VALUES(int32_t)
TIMEF_CONVERT_VALUES(int64_t)
TIMEF_CONVERT_VALUES(uint8_t)
TIMEF_CONVERT_VALUES(uint16_t)
TIMEF_CONVERT_VALUES(uint32_t)
TIMEF_CONVERT_VALUES(uint64_t)
TIMEF_CONVERT_VALUES(float)
TIMEF_CONVERT_VALUES(double)
#undef TIMEF_CONVERT_VALUES

}  // namespace timef::model
