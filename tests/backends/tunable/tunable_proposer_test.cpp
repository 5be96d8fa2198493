// SPDX-License-Identifier: GPL-3.0-or-later
// The tunable-kernel proposer on the example gemv kernel: seeds at the
// default point, the parameter table for the engine's tuning, illegal points
// refused with the reason, neighbours, and a kernel without parameters.
#include <gtest/gtest.h>
#include <set>
#include "backends/proposers/tunable/tunable_proposer.h"
#include "core/task/expression.h"
#include "example_kernel.h"

namespace crucible {
namespace {

using testing_support::gemvKernel;
using testing_support::gemvTask;

Candidate seedOf(TunableKernelProposer& p, const Task& task) {
  auto seeds = p.seeds(task, 1);
  EXPECT_EQ(seeds.size(), 1u);
  EXPECT_TRUE(seeds.at(0).ok) << seeds.at(0).error;
  Candidate c = seeds.at(0).candidate;
  c.id = 10;  // as the engine stores it
  return c;
}

TEST(TunableProposer, SeedsAreTheStartingKernelsAtTheirDefault) {
  TunableKernelProposer p({gemvKernel()});
  EXPECT_EQ(p.name(), "tunable");
  const Task task = gemvTask();
  const Candidate c = seedOf(p, task);
  EXPECT_EQ(c.proposer, "user");
  EXPECT_EQ(c.mutation, "seed");
  EXPECT_EQ(p.parametersOf(c), (ParameterPoint{{"ROWS", 4}, {"THREADS_PER_ROW", 128}, {"VEC", 4}, {"UNROLL", 2}}));
  EXPECT_NE(c.source.find("#define ROWS 4\n"), std::string::npos);
  EXPECT_NE(c.source.find("#define THREADS_PER_ROW 128\n"), std::string::npos);
  EXPECT_NE(c.source.find(testing_support::readExampleFile("gemv.cu")), std::string::npos);
  EXPECT_EQ(c.launch.entry, "gemv_kernel");
  const TaskSpec spec = testing_support::gemvSpec();
  EXPECT_EQ(evalExpression(c.launch.grid[0], spec.axes), 2048);   // 8192 rows / 4
  EXPECT_EQ(evalExpression(c.launch.block[0], spec.axes), 128);
  EXPECT_EQ(evalExpression(c.launch.block[1], spec.axes), 4);
  EXPECT_EQ(c.architectureKey.rfind("tunable:gemv@", 0), 0u);
  EXPECT_EQ(c.descriptor.at("kernel"), "gemv");
  EXPECT_EQ(c.descriptor.at("tune.ROWS"), "4");  // 5 values, binned in quarters: {1, 2}, {4}, {8}, {16}
  EXPECT_EQ(c.descriptor.at("tune.VEC"), "4");
  EXPECT_TRUE(TunableKernelProposer::owns(c));
}

TEST(TunableProposer, AKernelThatDoesNotFitTheTaskIsAFailedSeedNamingIt) {
  StartingKernel k = gemvKernel();
  const auto at = k.source.find("float* __restrict__ y");
  k.source.replace(at, std::string("float* __restrict__ y").size(), "double* __restrict__ y");
  TunableKernelProposer p({k, gemvKernel()});
  const auto seeds = p.seeds(gemvTask(), 1);
  ASSERT_EQ(seeds.size(), 2u);
  EXPECT_FALSE(seeds[0].ok);
  EXPECT_NE(seeds[0].error.find("kernel 'gemv' (gemv.cu with gemv.tune.json) does not fit task 'gemv_f32_8192x8192'"),
            std::string::npos) << seeds[0].error;
  EXPECT_NE(seeds[0].error.find("parameter 3 ('y') is 'double* __restrict__ y'"), std::string::npos) << seeds[0].error;
  EXPECT_TRUE(seeds[1].ok);
  // A name that cannot be a kernel's.
  StartingKernel badName = gemvKernel();
  badName.name = "my kernel";
  TunableKernelProposer q({badName});
  EXPECT_FALSE(q.seeds(gemvTask(), 1).at(0).ok);
}

TEST(TunableProposer, TheParameterTableIsTheEnginesToTune) {
  TunableKernelProposer p({gemvKernel()});
  const Task task = gemvTask();
  const Candidate c = seedOf(p, task);
  const auto t = p.tunables(c);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].name, "ROWS");
  EXPECT_EQ(t[0].values, (std::vector<std::int64_t>{1, 2, 4, 8, 16}));
  // Another proposer's candidate has no tunables here.
  Candidate foreign;
  foreign.genomeJson = R"J({"family": "softmax"})J";
  EXPECT_TRUE(p.tunables(foreign).empty());
  EXPECT_TRUE(p.parametersOf(foreign).empty());
  EXPECT_FALSE(TunableKernelProposer::owns(foreign));
  EXPECT_FALSE(p.withParameters(task, foreign, {{"ROWS", 1}}).ok);
}

