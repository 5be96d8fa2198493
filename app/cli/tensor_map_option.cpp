// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/tensor_map_option.h"
#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace crucible::cli {
namespace {

[[noreturn]] void malformed(const std::string& text, const std::string& why) {
  throw std::invalid_argument("--tensor-map '" + text + "': " + why +
                              " (expected TENSOR:ROWSxCOLS[:SWIZZLE], e.g. A:128x64:128B)");
}

// Digits only: no sign, no spaces (from_chars alone would take "-64").
int boxExtent(const std::string& text, const std::string& part, const char* what) {
  int value = 0;
  const bool digits = !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); });
  const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
  if (digits && ec == std::errc::result_out_of_range)  // e.g. 2^32 + 8: refused, not truncated
    malformed(text, std::string(what) + " '" + part + "' is out of range (a box extent is 1 to 256)");
  if (!digits || ec != std::errc() || end != part.data() + part.size())
    malformed(text, std::string(what) + " '" + part + "' is not a whole number");
  return value;
}

}  // namespace

TensorMapRule parseTensorMapOption(const std::string& text) {
  const auto first = text.find(':');
  if (first == std::string::npos) malformed(text, "no ':' after the tensor name");
  const auto second = text.find(':', first + 1);
  const std::string box = text.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  TensorMapRule rule;
  rule.tensor = text.substr(0, first);
  if (rule.tensor.empty()) malformed(text, "no tensor name");
  const auto x = box.find('x');
  if (x == std::string::npos) malformed(text, "box '" + box + "' is not ROWSxCOLS");
  rule.boxRows = boxExtent(text, box.substr(0, x), "box rows");
  rule.boxCols = boxExtent(text, box.substr(x + 1), "box cols");
  if (second != std::string::npos) {
    rule.swizzle = text.substr(second + 1);
    if (rule.swizzle.empty()) malformed(text, "empty swizzle");
  }
  return rule;
}

}  // namespace crucible::cli
