// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/tunable/tunable_priors.h"

#include <vector>

namespace crucible {

std::optional<ParameterPoint> neighbourWithPriors(const TunableKernel& kernel, const ParameterPoint& from, int changes,
                                                  std::mt19937_64& rng, const ChoicePriors& priors) {
  std::map<std::string, int> names;
  for (const auto& t : kernel.parameters()) names[t.name] = 0;
  if (priors.empty() || !priors.speaksAbout(names)) return kernel.neighbour(from, changes, rng);
  std::vector<ParameterPoint> drawn;
  std::vector<double> weights;
  for (int k = 0; k < kTunableNeighbourDraws; ++k) {
    auto n = kernel.neighbour(from, changes, rng);
    if (!n) break;  // no legal neighbour at all: the same on every draw
    ParameterPoint changed;
    for (const auto& [name, value] : *n) {
      const auto it = from.find(name);
      if (it == from.end() || it->second != value) changed[name] = value;
    }
    weights.push_back(priors.factorOf(changed));
    drawn.push_back(std::move(*n));
  }
  if (drawn.empty()) return std::nullopt;
  return drawn[drawWeighted(weights, rng)];
}

}  // namespace crucible