TEST(TunableProposer, WithParametersAppliesLegalPointsAndRefusesIllegalOnes) {
  TunableKernelProposer p({gemvKernel()});
  const Task task = gemvTask();
  const Candidate c = seedOf(p, task);
  Proposal t = p.withParameters(task, c, {{"ROWS", 8}, {"VEC", 2}});
  ASSERT_TRUE(t.ok) << t.error;
  EXPECT_EQ(t.candidate.proposer, "tunable");
  EXPECT_EQ(t.candidate.mutation, "tune");
  EXPECT_EQ(t.candidate.parents, (std::vector<CandidateId>{10}));
  EXPECT_EQ(t.candidate.architectureKey, c.architectureKey);
  EXPECT_EQ(p.parametersOf(t.candidate), (ParameterPoint{{"ROWS", 8}, {"THREADS_PER_ROW", 128}, {"VEC", 2}, {"UNROLL", 2}}));
  EXPECT_NE(t.candidate.source.find("#define ROWS 8\n"), std::string::npos);
  EXPECT_EQ(t.candidate.launch.block[1], "8");
  // 256 x 16 = 4096 threads: the restriction says why.
  t = p.withParameters(task, c, {{"ROWS", 16}, {"THREADS_PER_ROW", 256}});
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.error.find("THREADS_PER_ROW * ROWS <= 1024"), std::string::npos) << t.error;
  t = p.withParameters(task, c, {{"ROWS", 3}});
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.error.find("ROWS = 3 is not one of its values"), std::string::npos) << t.error;
  t = p.withParameters(task, c, {{"TILE", 3}});
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.error.find("has no parameter TILE"), std::string::npos) << t.error;
}

TEST(TunableProposer, ChildrenAreLegalNeighboursOfTheirParent) {
  TunableKernelProposer p({gemvKernel()});
  const Task task = gemvTask();
  const Candidate parent = seedOf(p, task);
  const ParameterPoint from = p.parametersOf(parent);
  const auto strategies = p.initialStrategies();
  ASSERT_FALSE(strategies.empty());
  std::set<ParameterPoint> seen;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    ProposalContext ctx;
    ctx.task = &task;
    ctx.parents = {&parent};
    ctx.seed = seed;
    ctx.strategy = &strategies[seed % 2];   // count=1, count=2
    const Proposal child = p.propose(ctx);
    ASSERT_TRUE(child.ok) << child.error;
    const ParameterPoint point = p.parametersOf(child.candidate);
    int changed = 0;
    for (const auto& [name, value] : point) changed += from.at(name) != value;
    EXPECT_GE(changed, 1);
    EXPECT_LE(changed, 2);
    EXPECT_TRUE(p.withParameters(task, parent, point).ok) << "an illegal child";
    EXPECT_EQ(child.candidate.parents, (std::vector<CandidateId>{10}));
    EXPECT_EQ(child.candidate.proposer, "tunable");
    seen.insert(point);
  }
  EXPECT_GT(seen.size(), 10u);
  // The same seed gives the same child.
  ProposalContext ctx;
  ctx.task = &task;
  ctx.parents = {&parent};
  ctx.seed = 42;
  EXPECT_EQ(p.propose(ctx).candidate.genomeJson, p.propose(ctx).candidate.genomeJson);
}

TEST(TunableProposer, TwoParentsOfOneKernelCrossOver) {
  TunableKernelProposer p({gemvKernel()});
  const Task task = gemvTask();
  const Candidate a = seedOf(p, task);
  Candidate b = p.withParameters(task, a, {{"ROWS", 2}, {"THREADS_PER_ROW", 64}, {"VEC", 1}, {"UNROLL", 4}}).candidate;
  b.id = 11;
  int crossovers = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    ProposalContext ctx;
    ctx.task = &task;
    ctx.parents = {&a, &b};
    ctx.seed = seed;
    const Proposal child = p.propose(ctx);
    ASSERT_TRUE(child.ok) << child.error;
    if (child.candidate.mutation != "crossover") continue;
    ++crossovers;
    EXPECT_EQ(child.candidate.parents, (std::vector<CandidateId>{10, 11}));
    for (const auto& [name, value] : p.parametersOf(child.candidate))
      EXPECT_TRUE(value == p.parametersOf(a).at(name) || value == p.parametersOf(b).at(name)) << name;
  }
  EXPECT_GT(crossovers, 0);
}

