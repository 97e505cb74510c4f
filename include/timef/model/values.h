// Signal values: a typed array with per-step validity, and the abstract source a Signal reads its
// values from (in memory, a loader the writer calls once, a piece loader that hands the values in
// pieces, or a lazy reader handle).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <variant>
#include <vector>

#include "timef/model/spec.h"

namespace timef::model {

// A flat array of scalars of one dtype, with optional validity (one byte per timestep, 1 =
// present, 0 = null; empty = every step present). A spec with a value_shape stores StepWidth()
// scalars per step, step-major. Storage per dtype: bool and uint8 → uint8_t (bool holds 0 or 1),
// int8…uint32 and float32/float64 → the matching C++ type, str → std::string, enum → int32 codes
// into the spec's categories, or labels (std::string) until Signal::ConformValues maps them.
// A value type: copies are deep and independent; concurrent const access is safe, mutation needs
// exclusive access. values<T>() of the wrong storage type throws Error.
// The storage types of the fixed-width dtypes, written once: `Wrap<T>` for each, in this order,
// then `Extra...`. ValueArray::Data (owned vectors, then str) and ScalarSpan (a caller's buffer)
// are made from it, so the index of a dtype's storage is the same in both.
template <template <class> class Wrap, class... Extra>
using OverScalarStorage =
    std::variant<Wrap<uint8_t>, Wrap<int8_t>, Wrap<int16_t>, Wrap<int32_t>, Wrap<uint16_t>,
                 Wrap<uint32_t>, Wrap<float>, Wrap<double>, Extra...>;
namespace values_detail {
template <class T>
using Vector = std::vector<T>;
template <class T>
using MutableSpan = std::span<T>;
}  // namespace values_detail

// A caller's buffer for the scalars of a fixed-width dtype: a span of its storage type (the
// storage rules of ValueArray below: bool and uint8 → uint8_t, enum → int32_t codes; str has
// none). Borrowed: the caller owns the memory and keeps it alive during the call that fills it.
using ScalarSpan = OverScalarStorage<values_detail::MutableSpan>;

// Whether `out` is a span of `dtype`'s storage type.
bool HoldsStorageOf(const ScalarSpan& out, DType dtype);

namespace values_detail {
[[noreturn]] void ThrowNoScalarStorage(DType dtype);
}  // namespace values_detail

// Calls `f(std::type_identity<T>{})` with the storage type T of a fixed-width `dtype` (every dtype
// but str: bool and uint8 → uint8_t, enum → int32_t codes, the others their C++ type) and returns
// what it returns (the same type for every T). The one mapping of dtypes to storage types;
// ValidationError for str.
template <class F>
decltype(auto) WithScalarStorage(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kBool:
    case DType::kUint8:
      return f(std::type_identity<uint8_t>{});
    case DType::kInt8:
      return f(std::type_identity<int8_t>{});
    case DType::kInt16:
      return f(std::type_identity<int16_t>{});
    case DType::kInt32:
    case DType::kEnum:
      return f(std::type_identity<int32_t>{});
    case DType::kUint16:
      return f(std::type_identity<uint16_t>{});
    case DType::kUint32:
      return f(std::type_identity<uint32_t>{});
    case DType::kFloat32:
      return f(std::type_identity<float>{});
    case DType::kFloat64:
      return f(std::type_identity<double>{});
    case DType::kStr:
      break;
  }
  values_detail::ThrowNoScalarStorage(dtype);
}

class ValueArray {
 public:
  using Data = OverScalarStorage<values_detail::Vector, std::vector<std::string>>;

  ValueArray();  // empty float32
  // Throws ValidationError when `data` is not the storage of `dtype`.
  ValueArray(DType dtype, Data data, std::vector<uint8_t> validity = {});

  static ValueArray Bools(const std::vector<bool>& values, std::vector<uint8_t> validity = {});
  static ValueArray EnumCodes(std::vector<int32_t> codes, std::vector<uint8_t> validity = {});
  static ValueArray EnumLabels(std::vector<std::string> labels, std::vector<uint8_t> validity = {});
  // Numeric and str arrays by C++ type: int8_t … uint32_t, float (float32), double (float64),
  // std::string (str). uint8_t gives uint8 (use Bools for bool).
  template <class T>
  static ValueArray Of(std::vector<T> values, std::vector<uint8_t> validity = {});

  DType dtype() const { return dtype_; }
  // Number of scalars.
  int64_t size() const;
  const Data& data() const { return data_; }
  // True for an enum array that holds labels rather than codes.
  bool holds_enum_labels() const;
  const std::vector<uint8_t>& validity() const { return validity_; }
  bool has_validity() const { return !validity_.empty(); }
  // Whether timestep `step` holds a value.
  bool IsValid(int64_t step) const { return validity_.empty() || validity_[step] != 0; }
  int64_t null_count() const;

  // The scalars as T; throws Error when the storage is not std::vector<T>.
  template <class T>
  std::span<const T> values() const;

