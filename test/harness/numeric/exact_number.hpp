// A whole number read exactly from text: digits only (no sign, no space, no trailing characters),
// no overflow, inside [low, high]. Every number the harness reads from a command line or the
// environment goes through it, so that a mistyped value is an error, never another value.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace harness {

template <class Number>
std::optional<Number> exact_number(std::string_view text, Number low, Number high) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  Number value{};
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || stop != text.data() + text.size() || value < low || value > high) return std::nullopt;
  return value;
}

}  // namespace harness
