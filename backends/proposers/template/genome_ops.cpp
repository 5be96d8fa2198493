// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/genome_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace crucible::templates {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

// Picks uniformly among the indices whose score equals the minimum.
template <class Score>
std::size_t argminRandom(std::size_t n, Score score, Rng& rng) {
  double best = std::numeric_limits<double>::infinity();
  std::vector<std::size_t> ties;
  for (std::size_t i = 0; i < n; ++i) {
    const double s = score(i);
    if (s < best - 1e-12) {
      best = s;
      ties = {i};
    } else if (std::abs(s - best) <= 1e-12) {
      ties.push_back(i);
    }
  }
  if (ties.empty()) throw std::logic_error("argminRandom: empty");
  return ties[std::uniform_int_distribution<std::size_t>(0, ties.size() - 1)(rng)];
}

double paramDistance(const ParamMap& a, const ParamMap& wanted) {
  double differing = 0, logDistance = 0;
  for (const auto& [k, v] : a) {
    auto it = wanted.find(k);
    if (it == wanted.end()) continue;  // a parameter the other architecture lacks costs nothing
    if (it->second != v) {
      differing += 1;
      logDistance += std::abs(std::log2(static_cast<double>(std::max<std::int64_t>(v, 1))) -
                              std::log2(static_cast<double>(std::max<std::int64_t>(it->second, 1))));
    }
  }
  return differing * 1000 + logDistance;
}

}  // namespace

int geneDistance(const GeneMap& a, const GeneMap& b) {
  int d = 0;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end() || it->second != v) ++d;
  }
  return d;
}


std::optional<GenePreference> parseDecision(const std::string& decision) {
  std::string gene, value;
  const auto eq = decision.find('=');
  const auto colon = decision.find(':');
  if (eq != std::string::npos && (colon == std::string::npos || eq < colon)) {
    gene = trim(decision.substr(0, eq));
    value = trim(decision.substr(eq + 1));
  } else if (colon != std::string::npos) {
    gene = trim(decision.substr(0, colon));
    value = trim(decision.substr(colon + 1));
  } else {
    return std::nullopt;
  }
  if (const auto arrow = value.find("->"); arrow != std::string::npos) value = trim(value.substr(arrow + 2));
  if (gene == "vec" || gene == "vector_width") gene = "vector";
  if (gene.empty() || value.empty()) return std::nullopt;
  return GenePreference{gene, value};
}

std::vector<GeneMap> legalArchitectures(const KernelProblem& p) {
  std::vector<GeneMap> out;
  for (auto& genes : geneCombinations(p))
    if (!legalParameterPoints(p, genes).empty()) out.push_back(std::move(genes));
  return out;
}

std::optional<ParamMap> nearestLegalParams(const KernelProblem& p, const GeneMap& genes, const ParamMap& wanted,
                                           Rng& rng) {
  const auto points = legalParameterPoints(p, genes);
  if (points.empty()) return std::nullopt;
  return points[argminRandom(points.size(), [&](std::size_t i) { return paramDistance(points[i], wanted); }, rng)];
}

Genome nearestLegal(const Genome& g, const KernelProblem& p, Rng& rng) {
  // A stored genome from before a gene or parameter existed is legal with its
  // fallbacks: returned with them spelled out, so operators see every gene.
  if (isLegal(g, p)) return withFallbacks(g, p);
  const auto archs = legalArchitectures(p);
  if (archs.empty()) throw std::runtime_error("no legal template kernel exists for task " + p.taskName);
  const GeneMap& genes = archs[argminRandom(archs.size(), [&](std::size_t i) { return geneDistance(archs[i], g.genes); }, rng)];
  return Genome{p.family, genes, *nearestLegalParams(p, genes, g.params, rng)};
}

