// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/gene_priors.h"
#include "backends/proposers/template/genome_ops.h"

#include <algorithm>
#include <stdexcept>

namespace crucible::templates {
namespace {

bool allOne(const std::vector<double>& factors) {
  return std::all_of(factors.begin(), factors.end(), [](double f) { return f == 1.0; });
}

std::size_t drawIndex(const std::vector<double>& weights, Rng& rng) { return drawWeighted(weights, rng); }

}  // namespace

std::optional<GeneMutation> mutateGeneWithPriors(const Genome& g, const KernelProblem& p, Rng& rng,
                                                 const std::string& focus, const ChoicePriors& priors) {
  if (priors.empty()) return std::nullopt;
  const auto archs = legalArchitectures(p);
  using Move = GeneMove;
  std::vector<Move> moves = geneMoves(g, p, archs);
  if (moves.empty()) return std::nullopt;  // the unweighted operator says why
  if (std::any_of(moves.begin(), moves.end(), [&](const Move& m) { return m.gene == focus; }))
    moves.erase(std::remove_if(moves.begin(), moves.end(), [&](const Move& m) { return m.gene != focus; }), moves.end());

  // Gene, then value, as mutateGene; a gene weighs as its most favoured
  // value (a claim about one of its values is a reason to change that gene),
  // a value as its factor.
  std::vector<double> factors;
  std::map<std::string, double> geneWeight, valueTotal;
  for (const auto& m : moves) {
    factors.push_back(priors.factor(m.gene, m.value));
    geneWeight[m.gene] = std::max(geneWeight[m.gene], factors.back());
    valueTotal[m.gene] += factors.back();
  }
  if (allOne(factors)) return std::nullopt;
  double geneTotal = 0;
  for (const auto& [gene, w] : geneWeight) geneTotal += w;
  std::vector<double> weights;
  for (std::size_t i = 0; i < moves.size(); ++i)
    weights.push_back(geneWeight[moves[i].gene] / geneTotal * factors[i] / valueTotal[moves[i].gene]);
  const Move move = moves[drawIndex(weights, rng)];

  // The legal architecture with the new value that keeps most of the other genes.
  std::vector<const GeneMap*> fitting;
  int nearest = 1 << 30;
  for (const auto& a : archs) {
    auto it = a.find(move.gene);
    if (it == a.end() || it->second != move.value) continue;
    const int d = geneDistance(a, g.genes);
    if (d < nearest) fitting.clear(), nearest = d;
    if (d == nearest) fitting.push_back(&a);
  }
  const GeneMap& genes = *fitting[std::uniform_int_distribution<std::size_t>(0, fitting.size() - 1)(rng)];
  auto params = nearestLegalParams(p, genes, g.params, rng);
  if (!params) throw std::runtime_error("no legal parameters for " + Genome{p.family, genes, {}}.architectureKey());
  GeneMutation out{Genome{p.family, genes, *params}, ""};
  auto old = g.genes.find(move.gene);
  out.description = move.gene + " " + (old == g.genes.end() ? "(none)" : old->second) + " -> " + move.value;
  for (const auto& [k, v] : genes)
    if (k != move.gene && g.genes.count(k) && g.genes.at(k) != v) out.description += ", " + k + " " + g.genes.at(k) + " -> " + v;
  out.description += " (knowledge)";
  return out;
}

std::optional<Genome> newArchitectureWithPriors(const std::vector<Genome>& known, const KernelProblem& p, Rng& rng,
                                                const ChoicePriors& priors) {
  if (priors.empty()) return std::nullopt;
  const std::vector<GeneMap> fresh = freshArchitectures(known, p);
  if (fresh.empty()) return std::nullopt;
  std::vector<double> archWeights;
  for (const GeneMap& a : fresh) archWeights.push_back(priors.factorOf(a));
  bool paramsSpoken = false;
  for (const GeneMap& a : fresh)
    for (const auto& def : designSpaceFor(p.family).parameters(p.family, a))
      if (priors.speaksAbout(std::map<std::string, int>{{def.name, 0}})) paramsSpoken = true;
  if (allOne(archWeights) && !paramsSpoken) return std::nullopt;
  const GeneMap& genes = fresh[drawIndex(archWeights, rng)];
  const auto points = legalParameterPoints(p, genes);
  if (points.empty()) return std::nullopt;
  std::vector<double> pointWeights;
  for (const ParamMap& pt : points) pointWeights.push_back(priors.factorOf(pt));
  return Genome{p.family, genes, points[drawIndex(pointWeights, rng)]};
}

std::optional<ParamMutation> mutateParamsWithPriors(const Genome& g, const KernelProblem& p, Rng& rng, int count,
                                                    const ChoicePriors& priors) {
  if (priors.empty()) return std::nullopt;
  std::map<std::string, int> names;
  for (const auto& [name, value] : g.params) names[name] = 0;
  if (!priors.speaksAbout(names)) return std::nullopt;
  // With its fallbacks filled in: a parameter an old genome leaves to its
  // fallback is not "changed" by a child that names it.
  const Genome full = withFallbacks(g, p);
  const Genome base = isLegal(full, p) ? full : nearestLegal(full, p, rng);
  std::vector<ParamMutation> drawn;
  std::vector<double> weights;
  for (int k = 0; k < kParamDraws; ++k) {
    drawn.push_back(mutateParams(base, p, rng, count));
    ParamMap changed;
    for (const auto& [name, value] : drawn.back().child.params)
      if (!base.params.count(name) || base.params.at(name) != value) changed[name] = value;
    weights.push_back(priors.factorOf(changed));
  }
  ParamMutation out = drawn[drawIndex(weights, rng)];
  out.description += " (knowledge)";
  return out;
}

}  // namespace crucible::templates
