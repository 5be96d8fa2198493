// SPDX-License-Identifier: GPL-3.0-or-later
// The tunable-kernel proposer: a user's own kernels with tunable parameters
// (core/task/tunable_kernel.h), tuned by the engine like any architecture.
//
// - seeds(): each starting kernel at its default (or first legal) point, made
//   by proposer "user"; a kernel that does not fit the task is a failed seed
//   whose error names the kernel and the field.
// - tunables()/parametersOf()/withParameters(): the kernel's parameter table;
//   an illegal point (a restriction false, a launch outside CUDA's limits) is
//   ok=false with the reason. The engine's tuning strategies and tuning cache
//   drive these.
// - propose(): a child of one parent with one or two parameters changed (a
//   random legal neighbour, from ctx.seed, weighted by the claims in scope
//   about its parameters: tunable_priors.h); two parents of the same kernel
//   cross over; no parent gives a random legal point of a starting kernel.
//   Every strategy name is accepted ("count=2" in a strategy's text changes
//   two parameters), so the template proposer's strategies serve here too.
//
// Each kernel is its own architecture (architectureKey "tunable:<name>@<hash>"),
// and its MAP-Elites descriptor is the kernel's name plus each parameter's
// value, binned (descriptorFor). A candidate carries everything needed to tune
// it further in its genome (the tune document, the point) and its source (the
// user's source after the #define header), so a resumed run, or a run that
// selects a stored kernel as parent, needs no starting kernels.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"
#include "core/task/tunable_kernel.h"

namespace crucible {

struct StartingKernel {
  std::string name;     // what the user calls it (a file's stem): letters, digits, '_', '.', '-'
  std::string source;   // CUDA C++ as the user wrote it
  TuneSpec tune;        // its parameters and launch rule (an empty table: a kernel with one point)
  std::string origin;   // where it came from, for messages ("gemv.cu with gemv.tune.json")
};

// Why `name` cannot name a starting kernel, or nullopt.
std::optional<std::string> startingKernelNameProblem(const std::string& name);

class TunableKernelProposer final : public Proposer {
public:
  explicit TunableKernelProposer(std::vector<StartingKernel> kernels = {});

  std::string name() const override { return "tunable"; }
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override;
  Proposal propose(const ProposalContext& ctx) override;
  std::vector<MetaPrompt> initialStrategies() const override;
  std::vector<TunableParameter> tunables(const Candidate& c) const override;
  ParameterPoint parametersOf(const Candidate& c) const override;
  Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) override;

  // True when the candidate is a tunable kernel's (its genome says so).
  static bool owns(const Candidate& c);
  // The candidate of a bound kernel at a legal point (proposer "tunable", mutation unset).
  static Candidate candidateAt(const TunableKernel& k, const ParameterPoint& p);
  // The archive descriptor: "kernel" -> name, and per parameter "tune.<NAME>" -> its value when the
  // parameter has at most 4 values, else the quarter of its value list it falls in ("16..32").
  static std::map<std::string, std::string> descriptorFor(const TunableKernel& k, const ParameterPoint& p);

  const std::vector<StartingKernel>& kernels() const { return kernels_; }

private:
  // The kernel a candidate was made from, bound to the task (cached).
  std::shared_ptr<const TunableKernel> kernelOf(const Candidate& c, const Task& task, std::string* error) const;
  std::shared_ptr<const TunableKernel> bind(const StartingKernel& k, const Task& task, std::string* error) const;

  std::vector<StartingKernel> kernels_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const TunableKernel>> bound_;  // by architecture key and task
};

}  // namespace crucible
