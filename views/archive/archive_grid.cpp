// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/archive/archive_grid.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace crucible::views {

namespace {
bool asNumber(const std::string& s, double& out) {
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

std::string valueOf(const ArchiveElite& e, const std::string& dim) {
  auto it = e.descriptor.find(dim);
  return it == e.descriptor.end() ? kNoValue : it->second;
}
}  // namespace

std::vector<std::string> descriptorDimensions(const std::vector<ArchiveElite>& elites) {
  std::set<std::string> dims;
  for (const auto& e : elites)
    for (const auto& [k, v] : e.descriptor) dims.insert(k);
  return {dims.begin(), dims.end()};
}

std::vector<std::string> sortAxisValues(std::vector<std::string> values) {
  const auto none = std::remove(values.begin(), values.end(), std::string(kNoValue));
  const bool hadNone = none != values.end();
  values.erase(none, values.end());
  bool numeric = true;
  double d;
  for (const auto& v : values) numeric = numeric && asNumber(v, d);
  if (numeric) {
    std::sort(values.begin(), values.end(), [](const std::string& a, const std::string& b) {
      double x = 0, y = 0;
      asNumber(a, x);
      asNumber(b, y);
      return x < y;
    });
  } else {
    std::sort(values.begin(), values.end());
  }
  if (hadNone) values.push_back(kNoValue);
  return values;
}

ArchiveGrid buildArchiveGrid(const std::vector<ArchiveElite>& elites, const std::string& xDimension,
                             const std::string& yDimension) {
  ArchiveGrid g;
  g.xDimension = xDimension;
  g.yDimension = yDimension;
  std::set<std::string> xs, ys;
  for (const auto& e : elites) {
    xs.insert(valueOf(e, xDimension));
    ys.insert(valueOf(e, yDimension));
  }
  g.xValues = sortAxisValues({xs.begin(), xs.end()});
  g.yValues = sortAxisValues({ys.begin(), ys.end()});
  g.cells.assign(g.yValues.size(), std::vector<ArchiveGridCell>(g.xValues.size()));
  auto column = [&](const std::string& v) { return std::find(g.xValues.begin(), g.xValues.end(), v) - g.xValues.begin(); };
  auto row = [&](const std::string& v) { return std::find(g.yValues.begin(), g.yValues.end(), v) - g.yValues.begin(); };
  for (const auto& e : elites) {
    ArchiveGridCell& c = g.cells[static_cast<std::size_t>(row(valueOf(e, yDimension)))][static_cast<std::size_t>(column(valueOf(e, xDimension)))];
    ++c.folded;
    if (c.elite == 0 || e.fitness > c.fitness) {
      c.elite = e.elite;
      c.fitness = e.fitness;
    }
  }
  bool first = true;
  for (const auto& r : g.cells)
    for (const auto& c : r) {
      if (c.elite == 0) continue;
      ++g.filled;
      g.minFitness = first ? c.fitness : std::min(g.minFitness, c.fitness);
      g.maxFitness = first ? c.fitness : std::max(g.maxFitness, c.fitness);
      first = false;
    }
  return g;
}

}  // namespace crucible::views
