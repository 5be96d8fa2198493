// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/design_space.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {

const DesignSpace& designSpaceFor(const std::string& family) {
  if (family == "gelu") return elementwiseSpace();
  if (family == "softmax" || family == "layernorm" || family == "rmsnorm" || family == "rowsum" ||
      family == "cross_entropy")
    return rowReduceSpace();
  if (family == "transpose") return transposeSpace();
  if (family == "matmul" || family == "matmul_bias_relu") return gemmSpace();
  if (family == kExprElementwise) return exprElementwiseSpace();
  if (family == kExprRowwise) return exprRowwiseSpace();
  throw std::invalid_argument("family: the template proposer has no design space for '" + family + "'");
}

Genome withFallbacks(const Genome& g, const KernelProblem& p) {
  if (g.family != p.family) return g;
  const DesignSpace& space = designSpaceFor(p.family);
  Genome out = g;
  for (const auto& def : space.genes(p))
    if (!def.fallback.empty() && !out.genes.count(def.name)) out.genes[def.name] = def.fallback;
  try {
    for (const auto& [name, value] : space.parameterFallbacks(out, p))
      if (!out.params.count(name)) out.params[name] = value;
  } catch (const std::exception&) {
    // A malformed genome (a required gene missing): checkGenome names what is wrong.
  }
  return out;
}

Genome withoutFallbacks(const Genome& g, const KernelProblem& p) {
  if (g.family != p.family) return g;
  const DesignSpace& space = designSpaceFor(p.family);
  const Genome full = withFallbacks(g, p);
  Genome out = g;
  try {
    for (const auto& [name, value] : space.parameterFallbacks(full, p)) {
      auto it = out.params.find(name);
      if (it != out.params.end() && it->second == value) out.params.erase(it);
    }
  } catch (const std::exception&) {
    return g;  // malformed: checkGenome names what is wrong
  }
  for (const auto& def : space.genes(p)) {
    auto it = out.genes.find(def.name);
    if (!def.fallback.empty() && it != out.genes.end() && it->second == def.fallback) out.genes.erase(it);
  }
  return out;
}

std::vector<std::string> checkGenome(const Genome& stored, const KernelProblem& p) {
  std::vector<std::string> errors;
  const Genome g = withFallbacks(stored, p);
  if (g.family != p.family) {
    errors.push_back("genome family '" + g.family + "' does not match the task family '" + p.family + "'");
    return errors;
  }
  const DesignSpace& space = designSpaceFor(p.family);
  const auto genes = space.genes(p);
  for (const auto& def : genes) {
    auto it = g.genes.find(def.name);
    if (it == g.genes.end()) {
      errors.push_back("missing gene '" + def.name + "'");
    } else if (std::find(def.values.begin(), def.values.end(), it->second) == def.values.end()) {
      errors.push_back("gene " + def.name + "=" + it->second + " is not available for this task");
    }
  }
  // (Keys, not structured bindings: clang before 16 cannot capture those in a lambda.)
  for (const auto& gene : g.genes)
    if (std::none_of(genes.begin(), genes.end(), [&](const GeneDef& d) { return d.name == gene.first; }))
      errors.push_back("unknown gene '" + gene.first + "' for family " + p.family);
  if (!errors.empty()) return errors;

  const auto params = space.parameters(p.family, g.genes);
  for (const auto& def : params) {
    auto it = g.params.find(def.name);
    if (it == g.params.end()) {
      errors.push_back("missing parameter " + def.name);
    } else if (std::find(def.values.begin(), def.values.end(), it->second) == def.values.end()) {
      errors.push_back("parameter " + def.name + "=" + std::to_string(it->second) + " is outside its domain");
    }
  }
  for (const auto& param : g.params)
    if (std::none_of(params.begin(), params.end(), [&](const TunableParameter& d) { return d.name == param.first; }))
      errors.push_back("parameter " + param.first + " does not belong to these genes");
  if (!errors.empty()) return errors;
  return space.violations(g, p);
}

