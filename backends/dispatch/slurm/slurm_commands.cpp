// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/slurm_commands.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "backends/cuda/sanitize/bounded_process.h"

extern char** environ;

namespace crucible {
namespace {

std::map<std::string, std::string> currentEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

std::string lastLines(const std::string& text, std::size_t maxChars = 600) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t.size() <= maxChars ? t : "..." + t.substr(t.size() - maxChars);
}

}  // namespace

SlurmCommands::SlurmCommands(std::string binDirectory, double timeoutSeconds)
    : binDirectory_(std::move(binDirectory)), timeoutSeconds_(timeoutSeconds) {}

std::string SlurmCommands::tool(const std::string& name) const {
  if (!binDirectory_.empty()) {
    const std::string p = binDirectory_ + "/" + name;
    if (::access(p.c_str(), X_OK) != 0) throw SlurmError("Slurm's " + name + " is not in " + binDirectory_);
    return p;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string d;
  while (std::getline(dirs, d, ':')) {
    if (d.empty()) continue;
    const std::string p = d + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  throw SlurmError("Slurm's " + name + " is not in PATH (is slurm-client installed?)");
}

SlurmCommands::Output SlurmCommands::run(const std::string& name, const std::vector<std::string>& args) const {
  BoundedProcessOptions o;
  o.argv.push_back(tool(name));
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.environment = currentEnvironment();
  o.timeoutSeconds = timeoutSeconds_;
  o.outputCap = 4 << 20;
  const BoundedProcessResult r = runBounded(o);
  const std::string command = name + " " + joined(args);
  if (!r.started) throw SlurmError("cannot run " + command + ": " + r.startError);
  if (r.timedOut)
    throw SlurmError(command + " did not finish within " + std::to_string(static_cast<int>(timeoutSeconds_)) +
                     " s (is slurmctld responding?)");
  if (r.signal != 0) throw SlurmError(command + " was killed by signal " + std::to_string(r.signal));
  return Output{r.exitCode, r.output};
}

std::int64_t SlurmCommands::sbatch(const std::vector<std::string>& args) const {
  std::vector<std::string> all{"--parsable"};
  all.insert(all.end(), args.begin(), args.end());
  const Output out = run("sbatch", all);
  if (out.exitCode != 0)
    throw SlurmError("sbatch refused the job array (exit " + std::to_string(out.exitCode) + "): " + lastLines(out.text));
  try {
    return parseSbatchJobId(out.text);
  } catch (const SlurmOutputError& e) {
    throw SlurmError(e.what());
  }
}

std::vector<QueueEntry> SlurmCommands::squeue(const std::vector<std::int64_t>& jobIds) const {
  if (jobIds.empty()) return {};
  std::string list;
  for (auto id : jobIds) list += (list.empty() ? "" : ",") + std::to_string(id);
  // --noheader: only data; --array: one line per task; --states=all: ended jobs too (until MinJobAge).
  // stderr is mixed into the output: a warning line would not fit the format and is reported as such.
  const Output out = run("squeue", {"--noheader", "--array", "--states=all", "--jobs=" + list,
                                    std::string("--format=") + kSqueueFormat});
  if (out.exitCode != 0) {
    if (isUnknownJobMessage(out.text)) return {};
    throw SlurmError("squeue failed (exit " + std::to_string(out.exitCode) + "): " + lastLines(out.text));
  }
  try {
    return parseSqueue(out.text);
  } catch (const SlurmOutputError& e) {
    throw SlurmError(e.what());
  }
}

void SlurmCommands::scancel(const std::vector<std::string>& jobSpecs) const {
  if (jobSpecs.empty()) return;
  const Output out = run("scancel", jobSpecs);
  if (out.exitCode != 0)
    throw SlurmError("scancel " + joined(jobSpecs) + " failed (exit " + std::to_string(out.exitCode) +
                     "): " + lastLines(out.text));
}

std::vector<std::map<std::string, std::string>> SlurmCommands::showJob(const std::string& jobSpec) const {
  const Output out = run("scontrol", {"-o", "show", "job", jobSpec});
  if (out.exitCode != 0) {
    if (isUnknownJobMessage(out.text)) return {};
    throw SlurmError("scontrol show job " + jobSpec + " failed (exit " + std::to_string(out.exitCode) +
                     "): " + lastLines(out.text));
  }
  return parseScontrolRecords(out.text);
}

bool SlurmCommands::reachable(std::string* why) const {
  try {
    const Output out = run("sinfo", {"--noheader", "--format=%P"});
    if (out.exitCode == 0) return true;
    if (why) *why = "sinfo failed (exit " + std::to_string(out.exitCode) + "): " + lastLines(out.text);
  } catch (const SlurmError& e) {
    if (why) *why = e.what();
  }
  return false;
}

}  // namespace crucible
