// SPDX-License-Identifier: GPL-3.0-or-later
// The template proposer through the Proposer interface: seeds, strategies,
// legality of every child, determinism, knowledge bias, tuning.
#include <gtest/gtest.h>

#include <set>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_library.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using testing_support::makeTask;

MetaPrompt strategy(const std::string& name, const std::string& text = "") {
  MetaPrompt m;
  m.id = 7;
  m.name = name;
  m.text = text;
  return m;
}

Genome genomeOf(const Candidate& c) { return Genome::fromJson(c.genomeJson); }

void expectLegal(const Candidate& c, const TaskSpec& spec) {
  const auto errors = templates::checkGenome(genomeOf(c), templates::problemFromSpec(spec));
  EXPECT_TRUE(errors.empty()) << c.genomeJson << ": " << (errors.empty() ? "" : errors[0]);
  EXPECT_EQ(c.architectureKey, genomeOf(c).architectureKey());
  EXPECT_EQ(c.launch.entry, spec.entry);
  // The task's ABI, with any tensor maps the launch rule asks the worker for.
  EXPECT_TRUE(sourceHasSignature(c.source, spec, KernelRole::Candidate, c.launch.entry, c.launch.tensorMaps))
      << c.genomeJson;
}

TEST(TemplateProposer, SeedsEveryBuiltinTaskWithDiverseLegalKernels) {
  const auto files = builtinTaskFiles();
  ASSERT_GE(files.size(), 9u) << "the built-in suite (resources/tasks) was not found";
  TemplateProposer proposer;
  std::set<std::string> families;
  for (const auto& file : files) {
    const TaskSpec spec = loadTaskSpecFile(file);
    Task task;
    task.name = spec.name;
    task.family = spec.family;
    task.specJson = readTaskSpecText(file);
    const auto seeds = proposer.seeds(task, 1);
    ASSERT_FALSE(seeds.empty()) << file;
    std::set<std::string> keys;
    for (const auto& s : seeds) {
      ASSERT_TRUE(s.ok) << file << ": " << s.error;
      expectLegal(s.candidate, spec);
      EXPECT_EQ(s.candidate.mutation, "seed");
      EXPECT_EQ(s.candidate.proposer, "template");
      EXPECT_FALSE(s.candidate.descriptor.empty());
      EXPECT_NE(s.candidate.source.find("// genes:"), std::string::npos);
      keys.insert(s.candidate.architectureKey);
    }
    EXPECT_EQ(keys.size(), seeds.size()) << file << ": seeds repeat an architecture";
    EXPECT_GE(keys.size(), 3u) << file;
    families.insert(spec.family);
  }
  EXPECT_EQ(families.size(), 9u);
}

TEST(TemplateProposer, BadTaskSpecIsAClearFailure) {
  TemplateProposer proposer;
  Task task;
  task.specJson = "{ not json";
  const auto seeds = proposer.seeds(task, 1);
  ASSERT_EQ(seeds.size(), 1u);
  EXPECT_FALSE(seeds[0].ok);
  EXPECT_NE(seeds[0].error.find("task spec"), std::string::npos);
}

