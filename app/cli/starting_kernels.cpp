// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/starting_kernels.h"

#include <filesystem>
#include "core/io/bounded_file.h"
#include "core/model/task.h"
#include "core/task/task_spec.h"
#include "core/task/tunable_kernel.h"

namespace crucible::cli {
namespace {

std::string readFile(const std::string& path, std::size_t limit, const char* what) {
  try {
    return readBoundedFile(path, limit, what);
  } catch (const BoundedFileError& e) {
    throw UsageError(e.what());
  }
}

// "gemv.cu" -> "gemv"; characters a kernel name cannot have become '_'.
std::string kernelName(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  for (char& c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
      c = '_';
  if (name.size() > 128) name.resize(128);
  return name.empty() ? "kernel" : name;
}

}  // namespace

StartingKernel readStartingKernel(const KernelOption& option) {
  StartingKernel k;
  k.name = kernelName(option.kernel);
  k.source = readFile(option.kernel, kMaxKernelSourceBytes, "kernel source");
  std::string tunePath = option.tune;
  if (tunePath.empty()) {
    const std::filesystem::path beside =
        std::filesystem::path(option.kernel).replace_extension("").string() + ".tune.json";
    std::error_code ec;
    if (std::filesystem::exists(beside, ec)) tunePath = beside.string();
  }
  try {
    if (!tunePath.empty()) {
      k.origin = option.kernel + " with " + tunePath;
      try {
        k.tune = parseTuneSpec(readFile(tunePath, kMaxTuneDocumentBytes, "tune file"));
      } catch (const TaskSpecError& e) {
        throw UsageError(tunePath + ": " + e.what());
      }
      return k;
    }
    const auto embedded = embeddedTuneText(k.source);
    if (!embedded)
      throw UsageError("--kernel " + option.kernel +
                       ": no launch rule: give --tune FILE, put " + std::filesystem::path(option.kernel).stem().string() +
                       ".tune.json beside it, or a /* crucible-tune {...} */ comment in it (resources/tasks/README.md, "
                       "\"Tunable kernels\")");
    k.origin = option.kernel + " (its crucible-tune comment)";
    try {
      k.tune = parseTuneSpec(*embedded);
    } catch (const TaskSpecError& e) {
      throw UsageError(option.kernel + ": crucible-tune comment: " + e.what());
    }
  } catch (const TaskSpecError& e) {  // embeddedTuneText: an unclosed comment
    throw UsageError(option.kernel + ": " + e.what());
  }
  return k;
}

std::vector<StartingKernel> readStartingKernels(const Options& o) {
  std::vector<StartingKernel> out;
  for (const KernelOption& option : kernelOptions(o)) {
    StartingKernel k = readStartingKernel(option);
    for (const StartingKernel& other : out)
      if (other.name == k.name)
        throw UsageError("two starting kernels are named '" + k.name + "' (" + other.origin + ", " + k.origin +
                         "): rename one file");
    out.push_back(std::move(k));
  }
  return out;
}

void checkStartingKernels(const std::vector<StartingKernel>& kernels, const std::string& taskSpecJson) {
  if (kernels.empty()) return;
  Task task;
  task.specJson = taskSpecJson;
  try {
    task.name = parseTaskSpec(taskSpecJson).name;
  } catch (const TaskSpecError& e) {
    throw UsageError(std::string("the task's spec: ") + e.what());
  }
  std::string problems;
  for (const Proposal& p : TunableKernelProposer(kernels).seeds(task, 0))
    if (!p.ok) problems += (problems.empty() ? "" : "\n") + p.error;
  if (!problems.empty()) throw UsageError(problems);
}

RunProposer::RunProposer(std::vector<StartingKernel> kernels, bool combineAlways, std::unique_ptr<Proposer> writer)
    : writer_(std::move(writer)), tunable_(std::move(kernels)) {
  Proposer* kernelWriter = writer_ ? writer_.get() : &template_;
  if (tunable_.kernels().empty() && !combineAlways) {
    active_ = kernelWriter;
    return;
  }
  combined_ = std::make_unique<CombinedProposer>(std::vector<CombinedProposer::Member>{
      {&tunable_, [](const Candidate& c) { return TunableKernelProposer::owns(c); }},
      // Every other candidate (the template's or the model's, the baseline, a seal) goes to the other member, as it
      // did alone.
      {kernelWriter, [](const Candidate& c) { return !TunableKernelProposer::owns(c); }},
  });
  active_ = combined_.get();
}

}  // namespace crucible::cli