Genome randomGenome(const KernelProblem& p, Rng& rng) {
  const auto archs = legalArchitectures(p);
  if (archs.empty()) throw std::runtime_error("no legal template kernel exists for task " + p.taskName);
  const GeneMap& genes = archs[std::uniform_int_distribution<std::size_t>(0, archs.size() - 1)(rng)];
  const auto points = legalParameterPoints(p, genes);
  return Genome{p.family, genes, points[std::uniform_int_distribution<std::size_t>(0, points.size() - 1)(rng)]};
}

std::vector<GeneMove> geneMoves(const Genome& g, const KernelProblem& p, const std::vector<GeneMap>& archs) {
  const Genome full = withFallbacks(g, p);  // a gene left to its fallback has that value now
  std::vector<GeneMove> moves;
  for (const auto& def : designSpaceFor(p.family).genes(p))
    for (const auto& value : def.values) {
      auto cur = full.genes.find(def.name);
      if (cur != full.genes.end() && cur->second == value) continue;
      const bool realisable = std::any_of(archs.begin(), archs.end(), [&](const GeneMap& a) {
        auto it = a.find(def.name);
        return it != a.end() && it->second == value;
      });
      if (realisable) moves.push_back({def.name, value});
    }
  return moves;
}

GeneMutation mutateGene(const Genome& g, const KernelProblem& p, Rng& rng, const std::string& focus,
                        const std::vector<GenePreference>& preferences) {
  const auto archs = legalArchitectures(p);
  using Move = GeneMove;
  const std::vector<Move> moves = geneMoves(g, p, archs);
  if (moves.empty()) throw std::runtime_error("no gene of " + g.architectureKey() + " can change for task " + p.taskName);

  std::vector<Move> candidates;
  if (std::bernoulli_distribution(0.5)(rng))
    for (const auto& pref : preferences)
      for (const auto& m : moves)
        if (m.gene == pref.gene && m.value == pref.value && candidates.empty()) candidates.push_back(m);
  if (candidates.empty())
    for (const auto& m : moves)
      if (m.gene == focus) candidates.push_back(m);
  if (candidates.empty()) {
    // Pick the gene first, then its value, so genes with many values are not favoured.
    std::vector<std::string> genes;
    for (const auto& m : moves)
      if (std::find(genes.begin(), genes.end(), m.gene) == genes.end()) genes.push_back(m.gene);
    const std::string gene = genes[std::uniform_int_distribution<std::size_t>(0, genes.size() - 1)(rng)];
    for (const auto& m : moves)
      if (m.gene == gene) candidates.push_back(m);
  }
  const Move move = candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng)];

  // The legal architecture with the new value that keeps most of the other genes.
  std::vector<const GeneMap*> fitting;
  for (const auto& a : archs)
    if (a.at(move.gene) == move.value) fitting.push_back(&a);
  const GeneMap& genes = *fitting[argminRandom(fitting.size(), [&](std::size_t i) { return geneDistance(*fitting[i], g.genes); }, rng)];

  GeneMutation out{Genome{p.family, genes, *nearestLegalParams(p, genes, g.params, rng)}, ""};
  auto old = g.genes.find(move.gene);
  out.description = move.gene + " " + (old == g.genes.end() ? "(none)" : old->second) + " -> " + move.value;
  for (const auto& [k, v] : genes)
    if (k != move.gene && g.genes.count(k) && g.genes.at(k) != v) out.description += ", " + k + " " + g.genes.at(k) + " -> " + v;
  return out;
}

