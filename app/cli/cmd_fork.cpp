// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli fork: a user's edit of a candidate joins the candidate's run.
// The kernel is compiled (NVRTC), validated, timed against the run's
// reference and profiled on this machine's GPU through a crucible-worker, by
// the same rules as every candidate of the run (core/engine/user_evaluation.h),
// and stored as the candidate's child with proposer "user". An engine running
// that run, in this or another process, picks it up between generations.
#include <pthread.h>
#include <signal.h>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <thread>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/json_output.h"
#include "app/cli/launch_file.h"
#include "app/cli/options.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/sanitize/compute_sanitizer.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "core/engine/user_evaluation.h"
#include "core/io/bounded_file.h"
#include "core/io/utf8_text.h"
#include "core/model/model_json.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "Evaluates your edit of candidate N (or, with --run, a kernel of your own) on this machine's GPU and records it\n"
    "in the candidate's run: compiled, validated on the run's validation seeds, timed against the run's reference and\n"
    "profiled, by the same rules as every candidate of the run (a kernel fast enough for a seal gets the extended\n"
    "validation and compute-sanitizer first). It is stored as a child of N with proposer 'user' and the note, whatever\n"
    "its verdict; a run in progress may then select it as a parent. The launch rule is N's (the run reference's with\n"
    "--run) unless --launch gives one (the .json `crucible-cli best --export` writes). Ctrl-C before it is stored\n"
    "stores nothing.\n"
    "Exit status: 0 stored and valid, 1 stored but not valid (or cancelled, or the reference failed here), 2 bad usage\n"
    "or no such candidate or run, 3 no GPU here, 4 the project cannot be used.\n";

// Ctrl-C or SIGTERM sets the cancel flag: the evaluation in flight finishes, nothing is stored.
class CancelOnSignal {
public:
  explicit CancelOnSignal(std::atomic<bool>& cancel) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    thread_ = std::thread([this, &cancel] {
      timespec tick{0, 200'000'000};
      while (!done_) {
        if (sigtimedwait(&set_, nullptr, &tick) > 0) {
          std::cerr << "\ncancelling: the evaluation in flight finishes, then nothing is stored\n";
          cancel = true;
        }
      }
    });
  }
  ~CancelOnSignal() {
    done_ = true;
    thread_.join();
    pthread_sigmask(SIG_UNBLOCK, &set_, nullptr);
  }
  CancelOnSignal(const CancelOnSignal&) = delete;
  CancelOnSignal& operator=(const CancelOnSignal&) = delete;

private:
  sigset_t set_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