std::vector<GeneMap> geneCombinations(const KernelProblem& p) {
  const auto defs = designSpaceFor(p.family).genes(p);
  std::vector<GeneMap> out{GeneMap{}};
  for (const auto& def : defs) {
    std::vector<GeneMap> next;
    for (const auto& partial : out)
      for (const auto& value : def.values) {
        GeneMap m = partial;
        m[def.name] = value;
        next.push_back(std::move(m));
      }
    out = std::move(next);
  }
  return out;
}

namespace {

// What legality depends on: the family, the axes, every tensor's dtype and shape, and
// the GPU's SM count (the persistent GEMM needs more tiles than SMs): one process may
// propose with no GPU known, then for GPUs of different sizes.
std::string legalityKey(const KernelProblem& p, const GeneMap& genes) {
  std::string key = p.family + "|sm=" + std::to_string(p.smCount) + "|";
  for (const auto& [axis, value] : p.axes) key += axis + "=" + std::to_string(value) + ",";
  for (const auto* group : {&p.inputs, &p.outputs})
    for (const auto& t : *group) {
      key += std::string("|") + toString(t.dtype) + "[";
      for (const auto& d : t.shape) key += d + ",";
    }
  if (p.batched) key += "|batch=" + std::to_string(p.batch) + (p.batchedB ? "B" : "");
  // A stated operator's legality depends on which tensors its expressions read.
  if (p.operation) {
    key += "|" + p.operation->expression;
    for (const auto& r : p.operation->reductions) key += ";" + r.of;
  }
  key += "|";
  for (const auto& [k, v] : genes) key += k + "=" + v + ";";
  return key;
}

std::vector<ParamMap> enumerateLegalPoints(const KernelProblem& p, const GeneMap& genes) {
  const DesignSpace& space = designSpaceFor(p.family);
  // No point of these genes can be legal: their product (up to tens of thousands) is not walked.
  if (!space.geneViolations(genes, p).empty()) return {};
  const auto defs = space.parameters(p.family, genes);
  // One genome whose parameter values are stepped in place, odometer-wise: a GEMM
  // architecture has thousands of points, mostly illegal, and building a map (and a
  // genome) for each took most of a GEMM task's first proposal (3 s of the seeds).
  Genome g{p.family, genes, {}};
  std::vector<std::int64_t*> slots;
  for (const auto& def : defs) {
    if (def.values.empty()) return {};
    slots.push_back(&(g.params[def.name] = def.values.front()));
  }
  // The next point, the last parameter turning fastest (the nested product's order);
  // false once every parameter has wrapped around.
  std::vector<std::size_t> at(defs.size(), 0);
  auto advance = [&] {
    for (std::size_t d = defs.size(); d-- > 0;) {
      if (++at[d] < defs[d].values.size()) {
        *slots[d] = defs[d].values[at[d]];
        return true;
      }
      at[d] = 0;
      *slots[d] = defs[d].values.front();
    }
    return false;
  };
  std::vector<ParamMap> legal;
  do {
    if (space.violations(g, p).empty()) legal.push_back(g.params);
  } while (advance());
  return legal;
}

}  // namespace

std::vector<ParamMap> legalParameterPoints(const KernelProblem& p, const GeneMap& genes) {
  // Operators ask for the same grids over and over (a GEMM architecture has
  // thousands of points): remember them per task and gene combination.
  static std::mutex mutex;
  static std::unordered_map<std::string, std::vector<ParamMap>> memo;
  const std::string key = legalityKey(p, genes);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  std::vector<ParamMap> legal = enumerateLegalPoints(p, genes);
  std::lock_guard<std::mutex> lock(mutex);
  if (memo.size() > 20000) memo.clear();  // many tasks in one long process: start over
  memo.emplace(key, legal);
  return legal;
}

}  // namespace crucible::templates
