// SPDX-License-Identifier: GPL-3.0-or-later
// The interfaces backends implement. The engine sees only these; tests use
// doubles of them (tests/core), the product uses backends/.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/seal.h"
#include "core/model/task.h"

namespace crucible {

// ---------------------------------------------------------------- proposing

// A tunable parameter of an architecture: its legal values, in order.
struct TunableParameter {
  std::string name;                 // "BLOCK_M"
  std::vector<std::int64_t> values; // legal values, ascending
};
using ParameterPoint = std::map<std::string, std::int64_t>;

struct ProposalContext {
  const Task* task = nullptr;
  std::vector<const Candidate*> parents;  // 0 (fresh), 1 (mutation) or 2 (crossover)
  const MetaPrompt* strategy = nullptr;   // the mutation strategy / meta-prompt to apply
  std::vector<const KnowledgeEntry*> knowledge;  // validated claims in scope, best first
  // The validated, pinned and refuted claims in scope with their scope weights,
  // best first (core/knowledge/claim_scope.h): proposers' priors (choice_priors.h).
  std::vector<WeightedClaim> claims;
  int generation = 0;
  std::uint64_t seed = 0;                 // all randomness of one proposal derives from it
};

struct Proposal {
  Candidate candidate;        // source, launch, genome, architectureKey, descriptor, mutation filled
  bool ok = true;
  std::string error;          // why no candidate came (e.g. an LLM reply with no code)
  // With ok=false: store the candidate anyway, as it is, for inspection (a
  // language-model reply with no usable code, its text as the source). Its
  // status must be a failure (CompileFailed, Invalid, ...; statusDetail says
  // why): it is never compiled or evaluated and uses no evaluation of the
  // budget. Ignored when ok is true.
  bool keep = false;
};

class Proposer {
public:
  virtual ~Proposer() = default;
  virtual std::string name() const = 0;
  // The starting population for a task (may be empty if the proposer needs parents).
  virtual std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) = 0;
  // One child from the context's parents and strategy.
  virtual Proposal propose(const ProposalContext& ctx) = 0;
  // How many propose() calls the engine may make at once for the slots of a
  // generation (a language model that takes tens of seconds per reply wants
  // several). Above 1, propose() must be thread-safe: it is called from
  // several threads at once, each with its own context (whose pointers stay
  // valid until that call returns). Results are used in slot order and each
  // slot's seed is fixed before its call, so a run stays reproducible.
  // A stop or pause does not interrupt a call: no new one starts, and the
  // engine waits for those in flight to return.
  virtual int concurrentProposals() const { return 1; }
  // The GPU the run evaluates on (its first evaluator's), told before the run's first
  // seeds() or propose(). A proposer whose designs are judged by the hardware keeps what it
  // needs (the template proposer: the SM count, for its persistent grids); launch rules
  // never depend on it: they name sm_count, resolved where they launch.
  virtual void setDevice(const Fingerprint& device) { (void)device; }
  // The mutation strategies / meta-prompts this proposer starts with.
  virtual std::vector<MetaPrompt> initialStrategies() const = 0;
  // A variant of a strategy (meta-prompt evolution); may return it unchanged.
  virtual MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const { (void)seed; return s; }
  // Parameter tuning inside one architecture. Empty when the candidate has no tunables.
  virtual std::vector<TunableParameter> tunables(const Candidate& c) const { (void)c; return {}; }
  virtual ParameterPoint parametersOf(const Candidate& c) const { (void)c; return {}; }
  // A candidate of the same architecture with other parameter values; ok=false if illegal.
  virtual Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) {
    (void)task; (void)base; (void)p; return Proposal{{}, false, "proposer has no tunable parameters"};
  }
};

// ---------------------------------------------------------------- compiling

struct CompileRequest {
  std::string source;
  std::string entry;
  std::string arch;                       // "sm_90"; the compiler picks sm_90a when needed
  std::vector<std::string> extraOptions;
};

