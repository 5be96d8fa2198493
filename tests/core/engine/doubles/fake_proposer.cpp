// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/core/engine/doubles/fake_proposer.h"

#include <random>
#include <stdexcept>

namespace crucible::testing {
namespace {
int draw(std::mt19937_64& rng, std::size_t n) { return static_cast<int>(rng() % n); }
int drawOther(std::mt19937_64& rng, std::size_t n, int current) {
  int v = draw(rng, n - 1);
  return v >= current ? v + 1 : v;
}
bool hasFakeGenome(const Candidate& c) { return c.genomeJson.find("\"mem\"") != std::string::npos; }
// A parent's genome: from its genomeJson, or, for a genome-less kernel (a
// user's edit, proposer "user"), read back from its source, as a proposer
// that reads code (a language model) builds on any kernel.
FakeGenome parentGenome(const Candidate& c) {
  if (hasFakeGenome(c)) return genomeFromJson(c.genomeJson);
  if (auto g = parseFakeSource(c.source)) return *g;
  throw std::invalid_argument("fake proposer: parent " + std::to_string(c.id) + " has no fake genome");
}
}  // namespace

Candidate FakeProposer::candidateOf(const FakeGenome& g) {
  Candidate c;
  c.source = g.source();
  c.launch.entry = "gelu_kernel";
  c.genomeJson = g.json();
  c.architectureKey = g.architectureKey();
  c.descriptor = g.descriptor();
  return c;
}

std::vector<Proposal> FakeProposer::seeds(const Task&, std::uint64_t seed) {
  {
    std::lock_guard lock(mutex);
    if (deviceTold.empty()) seededBeforeDevice = true;
  }
  if (!options_.cannotPropose.empty()) return {Proposal{{}, false, options_.cannotPropose}};
  std::mt19937_64 rng(seed);
  std::vector<Proposal> out;
  for (int i = 0; i < options_.seedCount; ++i) {
    FakeGenome g;
    g.mem = 0;                 // seeds start from the plain global-memory architecture
    g.gran = i % 3;
    g.vec = 0;
    g.block = kBlock[draw(rng, kBlock.size())];
    if (options_.uniqueSources) g.nonce = rng() | 1;
    Candidate c = candidateOf(g);
    c.mutation = "seed";
    out.push_back({c, true, ""});
  }
  return out;
}

Proposal FakeProposer::propose(const ProposalContext& ctx) {
  ++proposals;
  if (!options_.cannotPropose.empty()) return Proposal{{}, false, options_.cannotPropose};
  std::mt19937_64 rng(ctx.seed);
  std::size_t k = ctx.knowledge.size();
  for (std::size_t seen = maxKnowledgeSeen.load(); k > seen && !maxKnowledgeSeen.compare_exchange_weak(seen, k);) {}
  FakeGenome g;
  std::string mutation;
  std::string strategy = ctx.strategy ? ctx.strategy->name : "";
  if (ctx.strategy) {
    std::lock_guard lock(mutex);
    strategiesUsed.push_back(strategy);
  }
  if (ctx.parents.empty()) {
    g.mem = draw(rng, kMemory.size());
    g.gran = draw(rng, kGranularity.size());
    g.vec = draw(rng, kVector.size());
    mutation = "fresh";
  } else if (ctx.parents.size() == 2) {
    ++crossovers;
    FakeGenome a = parentGenome(*ctx.parents[0]);
    FakeGenome b = parentGenome(*ctx.parents[1]);
    g = a;
    if (rng() & 1) g.mem = b.mem;
    if (rng() & 1) g.gran = b.gran;
    if (rng() & 1) g.vec = b.vec;
    mutation = "crossover";
  } else {
    g = parentGenome(*ctx.parents[0]);
    // The strategy's name says which gene to change ("mutate:memory+v12" is a variant).
    int gene = draw(rng, 3);
    if (strategy.rfind("mutate:memory", 0) == 0) gene = 0;
    if (strategy.rfind("mutate:granularity", 0) == 0) gene = 1;
    if (strategy.rfind("mutate:vector_width", 0) == 0) gene = 2;
    if (gene == 0) g.mem = drawOther(rng, kMemory.size(), g.mem);
    if (gene == 1) g.gran = drawOther(rng, kGranularity.size(), g.gran);
    if (gene == 2) g.vec = drawOther(rng, kVector.size(), g.vec);
    mutation = "mutate:" + std::string(gene == 0 ? "memory" : gene == 1 ? "granularity" : "vector_width");
  }
  g.nonce = options_.uniqueSources ? (rng() | 1) : 0;
  Candidate c = candidateOf(g);
  c.mutation = mutation;
  return {c, true, ""};
}

std::vector<MetaPrompt> FakeProposer::initialStrategies() const {
  std::vector<MetaPrompt> out;
  for (const char* name : {"mutate:memory", "mutate:granularity", "mutate:vector_width", "mutate:any"}) {
    MetaPrompt m;
    m.name = name;
    m.text = std::string("change one gene: ") + name;
    out.push_back(m);
  }
  return out;
}

MetaPrompt FakeProposer::varyStrategy(const MetaPrompt& s, std::uint64_t seed) const {
  MetaPrompt v = s;
  v.name = s.name + "+v" + std::to_string(seed % 1000);
  v.text = s.text + " (variant " + std::to_string(seed % 1000) + ")";
  return v;
}

// Like the template proposer: a kernel without a genome has nothing to tune.
std::vector<TunableParameter> FakeProposer::tunables(const Candidate& c) const {
  if (!hasFakeGenome(c)) return {};
  return {{"BLOCK", kBlock}, {"UNROLL", kUnroll}};
}

ParameterPoint FakeProposer::parametersOf(const Candidate& c) const {
  if (!hasFakeGenome(c)) return {};
  FakeGenome g = genomeFromJson(c.genomeJson);
  return {{"BLOCK", g.block}, {"UNROLL", g.unroll}};
}

Proposal FakeProposer::withParameters(const Task&, const Candidate& base, const ParameterPoint& p) {
  ++tunings;
  FakeGenome g = genomeFromJson(base.genomeJson);
  g.block = p.at("BLOCK");
  g.unroll = p.at("UNROLL");
  if (g.block == 512 && g.unroll == 4) return {{}, false, "BLOCK 512 with UNROLL 4 exceeds the register file"};
  Candidate c = candidateOf(g);
  c.mutation = "tune";
  return {c, true, ""};
}

}  // namespace crucible::testing
