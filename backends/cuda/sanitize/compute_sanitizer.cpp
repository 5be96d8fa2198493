// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/compute_sanitizer.h"
#include "core/task/task_spec.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>
#include "backends/cuda/sanitize/bounded_process.h"
#include "backends/cuda/sanitize/sanitize_job.h"
#include "backends/cuda/sanitize/sanitizer_executable.h"
#include "backends/cuda/sanitize/sanitizer_output.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "backends/dispatch/worker_environment.h"

namespace crucible {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The start of a file, at most `cap` bytes ("" when it does not exist).
std::string readCapped(const std::filesystem::path& path, std::size_t cap) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::string text(cap, '\0');
  in.read(text.data(), static_cast<std::streamsize>(cap));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.peek() != std::char_traits<char>::eof()) text += "\n[... the rest of the log is left out ...]\n";
  return text;
}

// A folder of its own under the temporary directory, removed with this object.
class JobFolder {
public:
  JobFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "crucible-sanitize-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder under " + pattern);
    path_ = pattern;
  }
  ~JobFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  JobFolder(const JobFolder&) = delete;
  JobFolder& operator=(const JobFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

}  // namespace

ComputeSanitizer::ComputeSanitizer(ComputeSanitizerOptions options) : options_(std::move(options)) {
  if (options_.workerExecutable.empty()) options_.workerExecutable = LocalGpuDispatcher::defaultWorkerExecutable();
}

std::string ComputeSanitizer::locate(std::string& whyNot) const {
  if (!options_.executable.empty()) return options_.executable;
  const SanitizerExecutable found = findComputeSanitizer(env("PATH"), options_.toolkitBin, env("CUDA_HOME"));
  whyNot = found.whyNot;
  return found.path;
}

std::string ComputeSanitizer::status() const {
  std::string whyNot;
  const std::string path = locate(whyNot);
  if (path.empty()) return "compute-sanitizer is not installed (" + whyNot + "): nothing can be sealed";
  std::string tools;
  for (const auto& t : options_.tools) tools += (tools.empty() ? "" : ", ") + t;
  return path + " (" + tools + "; at most " + fixed(options_.toolTimeoutSeconds, 0) + " s each)";
}

std::vector<std::string> ComputeSanitizer::commandFor(const std::string& sanitizer, const std::string& tool,
                                                      const std::string& jobDir) const {
  std::vector<std::string> argv{sanitizer, "--tool", tool, "--error-exitcode", std::to_string(kErrorExitCode),
                                "--print-limit", "20",
                                // The worker's own driver calls (entry-point probing) are not the kernel's errors.
                                "--report-api-errors", "no",
                                "--show-backtrace", "device",
                                // The tool's reports in a file of their own: the kernel's printf output
                                // goes to stdout and cannot pass for the tool's.
                                "--log-file", jobDir + "/" + tool + ".sanitizer.log"};
  if (tool == "racecheck") {
    argv.push_back("--racecheck-report");
    argv.push_back("hazard");
  }
  if (tool == "memcheck") {
    // Padding after every allocation: a read just past a tensor's end lands
    // in no allocation, even where the driver placed the next tensor right
    // behind it (without it, such a read was seen only by initcheck).
    argv.push_back("--padding");
    argv.push_back("4096");
  }
  argv.push_back(options_.workerExecutable);
  argv.push_back("--sanitize-run");
  argv.push_back(jobDir);
  return argv;
}

SanitizerReport ComputeSanitizer::sanitize(const Task& task, const KernelBinary& kernel, int device) {
  SanitizerReport report;
  try {
    report.shape = describeAxes(atSanitizeShape(parseTaskSpec(task.specJson)).axes);   // where the worker runs it
  } catch (const std::exception&) {
    // The worker refuses the job with the spec's own error.
  }
  std::string whyNot;
  const std::string sanitizer = locate(whyNot);
  if (sanitizer.empty()) {
    report.unavailableReason = "compute-sanitizer is not installed (" + whyNot + ")";
    return report;
  }
  if (::access(options_.workerExecutable.c_str(), X_OK) != 0) {
    report.unavailableReason = "the worker executable '" + options_.workerExecutable +
                               "', which runs the kernel under compute-sanitizer, is missing";
    return report;
  }

  std::unique_ptr<JobFolder> job;
  try {
    job = std::make_unique<JobFolder>();
    writeSanitizeJob(job->path(), SanitizeJob{task.specJson, kernel.cubin, kernel.launch});
  } catch (const std::exception& e) {
    report.unavailableReason = std::string("cannot hand the kernel to compute-sanitizer: ") + e.what();
    return report;
  }

  // The same allow-list as every worker's (worker_environment.h): nothing of
  // the engine's environment (keys, tokens, preloads) reaches candidate code.
  std::map<std::string, std::string> environment;
  for (const std::string& entry :
       workerEnvironment(environ, {{"CUDA_VISIBLE_DEVICES", LocalGpuDispatcher::visibleDeviceFor(device)}}))
    if (const auto eq = entry.find('='); eq != std::string::npos) environment[entry.substr(0, eq)] = entry.substr(eq + 1);

  report.ran = true;
  for (const std::string& name : options_.tools) {
    BoundedProcessOptions run;
    run.argv = commandFor(sanitizer, name, job->path().string());
    run.environment = environment;
    run.timeoutSeconds = options_.toolTimeoutSeconds;
    run.outputCap = options_.outputCap;
    const BoundedProcessResult ran = runBounded(run);

    ToolRunOutcome outcome;
    outcome.tool = name;
    outcome.started = ran.started;
    outcome.startError = ran.startError;
    outcome.timedOut = ran.timedOut;
    outcome.timeoutSeconds = options_.toolTimeoutSeconds;
    outcome.exitCode = ran.exitCode;
    outcome.signal = ran.signal;
    outcome.errorExitCode = kErrorExitCode;
    outcome.sanitizerLog = readCapped(job->path() / (name + ".sanitizer.log"), options_.outputCap);
    outcome.programOutput = ran.output;
    const ToolVerdict verdict = judgeToolRun(outcome);

    report.tools.push_back(name);
    report.reportedErrors[name] = verdict.reported;
    report.seconds += ran.seconds;
    for (const std::string& f : verdict.findings) report.findings.push_back({name, f});
    report.log += "== " + name + ": " + (verdict.clean ? "clean" : "NOT CLEAN") + " in " + fixed(ran.seconds, 1) +
                  " s ==\n";
    if (!verdict.clean) {
      report.log += outcome.sanitizerLog;
      if (!ran.output.empty()) report.log += "-- the worker's output --\n" + ran.output + "\n";
    }
    if (!verdict.clean && options_.stopAtFirstFinding) break;
  }
  report.clean = report.findings.empty() && report.tools.size() == options_.tools.size();
  return report;
}

}  // namespace crucible
