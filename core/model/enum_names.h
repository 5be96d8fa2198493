// SPDX-License-Identifier: GPL-3.0-or-later
// The one way an enum gets its names (as stored in the project file and shown
// to users): a table of {value, name} pairs, looked up both ways.
//
//   constexpr EnumNames<RunStatus, 2> kRun{{{RunStatus::Created, "created"}, ...}};
//   const char* toString(RunStatus s) { return nameOf(kRun, s); }
//   RunStatus runStatusFromString(const std::string& s) { return parseName(kRun, s, "run status"); }
#pragma once
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace crucible {

template <typename E, std::size_t N>
using EnumNames = std::array<std::pair<E, const char*>, N>;

// The name of e; "?" for a value the table lacks.
template <typename E, std::size_t N>
const char* nameOf(const EnumNames<E, N>& table, E e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  return "?";
}

// The value named s. Throws std::invalid_argument naming what was parsed, the
// name and the names it could have been.
template <typename E, std::size_t N>
E parseName(const EnumNames<E, N>& table, const std::string& s, const char* what) {
  for (const auto& [value, name] : table)
    if (s == name) return value;
  std::string known;
  for (const auto& entry : table) known += std::string(known.empty() ? "" : ", ") + entry.second;
  throw std::invalid_argument(std::string("unknown ") + what + " '" + s + "' (expected one of: " + known + ")");
}

}  // namespace crucible