nlohmann::json compileJson(const CompileReport& r) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : r.diagnostics)
    diagnostics.push_back({{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
  return {{"ok", r.ok}, {"arch", r.arch}, {"registers", r.registers}, {"staticSmemBytes", r.staticSmemBytes},
          {"localBytes", r.localBytes}, {"spillStoreBytes", r.spillStoreBytes}, {"spillLoadBytes", r.spillLoadBytes},
          {"diagnostics", diagnostics}};
}

nlohmann::json resultJson(const UserEvaluation& e, const std::string& project) {
  const Candidate& c = e.candidate;
  nlohmann::json out = {{"project", project},        {"run", c.runId},           {"candidate", c.id},
                        {"parents", c.parents},      {"generation", c.generation}, {"proposer", c.proposer},
                        {"architectureKey", c.architectureKey}, {"status", toString(c.status)},
                        {"detail", c.statusDetail},  {"fitness", c.fitness},     {"gpuSeconds", e.gpuSeconds}};
  if (c.compile) out["compile"] = compileJson(*c.compile);
  nlohmann::json trials = nlohmann::json::array();
  for (const auto& t : c.validation)
    trials.push_back({{"seed", t.seed}, {"passed", t.passed}, {"reason", t.reason}, {"maxAbsError", t.maxAbsError},
                      {"maxRelError", t.maxRelError}, {"mismatches", t.mismatches}});
  out["trials"] = trials;
  if (c.timing)
    out["timing"] = {{"medianUs", c.timing->medianUs}, {"iqrUs", c.timing->iqrUs},
                     {"referenceMedianUs", c.timing->referenceMedianUs}, {"speedup", c.timing->speedup},
                     {"samples", c.timing->samplesUs.size()}};
  if (!c.profile.empty()) out["profile"] = c.profile;
  if (!e.device.gpu.empty()) out["device"] = {{"gpu", e.device.gpu}, {"arch", e.device.arch}};
  if (e.seal) out["seal"] = {{"id", e.seal->id}, {"speedup", e.seal->speedup}};
  if (!e.sealNote.empty()) out["notSealed"] = e.sealNote;
  return out;
}

void printResult(const UserEvaluation& e) {
  const Candidate& c = e.candidate;
  std::cout << "candidate " << c.id << " in run " << c.runId;
  if (!c.parents.empty()) std::cout << ", child of candidate " << c.parents.front();
  std::cout << " (generation " << c.generation << ", " << c.architectureKey << ")\n";
  if (c.compile) {
    const CompileReport& r = *c.compile;
    std::cout << "compile: " << (r.ok ? "ok" : "FAILED") << " for " << r.arch;
    if (r.ok)
      std::cout << "; " << r.registers << " registers, " << r.staticSmemBytes << " B static smem, spills "
                << r.spillStoreBytes << "/" << r.spillLoadBytes << " B";
    std::cout << "\n";
    for (const auto& d : r.diagnostics)
      std::cout << "  " << d.severity << " at line " << d.line << ":" << d.column << ": " << terminalText(d.message) << "\n";
  }
  std::cout << "verdict: " << toString(c.status) << (c.statusDetail.empty() ? "" : " (" + c.statusDetail + ")") << "\n";
  for (const auto& t : c.validation)
    std::cout << "  seed " << t.seed << ": " << (t.passed ? "passed" : "FAILED") << ", max abs error " << t.maxAbsError
              << (t.reason.empty() ? "" : "; " + t.reason) << "\n";
  if (c.timing)
    std::cout << "time: " << c.timing->medianUs << " us median (IQR " << c.timing->iqrUs << " us); reference "
              << c.timing->referenceMedianUs << " us; speedup " << c.fitness << "x\n";
  if (!c.profile.empty()) {
    std::cout << "profile:\n";
    for (const auto& [name, value] : c.profile) std::cout << "  " << name << " = " << value << "\n";
  }
  if (e.seal) std::cout << "sealed: " << e.seal->speedup << "x faster than the reference\n";
  if (!e.sealNote.empty()) std::cout << "not sealed: " << e.sealNote << "\n";
}

int forkCommand(const Options& o) {
  // The whole command line is checked before the project is opened or the GPU probed.
  const std::string project = o.required("project");
  if (o.has("candidate") == o.has("run"))
    throw UsageError(o.has("run") ? "give --candidate or --run, not both" : "missing --candidate (or --run)");
  const long long candidate = o.integer("candidate", 0);
  const long long run = o.integer("run", 0);
  const std::string kernelPath = o.required("kernel");
  std::string source;
  try {
    source = readKernelSourceFile(kernelPath);
  } catch (const BoundedFileError& e) {
    throw UsageError(e.what());
  }
  std::optional<LaunchRule> launch;
  if (o.has("launch")) launch = readLaunchFile(o.value("launch"));   // std::invalid_argument: bad usage
  ComputeSanitizerOptions sanitizing;
  sanitizing.toolTimeoutSeconds = o.positiveNumber("sanitize-timeout", sanitizing.toolTimeoutSeconds);
  const bool json = o.flag("json");

  // A project that cannot be used is exit 4 (StoreError, main.cpp), before any GPU check.
  if (const std::string why = ProjectStore::writeProblem(project); !why.empty() && std::filesystem::exists(project))
    throw StoreError(project + ": cannot record a candidate: the project is open read-only (" + why + ")");
  auto store = ProjectStore::open(project);
  if (candidate && !store->candidate(candidate))
    throw UsageError("no candidate " + std::to_string(candidate) + " in " + project);
  if (run && !store->run(run)) throw UsageError("no run " + std::to_string(run) + " in " + project);

  LocalGpuDispatcher dispatcher;
  if (!dispatcher.canEvaluate()) {
    std::cerr << "crucible-cli fork: cannot evaluate kernels here: " << dispatcher.status() << "\n";
    return ExitCode::NoGpu;
  }
  sanitizing.workerExecutable = dispatcher.workerExecutable();
  NvrtcCompiler compiler;
  ComputeSanitizer sanitizer(sanitizing);

  UserKernel kernel;
  kernel.parent = candidate;
  kernel.run = run;
  kernel.source = std::move(source);
  kernel.launch = launch;
  kernel.note = o.value("note");
  std::atomic<bool> cancel{false};
  UserEvaluationOptions options;
  options.sanitizer = &sanitizer;
  options.cancel = &cancel;
  options.progress = [](const UserEvaluationProgress& p) { std::cerr << toString(p.stage) << ": " << p.text << "\n"; };
  UserEvaluation result;
  try {
    CancelOnSignal onSignal(cancel);
    result = evaluateUserKernel(*store, compiler, *dispatcher.evaluators().front(), kernel, options);
  } catch (const UserEvaluationError& e) {
    std::cerr << "crucible-cli fork: " << e.what() << "\n";
    return ExitCode::Failed;
  }
  if (result.cancelled) {
    std::cerr << "crucible-cli fork: cancelled; nothing was stored\n";
    return ExitCode::Failed;
  }
  if (json)
    std::cout << jsonText(resultJson(result, project)) << "\n";
  else
    printResult(result);
  return result.candidate.status == CandidateStatus::Valid ? ExitCode::Success : ExitCode::Failed;
}

void defineFork(CLI::App& app) {
  app.footer(kAbout);
  addValued(app, "project", "P.crucible", "the project file")->required();
  addValued(app, "candidate", "N", "the candidate you edited")->check(wholeNumber("candidate", 1));
  addValued(app, "run", "R", "instead of --candidate: the run a kernel of your own joins")->check(wholeNumber("run", 1));
  addValued(app, "kernel", "FILE.cu", "your kernel")->required();
  addValued(app, "launch", "FILE.json", "its launch rule (default: the candidate's, or the run reference's)");
  addValued(app, "note", "TEXT", "a note stored with it");
  addValued(app, "sanitize-timeout", "SECONDS", "how long each compute-sanitizer tool may take")
      ->check(positiveLimit("sanitize-timeout"));
  addFlag(app, "json", "print JSON for scripts");
  onRun(app, forkCommand);
}

const RegisterCommand registration(
    "fork", Command{"evaluate your edit of a candidate on this GPU and record it in the candidate's run", defineFork});

}  // namespace
}  // namespace crucible::cli
