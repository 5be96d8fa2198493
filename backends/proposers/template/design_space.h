// SPDX-License-Identifier: GPL-3.0-or-later
// A design space of template kernels for a group of task families: the genes
// (architecture choices), the tunable parameters each gene combination has,
// the constraints that make a genome legal for a task, its behavioural
// descriptor, and the emitter that writes its CUDA C++.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "backends/proposers/template/genome.h"
#include "backends/proposers/template/kernel_problem.h"
#include "core/engine/interfaces.h"

namespace crucible::templates {

struct GeneDef {
  std::string name;
  std::vector<std::string> values;  // legal values for the problem, in a fixed order
  // The value a genome without this gene means (one of `values`): genes added
  // after projects stored genomes have one, so those genomes keep their
  // meaning (today's code). Empty: the gene is required.
  std::string fallback = {};
};

struct EmittedKernel {
  std::string source;
  LaunchRule launch;
};

class DesignSpace {
public:
  virtual ~DesignSpace() = default;
  virtual std::string kind() const = 0;  // "elementwise", "rowreduce", "transpose", "gemm"
  // The genes for this problem (some depend on the family or the dtypes).
  virtual std::vector<GeneDef> genes(const KernelProblem& p) const = 0;
  // The tunable parameters of one gene combination, each with its domain.
  // Independent of the shapes: shape-dependent legality is in violations().
  virtual std::vector<TunableParameter> parameters(const std::string& family, const GeneMap& genes) const = 0;
  // Parameters a genome may omit, with the value omitting one means (what the
  // code did before the parameter existed). `g` has its genes' fallbacks filled in.
  virtual ParamMap parameterFallbacks(const Genome&, const KernelProblem&) const { return {}; }
  // Why a structurally complete genome cannot be emitted for the problem
  // (gene combinations, divisibility by the axes, resource limits); empty when legal.
  // It reports geneViolations(g.genes, p) too, and only those when there are any.
  virtual std::vector<std::string> violations(const Genome& g, const KernelProblem& p) const = 0;
  // Why no genome with these genes can be emitted for the problem, whatever its
  // parameters (gene combinations, the dtypes, the shapes' divisibility by a gene's
  // vector width); empty when some parameters may be legal. The enumeration of legal
  // points skips such combinations whole: most of a GEMM's gene combinations are
  // illegal, each with thousands of parameter points.
  virtual std::vector<std::string> geneViolations(const GeneMap&, const KernelProblem&) const { return {}; }
  virtual std::map<std::string, std::string> descriptor(const Genome& g) const = 0;
  // The kernel's source and launch rule. Only called on legal genomes.
  virtual EmittedKernel emit(const Genome& g, const KernelProblem& p) const = 0;
  // Where a kernel engineer would start for this problem: the designs known to
  // do well on this kind of operator (e.g. a 128x128 SIMT GEMM tile with 8x8
  // per thread). The run's seeds begin with the legal ones, then diversify;
  // they are measured like every other candidate. Illegal ones are skipped.
  virtual std::vector<Genome> startingPoints(const KernelProblem&) const { return {}; }
};

// The design space for a task family; throws std::invalid_argument for an unknown one.
const DesignSpace& designSpaceFor(const std::string& family);

// `g` with every gene and parameter it omits that has a fallback filled in
// (genomes stored before the gene or parameter existed); the rest unchanged.
Genome withFallbacks(const Genome& g, const KernelProblem& p);
// The inverse, the form candidates are stored in: every gene and parameter
// whose value is its fallback left out, so a genome means and is keyed
// (architectureKey) exactly as before those genes existed, and a parent and
// child differ only in what really changed (knowledge pairs them by that).
Genome withoutFallbacks(const Genome& g, const KernelProblem& p);
// A gene's value, or `fallback` where the genome has none.
inline const std::string& geneOr(const GeneMap& genes, const std::string& name, const std::string& fallback) {
  auto it = genes.find(name);
  return it == genes.end() ? fallback : it->second;
}

// Every problem in a genome (after withFallbacks): missing or unknown genes and parameters, values
// outside their domains, then the space's own violations. Empty when legal.
std::vector<std::string> checkGenome(const Genome& g, const KernelProblem& p);
inline bool isLegal(const Genome& g, const KernelProblem& p) { return checkGenome(g, p).empty(); }

// All gene combinations of the problem's space (legal or not), in a fixed order.
std::vector<GeneMap> geneCombinations(const KernelProblem& p);
// All legal parameter points for one gene combination, in a fixed order.
std::vector<ParamMap> legalParameterPoints(const KernelProblem& p, const GeneMap& genes);

}  // namespace crucible::templates
