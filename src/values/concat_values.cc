#include <string>
#include <variant>

#include "timef/error.h"
#include "values/chunk_reader.h"

namespace timef::values {
namespace {

// An empty array with `dtype`'s storage.
model::ValueArray EmptyOf(model::DType dtype) {
  using model::DType;
  switch (dtype) {
    case DType::kBool:
    case DType::kUint8:
      return model::ValueArray(dtype, std::vector<std::uint8_t>());
    case DType::kInt8:
      return model::ValueArray(dtype, std::vector<std::int8_t>());
    case DType::kInt16:
      return model::ValueArray(dtype, std::vector<std::int16_t>());
    case DType::kInt32:
    case DType::kEnum:
      return model::ValueArray(dtype, std::vector<std::int32_t>());
    case DType::kUint16:
      return model::ValueArray(dtype, std::vector<std::uint16_t>());
    case DType::kUint32:
      return model::ValueArray(dtype, std::vector<std::uint32_t>());
    case DType::kFloat32:
      return model::ValueArray(dtype, std::vector<float>());
    case DType::kFloat64:
      return model::ValueArray(dtype, std::vector<double>());
    case DType::kStr:
      return model::ValueArray(dtype, std::vector<std::string>());
  }
  return {};
}

}  // namespace

model::ValueArray ConcatValues(model::DType dtype, std::span<const model::ValueArray> parts) {
  model::ValueArray::Data data = EmptyOf(dtype).data();
  bool any_null = false;
  std::int64_t total = 0;
  for (const model::ValueArray& part : parts) {
    if (part.dtype() != dtype || part.data().index() != data.index()) {
      throw ValidationError(ErrorSite{std::nullopt, "values", "dtype"},
                            "cannot concatenate a " + std::string(model::ToString(part.dtype())) +
                                " array into a " + std::string(model::ToString(dtype)) + " one");
    }
    any_null = any_null || part.null_count() > 0;
    total += part.size();
  }
  std::vector<std::uint8_t> validity;
  if (any_null) validity.reserve(static_cast<std::size_t>(total));
  std::visit(
      [&](auto& out) {
        out.reserve(static_cast<std::size_t>(total));
        for (const model::ValueArray& part : parts) {
          const auto& in = std::get<std::decay_t<decltype(out)>>(part.data());
          out.insert(out.end(), in.begin(), in.end());
          if (!any_null) continue;
          if (part.has_validity()) {
            validity.insert(validity.end(), part.validity().begin(), part.validity().end());
          } else {
            validity.insert(validity.end(), in.size(), std::uint8_t{1});
          }
        }
      },
      data);
  return model::ValueArray(dtype, std::move(data), std::move(validity));
}

}  // namespace timef::values