  // Timesteps [begin, end) of an array with `step_width` scalars per step (bounds clamped to the
  // array). Keeps the dtype when empty.
  ValueArray SliceSteps(int64_t begin, int64_t end, int64_t step_width) const;

  // Bit-exact comparison: floats compare by bit pattern (NaN payloads, -0.0 ≠ +0.0).
  friend bool operator==(const ValueArray& a, const ValueArray& b);

 private:
  DType dtype_;
  Data data_;
  std::vector<uint8_t> validity_;
};

// Where a Signal's values come from: the interface a value source implements (Load() below).
// Users load values with Signal::LoadValues() or SignalValuesRef::LoadValues(), the one verb.
// - Ownership and lifetime: a source is held by std::shared_ptr<const SignalValues>; several
//   signals may share one (an edit's unchanged values). An array Load() returns is immutable and
//   stays valid as long as the caller holds it, whatever happens to the source.
// - Threading: Load() and ReadSteps() are const. InMemoryValues may be called from any number of
//   threads at once (it hands out the same immutable array). LoaderValues and PieceLoaderValues
//   call the user's loader on the calling thread, once per call, with no lock: concurrent calls run
//   the loader concurrently, so it must allow that (the writer calls it from one thread). A
//   reader's lazy source may be used from any thread (reader.h).
// - Errors: what the loader or the decode throws (ValidationError for values that do not fit the
//   spec, FormatError/FileError from storage) propagates unchanged.
class SignalValues {
 public:
  virtual ~SignalValues() = default;
  // Every value. In-memory: the held array; loader: calls its loader each time; reader: decodes.
  virtual std::shared_ptr<const ValueArray> Load() const = 0;
  // Timesteps [begin, end) with `step_width` scalars per step, 0 ≤ begin ≤ end ≤ n_values. The
  // default loads everything and slices; a lazy reader decodes only the chunks that intersect.
  virtual ValueArray ReadSteps(int64_t begin, int64_t end, int64_t step_width) const;
  // True when Load() reads nothing.
  virtual bool is_loaded() const = 0;
  // Every value into the caller's buffers: `out` takes the scalars, `validity` (when not empty)
  // one byte per step (1 = present, 0 = null). REQUIRES: the buffers passed CheckValueBuffers
  // (below) for the signal's dtype and size. The default loads the array and copies it
  // (CopyValuesInto); a reader's lazy source decodes into `out` directly, with no array in
  // between. `object` names the signal in messages. Errors as Load(), plus the ValidationError of
  // ThrowNullsWithoutValidity; on an error, what was written to the buffers is unspecified.
  virtual void LoadInto(ScalarSpan out, std::span<uint8_t> validity,
                        const std::string& object) const;
};

// ---- values into a caller's buffers ----
//
// ValidationError naming `object` when `out` is not a span of `dtype`'s storage type (a str
// signal has none: load it as an array), or holds other than `scalars` elements, or `validity` is
// neither empty nor `steps` bytes long.
void CheckValueBuffers(DType dtype, int64_t scalars, int64_t steps, const ScalarSpan& out,
                       std::span<const uint8_t> validity, const std::string& object);
// `from` into `out` and, when not empty, `validity` (all 1 when `from` has no nulls); returns
// `from`'s null steps (the caller decides whether nulls without a validity buffer are an error:
// ThrowNullsWithoutValidity). REQUIRES: the buffers passed CheckValueBuffers for `from`'s dtype and
// size (Error naming `object` otherwise).
int64_t CopyValuesInto(const ValueArray& from, ScalarSpan out, std::span<uint8_t> validity,
                       const std::string& object);
// The ValidationError of a buffer without validity for values with `nulls` null steps.
[[noreturn]] void ThrowNullsWithoutValidity(int64_t nulls, const std::string& object);

// Values held in memory (already conformed to their signal's spec).
class InMemoryValues final : public SignalValues {
 public:
  explicit InMemoryValues(ValueArray values)
      : values_(std::make_shared<const ValueArray>(std::move(values))) {}
  std::shared_ptr<const ValueArray> Load() const override { return values_; }
  bool is_loaded() const override { return true; }

 private:
  std::shared_ptr<const ValueArray> values_;
};

// Values produced by a callback when the writer needs them.
class LoaderValues final : public SignalValues {
 public:
  using Loader = std::function<ValueArray()>;
  explicit LoaderValues(Loader loader) : loader_(std::move(loader)) {}
  std::shared_ptr<const ValueArray> Load() const override;
  bool is_loaded() const override { return false; }
  // Calls the loader and returns its array without a copy.
  ValueArray Run() const { return loader_(); }

 private:
  Loader loader_;
};

