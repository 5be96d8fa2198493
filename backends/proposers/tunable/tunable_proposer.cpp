// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/tunable/tunable_proposer.h"

#include <algorithm>
#include <random>
#include <nlohmann/json.hpp>
#include "backends/proposers/tunable/tunable_priors.h"
#include "core/io/json_nesting.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxStartingKernelName = 128;
constexpr std::size_t kBoundCacheLimit = 64;
constexpr std::size_t kMaxGenomeBytes = 2 * kMaxTuneDocumentBytes;

Proposal failure(const std::string& error) { return Proposal{{}, false, error}; }

struct TunableGenome {
  std::string kernel;
  TuneSpec tune;
  ParameterPoint point;
};

// The genome of a tunable kernel's candidate, or nullopt for any other candidate.
std::optional<TunableGenome> genomeOf(const Candidate& c) {
  if (c.genomeJson.size() > kMaxGenomeBytes || c.genomeJson.find("\"tunable\"") == std::string::npos) return std::nullopt;
  if (findJsonNestingBeyond(c.genomeJson) != std::string_view::npos) return std::nullopt;
  const json doc = json::parse(c.genomeJson, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("tunable") || !doc["tunable"].is_object()) return std::nullopt;
  const json& t = doc["tunable"];
  if (!t.contains("kernel") || !t["kernel"].is_string() || !t.contains("tune") || !t["tune"].is_object()) return std::nullopt;
  TunableGenome g;
  g.kernel = t["kernel"].get<std::string>();
  try {
    g.tune = parseTuneSpec(t["tune"].dump());
  } catch (const TaskSpecError&) {
    return std::nullopt;
  }
  if (doc.contains("params") && doc["params"].is_object())
    for (auto it = doc["params"].begin(); it != doc["params"].end(); ++it)
      if (it->is_number_integer()) g.point[it.key()] = it->get<std::int64_t>();
  return g;
}

std::string genomeJson(const TunableKernel& k, const ParameterPoint& p) {
  json doc;
  doc["tunable"]["kernel"] = k.name();
  doc["tunable"]["tune"] = json::parse(tuneSpecToJson(k.tune()));
  doc["params"] = json::object();
  for (const auto& [name, value] : p) doc["params"][name] = value;
  return doc.dump();
}

std::string pointText(const ParameterPoint& p) {
  std::string s;
  for (const auto& [name, value] : p) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return s;
}

// "count=2" in a strategy's text: how many parameters a mutation changes (1 or 2).
int changeCount(const MetaPrompt* s) {
  if (!s) return 1;
  const auto at = s->text.find("count=");
  if (at == std::string::npos || at + 6 >= s->text.size()) return 1;
  return s->text[at + 6] >= '2' && s->text[at + 6] <= '9' ? 2 : 1;
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

std::string noParameters(const TunableKernel& k) {
  return "kernel '" + k.name() +
         "' has no tunable parameters: add a tune file (K.tune.json beside K.cu, or --tune FILE) with a "
         "\"parameters\" table, see resources/tasks/README.md, \"Tunable kernels\"";
}

}  // namespace

