// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/binning.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace crucible {
namespace {

std::string formatEdge(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

double parseNumber(const std::string& dim, const std::string& text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("descriptor '" + dim + "' has value '" + text +
                                "', which is not a number, but its binning has numeric edges");
  return v;
}

}  // namespace

std::string binLabel(double value, const std::vector<double>& edges) {
  // upper_bound: the first edge strictly above value, so value == edge opens the next bin.
  auto it = std::upper_bound(edges.begin(), edges.end(), value);
  std::string lo = it == edges.begin() ? "-inf" : formatEdge(*(it - 1));
  std::string hi = it == edges.end() ? "inf" : formatEdge(*it);
  return "[" + lo + "," + hi + ")";
}

std::string cellKey(const std::map<std::string, std::string>& descriptor,
                    const std::vector<DimensionBinning>& binning) {
  std::string key;
  auto append = [&key](const std::string& dim, const std::string& value) {
    if (!key.empty()) key += ';';
    key += dim;
    key += '=';
    key += value;
  };
  if (binning.empty()) {
    for (const auto& [dim, value] : descriptor) append(dim, value);  // std::map: name order
    return key;
  }
  std::vector<const DimensionBinning*> dims;
  for (const auto& b : binning) dims.push_back(&b);
  std::sort(dims.begin(), dims.end(), [](auto* a, auto* b) { return a->dimension < b->dimension; });
  for (const DimensionBinning* b : dims) {
    auto it = descriptor.find(b->dimension);
    if (it == descriptor.end()) {
      append(b->dimension, "?");
    } else if (b->edges.empty()) {
      append(b->dimension, it->second);
    } else {
      append(b->dimension, binLabel(parseNumber(b->dimension, it->second), b->edges));
    }
  }
  return key;
}

}  // namespace crucible
