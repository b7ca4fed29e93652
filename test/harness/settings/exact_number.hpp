// A whole number read exactly from text: digits only (no sign, no space, no trailing characters),
// no overflow, inside [low, high]. Every number the harness reads from a command line or the
// environment goes through it, so that a mistyped value is an error, never another value.
#pragma once

#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>
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

// An on/off environment variable's text read exactly: "1" or "0", and `unset` when the variable
// is not set (nullptr). Anything else throws std::invalid_argument naming the variable.
inline bool exact_switch(std::string_view variable, const char* text, bool unset) {
  if (text == nullptr) return unset;
  const std::string_view value = text;
  if (value != "0" && value != "1") {
    throw std::invalid_argument(std::string(variable) + ": '" + text + "' is not 0 or 1");
  }
  return value == "1";
}

}  // namespace harness