std::optional<std::string> startingKernelNameProblem(const std::string& name) {
  if (name.empty()) return std::string("a starting kernel needs a name");
  if (name.size() > kMaxStartingKernelName)
    return "the name is longer than " + std::to_string(kMaxStartingKernelName) + " characters";
  for (char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
      return "'" + name + "' has a character other than letters, digits, '_', '.' and '-'";
  return std::nullopt;
}

TunableKernelProposer::TunableKernelProposer(std::vector<StartingKernel> kernels) : kernels_(std::move(kernels)) {}

bool TunableKernelProposer::owns(const Candidate& c) { return genomeOf(c).has_value(); }

std::map<std::string, std::string> TunableKernelProposer::descriptorFor(const TunableKernel& k, const ParameterPoint& p) {
  std::map<std::string, std::string> d{{"kernel", k.name()}};
  for (const auto& t : k.parameters()) {
    const auto it = p.find(t.name);
    if (it == p.end()) continue;
    if (t.values.size() <= 4) {
      d["tune." + t.name] = std::to_string(it->second);
      continue;
    }
    // Four bins of (nearly) equal numbers of values, named by their first and last value.
    const std::size_t at = static_cast<std::size_t>(std::find(t.values.begin(), t.values.end(), it->second) - t.values.begin());
    const std::size_t n = t.values.size(), bin = std::min<std::size_t>(3, at * 4 / n);
    const std::size_t first = (bin * n + 3) / 4, last = std::min(n, ((bin + 1) * n + 3) / 4) - 1;
    d["tune." + t.name] = first == last ? std::to_string(t.values[first])
                                        : std::to_string(t.values[first]) + ".." + std::to_string(t.values[last]);
  }
  return d;
}

Candidate TunableKernelProposer::candidateAt(const TunableKernel& k, const ParameterPoint& p) {
  Candidate c;
  c.source = k.sourceAt(p);
  c.launch = k.launchAt(p);
  c.proposer = "tunable";
  c.genomeJson = genomeJson(k, p);
  c.architectureKey = k.architectureKey();
  c.descriptor = descriptorFor(k, p);
  c.status = CandidateStatus::Proposed;
  return c;
}

std::shared_ptr<const TunableKernel> TunableKernelProposer::bind(const StartingKernel& k, const Task& task,
                                                                  std::string* error) const {
  const std::string where = "kernel '" + k.name + "'" + (k.origin.empty() ? "" : " (" + k.origin + ")");
  if (auto problem = startingKernelNameProblem(k.name)) {
    *error = where + ": " + *problem;
    return nullptr;
  }
  try {
    const TaskSpec spec = parseTaskSpec(task.specJson);
    auto bound = std::make_shared<const TunableKernel>(k.name, k.source, k.tune, spec);
    std::lock_guard lock(mutex_);
    if (bound_.size() >= kBoundCacheLimit) bound_.clear();
    bound_[bound->architectureKey() + "|" + std::to_string(fnv1a(task.specJson))] = bound;
    return bound;
  } catch (const TaskSpecError& e) {
    *error = where + " does not fit task '" + task.name + "': " + e.what();
  } catch (const std::exception& e) {
    *error = where + ": " + e.what();
  }
  return nullptr;
}

std::shared_ptr<const TunableKernel> TunableKernelProposer::kernelOf(const Candidate& c, const Task& task,
                                                                      std::string* error) const {
  const auto g = genomeOf(c);
  if (!g) {
    *error = "candidate #" + std::to_string(c.id) + " is not a tunable kernel";
    return nullptr;
  }
  const auto source = sourceBeforeParameters(c.source);
  if (!source) {
    *error = "candidate #" + std::to_string(c.id) + " of kernel '" + g->kernel + "' lost its parameter header";
    return nullptr;
  }
  const std::string key = c.architectureKey + "|" + std::to_string(fnv1a(task.specJson));
  {
    std::lock_guard lock(mutex_);
    // The key names the source by its hash; the comparison makes sure it is this source.
    if (auto it = bound_.find(key); it != bound_.end() && it->second->source() == *source) return it->second;
  }
  auto bound = bind(StartingKernel{g->kernel, *source, g->tune, "candidate #" + std::to_string(c.id)}, task, error);
  if (bound && bound->architectureKey() != c.architectureKey) {
    *error = "candidate #" + std::to_string(c.id) + " of kernel '" + g->kernel +
             "' does not match its architecture key (its source was changed)";
    return nullptr;
  }
  return bound;
}

std::vector<Proposal> TunableKernelProposer::seeds(const Task& task, std::uint64_t seed) {
  (void)seed;  // the starting points are the users' defaults, not drawn
  std::vector<Proposal> out;
  for (const StartingKernel& k : kernels_) {
    std::string error;
    const auto bound = bind(k, task, &error);
    if (!bound) {
      out.push_back(failure(error));
      continue;
    }
    Proposal p;
    p.candidate = candidateAt(*bound, bound->startingPoint());
    p.candidate.proposer = "user";
    p.candidate.mutation = "seed";
    out.push_back(std::move(p));
  }
  return out;
}

Proposal TunableKernelProposer::propose(const ProposalContext& ctx) {
  if (!ctx.task) return failure("propose: no task in the context");
  std::mt19937_64 rng(ctx.seed);
  std::string error;
  const Candidate* parent = ctx.parents.empty() ? nullptr : ctx.parents[0];
  if (!parent) {
    // A fresh point: a random walk from a starting kernel's start.
    if (kernels_.empty()) return failure("the tunable proposer needs a parent or a starting kernel");
    const StartingKernel& k = kernels_[std::uniform_int_distribution<std::size_t>(0, kernels_.size() - 1)(rng)];
    const auto bound = bind(k, *ctx.task, &error);
    if (!bound) return failure(error);
    if (bound->parameters().empty()) return failure(noParameters(*bound));
    ParameterPoint p = bound->startingPoint();
    for (int step = 0; step < 3; ++step)
      if (auto n = bound->neighbour(p, 2, rng)) p = *n;
    Proposal out;
    out.candidate = candidateAt(*bound, p);
    out.candidate.mutation = "explore";
    out.candidate.generation = ctx.generation;
    return out;
  }
  const auto bound = kernelOf(*parent, *ctx.task, &error);
  if (!bound) return failure(error);
  if (bound->parameters().empty()) return failure(noParameters(*bound));
  const ParameterPoint from = parametersOf(*parent);

  std::optional<ParameterPoint> child;
  std::string mutation = "mutate:param";
  const Candidate* mate = ctx.parents.size() > 1 ? ctx.parents[1] : nullptr;
  if (mate && mate->architectureKey == parent->architectureKey && owns(*mate)) {
    // Uniform crossover of two points of the same kernel, kept when legal and new.
    const ParameterPoint other = parametersOf(*mate);
    ParameterPoint mixed;
    for (const auto& t : bound->parameters()) {
      const bool fromMate = std::bernoulli_distribution(0.5)(rng) && other.count(t.name);
      mixed[t.name] = fromMate ? other.at(t.name) : (from.count(t.name) ? from.at(t.name) : t.values.front());
    }
    if (mixed != from && mixed != other && !bound->problem(mixed)) {
      child = mixed;
      mutation = "crossover";
    }
  }
  if (!child)  // knowledge as priors of the parameter values (tunable_priors.h)
    child = neighbourWithPriors(*bound, from, changeCount(ctx.strategy), rng,
                                ChoicePriors::fromContext(ctx.claims, ctx.knowledge));
  if (!child)
    return failure("kernel '" + bound->name() + "': no legal point differs from {" + pointText(from) +
                   "} in one or two parameters");
  Proposal out;
  out.candidate = candidateAt(*bound, *child);
  out.candidate.mutation = mutation;
  out.candidate.generation = ctx.generation;
  out.candidate.metaPrompt = ctx.strategy ? ctx.strategy->id : 0;
  for (const Candidate* c : ctx.parents)
    if (c && (c == parent || mutation == "crossover")) out.candidate.parents.push_back(c->id);
  return out;
}

std::vector<MetaPrompt> TunableKernelProposer::initialStrategies() const {
  auto strategy = [](const std::string& name, const std::string& text) {
    MetaPrompt m;
    m.name = name;
    m.text = text;
    return m;
  };
  // The template proposer's names: in a run where both compete, one strategy serves either kind of parent.
  return {strategy("mutate:param", "count=1"), strategy("mutate:param", "count=2"), strategy("crossover", "")};
}

std::vector<TunableParameter> TunableKernelProposer::tunables(const Candidate& c) const {
  const auto g = genomeOf(c);
  return g ? g->tune.parameters : std::vector<TunableParameter>{};
}

ParameterPoint TunableKernelProposer::parametersOf(const Candidate& c) const {
  const auto g = genomeOf(c);
  return g ? g->point : ParameterPoint{};
}

Proposal TunableKernelProposer::withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) {
  std::string error;
  const auto bound = kernelOf(base, task, &error);
  if (!bound) return failure(error);
  ParameterPoint point = parametersOf(base);
  for (const auto& [name, value] : p) {
    if (!point.count(name)) return failure("kernel '" + bound->name() + "' has no parameter " + name);
    point[name] = value;
  }
  if (auto why = bound->problem(point))
    return failure("kernel '" + bound->name() + "': illegal parameters {" + pointText(point) + "}: " + *why);
  Proposal out;
  out.candidate = candidateAt(*bound, point);
  out.candidate.mutation = "tune";
  out.candidate.generation = base.generation;
  out.candidate.parents = {base.id};
  return out;
}

}  // namespace crucible
