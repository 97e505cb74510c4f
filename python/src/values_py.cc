// Signal values ↔ numpy. Reads hand out the decoded buffer itself (the numpy array's base owns a
// reference to it); writes copy the caller's array once into the writer's storage type.
#include <cstring>
#include <span>

#include "py_common.h"

namespace timef::python {
namespace {

std::vector<py::ssize_t> ShapeOf(std::int64_t scalars, const model::Spec& spec) {
  std::int64_t width = spec.StepWidth();
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(width == 0 ? 0 : scalars / width)};
  for (std::int64_t d : spec.value_shape) shape.push_back(static_cast<py::ssize_t>(d));
  return shape;
}

// numpy's dtype for a storage vector; bool is stored as bytes holding 0 or 1, which is exactly
// numpy's bool layout.
template <class T>
py::dtype NumpyDtype(DType dtype) {
  if (dtype == DType::kBool) return py::dtype("?");
  return py::dtype::of<T>();
}

py::object Masked(py::object data, const std::vector<std::uint8_t>& validity,
                  const std::vector<py::ssize_t>& shape, py::handle validity_owner) {
  py::module_ np = py::module_::import("numpy");
  py::array_t<std::uint8_t> valid({static_cast<py::ssize_t>(validity.size())}, {1}, validity.data(),
                                  validity_owner);
  py::object mask = np.attr("equal")(valid, 0);
  if (shape.size() > 1) {
    std::vector<py::ssize_t> mask_shape(shape.size(), 1);
    mask_shape[0] = shape[0];
    mask = np.attr("broadcast_to")(mask.attr("reshape")(py::cast(mask_shape)), py::cast(shape));
    mask = np.attr("array")(mask);
  }
  return np.attr("ma").attr("MaskedArray")(data, py::arg("mask") = mask, py::arg("copy") = false);
}

py::object StringsToNumpy(const std::vector<std::string>& strings,
                          const std::vector<py::ssize_t>& shape) {
  py::list items;
  for (const auto& s : strings) items.append(py::str(s));
  py::module_ np = py::module_::import("numpy");
  return np.attr("array")(items, py::arg("dtype") = "O").attr("reshape")(py::cast(shape));
}

// The numpy view of `array`, whose storage `owner` keeps alive. `writable` only when nobody else
// holds the buffer. A nullable spec wraps the view in a masked array (an all-valid mask when the
// array has no validity).
py::object ArrayOf(const model::ValueArray& array, const model::Spec& spec, py::capsule owner,
                   bool writable) {
  std::vector<py::ssize_t> shape = ShapeOf(array.size(), spec);
  py::object data = std::visit(
      [&](const auto& vec) -> py::object {
        using T = typename std::decay_t<decltype(vec)>::value_type;
        if constexpr (std::is_same_v<T, std::string>) {
          return StringsToNumpy(vec, shape);
        } else {
          py::array out(NumpyDtype<T>(array.dtype()), shape, const_cast<T*>(vec.data()), owner);
          if (!writable) {
            py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
          }
          return out;
        }
      },
      array.data());
  if (!spec.nullable) return data;
  if (array.has_validity()) return Masked(data, array.validity(), shape, owner);
  py::capsule all_owner(new std::vector<std::uint8_t>(static_cast<std::size_t>(shape[0]), 1),
                        [](void* p) { delete static_cast<std::vector<std::uint8_t>*>(p); });
  return Masked(data, *static_cast<std::vector<std::uint8_t>*>(all_owner.get_pointer()), shape,
                all_owner);
}

}  // namespace

namespace {
template <class T>
model::ScalarSpan SpanOf(const py::array& array, DType dtype, py::ssize_t first, py::ssize_t count,
                         const std::string& what) {
  if (!array.dtype().is(NumpyDtype<T>(dtype))) {
    throw ValidationError({.object = what, .where = "out"},
                          "the array's dtype is " + py::str(array.dtype()).cast<std::string>() +
                              ", " + std::string(ToString(dtype)) + " values need " +
                              py::str(NumpyDtype<T>(dtype)).cast<std::string>());
  }
  return std::span<T>(static_cast<T*>(const_cast<void*>(array.data())) + first,
                      static_cast<std::size_t>(count));
}

void CheckWritableContiguous(const py::array& array, const std::string& what, const char* where) {
  const int flags = py::detail::array_proxy(array.ptr())->flags;
  if ((flags & py::detail::npy_api::NPY_ARRAY_WRITEABLE_) == 0 ||
      (flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) == 0) {
    throw ValidationError({.object = what, .where = where},
                          "expected a writable C-contiguous numpy array");
  }
}
}  // namespace

model::ScalarSpan ScalarSpanOf(const py::array& array, const model::Spec& spec, py::ssize_t first,
                               py::ssize_t count, const std::string& what) {
  CheckWritableContiguous(array, what, "out");
  if (first < 0 || count < 0 || first + count > array.size()) {
    throw ValidationError({.object = what, .where = "out"},
                          "the array holds " + std::to_string(array.size()) + " values, " +
                              std::to_string(first + count) + " needed");
  }
  if (spec.dtype == DType::kStr) {
    throw ValidationError({.object = what, .where = "out"},
                          "str values have no fixed-width buffer; load them as arrays");
  }
  return model::WithScalarStorage(spec.dtype, [&]<class T>(std::type_identity<T>) {
    return SpanOf<T>(array, spec.dtype, first, count, what);
  });
}