TEST(TemplateProposer, DescriptorsAndKeysAreStableSnapshots) {
  const TaskSpec spec = makeTask("softmax", DType::F32, {{"M", 8192}, {"N", 4096}});
  const auto p = templates::problemFromSpec(spec);
  const Genome g{"softmax",
                 {{"granularity", "multiwarp"}, {"memory", "registers"}, {"pass", "online"}, {"reduction", "shuffle"}, {"vector", "4"}},
                 {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 8}}};
  const Candidate a = TemplateProposer::candidateFor(g, p);
  const Candidate b = TemplateProposer::candidateFor(Genome::fromJson(a.genomeJson), p);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.descriptor, b.descriptor);
  EXPECT_EQ(a.architectureKey, "template:softmax:granularity=multiwarp;memory=registers;pass=online;reduction=shuffle;vector=4");
  const std::map<std::string, std::string> want = {{"granularity", "multiwarp"}, {"memory", "registers"},
                                                   {"pass", "online"},           {"reduction", "shuffle"},
                                                   {"vector", "4"}};
  EXPECT_EQ(a.descriptor, want);
  // Named constants for the parameters, and no code for the genes not chosen.
  EXPECT_NE(a.source.find("constexpr int ROWS_PER_BLOCK = 2;"), std::string::npos);
  EXPECT_NE(a.source.find("constexpr int WARPS_PER_ROW = 8;"), std::string::npos);
  EXPECT_NE(a.source.find("constexpr int PACKS_PER_THREAD = 4;"), std::string::npos);
  EXPECT_EQ(a.source.find("row_cache"), std::string::npos);          // not the shared-memory variant
  EXPECT_EQ(a.source.find("struct Max "), std::string::npos);        // not the multi-pass variant
  EXPECT_EQ(a.source.find("buffer[threadIdx.x]"), std::string::npos);  // not the tree reduction
  EXPECT_EQ(a.launch.grid[0], "ceil_div(M, 2)");
  EXPECT_EQ(a.launch.block[0], "512");

  const TaskSpec mm = makeTask("matmul_bias_relu", DType::BF16, {{"M", 4096}, {"N", 4096}, {"K", 4096}});
  const Genome t{"matmul_bias_relu",
                 {{"tensor_core", "mma"}, {"pipeline", "cp_async"}, {"epilogue", "smem"}, {"vector", "8"}, {"split_k", "none"}},
                 {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"WARP_M", 64}, {"WARP_N", 64}, {"STAGES", 3}}};
  const Candidate c = TemplateProposer::candidateFor(t, templates::problemFromSpec(mm));
  EXPECT_EQ(c.descriptor.at("tensor_core"), "mma");
  EXPECT_EQ(c.descriptor.at("stages"), "3");
  EXPECT_EQ(c.launch.dynamicSmemBytes, std::to_string(3 * (128 * 40 + 32 * 136) * 2));
  EXPECT_EQ(c.launch.grid[0], "ceil_div(N, 128)");
  EXPECT_EQ(c.launch.block[0], "128");
  EXPECT_NE(c.source.find("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"), std::string::npos);
  EXPECT_NE(c.source.find("fmaxf(acc[i][j]"), std::string::npos);  // the fused bias + ReLU
  EXPECT_EQ(c.source.find("fetch_tile"), std::string::npos);       // no register staging
}