ParamMutation mutateParams(const Genome& g, const KernelProblem& p, Rng& rng, int count) {
  const Genome base = nearestLegal(g, p, rng);
  const auto points = legalParameterPoints(p, base.genes);
  // Legal points other than the parent's, closest to a random step of `count` parameters.
  const auto defs = designSpaceFor(p.family).parameters(p.family, base.genes);
  if (points.size() < 2 || defs.empty())
    throw std::runtime_error("architecture " + base.architectureKey() + " has no other legal parameters for task " + p.taskName);
  ParamMap wanted = base.params;
  // Only a parameter with another value can step (the wgmma kernels' BLOCK_K
  // has one: stepping it read past its values). With none, the closest other
  // legal point below is the child.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (defs[i].values.size() >= 2) order.push_back(i);
  std::shuffle(order.begin(), order.end(), rng);
  for (int c = 0; c < std::max(1, count) && c < static_cast<int>(order.size()); ++c) {
    const auto& def = defs[order[static_cast<std::size_t>(c)]];
    const auto at = std::find(def.values.begin(), def.values.end(), base.params.at(def.name)) - def.values.begin();
    const int step = std::uniform_int_distribution<int>(1, 2)(rng) * (std::bernoulli_distribution(0.5)(rng) ? 1 : -1);
    const auto to = std::clamp<std::ptrdiff_t>(at + step, 0, static_cast<std::ptrdiff_t>(def.values.size()) - 1);
    wanted[def.name] = def.values[static_cast<std::size_t>(to == at ? (at == 0 ? 1 : at - 1) : to)];
  }
  std::vector<const ParamMap*> others;
  for (const auto& pt : points)
    if (pt != base.params) others.push_back(&pt);
  const ParamMap& chosen = *others[argminRandom(others.size(), [&](std::size_t i) { return paramDistance(*others[i], wanted); }, rng)];
  ParamMutation out{Genome{p.family, base.genes, chosen}, ""};
  for (const auto& [k, v] : chosen)
    if (base.params.at(k) != v)
      out.description += (out.description.empty() ? "" : ", ") + k + " " + std::to_string(base.params.at(k)) + " -> " + std::to_string(v);
  return out;
}

Genome crossover(const Genome& a, const Genome& b, const KernelProblem& p, Rng& rng) {
  if (a.family != b.family) throw std::invalid_argument("crossover: parents of families " + a.family + " and " + b.family);
  Genome child{p.family, {}, {}};
  for (const auto& [k, v] : a.genes) {
    auto it = b.genes.find(k);
    child.genes[k] = it != b.genes.end() && std::bernoulli_distribution(0.5)(rng) ? it->second : v;
  }
  // Parameters: from either parent where both have them, else from the one that does.
  std::map<std::string, std::int64_t> wanted = a.params;
  for (const auto& [k, v] : b.params)
    if (!wanted.count(k) || std::bernoulli_distribution(0.5)(rng)) wanted[k] = v;
  child.params = wanted;
  // Keep only the parameters of the child's genes, then make it legal.
  Genome trimmed{p.family, child.genes, {}};
  try {
    for (const auto& def : designSpaceFor(p.family).parameters(p.family, child.genes))
      if (wanted.count(def.name)) trimmed.params[def.name] = wanted.at(def.name);
  } catch (const std::out_of_range&) {
    // A parent lacked a gene the family has (an older genome): legalised below.
  }
  return nearestLegal(trimmed, p, rng);
}

std::vector<GeneMap> freshArchitectures(const std::vector<Genome>& known, const KernelProblem& p) {
  // Known genomes are stored without their fallbacks (withoutFallbacks); the
  // legal architectures name every gene.
  std::vector<GeneMap> knownGenes;
  for (const Genome& k : known) knownGenes.push_back(withFallbacks(k, p).genes);
  std::vector<GeneMap> fresh;
  for (auto& a : legalArchitectures(p))
    if (std::find(knownGenes.begin(), knownGenes.end(), a) == knownGenes.end()) fresh.push_back(std::move(a));
  return fresh;
}

Genome newArchitecture(const std::vector<Genome>& known, const KernelProblem& p, Rng& rng) {
  const std::vector<GeneMap> fresh = freshArchitectures(known, p);
  if (fresh.empty()) throw std::runtime_error("every legal architecture of task " + p.taskName + " is already known");
  const GeneMap& genes = fresh[std::uniform_int_distribution<std::size_t>(0, fresh.size() - 1)(rng)];
  const auto points = legalParameterPoints(p, genes);
  return Genome{p.family, genes, points[std::uniform_int_distribution<std::size_t>(0, points.size() - 1)(rng)]};
}