struct CompileResult {
  CompileReport report;
  std::string cubin;                      // the linked binary, empty on failure
};

class Compiler {
public:
  virtual ~Compiler() = default;
  // Thread-safe: the engine calls it from several CPU threads at once.
  virtual CompileResult compile(const CompileRequest& request) = 0;
};

// ---------------------------------------------------------------- evaluating

struct KernelBinary {
  std::string cubin;
  LaunchRule launch;
};

struct EvaluationRequest {
  const Task* task = nullptr;
  KernelBinary candidate;
  KernelBinary reference;                 // timed interleaved with the candidate
  std::vector<std::uint64_t> seeds;       // one validation trial per seed
  bool time = true;
  bool extended = false;                  // the seal's extended validation (more seeds)
};

struct Evaluation {
  CandidateStatus status = CandidateStatus::Invalid;   // Valid, Invalid, Faulted, TimedOut, ResourceError
  std::string detail;
  std::vector<ValidationTrial> trials;
  std::optional<Timing> timing;
  double gpuSeconds = 0;                  // device time this evaluation used
  // Of gpuSeconds, as the worker measured them (0 when it does not say): the
  // validation trials, and the interleaved timing against the reference.
  double validateSeconds = 0;
  double timeSeconds = 0;
};

struct ProfileResult {
  bool permitted = true;                  // false: counters not permitted on this machine
  std::string detail;
  std::map<std::string, double> metrics;  // CUPTI metric name -> value
};

// One GPU (local worker process, or a remote node). Calls are blocking and
// serialised per evaluator; the engine drives several evaluators in parallel.
class Evaluator {
public:
  virtual ~Evaluator() = default;
  virtual Fingerprint device() const = 0;
  virtual Evaluation evaluate(const EvaluationRequest& request) = 0;
  virtual ProfileResult profile(const Task& task, const KernelBinary& kernel) = 0;
  virtual std::vector<Ceiling> measureCeilings() = 0;
};

// ---------------------------------------------------------------- sanitizing

struct SanitizerFinding {
  std::string tool;      // "memcheck", "racecheck", "initcheck", "synccheck"
  std::string message;   // the tool's report (its first line), or why the tool's run does not count
};

// What the sanitizers said about one kernel. Nothing is sealed unless ran
// and clean are both true: a tool that is missing, failed or did not finish
// refuses the seal as surely as a finding does.
struct SanitizerReport {
  bool ran = false;                           // false: no tool could run (unavailableReason says why)
  bool clean = false;                         // every tool ran to its end and reported nothing
  std::string unavailableReason;              // "compute-sanitizer is not installed (...)"
  std::vector<std::string> tools;             // the tools that ran, in order
  std::map<std::string, int> reportedErrors;  // per tool: the count its summary line gave
  std::vector<SanitizerFinding> findings;
  std::string log;                            // the tools' own reports, capped
  double seconds = 0;                         // wall time of all tools
  std::string shape;                          // the axes the kernel ran at ("M=256, N=4096"), when known
};

// Runs a kernel under memory, race, initialisation and synchronisation
// checkers. Blocking and slow (minutes): the engine calls it only for a
// candidate about to be sealed, from several evaluator threads at once.
class Sanitizer {
public:
  virtual ~Sanitizer() = default;
  // `device`: the position, in the dispatcher's evaluators(), of the evaluator
  // that validated the kernel; a local sanitizer runs on that GPU, so it
  // never disturbs another GPU's timing.
  virtual SanitizerReport sanitize(const Task& task, const KernelBinary& kernel, int device) = 0;
};

// Hands out the evaluators of a machine or a cluster.
class Dispatcher {
public:
  virtual ~Dispatcher() = default;
  virtual std::string name() const = 0;
  virtual std::vector<Evaluator*> evaluators() = 0;
};

}  // namespace crucible