std::span<std::uint8_t> ValiditySpanOf(const py::array& array, py::ssize_t first, py::ssize_t count,
                                       const std::string& what) {
  CheckWritableContiguous(array, what, "validity");
  if (!array.dtype().is(py::dtype("?")) && !array.dtype().is(py::dtype::of<std::uint8_t>())) {
    throw ValidationError(
        {.object = what, .where = "validity"},
        "a validity array is bool or uint8, not " + py::str(array.dtype()).cast<std::string>());
  }
  if (first < 0 || count < 0 || first + count > array.size()) {
    throw ValidationError({.object = what, .where = "validity"},
                          "the array holds " + std::to_string(array.size()) + " steps, " +
                              std::to_string(first + count) + " needed");
  }
  return std::span<std::uint8_t>(
      static_cast<std::uint8_t*>(const_cast<void*>(array.data())) + first,
      static_cast<std::size_t>(count));
}

py::object ValuesToNumpy(std::shared_ptr<const model::ValueArray> values, const model::Spec& spec) {
  const model::ValueArray& array = *values;
  py::capsule owner(new std::shared_ptr<const model::ValueArray>(std::move(values)), [](void* p) {
    delete static_cast<std::shared_ptr<const model::ValueArray>*>(p);
  });
  return ArrayOf(array, spec, owner, /*writable=*/false);
}

py::object WritableValuesToNumpy(std::shared_ptr<const model::ValueArray> values,
                                 const model::Spec& spec) {
  if (values.use_count() != 1) return OwnedValuesToNumpy(model::ValueArray(*values), spec);
  const model::ValueArray& array = *values;
  py::capsule owner(new std::shared_ptr<const model::ValueArray>(std::move(values)), [](void* p) {
    delete static_cast<std::shared_ptr<const model::ValueArray>*>(p);
  });
  // The array is the only holder of this buffer, so it may be written to.
  return ArrayOf(array, spec, owner, /*writable=*/true);
}

py::object OwnedValuesToNumpy(model::ValueArray values, const model::Spec& spec) {
  return WritableValuesToNumpy(std::make_shared<const model::ValueArray>(std::move(values)), spec);
}

