// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/template_proposer.h"

#include <stdexcept>
#include "backends/proposers/template/gene_priors.h"
#include "backends/proposers/template/genome_ops.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

Proposal failure(const std::string& error) { return Proposal{{}, false, error}; }

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : "; ") + i;
  return s;
}

// "key=value" from a strategy's text ("gene=vector count=2").
std::string strategyOption(const MetaPrompt* s, const std::string& key) {
  if (!s) return "";
  const std::string& t = s->text;
  const auto at = t.find(key + "=");
  if (at == std::string::npos || (at > 0 && t[at - 1] != ' ' && t[at - 1] != '\n')) return "";
  const auto begin = at + key.size() + 1;
  return t.substr(begin, t.find_first_of(" \n", begin) - begin);
}

Genome parentGenome(const Candidate& parent, const KernelProblem& p) {
  Genome g;
  try {
    g = Genome::fromJson(parent.genomeJson);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("parent #" + std::to_string(parent.id) + " has no template genome (" + e.what() + ")");
  }
  if (g.family != p.family)
    throw std::invalid_argument("parent #" + std::to_string(parent.id) + " is a " + g.family + " kernel, the task is " +
                                p.family);
  return g;
}

// Inserts a line after the header comment saying where the kernel came from.
void addOrigin(Candidate& c, const std::string& origin) {
  const auto at = c.source.find("// params:");
  const auto eol = at == std::string::npos ? std::string::npos : c.source.find('\n', at);
  if (eol != std::string::npos) c.source.insert(eol + 1, "// origin: " + origin + "\n");
}

}  // namespace

Candidate TemplateProposer::candidateFor(const Genome& given, const KernelProblem& p) {
  // Stored without the genes and parameters at their fallbacks (design_space.h):
  // keys stay those of genomes stored before those genes existed, and a
  // parent/child pair differs only in what really changed.
  const Genome g = templates::withoutFallbacks(given, p);
  const auto errors = templates::checkGenome(g, p);
  if (!errors.empty())
    throw std::invalid_argument("illegal genome " + g.architectureKey() + " {" + g.paramsText() + "} for task " +
                                p.taskName + ": " + joined(errors));
  const auto& space = templates::designSpaceFor(p.family);
  const templates::EmittedKernel k = space.emit(g, p);
  Candidate c;
  c.source = k.source;
  c.launch = k.launch;
  c.proposer = "template";
  c.genomeJson = g.toJson();
  c.architectureKey = g.architectureKey();
  c.descriptor = space.descriptor(g);
  c.status = CandidateStatus::Proposed;
  return c;
}

std::vector<Proposal> TemplateProposer::seeds(const Task& task, std::uint64_t seed) {
  TaskSpec spec;
  try {
    spec = parseTaskSpec(task.specJson);
  } catch (const std::exception& e) {
    return {failure(std::string("task spec: ") + e.what())};
  }
  return seedsFor(spec, seed);
}

KernelProblem TemplateProposer::problemFor(const TaskSpec& spec) const {
  KernelProblem p = templates::problemFromSpec(spec);
  p.smCount = smCount_.load();
  return p;
}

std::vector<Proposal> TemplateProposer::seedsFor(const TaskSpec& spec, std::uint64_t seed) const {
  try {
    const KernelProblem p = problemFor(spec);
    std::vector<Proposal> out;
    for (const Genome& g : templates::seedGenomes(p, seed, seedCount_)) {
      Proposal prop;
      prop.candidate = candidateFor(g, p);
      prop.candidate.mutation = "seed";
      addOrigin(prop.candidate, "seed");
      out.push_back(std::move(prop));
    }
    return out;
  } catch (const std::exception& e) {
    return {failure(e.what())};
  }
}

Proposal TemplateProposer::propose(const ProposalContext& ctx) {
  if (!ctx.task) return failure("propose: no task in the context");
  TaskSpec spec;
  try {
    spec = parseTaskSpec(ctx.task->specJson);
  } catch (const std::exception& e) {
    return failure(std::string("task spec: ") + e.what());
  }
  return proposeFor(spec, ctx);
}

