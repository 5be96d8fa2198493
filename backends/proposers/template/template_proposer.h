// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in template proposer: evolves CUDA kernels with no LLM by searching
// a design space of architecture genes and tunable parameters per operator
// family (backends/proposers/template/*_space.cpp), and writes each genome out
// as readable CUDA C++ (emit_*.cpp).
//
// Strategies (MetaPrompt::name):
//   "mutate:gene"              change one gene (text "gene=<name>" focuses a gene)
//   "mutate:param"             move tunable parameters (text "count=<n>", default 1)
//   "crossover"                genes and parameters from two parents of the same family
//   "explore:new-architecture" a legal architecture none of the parents has
// With no strategy: crossover for two parents, mutate:gene for one, explore for none.
// The claims in scope (ProposalContext::claims: validated, pinned and refuted,
// weighted by how closely their scope matches) are priors of gene mutations,
// explorations and parameter mutations (gene_priors.h): a validated claim
// whose decision names a gene or parameter ("vector: 1 -> 4") makes its value
// more likely, a refuted one less, never impossible. All randomness comes
// from ProposalContext::seed.
#pragma once
#include <atomic>
#include "backends/proposers/template/design_space.h"
#include "core/engine/interfaces.h"
#include "core/task/task_spec.h"

namespace crucible {

class TemplateProposer final : public Proposer {
public:
  explicit TemplateProposer(int seedCount = 6) : seedCount_(seedCount) {}

  std::string name() const override { return "template"; }
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override;
  Proposal propose(const ProposalContext& ctx) override;
  // Keeps the device's SM count: the persistent GEMM's legality judges by it (KernelProblem::smCount).
  void setDevice(const Fingerprint& device) override { smCount_.store(device.smCount); }
  std::vector<MetaPrompt> initialStrategies() const override;
  MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const override;
  std::vector<TunableParameter> tunables(const Candidate& c) const override;
  ParameterPoint parametersOf(const Candidate& c) const override;
  Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) override;

  // The same on a parsed spec (ctx.task is not consulted).
  std::vector<Proposal> seedsFor(const TaskSpec& spec, std::uint64_t seed) const;
  Proposal proposeFor(const TaskSpec& spec, const ProposalContext& ctx) const;
  Proposal withParametersFor(const TaskSpec& spec, const Candidate& base, const ParameterPoint& p) const;

  // A candidate for a legal genome: source, launch rule, genome, key, descriptor.
  // Throws std::invalid_argument listing the violations of an illegal genome.
  static Candidate candidateFor(const templates::Genome& g, const templates::KernelProblem& p);

private:
  // The task's problem, with the device's SM count when one was told.
  templates::KernelProblem problemFor(const TaskSpec& spec) const;

  int seedCount_;
  std::atomic<int> smCount_{0};  // 0: no device told (set from the engine's thread, read by proposals)
};

}  // namespace crucible