// Every strategy on every family yields legal children with the right lineage.
TEST(TemplateProposer, StrategiesKeepLegality) {
  TemplateProposer proposer;
  std::uint64_t seed = 100;
  for (const auto& family : testing_support::suiteFamilies()) {
    for (const auto& sc : testing_support::shapeCases(family)) {
      auto seeds = proposer.seedsFor(sc.spec, seed++);
      ASSERT_GE(seeds.size(), 2u) << sc.label;
      Candidate a = seeds[0].candidate, b = seeds[1].candidate;
      a.id = 11;
      b.id = 12;
      for (int i = 0; i < 6; ++i) {
        for (const char* name : {"mutate:gene", "mutate:param", "crossover", "explore:new-architecture"}) {
          const MetaPrompt s = strategy(name);
          ProposalContext ctx;
          ctx.strategy = &s;
          ctx.parents = {&a, &b};
          ctx.generation = 3;
          ctx.seed = seed++;
          const Proposal prop = proposer.proposeFor(sc.spec, ctx);
          if (!prop.ok && std::string(name) == "explore:new-architecture") {
            // Tiny spaces (gelu on an odd length has two architectures) can be exhausted.
            EXPECT_NE(prop.error.find("already known"), std::string::npos) << prop.error;
            EXPECT_LE(templates::legalArchitectures(templates::problemFromSpec(sc.spec)).size(), 2u) << sc.label;
            continue;
          }
          if (!prop.ok && std::string(name) == "mutate:param") {
            // An architecture squeezed by the shape can have a single legal parameter point.
            EXPECT_NE(prop.error.find("no other legal parameters"), std::string::npos) << prop.error;
            EXPECT_EQ(templates::legalParameterPoints(templates::problemFromSpec(sc.spec), genomeOf(a).genes).size(), 1u);
            continue;
          }
          ASSERT_TRUE(prop.ok) << sc.label << " " << name << ": " << prop.error;
          expectLegal(prop.candidate, sc.spec);
          EXPECT_EQ(prop.candidate.mutation, name);
          EXPECT_EQ(prop.candidate.generation, 3);
          EXPECT_EQ(prop.candidate.metaPrompt, 7);
          EXPECT_NE(prop.candidate.source.find("// origin: " + std::string(name)), std::string::npos);
          const std::string key = prop.candidate.architectureKey;
          if (std::string(name) == "mutate:gene") {
            EXPECT_NE(key, a.architectureKey) << sc.label;
          }
          if (std::string(name) == "mutate:param") {
            EXPECT_EQ(key, a.architectureKey) << sc.label;
            EXPECT_NE(genomeOf(prop.candidate).params, genomeOf(a).params) << sc.label;
          }
          if (std::string(name) == "explore:new-architecture") {
            EXPECT_NE(key, a.architectureKey);
            EXPECT_NE(key, b.architectureKey);
            EXPECT_TRUE(prop.candidate.parents.empty());
          } else {
            EXPECT_EQ(prop.candidate.parents, (std::vector<CandidateId>{11, 12}));
          }
          // Walk: the child becomes the next first parent.
          if (std::string(name) != "explore:new-architecture") a = prop.candidate, a.id = 11;
        }
      }
    }
  }
}

TEST(TemplateProposer, DeterministicUnderASeed) {
  TemplateProposer proposer;
  const TaskSpec spec = makeTask("layernorm", DType::F32, {{"M", 1024}, {"N", 1024}});
  const auto s1 = proposer.seedsFor(spec, 42), s2 = proposer.seedsFor(spec, 42), s3 = proposer.seedsFor(spec, 43);
  ASSERT_EQ(s1.size(), s2.size());
  bool differs = s1.size() != s3.size();
  for (std::size_t i = 0; i < s1.size(); ++i) {
    EXPECT_EQ(s1[i].candidate.source, s2[i].candidate.source);
    if (i < s3.size() && s1[i].candidate.genomeJson != s3[i].candidate.genomeJson) differs = true;
  }
  EXPECT_TRUE(differs) << "seeds 42 and 43 gave the same population";

  Candidate parent = s1[0].candidate;
  std::set<std::string> children;
  for (const char* name : {"mutate:gene", "mutate:param", "crossover", "explore:new-architecture"}) {
    const MetaPrompt s = strategy(name);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      ProposalContext ctx;
      ctx.strategy = &s;
      ctx.parents = {&parent, &s1[1].candidate};
      ctx.seed = seed;
      const Proposal x = proposer.proposeFor(spec, ctx), y = proposer.proposeFor(spec, ctx);
      ASSERT_TRUE(x.ok) << x.error;
      EXPECT_EQ(x.candidate.source, y.candidate.source);
      EXPECT_EQ(x.candidate.genomeJson, y.candidate.genomeJson);
      children.insert(x.candidate.genomeJson);
    }
  }
  EXPECT_GT(children.size(), 10u) << "different seeds should explore different children";
}