// ---- values in pieces (bounded memory) ----
//
// A signal too large to hold in memory hands its values in pieces: a PieceLoader is called once
// per pass over the values and pushes the pieces, in step order, into the PieceSink it is given.
//
// - A piece is a ValueArray of whole timesteps (a multiple of the spec's StepWidth() scalars),
//   with validity empty (every step present) or of one byte per step of the piece. Pieces may be
//   of any size, empty ones included; together they must hold exactly n_values steps.
// - Ownership: the sink takes each piece by value (move it in); the loader keeps nothing the
//   sink gives. The sink is valid only during the loader call: do not keep or call it afterwards.
// - Threading: the loader runs on the thread that asks for the values (the writer's, for
//   WriteRelease) and calls the sink on that same thread, synchronously; the sink returns once the
//   piece is consumed (copied into the current chunk, and any chunk it completes handed on).
// - Errors: the sink throws ValidationError for a piece that does not fit the spec or that
//   brings the pieces past n_values, and whatever the writer throws (FileError …); the loader
//   should let those propagate. An exception from the loader ends the pass and propagates out of
//   the writer. Fewer than n_values steps in all is a ValidationError after the loader returns.
// - Pieces and chunks: piece boundaries mean nothing on disk. The writer cuts the concatenated
//   steps into chunks exactly as it cuts a whole array (docs/format.md §7.2, §8.2), so the bytes
//   written do not depend on how the values were cut into pieces. Memory stays bounded by a
//   chunk plus the writer's row-group (Parquet) or shard (Zarr) buffer, plus the largest piece —
//   except for a str spec on Parquet, whose chunk length depends on every value of the signal:
//   its pieces are gathered into one array first.
// - A pass is made each time the values are asked for: once by the writer, once by each
//   Signal::LoadValues() (which gathers every piece, unbounded) — so the loader must be able to
//   start again from the first step.
using PieceSink = std::function<void(ValueArray piece)>;
using PieceLoader = std::function<void(const PieceSink& emit)>;

// Values produced piece by piece by a PieceLoader when the writer needs them.
class PieceLoaderValues final : public SignalValues {
 public:
  explicit PieceLoaderValues(PieceLoader loader) : loader_(std::move(loader)) {}
  // Every piece gathered into one array (unconformed; Signal::LoadValues() conforms).
  std::shared_ptr<const ValueArray> Load() const override;
  bool is_loaded() const override { return false; }
  // One pass: calls the loader with `emit`.
  void Run(const PieceSink& emit) const { loader_(emit); }

 private:
  PieceLoader loader_;
};

// `parts` (all of `dtype`, with `step_width` scalars per step) one after another; validity is kept
// when any part has nulls. ValidationError for a part of another dtype.
ValueArray ConcatSteps(DType dtype, const std::vector<ValueArray>& parts, int64_t step_width);

// ---- checked conversion (docs/format.md §14.1 "Value conversions") ----
//
// Numbers held as another C++ type (any of int8_t … int64_t, uint8_t … uint64_t, float, double)
// stored as `spec`'s dtype — the one conversion every path that takes values goes through (the
// Python module's arrays, whole or in pieces). A conversion that would change a value's meaning
// is a ValidationError naming `object` (the signal) and the first offending step: a finite value
// that would become infinite (1e300 into float32), a non-NaN that would become NaN, a NaN, an
// infinity or a fractional value into an integer dtype, an integer outside the target's range
// (300 into int8, -1 into uint16, 3e9 into int32), a value other than 0 or 1 into bool, an enum
// code outside [0, categories). Rounding to the nearest float (float64 into float32, a large
// integer into float32 or float64) is not an error. Steps whose validity byte is 0 (null) are not
// checked and store 0. `first_step` numbers the steps of a piece in messages. ValidationError for
// a str spec (no number becomes text).
template <class From>
ValueArray ConvertValues(std::span<const From> values, const Spec& spec,
                         std::vector<uint8_t> validity, const std::string& object,
                         int64_t first_step = 0);

// ---- template definitions ----

namespace values_detail {
template <class T>
constexpr DType DTypeOf() {
  if constexpr (std::is_same_v<T, int8_t>)
    return DType::kInt8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return DType::kInt16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::kInt32;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return DType::kUint8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return DType::kUint16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return DType::kUint32;
  else if constexpr (std::is_same_v<T, float>)
    return DType::kFloat32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::kFloat64;
  else if constexpr (std::is_same_v<T, std::string>)
    return DType::kStr;
  else
    static_assert(sizeof(T) == 0, "no dtype stores this C++ type");
}

[[noreturn]] void ThrowStorageMismatch(DType dtype, std::string_view requested);
}  // namespace values_detail

template <class T>
ValueArray ValueArray::Of(std::vector<T> values, std::vector<uint8_t> validity) {
  return ValueArray(values_detail::DTypeOf<T>(), Data(std::move(values)), std::move(validity));
}

template <class T>
std::span<const T> ValueArray::values() const {
  const auto* held = std::get_if<std::vector<T>>(&data_);
  if (held == nullptr) values_detail::ThrowStorageMismatch(dtype_, typeid(T).name());
  return std::span<const T>(*held);
}

}  // namespace timef::model
