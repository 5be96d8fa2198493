// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli eval: one kernel against a task, on this machine's GPU, through
// a crucible-worker process: compile, validate, time against the reference
// (interleaved), profile, and print the verdict with the roofline point.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>
#include "app/cli/axes_option.h"
#include "app/cli/command.h"
#include "app/cli/json_output.h"
#include "app/cli/options.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "app/cli/launch_file.h"
#include "app/cli/sanitizer_report.h"
#include "backends/cuda/sanitize/compute_sanitizer.h"
#include "app/cli/tensor_map_option.h"
#include "backends/gpu_probe.h"
#include "core/io/bounded_file.h"
#include "core/io/utf8_text.h"
#include "core/model/model_json.h"
#include "core/model/roofline_point.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_library.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "Compiles the kernel, validates it against the task's oracle on N seeds of fresh inputs (default 3),\n"
    "times it interleaved with the reference (the task's baseline unless --reference), profiles it, and\n"
    "prints the verdict. The launch defaults to the task baseline's; --grid/--block/--smem take expressions\n"
    "over the task's axes, e.g. --grid 'ceil_div(N,1024),1,1'. --launch takes the whole launch rule (with its\n"
    "tensor maps) from the .json that `crucible-cli best --export` writes beside a kernel; the options above\n"
    "then override its fields (--tensor-map replaces its maps).\n"
    "--tensor-map TENSOR:ROWSxCOLS[:SWIZZLE] (repeatable; SWIZZLE none, 32B, 64B or 128B, default none) has the\n"
    "worker encode a TMA tensor map of that input or output with that box and pass it after the task's parameters,\n"
    "as `const __grid_constant__ CUtensorMap tmap_TENSOR`, in the order given: e.g. --tensor-map A:128x64:128B.\n"
    "--sanitize also runs compute-sanitizer's memcheck, racecheck, initcheck and synccheck on the kernel, as before\n"
    "a seal, and prints their report; the kernel then counts as valid only if they ran clean.\n"
    "Exit status: 0 valid, 1 not valid (the reason is printed), 2 bad usage, 3 no GPU here.\n";

// A regular UTF-8 file of at most 1 MiB (core/io/bounded_file.h): a FIFO or /dev/zero is refused, not read.
std::string readFile(const std::string& path) {
  try {
    return readKernelSourceFile(path);
  } catch (const BoundedFileError& e) {
    throw std::invalid_argument(e.what());
  }
}

std::string resolveSpecFile(const std::string& nameOrFile) {
  if (auto file = findTaskSpecFile(nameOrFile)) return *file;
  throw std::invalid_argument("no file and no built-in task named '" + nameOrFile + "' (see `crucible-cli task list`)");
}

// "a,b,c" (1 to 3 expressions; missing ones are 1) into a launch dimension.
void parseDims(const std::string& text, std::string (&out)[3], const char* option) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : text) {  // commas inside ceil_div(a, b) do not split
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  if (parts.size() > 3) throw std::invalid_argument(std::string("--") + option + " takes at most 3 expressions");
  for (int i = 0; i < 3; ++i) out[i] = i < static_cast<int>(parts.size()) && !parts[i].empty() ? parts[i] : "1";
}

struct Built {
  CompileResult result;
  KernelBinary binary;
};

Built compileFor(NvrtcCompiler& compiler, const std::string& source, const LaunchRule& launch, const std::string& arch) {
  CompileRequest req;
  req.source = source;
  req.entry = launch.entry;
  req.arch = arch;
  Built b;
  b.result = compiler.compile(req);
  b.binary = KernelBinary{b.result.cubin, launch};
  return b;
}

std::string si(double v, const char* unit) {
  static const char* prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int p = 0;
  while (std::abs(v) >= 1000 && p < 6) v /= 1000, ++p;
  std::ostringstream s;
  s << std::setprecision(4) << v << " " << prefixes[p] << unit;
  return s.str();
}