TEST(TemplateProposer, ValidatedKnowledgeBiasesGeneMutations) {
  TemplateProposer proposer;
  const TaskSpec spec = makeTask("softmax", DType::F32, {{"M", 4096}, {"N", 4096}});
  const auto p = templates::problemFromSpec(spec);
  Candidate parent = TemplateProposer::candidateFor(
      Genome{"softmax",
             {{"granularity", "block"}, {"memory", "smem"}, {"pass", "multipass"}, {"reduction", "smem"}, {"vector", "1"}},
             {{"WARPS_PER_ROW", 8}}},
      p);
  KnowledgeEntry claim;
  claim.claim = "16-byte loads beat 4-byte loads for row reductions";
  claim.decision = "vector: 1 -> 4";
  claim.status = KnowledgeStatus::Validated;
  KnowledgeEntry refuted = claim;
  refuted.decision = "memory: smem -> global";
  refuted.status = KnowledgeStatus::Refuted;
  const MetaPrompt s = strategy("mutate:gene");
  auto countVector4 = [&](bool withKnowledge) {
    int n = 0, global = 0;
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
      ProposalContext ctx;
      ctx.strategy = &s;
      ctx.parents = {&parent};
      ctx.seed = seed;
      if (withKnowledge) ctx.knowledge = {&claim, &refuted};
      const Proposal prop = proposer.proposeFor(spec, ctx);
      EXPECT_TRUE(prop.ok) << prop.error;
      n += genomeOf(prop.candidate).genes.at("vector") == "4";
      global += genomeOf(prop.candidate).genes.at("memory") == "global";
    }
    return std::pair{n, global};
  };
  const auto [without, globalWithout] = countVector4(false);
  const auto [with, globalWith] = countVector4(true);
  EXPECT_GE(with, 25) << "about half the mutations should follow the validated claim";
  EXPECT_GT(with, without + 15);
  EXPECT_LE(globalWith, globalWithout + 5) << "a refuted claim must not bias";
}

TEST(TemplateProposer, FocusedGeneStrategyChangesThatGene) {
  TemplateProposer proposer;
  const TaskSpec spec = makeTask("transpose", DType::F32, {{"M", 2048}, {"N", 1024}});
  auto seeds = proposer.seedsFor(spec, 5);
  const MetaPrompt s = strategy("mutate:gene", "gene=staging");
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    ProposalContext ctx;
    ctx.strategy = &s;
    ctx.parents = {&seeds[0].candidate};
    ctx.seed = seed;
    const Proposal prop = proposer.proposeFor(spec, ctx);
    ASSERT_TRUE(prop.ok) << prop.error;
    EXPECT_NE(genomeOf(prop.candidate).genes.at("staging"), genomeOf(seeds[0].candidate).genes.at("staging"));
  }
  const MetaPrompt varied = proposer.varyStrategy(strategy("mutate:param", "count=1"), 3);
  EXPECT_EQ(varied.name, "mutate:param");
  EXPECT_EQ(varied.parent, 7);
  EXPECT_EQ(varied.text.rfind("count=", 0), 0u);
}

TEST(TemplateProposer, SeedsFromASealedKernelOfAnotherShape) {
  TemplateProposer proposer;
  // A kernel sealed on 8192x4096 caches 4 packs per thread in registers with vector 4...
  const TaskSpec big = makeTask("softmax", DType::F32, {{"M", 8192}, {"N", 4096}});
  Candidate sealed = TemplateProposer::candidateFor(
      Genome{"softmax",
             {{"granularity", "multiwarp"}, {"memory", "registers"}, {"pass", "online"}, {"reduction", "shuffle"}, {"vector", "4"}},
             {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 8}}},
      templates::problemFromSpec(big));
  sealed.id = 99;
  // ... which is illegal on rows of 333; its children there are made legal.
  const TaskSpec odd = makeTask("softmax", DType::F32, {{"M", 77}, {"N", 333}});
  for (const char* name : {"mutate:gene", "mutate:param"}) {
    const MetaPrompt s = strategy(name);
    ProposalContext ctx;
    ctx.strategy = &s;
    ctx.parents = {&sealed};
    ctx.seed = 1;
    const Proposal prop = proposer.proposeFor(odd, ctx);
    ASSERT_TRUE(prop.ok) << prop.error;
    expectLegal(prop.candidate, odd);
  }
}

