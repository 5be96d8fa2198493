// SPDX-License-Identifier: GPL-3.0-or-later
#include <string_view>
#include "backends/proposers/tunable/tunable_proposer.h"
#include "core/task/launch_limits.h"
#include "core/task/launch_variables.h"
#include "core/task/task_spec.h"
#include "core/task/tunable_kernel.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {
namespace {

// A small task for inputs that bring only a tune document, or one and a source.
constexpr const char* kDefaultSpec = R"JSON({
  "format": 1, "name": "fuzz_scale_f32", "family": "scale",
  "axes": {"N": 4096},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["N"], "distribution": {"kind": "normal", "mean": 0, "stddev": 1}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["N"]}],
  "scalars": ["N"], "tolerances": {"y": {"rtol": 0, "atol": 0}},
  "flops": "N", "minBytes": "8*N", "entry": "scale_kernel",
  "baseline": {"source": "extern \"C\" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {}",
               "launch": {"entry": "scale_kernel", "grid": ["ceil_div(N, 256)"], "block": [256]}},
  "oracle": {"source": "extern \"C\" __global__ void scale_oracle(const float* __restrict__ x, double* __restrict__ y, long long N) {}",
             "launch": {"entry": "scale_oracle", "grid": ["ceil_div(N, 256)"], "block": [256]}}
})JSON";

constexpr const char* kDefaultSource =
    "extern \"C\" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {\n"
    "  const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;\n"
    "  if (i < N) y[i] = 2.0f * x[i];\n"
    "}\n";

constexpr std::string_view kSeparator = "\n====\n";

void require(bool holds, const std::string& what) {
  if (!holds) throw FuzzPropertyError(what);
}

// What the engine relies on in a tunable kernel's candidate: a legal point, the
// user's source after the parameter header, and a launch inside CUDA's limits.
void requireLegal(const Candidate& c, const TunableKernel& kernel, const TunableKernelProposer& proposer,
                  const TaskSpec& spec) {
  const ParameterPoint point = proposer.parametersOf(c);
  if (const auto problem = kernel.problem(point)) require(false, "an illegal point: " + *problem);
  const auto source = sourceBeforeParameters(c.source);
  require(source && *source == kernel.source(), "the candidate's source lost the user's source");
  for (const std::int64_t smCount : smCountsCheckedWithoutGpu(c.launch))
    if (const auto problem = launchLimitProblem(c.launch, launchNames(spec.axes, smCount), smCountNote(smCount)))
      require(false, "launch." + problem->text());
}

}  // namespace

void tunableKernelEntry(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // "<tune JSON>[\n====\n<kernel source>[\n====\n<task spec JSON>]]"
  std::vector<std::string> parts;
  std::size_t from = 0;
  while (parts.size() < 2) {
    const auto cut = input.find(kSeparator, from);
    if (cut == std::string_view::npos) break;
    parts.emplace_back(input.substr(from, cut - from));
    from = cut + kSeparator.size();
  }
  parts.emplace_back(input.substr(from));

  TuneSpec tune;
  try {
    tune = parseTuneSpec(parts[0]);
  } catch (const TaskSpecError&) {
    return;
  }
  // A candidate's genome carries its tune document as tuneSpecToJson wrote it.
  const std::string canonical = tuneSpecToJson(tune);
  try {
    require(tuneSpecToJson(parseTuneSpec(canonical)) == canonical, "tuneSpecToJson(parseTuneSpec(s)) changed s");
  } catch (const TaskSpecError& e) {
    throw FuzzPropertyError(std::string("tuneSpecToJson wrote a document that does not parse: ") + e.what());
  }

  const std::string source = parts.size() > 1 ? parts[1] : kDefaultSource;
  try {
    embeddedTuneText(source);
  } catch (const TaskSpecError&) {
  }
  TaskSpec spec = parseTaskSpec(kDefaultSpec);
  if (parts.size() > 2) try {
      spec = parseTaskSpec(parts[2]);
    } catch (const TaskSpecError&) {
      // Keep the default task: the tune document is still worth checking.
    }
  Task task;
  task.id = 1;
  task.name = spec.name;
  task.family = spec.family;
  task.specJson = toJson(spec);

  TunableKernelProposer proposer({StartingKernel{"fuzz", source, tune, "the fuzz input"}});
  const std::vector<Proposal> seeds = proposer.seeds(task, 1);
  require(seeds.size() == 1, "one starting kernel gave " + std::to_string(seeds.size()) + " seeds");
  if (!seeds[0].ok) {
    require(!seeds[0].error.empty(), "a starting kernel refused without a reason");
    return;
  }
  const TunableKernel kernel("fuzz", source, tune, spec);  // it bound for the proposer: it binds here
  const Candidate& seed = seeds[0].candidate;
  requireLegal(seed, kernel, proposer, spec);

  // Children as the engine asks for them: a neighbour, a fresh point, a crossover, a tuning step.
  MetaPrompt twoChanges;
  twoChanges.name = "mutate:param";
  twoChanges.text = "count=2";
  ProposalContext ctx;
  ctx.task = &task;
  ctx.seed = size;
  ctx.strategy = &twoChanges;
  ctx.parents = {&seed};
  std::vector<Proposal> children = {proposer.propose(ctx)};
  ctx.parents = {};
  children.push_back(proposer.propose(ctx));
  if (children.back().ok) {
    ctx.parents = {&seed, &children.back().candidate};
    children.push_back(proposer.propose(ctx));
  }
  if (!kernel.parameters().empty()) {
    const TunableParameter& first = kernel.parameters().front();
    children.push_back(proposer.withParameters(task, seed, {{first.name, first.values.back()}}));
  }
  for (const Proposal& child : children) {
    if (child.ok)
      requireLegal(child.candidate, kernel, proposer, spec);
    else
      require(!child.error.empty(), "a child refused without a reason");
  }
}

}  // namespace crucible::fuzz
