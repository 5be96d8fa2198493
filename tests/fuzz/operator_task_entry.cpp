// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_limits.h"
#include "core/task/launch_variables.h"
#include "core/task/task_spec.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {
namespace {

void require(bool holds, const std::string& what, const Candidate& c) {
  if (!holds) throw FuzzPropertyError(what + " (" + c.architectureKey + " " + c.genomeJson + ")");
}

// What the engine relies on in a candidate the proposer made: a genome legal
// for the task, the kernel ABI's signature, and a launch rule that evaluates
// inside CUDA's limits at the task's axes (at several SM counts when it uses
// sm_count), so the worker never gets a launch CUDA refuses.
void requireLegal(const Candidate& c, const TaskSpec& spec) {
  const auto errors = templates::checkGenome(templates::Genome::fromJson(c.genomeJson), templates::problemFromSpec(spec));
  require(errors.empty(), "an illegal genome: " + (errors.empty() ? std::string() : errors[0]), c);
  require(c.launch.entry == spec.entry, "the launch names entry '" + c.launch.entry + "'", c);
  require(sourceHasSignature(c.source, spec, KernelRole::Candidate, c.launch.entry, c.launch.tensorMaps),
          "a source without the task's kernel signature", c);
  // A persistent grid names sm_count: from one cluster of blocks (2 SMs) to 1024 SMs.
  const std::vector<std::int64_t> smCounts =
      usesSmCount(c.launch) ? std::vector<std::int64_t>{2, 132, 1024} : std::vector<std::int64_t>{0};
  for (const std::int64_t smCount : smCounts)
    if (const auto problem = launchLimitProblem(c.launch, launchNames(spec.axes, smCount), smCountNote(smCount)))
      require(false, "launch." + problem->text(), c);
}

MetaPrompt strategyNamed(const char* name) {
  MetaPrompt m;
  m.id = 1;
  m.name = name;
  return m;
}

}  // namespace

void operatorTaskEntry(const std::uint8_t* data, std::size_t size) {
  const std::optional<TaskSpec> parsed = parsedSpec(data, size);
  if (!parsed) return;
  const TaskSpec& spec = *parsed;
  // The proposer reports what it cannot serve as refused proposals with a
  // reason (the run then says so); it must not crash, hang or make a kernel
  // the task cannot launch.
  const TemplateProposer proposer;
  const std::vector<Proposal> seeds = proposer.seedsFor(spec, 7);
  std::vector<const Candidate*> parents;
  for (const Proposal& s : seeds) {
    if (!s.ok) {
      if (s.error.empty()) throw FuzzPropertyError("a seed refused without a reason");
      continue;
    }
    requireLegal(s.candidate, spec);
    parents.push_back(&s.candidate);
  }
  if (parents.empty()) return;
  if (parents.size() == 1) parents.push_back(parents[0]);
  for (const char* name : {"mutate:gene", "mutate:param", "crossover", "explore:new-architecture"}) {
    const MetaPrompt strategy = strategyNamed(name);
    ProposalContext ctx;
    ctx.strategy = &strategy;
    ctx.seed = size;
    ctx.parents = {parents[0], parents[1]};
    const Proposal child = proposer.proposeFor(spec, ctx);
    if (child.ok)
      requireLegal(child.candidate, spec);
    else if (child.error.empty())
      throw FuzzPropertyError(std::string(name) + " refused without a reason");
  }
}

}  // namespace crucible::fuzz