TEST(TemplateProposer, ClearErrorsForWhatItCannotDo) {
  TemplateProposer proposer;
  const TaskSpec spec = makeTask("gelu", DType::F32, {{"N", 4096}});
  const auto seeds = proposer.seedsFor(spec, 1);
  Candidate foreign;
  foreign.id = 5;
  foreign.genomeJson = "{}";
  const MetaPrompt gene = strategy("mutate:gene"), unknown = strategy("rewrite:llm");
  ProposalContext ctx;
  ctx.strategy = &gene;
  ctx.parents = {&foreign};
  Proposal prop = proposer.proposeFor(spec, ctx);
  EXPECT_FALSE(prop.ok);
  EXPECT_NE(prop.error.find("parent #5 has no template genome"), std::string::npos) << prop.error;
  ctx.parents = {&seeds[0].candidate};
  ctx.strategy = &unknown;
  prop = proposer.proposeFor(spec, ctx);
  EXPECT_FALSE(prop.ok);
  EXPECT_NE(prop.error.find("unknown strategy 'rewrite:llm'"), std::string::npos);
  const TaskSpec other = makeTask("rowsum", DType::F32, {{"M", 64}, {"N", 64}});
  ctx.strategy = &gene;
  prop = proposer.proposeFor(other, ctx);
  EXPECT_FALSE(prop.ok);
  EXPECT_NE(prop.error.find("is a gelu kernel"), std::string::npos) << prop.error;
}

TEST(TemplateProposer, TuningInsideOneArchitecture) {
  TemplateProposer proposer;
  const TaskSpec spec = makeTask("matmul", DType::F32, {{"M", 1024}, {"N", 1024}, {"K", 1024}});
  const auto seeds = proposer.seedsFor(spec, 9);
  // The CUDA-core seed: its warp-tiling rules are what the refusal below exercises.
  const auto simt = std::find_if(seeds.begin(), seeds.end(), [](const auto& s) {
    return s.candidate.architectureKey.find("tensor_core=none") != std::string::npos;
  });
  ASSERT_NE(simt, seeds.end());
  Candidate base = simt->candidate;
  base.id = 21;
  const auto tunables = proposer.tunables(base);
  const ParameterPoint point = proposer.parametersOf(base);
  ASSERT_FALSE(tunables.empty());
  EXPECT_EQ(point.size(), tunables.size());
  for (const auto& t : tunables) {
    ASSERT_TRUE(point.count(t.name)) << t.name;
    EXPECT_NE(std::find(t.values.begin(), t.values.end(), point.at(t.name)), t.values.end());
    EXPECT_TRUE(std::is_sorted(t.values.begin(), t.values.end()));
  }
  // Every legal point the tuner could try is accepted, every illegal one refused with a reason.
  const auto p = templates::problemFromSpec(spec);
  const auto legal = templates::legalParameterPoints(p, genomeOf(base).genes);
  ASSERT_GT(legal.size(), 1u);
  for (std::size_t i = 0; i < legal.size(); i += 7) {
    const Proposal tuned = proposer.withParametersFor(spec, base, legal[i]);
    ASSERT_TRUE(tuned.ok) << tuned.error;
    EXPECT_EQ(tuned.candidate.architectureKey, base.architectureKey);
    EXPECT_EQ(tuned.candidate.mutation, "tune");
    EXPECT_EQ(tuned.candidate.parents, std::vector<CandidateId>{21});
    EXPECT_EQ(proposer.parametersOf(tuned.candidate), legal[i]);
  }
  ParameterPoint bad = point;
  bad["THREAD_M"] = 8;
  bad["THREAD_N"] = 8;
  bad["WARP_M"] = 16;
  bad["WARP_N"] = 16;  // 2 x 2 thread tiles: not a warp
  bad["BLOCK_M"] = 64;
  bad["BLOCK_N"] = 64;  // 16 warps: within the block limit, so the warp rule is what fails
  Proposal refused = proposer.withParametersFor(spec, base, bad);
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("exactly 32 thread tiles"), std::string::npos) << refused.error;
  refused = proposer.withParametersFor(spec, base, {{"UNROLL", 4}});
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("UNROLL"), std::string::npos);
  Candidate foreign;
  EXPECT_TRUE(proposer.tunables(foreign).empty());
}

}  // namespace
}  // namespace crucible
