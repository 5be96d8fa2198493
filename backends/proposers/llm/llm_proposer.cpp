// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/llm_proposer.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <limits>
#include <nlohmann/json.hpp>

#include "backends/proposers/llm/kernel_descriptor.h"
#include "backends/proposers/llm/reply_blocks.h"
#include "backends/proposers/llm/reply_parser.h"
#include "backends/proposers/llm/strategy_sections.h"
#include "core/io/utf8_text.h"

namespace crucible::llm {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxStoredReply = 64 * 1024;
constexpr std::size_t kMaxStoredSection = 16 * 1024;   // per prompt section kept in genomeJson
constexpr std::size_t kMaxStoredPrompt = 64 * 1024;    // all sections together
constexpr std::size_t kMaxCompileLogInRepair = 4000;
constexpr std::size_t kMaxNotes = 100;
constexpr int kMaxSeeds = 16;

// What the compiler said, for the model: the errors first, then the log.
std::string compileProblem(const CompileReport& r) {
  std::string out;
  for (const CompileDiagnostic& d : r.diagnostics) {
    if (d.severity != "error") continue;
    out += "line " + std::to_string(d.line) + ":" + std::to_string(d.column) + ": error: " + d.message + "\n";
    if (out.size() > kMaxCompileLogInRepair) break;
  }
  if (out.empty()) out = r.log.empty() ? "the compiler failed without a message\n" : r.log;
  return utf8Capped(out, kMaxCompileLogInRepair);
}

std::string firstLineOf(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

LlmProposer::LlmProposer(LlmSettings settings, std::shared_ptr<ChatClient> client, Compiler* compiler)
    : settings_(std::move(settings)),
      client_(std::move(client)),
      compiler_(compiler),
      bandit_(settings_.models.empty() ? throw LlmSettingsError("models", "the language-model proposer needs at least one model")
                                       : settings_.models,
              settings_.costWeight) {
  if (!client_) throw std::invalid_argument("LlmProposer: no chat client");
}

void LlmProposer::setContextProvider(ContextProvider provider) {
  if (!provider) return provider_ = nullptr, void();
  provider_ = [provider = std::move(provider)](const ProposalContext& ctx, PromptContext& pc) {
    provider(ctx, pc);
    return std::shared_ptr<const void>();
  };
}
void LlmProposer::setOwningContextProvider(OwningContextProvider provider) { provider_ = std::move(provider); }
void LlmProposer::setCancelToken(CancelToken token) { cancel_ = std::move(token); }

std::string LlmProposer::name() const { return "llm:" + settings_.models.front().name; }

void LlmProposer::setOutcomeSource(OutcomeSource source) {
  std::lock_guard lock(banditMutex_);
  outcomes_ = std::move(source);
}

void LlmProposer::observeOutcome(const ModelOutcome& outcome) {
  std::lock_guard lock(banditMutex_);
  bandit_.reward(bandit_.indexOf(outcome.model), outcome.reward);
}

ModelArmStats LlmProposer::modelStats(const std::string& model) const {
  std::lock_guard lock(banditMutex_);
  const std::size_t i = bandit_.indexOf(model);
  if (i >= settings_.models.size()) throw std::invalid_argument("no model '" + model + "' in the settings");
  return bandit_.stats(i);
}

double LlmProposer::modelScore(const std::string& model) const {
  std::lock_guard lock(banditMutex_);
  const std::size_t i = bandit_.indexOf(model);
  if (i >= settings_.models.size()) throw std::invalid_argument("no model '" + model + "' in the settings");
  return bandit_.score(i);
}

void LlmProposer::pullOutcomes() {
  if (!outcomes_ || settings_.models.size() < 2) return;  // one model: nothing to choose
  for (const ModelOutcome& o : outcomes_()) bandit_.reward(bandit_.indexOf(o.model), o.reward);
}

std::size_t LlmProposer::startModel() {
  std::lock_guard lock(banditMutex_);
  pullOutcomes();
  return bandit_.start();
}

void LlmProposer::billModel(const Conversation& conv) {
  if (!conv.model) return;
  std::lock_guard lock(banditMutex_);
  bandit_.bill(conv.modelIndex, conv.usage);
}

void LlmProposer::rememberSource(const std::string& source) {
  std::lock_guard lock(mutex_);
  seen_.insert(normalisedSource(source));
}

bool LlmProposer::claimNovel(const std::string& source) {
  std::lock_guard lock(mutex_);
  return seen_.insert(normalisedSource(source)).second;
}

LlmUsage LlmProposer::totalUsage() const {
  std::lock_guard lock(mutex_);
  return total_;
}

std::vector<std::string> LlmProposer::strategyNotes() const {
  std::lock_guard lock(mutex_);
  return notes_;
}

void LlmProposer::note(const std::string& text) const {
  std::lock_guard lock(mutex_);
  if (notes_.size() >= kMaxNotes) notes_.erase(notes_.begin());
  notes_.push_back(text);
}

ChatReply LlmProposer::send(const LlmModelSettings& model, const std::vector<ChatMessage>& messages, LlmUsage& usage) const {
  ChatRequest req;
  req.model = model.name;
  req.system = systemPrompt();
  req.messages = messages;
  req.temperature = settings_.temperature;
  req.maxTokens = settings_.maxTokens;
  req.timeout = std::chrono::seconds(settings_.timeoutSeconds);
  ChatReply reply = client_->send(req, cancel_);
  LlmUsage one;
  one.add(model, reply);
  usage += one;
  std::lock_guard lock(mutex_);
  total_ += one;
  return reply;
}

std::vector<MetaPrompt> LlmProposer::initialStrategies() const {
  const std::string measure =
      "## Guidance\n"
      "- Read the figures: is the parent bound by memory bandwidth or by compute? Compare its time with the minimum "
      "bytes over the measured bandwidth.\n"
      "- Prefer wide (16-byte) coalesced global accesses, enough independent work per thread to hide latency, and "
      "warp shuffles over shared-memory round trips for reductions.\n"
      "- Keep register use moderate; avoid spills.\n";
  MetaPrompt rewrite;
  rewrite.name = "llm:rewrite";
  rewrite.text = "## Goal\nWrite a faster kernel than the parent for this exact task and shape, keeping it correct.\n" + measure;
  MetaPrompt edit;
  edit.name = "llm:edit";
  edit.text = "## Goal\nMake one or two targeted changes to the parent that remove its main bottleneck.\n" + measure;
  MetaPrompt explore;
  explore.name = "llm:explore";
  explore.text =
      "## Goal\nFind an architecture that none of the kernels shown uses: a different mapping of work to threads, "
      "a different memory path or a different reduction scheme.\n" + measure;
  return {rewrite, edit, explore};
}

std::vector<Proposal> LlmProposer::seeds(const Task& task, std::uint64_t seed) { return seedsUpTo(task, seed, false); }

std::vector<Proposal> LlmProposer::seedPlans(const Task& task, std::uint64_t seed) { return seedsUpTo(task, seed, true); }

std::vector<Proposal> LlmProposer::seedsUpTo(const Task& task, std::uint64_t seed, bool plansOnly) {
  const int n = std::clamp(seedCount_, 0, kMaxSeeds);
  const std::vector<MetaPrompt> strategies = initialStrategies();
  const MetaPrompt* explore = nullptr;
  for (const auto& s : strategies)
    if (s.name == "llm:explore") explore = &s;
  std::vector<std::future<Proposal>> pending;
  for (int i = 0; i < n; ++i) {
    ProposalContext ctx;
    ctx.task = &task;
    ctx.strategy = explore;
    ctx.seed = seed + static_cast<std::uint64_t>(i);
    pending.push_back(std::async(std::launch::async, [this, ctx, plansOnly] {
      ArchitectureStep step = planArchitecture(ctx, "seed");
      if (step.ok && !plansOnly) return implement(ctx, std::move(step.conversation));
      return billStrategyRewrites(std::move(step.proposal));
    }));
  }
  std::vector<Proposal> out;
  for (auto& f : pending) out.push_back(f.get());
  return out;
}

Proposal LlmProposer::propose(const ProposalContext& ctx) {
  ArchitectureStep step = planArchitecture(ctx);
  return step.ok ? implement(ctx, std::move(step.conversation)) : billStrategyRewrites(std::move(step.proposal));
}

Proposal LlmProposer::billStrategyRewrites(Proposal p) const {
  if (!p.ok && !p.keep) return p;  // not stored: the next one carries it
  LlmUsage carried;
  {
    std::lock_guard lock(mutex_);
    if (unbilledStrategy_.requests == 0) return p;
    carried = unbilledStrategy_;
    unbilledStrategy_ = LlmUsage{};
  }
  json g = json::parse(p.candidate.genomeJson, nullptr, false);
  if (g.is_discarded() || !g.is_object()) g = json::object();
  g["llmStrategy"] = toJsonValue(carried);
  p.candidate.genomeJson = g.dump();
  return p;
}

Proposal LlmProposer::finish(const ProposalContext& ctx, const Conversation& conv, const ParsedReply& parsed,
                             const std::optional<CompileReport>& report, const std::string& detail,
                             const std::string& source) const {
  Proposal p;
  Candidate& c = p.candidate;
  c.generation = ctx.generation;
  c.source = source;
  c.launch = parsed.launch;
  for (const Candidate* par : ctx.parents)
    if (par) c.parents.push_back(par->id);
  c.proposer = "llm:" + conv.model->name;
  c.mutation = (conv.mutation.empty() ? "llm:" + conv.mode : conv.mutation) +
               (conv.usage.repairs > 0 ? "+repair" + std::to_string(conv.usage.repairs) : "");
  c.metaPrompt = ctx.strategy ? ctx.strategy->id : 0;
  c.architectureKey = "llm:" + slugOf(conv.plan ? conv.plan->name : "unplanned");
  c.descriptor = describeKernel(source, report);
  c.compile = report;
  json g;
  g["llm"] = toJsonValue(conv.usage);
  g["mode"] = conv.mode;
  if (conv.plan) g["plan"] = {{"name", conv.plan->name}, {"plan", conv.plan->plan}};
  // The prompt as the model saw it, bounded: a project stores one per candidate.
  g["prompt"] = json::array();
  std::size_t stored = 0;
  for (const PromptSection& s : conv.prompt.sections) {
    const std::size_t room = stored >= kMaxStoredPrompt ? 0 : kMaxStoredPrompt - stored;
    const std::string body = utf8Capped(s.body, std::min(kMaxStoredSection, room));
    stored += body.size();
    g["prompt"].push_back({{"key", s.key}, {"title", s.title}, {"body", body}});
  }
  g["descriptorFrom"] = report && report->ok && !report->features.empty() ? "ptx" : "source";
  if (parsed.fromEdits) g["edits"] = parsed.edits;
  if (!detail.empty()) g["lastReply"] = utf8Capped(conv.lastReply, kMaxStoredReply);
  c.genomeJson = g.dump();
  if (detail.empty()) {
    c.status = CandidateStatus::Proposed;
    return p;
  }
  c.status = CandidateStatus::CompileFailed;
  c.statusDetail = detail;
  p.ok = false;
  p.error = detail;
  // Kept for inspection when the model said something; a request that got no
  // reply at all (no key, server down) leaves nothing worth storing.
  p.keep = !source.empty();
  return p;
}

LlmProposer::ArchitectureStep LlmProposer::planArchitecture(const ProposalContext& ctx, const std::string& mutation) {
  ArchitectureStep step;
  if (!ctx.task) {
    step.proposal = Proposal{{}, false, "propose: no task in the context"};
    return step;
  }
  Conversation& conv = step.conversation;
  try {
    conv.spec = parseTaskSpec(ctx.task->specJson);
  } catch (const std::exception& e) {
    step.proposal = Proposal{{}, false, std::string("task spec: ") + e.what()};
    return step;
  }
  conv.modelIndex = startModel();
  conv.model = &settings_.models[conv.modelIndex];
  conv.mutation = mutation;
  const Candidate* parent = ctx.parents.empty() ? nullptr : ctx.parents.front();
  conv.mode = strategyMode(ctx.strategy ? ctx.strategy->name : "", parent != nullptr);

  PromptContext pc;
  pc.parent = parent;
  pc.knowledge = ctx.knowledge;
  pc.strategy = ctx.strategy;
  std::shared_ptr<const void> shown;  // owns what the provider's pointers point to
  if (provider_) shown = provider_(ctx, pc);
  pc.spec = &conv.spec;  // the provider adds context; the task is the one being proposed for
  // A crossover's other parents are shown first among the inspirations.
  for (std::size_t i = ctx.parents.size(); i-- > 1;)
    if (ctx.parents[i] && std::find(pc.inspirations.begin(), pc.inspirations.end(), ctx.parents[i]) == pc.inspirations.end())
      pc.inspirations.insert(pc.inspirations.begin(), ctx.parents[i]);
  conv.prompt = buildPlanPrompt(pc);
  conv.messages.push_back({"user", conv.prompt.text()});

  const ParsedReply none;
  try {
    const ChatReply reply = send(*conv.model, conv.messages, conv.usage);
    conv.lastReply = reply.text;
    const PlanParse plan = parseArchitecturePlan(reply.text);
    if (!plan.ok) {
      step.proposal = finish(ctx, conv, none, std::nullopt,
                             std::string("no-plan: ") +
                                 (reply.stopReason == "length" ? "the model hit its token limit; " : "") + plan.problem,
                             reply.text);
      billModel(conv);
      return step;
    }
    conv.plan = plan.plan;
    conv.messages.push_back({"assistant", reply.text});
  } catch (const ChatError& e) {
    step.proposal = finish(ctx, conv, none, std::nullopt,
                           std::string("chat-error: ") + chatErrorKindName(e.kind()) + ": " + e.what(),
                           conv.lastReply.empty() ? e.rawBody() : conv.lastReply);
    billModel(conv);
    return step;
  }
  step.ok = true;
  step.proposal = finish(ctx, conv, none, std::nullopt, "", "");
  step.proposal.candidate.status = CandidateStatus::AwaitingReview;
  step.proposal.candidate.statusDetail = "architecture: " + conv.plan->name;
  return step;
}

Proposal LlmProposer::implement(const ProposalContext& ctx, Conversation conv) {
  Proposal p = implementTurns(ctx, conv);
  // The candidate's genome holds the whole proposal's usage, plan turn included.
  const LlmUsage spent = llmUsageOfGenome(p.candidate.genomeJson);
  if (conv.model && spent.requests > 0) {
    std::lock_guard lock(banditMutex_);
    bandit_.bill(conv.modelIndex, spent);
  }
  return billStrategyRewrites(std::move(p));
}

Proposal LlmProposer::implementTurns(const ProposalContext& ctx, Conversation conv) {
  if (!conv.model || !conv.plan) return Proposal{{}, false, "implement: the conversation has no architecture plan"};
  const TaskSpec& spec = conv.spec;
  const Candidate* parent = ctx.parents.empty() ? nullptr : ctx.parents.front();
  // The requests need only the task, the parent and the strategy.
  PromptContext pc;
  pc.spec = &spec;
  pc.parent = parent;
  pc.strategy = ctx.strategy;

  ParsedReply parsed;
  std::optional<CompileReport> report;
  try {
    conv.messages.push_back({"user", implementationRequest(pc, *conv.plan)});
    Candidate previous;  // what edits in a repair turn apply to
    const Candidate* editBase = parent;
    for (;;) {
      const ChatReply reply = send(*conv.model, conv.messages, conv.usage);
      conv.lastReply = reply.text;
      conv.messages.push_back({"assistant", reply.text});
      report.reset();
      parsed = parseKernelReply(ReplyInput{reply.text, reply.stopReason, &spec, editBase});
      std::string problem;
      if (parsed.outcome == ReplyOutcome::WrongSignature || parsed.outcome == ReplyOutcome::BadLaunchRule) {
        problem = parsed.detail();
      } else if (!parsed.ok()) {
        return finish(ctx, conv, parsed, report, parsed.detail(), parsed.source.empty() ? reply.text : parsed.source);
      } else {
        if (!claimNovel(parsed.source))
          return finish(ctx, conv, parsed, report,
                        "duplicate: the kernel (ignoring comments and whitespace) was already proposed in this run",
                        parsed.source);
        if (!compiler_) return finish(ctx, conv, parsed, report, "", parsed.source);
        CompileRequest creq;
        creq.source = parsed.source;
        creq.entry = parsed.launch.entry;
        creq.arch = settings_.compileArch;
        report = compiler_->compile(creq).report;
        if (report->ok) return finish(ctx, conv, parsed, report, "", parsed.source);
        problem = "compile-failed: " + compileProblem(*report);
      }
      if (conv.usage.repairs >= settings_.repairTurns) {
        const std::string why =
            report && !report->ok ? "compile-failed: " + firstLineOf(compileProblem(*report)) : problem;
        return finish(ctx, conv, parsed, report,
                      why + " (after " + std::to_string(conv.usage.repairs) + " repair turn" +
                          (conv.usage.repairs == 1 ? "" : "s") + ")",
                      parsed.source);
      }
      ++conv.usage.repairs;
      previous = Candidate{};
      previous.source = parsed.source;
      previous.launch = parsed.launch.entry.empty() ? (parent ? parent->launch : spec.baseline.launch) : parsed.launch;
      editBase = &previous;
      conv.messages.push_back({"user", repairRequest(pc, problem)});
    }
  } catch (const ChatError& e) {
    return finish(ctx, conv, parsed, report, std::string("chat-error: ") + chatErrorKindName(e.kind()) + ": " + e.what(),
                  conv.lastReply.empty() ? e.rawBody() : conv.lastReply);
  }
}

Proposal LlmProposer::planFirst(const ProposalContext& ctx) {
  ArchitectureStep step = planArchitecture(ctx);
  // A failed plan is a stored failure like any other (it carries the strategy rewrites' usage);
  // a good one carries them too, into the implementation's genome.
  return billStrategyRewrites(std::move(step.proposal));
}

bool LlmProposer::isPlan(const Candidate& c) const {
  if (!c.source.empty() || c.proposer.rfind("llm:", 0) != 0) return false;
  const json g = json::parse(c.genomeJson, nullptr, false);
  return g.is_object() && g.contains("plan") && g["plan"].is_object() && g.contains("llm") && g["llm"].is_object();
}

Proposal LlmProposer::implementPlan(const ProposalContext& ctx, const Candidate& plan) {
  auto refuse = [&](const std::string& why) {
    Proposal p;
    p.candidate = plan;
    p.candidate.status = CandidateStatus::CompileFailed;
    p.candidate.statusDetail = "no-plan: " + why;
    p.ok = false;
    p.error = p.candidate.statusDetail;
    p.keep = true;
    return p;
  };
  if (!ctx.task) return refuse("no task in the context");
  const json g = json::parse(plan.genomeJson, nullptr, false);
  if (!isPlan(plan) || g.is_discarded()) return refuse("the candidate holds no architecture plan");
  Conversation conv;
  try {
    conv.spec = parseTaskSpec(ctx.task->specJson);
    const std::string model = g["llm"].value("model", "");
    conv.modelIndex = bandit_.indexOf(model);  // the models never change after construction
    if (conv.modelIndex >= settings_.models.size())
      return refuse("the plan's model '" + model + "' is not in the settings any more");
    conv.model = &settings_.models[conv.modelIndex];
    conv.mode = g.value("mode", "rewrite");
    conv.mutation = plan.mutation.substr(0, plan.mutation.find("+repair"));
    if (conv.mutation == "llm:" + conv.mode) conv.mutation.clear();
    conv.usage = llmUsageOfGenome(plan.genomeJson);
    conv.usage.model = conv.model->name;
    for (const json& sec : g.value("prompt", json::array()))
      if (sec.is_object())
        conv.prompt.sections.push_back({sec.value("key", ""), sec.value("title", ""), sec.value("body", "")});
    conv.plan = ArchitecturePlan{g["plan"].value("name", ""), g["plan"].value("plan", "")};
  } catch (const std::exception& e) {
    return refuse(std::string("the stored plan cannot be read: ") + e.what());
  }
  if (conv.plan->name.empty()) return refuse("the stored plan has no name");
  conv.messages.push_back({"user", conv.prompt.text()});
  conv.messages.push_back(
      {"assistant", "```json\n" + json{{"name", conv.plan->name}, {"plan", conv.plan->plan}}.dump() + "\n```\n"});
  const LlmUsage planned = conv.usage;
  Proposal p = implement(ctx, std::move(conv));  // bills the model for the whole proposal, plan included
  // The stored plan keeps its own turn's usage (and the strategy rewrites it
  // carried): this candidate accounts only what the implementation cost, so a
  // run's sum counts every request once.
  // A plan that was never stored (id 0: implemented at once) is accounted here in full, with the
  // strategy rewrites it carried.
  if (plan.id == 0) {
    json out = json::parse(p.candidate.genomeJson, nullptr, false);
    if (g.contains("llmStrategy") && out.is_object()) {
      LlmUsage carried = llmUsageOfGenome(json{{"llm", g["llmStrategy"]}}.dump());
      if (out.contains("llmStrategy")) carried += llmUsageOfGenome(json{{"llm", out["llmStrategy"]}}.dump());
      out["llmStrategy"] = toJsonValue(carried);
      p.candidate.genomeJson = out.dump();
    }
    return p;
  }
  json out = json::parse(p.candidate.genomeJson, nullptr, false);
  if (out.is_object() && out.contains("llm") && out["llm"].is_object()) {
    json& u = out["llm"];
    u["tokensIn"] = u.value("tokensIn", std::int64_t{0}) - planned.tokensIn;
    u["tokensOut"] = u.value("tokensOut", std::int64_t{0}) - planned.tokensOut;
    u["latencyS"] = std::max(0.0, u.value("latencyS", 0.0) - planned.latencyS);
    u["costUsd"] = std::max(0.0, u.value("costUsd", 0.0) - planned.costUsd);
    u["requests"] = u.value("requests", 0) - planned.requests;
    out["planCandidate"] = plan.id;
    p.candidate.genomeJson = out.dump();
  }
  return p;
}

MetaPrompt LlmProposer::varyStrategy(const MetaPrompt& s, std::uint64_t seed) const {
  const std::vector<StrategySection> sections = strategySections(s.text);
  if (sections.empty()) {
    note("varyStrategy(" + s.name + "): the strategy has no sections to rewrite");
    return s;
  }
  json current = json::array();
  for (const auto& sec : sections) current.push_back({{"title", sec.title}, {"body", sec.body}});
  std::string request =
      "You are improving the instructions that guide a CUDA kernel search. The strategy \"" + s.name + "\" has been used " +
      std::to_string(s.uses) + " times and produced " + std::to_string(s.improvements) +
      " improvements. Rewrite the body of each section to make the kernels it produces faster while keeping them "
      "correct. Keep the same titles in the same order; each body at most " +
      std::to_string(settings_.strategySectionMaxChars) +
      " characters. Answer with one ```json block:\n```json\n{\"sections\": " + current.dump() + "}\n```\n";
  (void)seed;
  LlmUsage usage;
  std::size_t arm = 0;
  {
    // The model the bandit would choose now; a rewrite is not a proposal, so it is not counted as one.
    std::lock_guard lock(banditMutex_);
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < settings_.models.size(); ++i)
      if (const double sc = bandit_.score(i); sc > best) best = sc, arm = i;
  }
  const LlmModelSettings& model = settings_.models[arm];
  std::string why;
  std::vector<StrategySection> rewritten;
  try {
    // Whatever the reply says, its tokens were spent: carried into the next stored proposal.
    struct Carry {
      const LlmProposer& self;
      LlmUsage& usage;
      ~Carry() {
        std::lock_guard lock(self.mutex_);
        self.unbilledStrategy_ += usage;
      }
    } carry{*this, usage};
    const ChatReply reply = send(model, {{"user", request}}, usage);
    std::string body;
    for (const FencedBlock& b : fencedBlocks(reply.text))
      if (b.language == "json" || b.language.empty()) body = b.body;
    if (body.empty()) body = reply.text;
    const json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("sections") || !j["sections"].is_array()) {
      why = "the reply has no JSON object with a \"sections\" list";
    } else if (j["sections"].size() != sections.size()) {
      why = "the reply has " + std::to_string(j["sections"].size()) + " sections, the strategy " +
            std::to_string(sections.size());
    } else {
      for (std::size_t i = 0; i < sections.size() && why.empty(); ++i) {
        const json& sec = j["sections"][i];
        if (!sec.is_object() || !sec.contains("title") || !sec["title"].is_string() || !sec.contains("body") ||
            !sec["body"].is_string())
          why = "section " + std::to_string(i + 1) + " is not {\"title\": string, \"body\": string}";
        else if (sec["title"].get<std::string>() != sections[i].title)
          why = "section " + std::to_string(i + 1) + " is titled \"" + utf8Capped(sec["title"].get<std::string>(), 80) +
                "\", expected \"" + sections[i].title + "\"";
        else if (sec["body"].get<std::string>().empty())
          why = "section \"" + sections[i].title + "\" is empty";
        else if (sec["body"].get<std::string>().size() > static_cast<std::size_t>(settings_.strategySectionMaxChars))
          why = "section \"" + sections[i].title + "\" has " + std::to_string(sec["body"].get<std::string>().size()) +
                " characters, above the limit of " + std::to_string(settings_.strategySectionMaxChars);
        else
          rewritten.push_back({sections[i].title, sec["body"].get<std::string>()});
      }
      if (why.empty() && rewritten == sections) why = "the rewrite changed nothing";
    }
  } catch (const ChatError& e) {
    why = std::string("chat-error: ") + chatErrorKindName(e.kind()) + ": " + e.what();
  }
  if (!why.empty()) {
    note("varyStrategy(" + s.name + "): " + why + "; kept unchanged");
    return s;
  }
  MetaPrompt v;
  v.runId = s.runId;
  v.parent = s.id;
  v.text = strategyText(rewritten);
  // The mode stays in the name ("llm:edit:<variant>"): it decides the reply format.
  const std::string mode = strategyMode(s.name, true);
  char tag[17];
  std::snprintf(tag, sizeof tag, "%08zx", std::hash<std::string>{}(v.text) & 0xffffffffu);
  v.name = "llm:" + mode + ":" + tag;
  return v;
}

}  // namespace crucible::llm