TEST(TunableProposer, AStoredCandidateIsTunedWithoutItsStartingKernel) {
  // A resumed run builds the proposer without the user's files: the candidate carries them.
  TunableKernelProposer withKernel({gemvKernel()});
  const Task task = gemvTask();
  const Candidate parent = seedOf(withKernel, task);
  TunableKernelProposer bare;
  ProposalContext ctx;
  ctx.task = &task;
  ctx.parents = {&parent};
  ctx.seed = 3;
  const Proposal child = bare.propose(ctx);
  ASSERT_TRUE(child.ok) << child.error;
  EXPECT_EQ(child.candidate.architectureKey, parent.architectureKey);
  EXPECT_TRUE(bare.withParameters(task, parent, {{"ROWS", 1}, {"THREADS_PER_ROW", 64}}).ok);
  // A source edited after the fact no longer matches its architecture.
  Candidate edited = parent;
  edited.source += "\n// edited\n";
  EXPECT_FALSE(bare.withParameters(task, edited, {{"ROWS", 1}}).ok);
  // Without parents, the bare proposer has nothing to start from.
  ctx.parents.clear();
  EXPECT_FALSE(bare.propose(ctx).ok);
  // ... and one with a starting kernel explores from it.
  const Proposal fresh = withKernel.propose(ctx);
  ASSERT_TRUE(fresh.ok) << fresh.error;
  EXPECT_EQ(fresh.candidate.architectureKey, parent.architectureKey);
  EXPECT_TRUE(fresh.candidate.parents.empty());
}

TEST(TunableProposer, AKernelWithoutParametersSaysSoPlainly) {
  StartingKernel k = gemvKernel();
  k.tune = parseTuneSpec(R"J({"parameters": {}, "launch": {"grid": ["ceil_div(M, 4)"], "block": [128, 4]}})J");
  k.source = "#define ROWS 4\n#define THREADS_PER_ROW 128\n#define VEC 4\n#define UNROLL 1\n" + k.source;
  TunableKernelProposer p({k});
  const Task task = gemvTask();
  const Candidate c = seedOf(p, task);
  EXPECT_TRUE(p.tunables(c).empty());
  ProposalContext ctx;
  ctx.task = &task;
  ctx.parents = {&c};
  const Proposal child = p.propose(ctx);
  EXPECT_FALSE(child.ok);
  EXPECT_NE(child.error.find("kernel 'gemv' has no tunable parameters: add a tune file"), std::string::npos) << child.error;
}

TEST(TunableProposer, SeveralStartingKernelsAreSeveralArchitectures) {
  StartingKernel other = gemvKernel();
  other.name = "gemv_v2";
  other.source += "\n// a second version\n";
  TunableKernelProposer p({gemvKernel(), other});
  const auto seeds = p.seeds(gemvTask(), 1);
  ASSERT_EQ(seeds.size(), 2u);
  ASSERT_TRUE(seeds[0].ok && seeds[1].ok);
  EXPECT_NE(seeds[0].candidate.architectureKey, seeds[1].candidate.architectureKey);
  EXPECT_EQ(seeds[1].candidate.descriptor.at("kernel"), "gemv_v2");
  // A parameter with more than four values is binned: ROWS = 1 and 2 share a cell.
  TunableKernelProposer q({gemvKernel()});
  Candidate c = seeds[0].candidate;
  c.id = 10;
  const Proposal one = q.withParameters(gemvTask(), c, {{"ROWS", 1}});
  const Proposal two = q.withParameters(gemvTask(), c, {{"ROWS", 2}});
  ASSERT_TRUE(one.ok && two.ok);
  EXPECT_EQ(one.candidate.descriptor.at("tune.ROWS"), "1..2");
  EXPECT_EQ(one.candidate.descriptor, two.candidate.descriptor);
}

// The README's example of a tune comment is the example's tune file without its default.
TEST(TunableProposer, TheReadmesEmbeddedExampleMatchesTheTuneFile) {
  const std::string readme = testing_support::readExampleFile("../../tasks/README.md");
  const auto at = readme.rfind("/* crucible-tune");
  ASSERT_NE(at, std::string::npos);
  const auto text = embeddedTuneText(readme.substr(at));
  ASSERT_TRUE(text.has_value());
  TuneSpec fromReadme = parseTuneSpec(*text);
  TuneSpec fromFile = gemvKernel().tune;
  fromFile.defaultPoint.clear();
  fromFile.entry.clear();
  EXPECT_EQ(tuneSpecToJson(fromReadme), tuneSpecToJson(fromFile));
  StartingKernel k = gemvKernel();
  k.tune = fromReadme;
  TunableKernelProposer p({k});
  EXPECT_TRUE(p.seeds(gemvTask(), 1).at(0).ok);
}

}  // namespace
}  // namespace crucible