Proposal TemplateProposer::proposeFor(const TaskSpec& spec, const ProposalContext& ctx) const {
  try {
    const KernelProblem p = problemFor(spec);
    templates::Rng rng(ctx.seed);
    std::string strategy = ctx.strategy ? ctx.strategy->name
                           : ctx.parents.size() >= 2 ? "crossover"
                           : ctx.parents.size() == 1 ? "mutate:gene"
                                                     : "explore:new-architecture";
    std::vector<Genome> parents;
    std::string parentIds;
    if (strategy != "explore:new-architecture") {
      for (const Candidate* c : ctx.parents) {
        if (!c) return failure("propose: a parent is null");
        parents.push_back(parentGenome(*c, p));
        parentIds += (parentIds.empty() ? "#" : ", #") + std::to_string(c->id);
      }
    } else {
      // Foreign parents (an LLM's kernel) have no genome: they cannot be avoided, only skipped.
      for (const Candidate* c : ctx.parents)
        if (c) try {
            parents.push_back(parentGenome(*c, p));
          } catch (const std::invalid_argument&) {
          }
    }

    // Knowledge as priors of every choice below (gene_priors.h).
    const ChoicePriors priors = ChoicePriors::fromContext(ctx.claims, ctx.knowledge);
    Genome child;
    std::string origin;
    if (strategy == "mutate:gene") {
      if (parents.empty()) return failure("mutate:gene needs a parent");
      std::vector<templates::GenePreference> prefs;
      for (const KnowledgeEntry* k : ctx.knowledge) {
        if (!k || k->status != KnowledgeStatus::Validated) continue;
        if (!k->scopeFamily.empty() && k->scopeFamily != p.taskFamily) continue;
        if (auto pref = templates::parseDecision(k->decision)) prefs.push_back(*pref);
      }
      // A parent from another shape (a sealed kernel) is first made legal here.
      const Genome base = templates::nearestLegal(parents[0], p, rng);
      const std::string focus = strategyOption(ctx.strategy, "gene");
      auto weighted = templates::mutateGeneWithPriors(base, p, rng, focus, priors);
      auto m = weighted ? *weighted : templates::mutateGene(base, p, rng, focus, prefs);
      child = m.child;
      origin = "mutate:gene " + m.description;
    } else if (strategy == "mutate:param") {
      if (parents.empty()) return failure("mutate:param needs a parent");
      const std::string countText = strategyOption(ctx.strategy, "count");
      const int count = countText.empty() ? 1 : std::stoi(countText);
      auto weighted = templates::mutateParamsWithPriors(parents[0], p, rng, count, priors);
      auto m = weighted ? *weighted : templates::mutateParams(parents[0], p, rng, count);
      child = m.child;
      origin = "mutate:param " + m.description;
    } else if (strategy == "crossover") {
      if (parents.size() < 2) return failure("crossover needs two parents");
      child = templates::crossover(parents[0], parents[1], p, rng);
      origin = "crossover";
    } else if (strategy == "explore:new-architecture") {
      auto weighted = templates::newArchitectureWithPriors(parents, p, rng, priors);
      child = weighted ? *weighted : templates::newArchitecture(parents, p, rng);
      origin = "explore:new-architecture";
    } else {
      return failure("unknown strategy '" + strategy +
                     "' (template strategies: mutate:gene, mutate:param, crossover, explore:new-architecture)");
    }
    if (!parentIds.empty()) origin += " (parents " + parentIds + ")";

    Proposal out;
    out.candidate = candidateFor(child, p);
    out.candidate.mutation = strategy;
    out.candidate.generation = ctx.generation;
    out.candidate.metaPrompt = ctx.strategy ? ctx.strategy->id : 0;
    for (const Candidate* c : ctx.parents)
      if (c && strategy != "explore:new-architecture") out.candidate.parents.push_back(c->id);
    addOrigin(out.candidate, origin);
    return out;
  } catch (const std::exception& e) {
    return failure(e.what());
  }
}

std::vector<MetaPrompt> TemplateProposer::initialStrategies() const {
  auto strategy = [](const std::string& name, const std::string& text) {
    MetaPrompt m;
    m.name = name;
    m.text = text;
    return m;
  };
  return {
      strategy("mutate:gene", ""),
      strategy("mutate:param", "count=1"),
      strategy("crossover", ""),
      strategy("explore:new-architecture", ""),
  };
}

MetaPrompt TemplateProposer::varyStrategy(const MetaPrompt& s, std::uint64_t seed) const {
  templates::Rng rng(seed);
  MetaPrompt v = s;
  v.parent = s.id;
  v.id = 0;
  v.uses = 0;
  v.improvements = 0;
  if (s.name == "mutate:param") {
    v.text = "count=" + std::to_string(std::uniform_int_distribution<int>(1, 3)(rng));
  } else if (s.name == "mutate:gene") {
    // Focus on one gene; a family without it mutates any gene.
    static const char* kGenes[] = {"",        "vector",   "memory",      "granularity", "pass",   "reduction",
                                   "staging", "pipeline", "tensor_core", "epilogue",    "grid",   "stats"};
    v.text = std::string("gene=") + kGenes[std::uniform_int_distribution<std::size_t>(0, std::size(kGenes) - 1)(rng)];
    if (v.text == "gene=") v.text = "";
  }
  return v;
}

std::vector<TunableParameter> TemplateProposer::tunables(const Candidate& c) const {
  try {
    const Genome g = Genome::fromJson(c.genomeJson);
    return templates::designSpaceFor(g.family).parameters(g.family, g.genes);
  } catch (const std::exception&) {
    return {};  // not a template kernel: nothing to tune
  }
}

ParameterPoint TemplateProposer::parametersOf(const Candidate& c) const {
  try {
    return Genome::fromJson(c.genomeJson).params;
  } catch (const std::invalid_argument&) {
    return {};
  }
}

Proposal TemplateProposer::withParameters(const Task& task, const Candidate& base, const ParameterPoint& point) {
  TaskSpec spec;
  try {
    spec = parseTaskSpec(task.specJson);
  } catch (const std::exception& e) {
    return failure(std::string("task spec: ") + e.what());
  }
  return withParametersFor(spec, base, point);
}

Proposal TemplateProposer::withParametersFor(const TaskSpec& spec, const Candidate& base,
                                             const ParameterPoint& point) const {
  try {
    const KernelProblem p = problemFor(spec);
    // A genome stored before a parameter existed takes its fallback first, so it can be tuned too.
    Genome g = templates::withFallbacks(parentGenome(base, p), p);
    for (const auto& [name, value] : point) {
      if (!g.params.count(name))
        return failure("parameter " + name + " does not belong to " + g.architectureKey());
      g.params[name] = value;
    }
    const auto errors = templates::checkGenome(g, p);
    if (!errors.empty()) return failure("illegal parameters {" + g.paramsText() + "}: " + joined(errors));
    Proposal out;
    out.candidate = candidateFor(g, p);
    out.candidate.mutation = "tune";
    out.candidate.generation = base.generation;
    out.candidate.parents = {base.id};
    addOrigin(out.candidate, "tune {" + g.paramsText() + "} (parent #" + std::to_string(base.id) + ")");
    return out;
  } catch (const std::exception& e) {
    return failure(e.what());
  }
}

}  // namespace crucible