namespace {

template <class T>
std::vector<T> CopyAs(py::handle object, const char* numpy_dtype) {
  py::module_ np = py::module_::import("numpy");
  py::array flat =
      np.attr("ascontiguousarray")(np.attr("asarray")(object, py::arg("dtype") = numpy_dtype))
          .attr("reshape")(-1);
  std::vector<T> out(static_cast<std::size_t>(flat.size()));
  if (!out.empty()) std::memcpy(out.data(), flat.data(), out.size() * sizeof(T));
  return out;
}

std::vector<std::string> Strings(py::handle object, const std::string& what) {
  std::vector<std::string> out;
  py::module_ np = py::module_::import("numpy");
  py::object flat = np.attr("asarray")(object, py::arg("dtype") = "O").attr("reshape")(-1);
  for (auto item : flat) {
    if (!py::isinstance<py::str>(item))
      throw ValidationError(ErrorSite{.object = what}, "values: expected str elements");
    out.push_back(item.cast<std::string>());
  }
  return out;
}

std::string ShapeText(const std::vector<py::ssize_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

// ValidationError unless `array`'s shape is [steps, *value_shape] (a scalar spec: one dimension).
void CheckShape(py::handle array, const model::Spec& spec, const std::string& what) {
  const auto shape = array.attr("shape").cast<std::vector<py::ssize_t>>();
  bool fits = shape.size() == 1 + spec.value_shape.size();
  for (std::size_t d = 0; fits && d < spec.value_shape.size(); ++d) {
    fits = shape[d + 1] == spec.value_shape[d];
  }
  if (fits) return;
  std::string expected = "[n_values";
  for (std::int64_t d : spec.value_shape) expected += ", " + std::to_string(d);
  expected += "]";
  throw ValidationError(
      ErrorSite{.object = what, .where = "values"},
      "an array of shape " + ShapeText(shape) + " for spec '" + spec.spec_type +
          "', which takes shape " + expected +
          (spec.value_shape.empty() ? " (one value per timestep: a 1-d array)" : "") +
          "; reshape it explicitly if that is what you mean");
}

// The numbers of a numeric numpy array through the one checked conversion
// (model::ConvertValues), from the array's own element type: nothing is cast before the check.
model::ValueArray ConvertNumbers(py::object array, const model::Spec& spec,
                                 std::vector<std::uint8_t> validity, const std::string& what,
                                 std::int64_t first_step) {
  py::module_ np = py::module_::import("numpy");
  const std::string kind = py::str(array.attr("dtype").attr("kind")).cast<std::string>();
  const auto size = array.attr("dtype").attr("itemsize").cast<int>();
  if (!array.attr("dtype").attr("isnative").cast<bool>()) {
    array = array.attr("astype")(array.attr("dtype").attr("newbyteorder")("="));  // exact
  }
  if (kind == "f" && size > 8) {
    // longdouble: to float64 first, refusing a finite value that would become infinite there.
    py::object wide = np.attr("asarray")(array, py::arg("dtype") = "f8");
    py::object grew = np.attr("logical_and")(np.attr("isfinite")(array), np.attr("isinf")(wide))
                          .attr("reshape")(-1);
    if (np.attr("any")(grew).cast<bool>()) {
      const auto at = np.attr("argmax")(grew).cast<std::int64_t>();
      throw ValidationError(
          ErrorSite{.object = what, .where = "values[" + std::to_string(at) + "]"},
          "a finite value too large for float64 (it would become inf)");
    }
    array = wide;
  } else if (kind == "f" && size == 2) {
    array = np.attr("asarray")(array, py::arg("dtype") = "f4");  // exact
  }
  py::array flat = np.attr("ascontiguousarray")(array).attr("reshape")(-1);
  const auto n = static_cast<std::size_t>(flat.size());
  auto run = [&](auto tag) {
    using T = decltype(tag);
    return model::ConvertValues(std::span<const T>(static_cast<const T*>(flat.data()), n), spec,
                                std::move(validity), what, first_step);
  };
  if (kind == "b" || (kind == "u" && size == 1)) return run(std::uint8_t{});
  if (kind == "u" && size == 2) return run(std::uint16_t{});
  if (kind == "u" && size == 4) return run(std::uint32_t{});
  if (kind == "u" && size == 8) return run(std::uint64_t{});
  if (kind == "i" && size == 1) return run(std::int8_t{});
  if (kind == "i" && size == 2) return run(std::int16_t{});
  if (kind == "i" && size == 4) return run(std::int32_t{});
  if (kind == "i" && size == 8) return run(std::int64_t{});
  if (kind == "f" && flat.itemsize() == 4) return run(float{});
  if (kind == "f" && flat.itemsize() == 8) return run(double{});
  throw ValidationError(ErrorSite{.object = what, .where = "values"},
                        "expected numbers for the " + std::string(model::ToString(spec.dtype)) +
                            " spec '" + spec.spec_type + "', got an array of dtype " +
                            py::str(array.attr("dtype")).cast<std::string>());
}

}  // namespace

model::ValueArray NumpyToValues(py::handle object, const model::Spec& spec, const std::string& what,
                                std::int64_t first_step) {
  py::module_ np = py::module_::import("numpy");
  std::vector<std::uint8_t> validity;
  py::object data = py::reinterpret_borrow<py::object>(object);
  const bool masked = py::isinstance(object, np.attr("ma").attr("MaskedArray"));
  // The shape as given ([steps, *value_shape]); lists are looked at as numpy would make them.
  py::object shaped = masked ? data : np.attr("asarray")(object);
  CheckShape(shaped, spec, what);
  if (masked) {
    py::object mask = np.attr("ma").attr("getmaskarray")(object);
    std::int64_t width = spec.StepWidth();
    py::object step_mask = mask.attr("reshape")(-1);
    if (width > 1) step_mask = mask.attr("reshape")(-1, width).attr("any")(py::arg("axis") = 1);
    std::vector<std::uint8_t> nulls = CopyAs<std::uint8_t>(step_mask, "u1");
    validity.resize(nulls.size());
    bool any_null = false;
    for (std::size_t i = 0; i < nulls.size(); ++i) {
      validity[i] = nulls[i] ? 0 : 1;
      any_null |= nulls[i] != 0;
    }
    if (!any_null) validity.clear();
    // Null steps still need a stored placeholder: 0, "" or (enum labels) the first category.
    std::string kind = py::str(object.attr("dtype").attr("kind")).cast<std::string>();
    bool numeric = kind == "i" || kind == "u" || kind == "f" || kind == "b";
    py::object fill = numeric                      ? py::object(py::int_(0))
                      : spec.dtype == DType::kEnum ? py::object(py::str(spec.categories.at(0)))
                                                   : py::object(py::str(""));
    data = object.attr("filled")(fill);
    shaped = data;
  }
  const std::string kind = py::str(shaped.attr("dtype").attr("kind")).cast<std::string>();
  switch (spec.dtype) {
    case DType::kStr:
      return model::ValueArray::Of(Strings(data, what), std::move(validity));
    case DType::kEnum:
      // Integer codes go through the checked conversion (within the categories); anything else
      // must be labels.
      if (kind == "i" || kind == "u") {
        return ConvertNumbers(shaped, spec, std::move(validity), what, first_step);
      }
      if (kind == "f" || kind == "b") {
        throw ValidationError(ErrorSite{.object = what, .where = "values"},
                              "enum values are labels (str) or integer codes, got an array of "
                              "dtype " +
                                  py::str(shaped.attr("dtype")).cast<std::string>());
      }
      return model::ValueArray::EnumLabels(Strings(data, what), std::move(validity));
    default:
      return ConvertNumbers(shaped, spec, std::move(validity), what, first_step);
  }
}

}  // namespace timef::python