void printCompile(const CompileReport& r, const char* what) {
  std::cout << what << ": " << (r.ok ? "compiled" : "DOES NOT COMPILE") << " for " << r.arch << " in "
            << std::setprecision(3) << r.seconds << " s";
  if (r.ok)
    std::cout << "; " << r.registers << " registers, " << r.staticSmemBytes << " B static smem, " << r.localBytes
              << " B local, spills " << r.spillStoreBytes << "/" << r.spillLoadBytes << " B";
  std::cout << "\n";
  for (const auto& d : r.diagnostics)
    std::cout << "  " << d.severity << " at line " << d.line << ":" << d.column << ": " << terminalText(d.message) << "\n";
  if (!r.ok && r.diagnostics.empty()) std::cout << terminalText(r.log) << "\n";
}

nlohmann::json compileJson(const CompileReport& r) {
  nlohmann::json diags = nlohmann::json::array();
  for (const auto& d : r.diagnostics)
    diags.push_back({{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
  return {{"ok", r.ok},          {"arch", r.arch},          {"registers", r.registers},
          {"staticSmemBytes", r.staticSmemBytes}, {"localBytes", r.localBytes}, {"spillStoreBytes", r.spillStoreBytes},
          {"spillLoadBytes", r.spillLoadBytes}, {"seconds", r.seconds}, {"diagnostics", diags}, {"features", r.features}};
}

int evaluate(const Options& o);

// Bad usage (a missing file, an unknown task, a malformed option) exits 2.
int run(const Options& o) {
  try {
    return evaluate(o);
  } catch (const std::invalid_argument& e) {
    std::cerr << "crucible-cli eval: " << e.what() << "\n";
    return 2;
  } catch (const TaskSpecError& e) {
    std::cerr << "crucible-cli eval: task spec: " << e.what() << "\n";
    return 2;
  }
}

int evaluate(const Options& o) {
  const bool json = o.flag("json");
  Task task;
  // --axes: the task at that shape (core/task/axes_override.h).
  const std::string specFile = resolveSpecFile(o.required("task"));
  task.specJson = specTextAtAxes(o, readTaskSpecText(specFile), specFile);
  const TaskSpec spec = parseTaskSpec(task.specJson);
  task.name = spec.name;
  task.family = spec.family;

  LaunchRule launch = o.has("launch") ? readLaunchFile(o.value("launch")) : spec.baseline.launch;
  launch.entry = spec.entry;
  if (o.has("grid")) parseDims(o.value("grid"), launch.grid, "grid");
  if (o.has("block")) parseDims(o.value("block"), launch.block, "block");
  if (o.has("smem")) launch.dynamicSmemBytes = o.value("smem");
  if (o.has("tensor-map")) launch.tensorMaps.clear();
  for (const std::string& text : o.all("tensor-map")) launch.tensorMaps.push_back(parseTensorMapOption(text));
  if (const auto problems = tensorMapProblems(spec, launch.tensorMaps); !problems.empty()) {
    std::string all;
    for (const std::string& p : problems) all += "\n  " + p;
    throw std::invalid_argument(std::string(o.has("tensor-map") ? "--tensor-map" : "the tensor maps of --launch") +
                                " cannot be encoded for task " + spec.name + ":" + all);
  }
  const long long seedCount = o.integer("seeds", 3);

  const GpuProbe probe = probeGpus();
  const std::string arch = probe.gpus.empty() ? "sm_90" : probe.gpus.front().arch();
  NvrtcCompiler compiler;
  const std::string source = readFile(o.required("kernel"));
  // A kernel that does not declare a map it is given still launches (the
  // driver passes only the parameters the kernel has), so say so.
  for (const TensorMapRule& m : launch.tensorMaps)
    if (source.find(tensorMapParameterName(m)) == std::string::npos)
      std::cerr << "crucible-cli eval: warning: the kernel never mentions " << tensorMapParameterName(m)
                << ", the parameter --tensor-map " << m.tensor << " adds\n";
  const Built candidate = compileFor(compiler, source, launch, arch);
  const std::string refSource = o.has("reference") ? readFile(o.value("reference")) : spec.baseline.source;
  LaunchRule refLaunch = spec.baseline.launch;
  if (o.has("reference")) refLaunch.entry = spec.entry;
  const Built reference = compileFor(compiler, refSource, refLaunch, arch);

  nlohmann::json out = {{"task", spec.name}, {"kernel", o.value("kernel")}, {"compile", compileJson(candidate.result.report)}};
  if (!launch.tensorMaps.empty()) out["tensorMaps"] = toJson(launch)["tensorMaps"];
  if (!json) {
    std::cout << "task " << spec.name << " (" << spec.description << ")\n";
    for (const TensorMapRule& m : launch.tensorMaps)
      std::cout << "tensor map " << tensorMapParameterName(m) << ": box " << m.boxRows << " x " << m.boxCols
                << ", swizzle " << m.swizzle << "\n";
    printCompile(candidate.result.report, "candidate");
  }
  if (!candidate.result.report.ok) {
    out["status"] = toString(CandidateStatus::CompileFailed);
    if (json) std::cout << jsonText(out) << "\n";
    return 1;
  }
  if (!reference.result.report.ok) {
    printCompile(reference.result.report, "reference");
    throw std::runtime_error("the reference kernel does not compile");
  }

  LocalGpuDispatcher dispatcher;
  if (!dispatcher.canEvaluate()) {
    std::cerr << "crucible-cli eval: cannot evaluate on this machine: " << dispatcher.status() << "\n";
    return 3;
  }
  Evaluator& gpu = *dispatcher.evaluators().front();
  const Fingerprint device = gpu.device();

  EvaluationRequest request;
  request.task = &task;
  request.candidate = candidate.binary;
  request.reference = reference.binary;
  for (long long s = 1; s <= seedCount; ++s) request.seeds.push_back(static_cast<std::uint64_t>(s));
  request.time = true;
  const Evaluation ev = gpu.evaluate(request);
  std::optional<ProfileResult> profile;
  if (ev.status == CandidateStatus::Valid && !o.flag("no-profile")) profile = gpu.profile(task, candidate.binary);

  // The roofline figures at the median time (core/model/roofline_point.h).
  std::optional<TaskRoofline> roofline;
  if (ev.timing) roofline = taskRoofline(spec, ev.timing->medianUs, profile ? &profile->metrics : nullptr);

  out["device"] = {{"gpu", device.gpu}, {"arch", device.arch}, {"driver", device.driver}, {"cuda", device.cudaRuntime},
                   {"nvrtc", device.nvrtc}, {"host", device.host}};
  out["status"] = toString(ev.status);
  out["detail"] = ev.detail;
  out["gpuSeconds"] = ev.gpuSeconds;
  nlohmann::json trials = nlohmann::json::array();
  for (const auto& t : ev.trials)
    trials.push_back({{"seed", t.seed}, {"passed", t.passed}, {"reason", t.reason}, {"maxAbsError", t.maxAbsError},
                      {"maxRelError", t.maxRelError}, {"mismatches", t.mismatches}});
  out["trials"] = trials;
  if (ev.timing) {
    const Timing& t = *ev.timing;
    out["timing"] = {{"medianUs", t.medianUs}, {"iqrUs", t.iqrUs}, {"referenceMedianUs", t.referenceMedianUs},
                     {"referenceIqrUs", t.referenceIqrUs}, {"speedup", t.speedup}, {"samples", t.samplesUs.size()},
                     {"smClockMHz", t.smClockMHz}};
    const TaskRoofline& r = *roofline;
    nlohmann::json roof = {{"flops", r.flops}, {"minBytes", r.minBytes}, {"flopPerSecond", r.flopsPerSecond},
                           {"minBytesPerSecond", r.minBytesPerSecond}};
    if (r.dramBytes) {
      roof["dramBytes"] = *r.dramBytes;
      roof["dramBytesPerSecond"] = *r.dramBytesPerSecond;
      if (r.intensity) roof["arithmeticIntensity"] = *r.intensity;
    }
    out["roofline"] = roof;
  }
  if (profile) out["profile"] = {{"permitted", profile->permitted}, {"detail", profile->detail}, {"metrics", profile->metrics}};
  std::optional<SanitizerReport> sanitized;
  if (o.flag("sanitize")) {
    ComputeSanitizerOptions options;
    options.workerExecutable = dispatcher.workerExecutable();
    options.stopAtFirstFinding = false;   // on demand: every tool's report
    options.toolTimeoutSeconds = o.positiveNumber("sanitize-timeout", options.toolTimeoutSeconds);
    sanitized = ComputeSanitizer(options).sanitize(task, candidate.binary, 0);
    out["sanitizer"] = sanitizerReportJson(*sanitized);
  }
  const bool passed = ev.status == CandidateStatus::Valid && (!sanitized || sanitized->clean);

  if (json) {
    std::cout << jsonText(out) << "\n";
    return passed ? 0 : 1;
  }
  std::cout << "device: " << device.gpu << " (" << device.arch << "), driver " << device.driver << ", CUDA "
            << device.cudaRuntime << ", NVRTC " << device.nvrtc << "\n";
  std::cout << "verdict: " << toString(ev.status) << "\n  " << ev.detail << "\n";
  for (const auto& t : ev.trials)
    std::cout << "  seed " << t.seed << ": " << (t.passed ? "passed" : "FAILED") << ", max abs error " << t.maxAbsError
              << ", max rel error " << t.maxRelError << (t.reason.empty() ? "" : "; " + t.reason) << "\n";
  if (ev.timing) {
    const Timing& t = *ev.timing;
    std::cout << std::fixed << std::setprecision(2) << "time: " << t.medianUs << " us median (IQR " << t.iqrUs
              << " us, " << t.samplesUs.size() << " samples); reference " << t.referenceMedianUs << " us (IQR "
              << t.referenceIqrUs << " us); speedup " << std::setprecision(3) << t.speedup << "x; SM clock "
              << std::setprecision(0) << t.smClockMHz << " MHz\n"
              << std::defaultfloat << std::setprecision(6);
    const TaskRoofline& r = *roofline;
    std::cout << "roofline: " << si(r.flopsPerSecond, "FLOP/s") << " (" << si(r.flops, "FLOP") << "), "
              << si(r.minBytesPerSecond, "B/s") << " counting the task's minimum " << si(r.minBytes, "B");
    if (r.dramBytes)
      std::cout << "; DRAM " << si(*r.dramBytes, "B") << " measured = " << si(*r.dramBytesPerSecond, "B/s");
    std::cout << "\n";
  }
  if (profile) {
    std::cout << "profile: " << (profile->permitted ? "" : "NOT PERMITTED: ") << profile->detail << "\n";
    for (const auto& [name, value] : profile->metrics) std::cout << "  " << name << " = " << value << "\n";
  }
  if (sanitized) printSanitizerReport(std::cout, *sanitized);
  return passed ? 0 : 1;
}

void defineEval(CLI::App& app) {
  app.footer(kAbout);
  addValued(app, "task", "NAME|FILE.json", "a built-in task or a spec file")->required();
  addValued(app, "kernel", "FILE.cu", "the kernel to evaluate")->required();
  addAxesOption(app);
  addValued(app, "reference", "FILE.cu", "time against this kernel instead of the task's baseline");
  addValued(app, "launch", "FILE.json", "the launch rule (with its tensor maps) from `best --export`'s .json");
  addValued(app, "grid", "X,Y,Z", "grid dimensions: expressions over the task's axes");
  addValued(app, "block", "X,Y,Z", "block dimensions: expressions over the task's axes");
  addValued(app, "smem", "EXPR", "dynamic shared memory bytes: an expression over the task's axes");
  addRepeatable(app, "tensor-map", "TENSOR:ROWSxCOLS[:SWIZZLE]",
                "a TMA tensor map of that input or output with that box (SWIZZLE none, 32B, 64B or 128B)");
  addValued(app, "seeds", "N", "validate on N seeds of fresh inputs (default 3)")->check(wholeNumber("seeds", 1, 1000));
  addFlag(app, "no-profile", "do not profile the kernel");
  addFlag(app, "sanitize", "also run compute-sanitizer's tools, as before a seal");
  addValued(app, "sanitize-timeout", "SECONDS", "how long each compute-sanitizer tool may take")
      ->check(positiveLimit("sanitize-timeout"));
  addFlag(app, "json", "print JSON for scripts");
  onRun(app, run);
}

const RegisterCommand registration("eval", Command{"validate, time and profile one kernel against a task", defineEval});

}  // namespace
}  // namespace crucible::cli
