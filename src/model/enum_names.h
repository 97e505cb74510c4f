// Name tables of the model's enums: the index of a name is the enumerator's value.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace timef::model::internal {

template <class E, size_t N>
std::string_view NameOf(const std::array<std::string_view, N>& names, E value) {
  auto index = static_cast<size_t>(value);
  return index < N ? names[index] : std::string_view("?");
}

template <class E, size_t N>
std::optional<E> ParseName(const std::array<std::string_view, N>& names, std::string_view text) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == text) return static_cast<E>(i);
  }
  return std::nullopt;
}

}  // namespace timef::model::internal