std::vector<Genome> oneStepNeighbours(const Genome& stored, const KernelProblem& p, const std::vector<std::string>& names) {
  const DesignSpace& space = designSpaceFor(p.family);
  const Genome start = withFallbacks(stored, p);
  auto named = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), "all") != names.end() ||
           std::find(names.begin(), names.end(), n) != names.end();
  };
  std::vector<Genome> out;
  auto add = [&](const Genome& g) {
    if (g != start && isLegal(g, p) && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  };
  for (const auto& def : space.genes(p)) {
    if (!named(def.name)) continue;
    for (const auto& value : def.values) {
      auto it = start.genes.find(def.name);
      if (it != start.genes.end() && it->second == value) continue;
      GeneMap genes = start.genes;
      genes[def.name] = value;
      for (const auto& point : legalParameterPoints(p, genes)) {
        const bool keeps = std::all_of(point.begin(), point.end(), [&](const auto& kv) {
          auto at = start.params.find(kv.first);
          return at == start.params.end() || at->second == kv.second;
        });
        if (keeps) add(Genome{p.family, genes, point});
      }
    }
  }
  if (!checkGenome(start, p).empty()) return out;  // its parameters' domains need its genes whole
  for (const auto& def : space.parameters(p.family, start.genes)) {
    if (!named(def.name)) continue;
    for (const auto value : def.values) {
      Genome g = start;
      g.params[def.name] = value;
      add(g);
    }
  }
  return out;
}

std::vector<Genome> seedGenomes(const KernelProblem& p, std::uint64_t seed, int count) {
  Rng rng(seed);
  const auto archs = legalArchitectures(p);
  if (archs.empty()) throw std::runtime_error("no legal template kernel exists for task " + p.taskName);
  const DesignSpace& space = designSpaceFor(p.family);
  // The space's starting points first (the legal ones), then farthest-point
  // selection on gene distance, from them or from a random architecture.
  std::vector<Genome> out;
  std::vector<std::size_t> chosen;
  for (const Genome& g : space.startingPoints(p)) {
    if (static_cast<int>(out.size()) >= count) break;
    if (!isLegal(g, p) || std::find(out.begin(), out.end(), g) != out.end()) continue;
    out.push_back(g);
    // Starting points name only the genes they choose (the others mean their fallbacks).
    const auto arch = std::find(archs.begin(), archs.end(), withFallbacks(g, p).genes);
    if (arch != archs.end() && std::find(chosen.begin(), chosen.end(), arch - archs.begin()) == chosen.end())
      chosen.push_back(static_cast<std::size_t>(arch - archs.begin()));
  }
  const std::size_t firstDiverse = chosen.size();
  if (chosen.empty() && count > 0) chosen.push_back(std::uniform_int_distribution<std::size_t>(0, archs.size() - 1)(rng));
  while (static_cast<int>(out.size() + chosen.size() - firstDiverse) < count && chosen.size() < archs.size()) {
    const std::size_t next = argminRandom(
        archs.size(),
        [&](std::size_t i) {
          int nearest = std::numeric_limits<int>::max();
          for (auto c : chosen) nearest = std::min(nearest, geneDistance(archs[i], archs[c]));
          return -static_cast<double>(nearest);  // farthest from every chosen one
        },
        rng);
    chosen.push_back(next);
  }
  for (std::size_t k = firstDiverse; k < chosen.size(); ++k) {
    const std::size_t i = chosen[k];
    // Parameters: the legal point nearest the middle of every domain.
    ParamMap middle;
    for (const auto& def : space.parameters(p.family, archs[i])) middle[def.name] = def.values[def.values.size() / 2];
    out.push_back(Genome{p.family, archs[i], *nearestLegalParams(p, archs[i], middle, rng)});
  }
  return out;
}

}  // namespace crucible::templates
