// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/tunable/starting_kernels.h"

#include <filesystem>
#include "core/io/bounded_file.h"
#include "core/model/task.h"
#include "core/task/task_spec.h"
#include "core/task/tunable_kernel.h"

namespace crucible {
namespace {

std::string readFile(const std::string& path, std::size_t limit, const char* what) {
  try {
    return readBoundedFile(path, limit, what);
  } catch (const BoundedFileError& e) {
    throw StartingKernelError(e.what());
  }
}

TuneSpec parseTune(const std::string& text, const std::string& where) {
  try {
    return parseTuneSpec(text);
  } catch (const TaskSpecError& e) {
    throw StartingKernelError(where + ": " + e.what());
  }
}

}  // namespace

std::string tuneFileBeside(const std::string& kernelPath) {
  return std::filesystem::path(kernelPath).replace_extension("").string() + ".tune.json";
}

std::string startingKernelName(const std::string& kernelPath) {
  std::string name = std::filesystem::path(kernelPath).stem().string();
  for (char& c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
      c = '_';
  if (name.size() > 128) name.resize(128);
  return name.empty() ? "kernel" : name;
}

StartingKernel readStartingKernel(const std::string& kernelPath, const std::string& tunePath) {
  StartingKernel k;
  k.name = startingKernelName(kernelPath);
  try {
    k.source = readKernelSourceFile(kernelPath);
  } catch (const BoundedFileError& e) {
    throw StartingKernelError(e.what());
  }
  std::string tune = tunePath;
  if (tune.empty()) {
    const std::string beside = tuneFileBeside(kernelPath);
    std::error_code ec;
    if (std::filesystem::exists(beside, ec)) tune = beside;
  }
  if (!tune.empty()) {
    k.origin = kernelPath + " with " + tune;
    k.tune = parseTune(readFile(tune, kMaxTuneDocumentBytes, "tune file"), tune);
    return k;
  }
  std::optional<std::string> embedded;
  try {
    embedded = embeddedTuneText(k.source);
  } catch (const TaskSpecError& e) {  // an unclosed comment
    throw StartingKernelError(kernelPath + ": " + e.what());
  }
  if (!embedded)
    throw StartingKernelError(kernelPath + ": no launch rule: give a tune file, put " +
                                  std::filesystem::path(kernelPath).stem().string() +
                                  ".tune.json beside it, or a /* crucible-tune {...} */ comment in it "
                                  "(resources/tasks/README.md, \"Tunable kernels\")",
                              true);
  k.origin = kernelPath + " (its crucible-tune comment)";
  k.tune = parseTune(*embedded, kernelPath + ": crucible-tune comment");
  return k;
}

std::string startingKernelNameClash(const std::vector<StartingKernel>& kernels) {
  for (std::size_t i = 0; i < kernels.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (kernels[i].name == kernels[j].name)
        return "two starting kernels are named '" + kernels[i].name + "' (" + kernels[j].origin + ", " +
               kernels[i].origin + "): rename one file";
  return {};
}

std::vector<std::string> startingKernelProblems(const std::vector<StartingKernel>& kernels,
                                                const std::string& taskSpecJson) {
  if (kernels.empty()) return {};
  Task task;
  task.specJson = taskSpecJson;
  try {
    task.name = parseTaskSpec(taskSpecJson).name;
  } catch (const TaskSpecError& e) {
    throw StartingKernelError(std::string("the task's spec: ") + e.what());
  }
  std::vector<std::string> problems;
  // One seed per kernel, in order: a failed one says why its kernel does not fit.
  for (const Proposal& p : TunableKernelProposer(kernels).seeds(task, 0)) problems.push_back(p.ok ? "" : p.error);
  return problems;
}

void checkStartingKernelsFit(const std::vector<StartingKernel>& kernels, const std::string& taskSpecJson) {
  std::string all;
  for (const std::string& p : startingKernelProblems(kernels, taskSpecJson))
    if (!p.empty()) all += (all.empty() ? "" : "\n") + p;
  if (!all.empty()) throw StartingKernelError(all);
}

std::vector<StartingKernelFit> fitStartingKernels(const std::vector<StartingKernelFile>& files,
                                                  const std::string& taskSpecJson) {
  std::vector<StartingKernelFit> out(files.size());
  std::vector<StartingKernel> read;   // those read with a name of their own
  std::vector<std::size_t> at;        // their places in out
  for (std::size_t i = 0; i < files.size(); ++i) {
    out[i].name = startingKernelName(files[i].kernel);
    try {
      StartingKernel k = readStartingKernel(files[i].kernel, files[i].tune);
      out[i].kernel = k;
      read.push_back(std::move(k));
      if (std::string clash = startingKernelNameClash(read); !clash.empty()) {
        out[i].problem = std::move(clash);
        read.pop_back();
        continue;
      }
      at.push_back(i);
    } catch (const StartingKernelError& e) {
      out[i].problem = e.what();
    }
  }
  try {
    const std::vector<std::string> problems = startingKernelProblems(read, taskSpecJson);
    for (std::size_t j = 0; j < at.size(); ++j) out[at[j]].problem = problems[j];
  } catch (const StartingKernelError& e) {
    for (std::size_t j : at) out[j].problem = e.what();
  }
  return out;
}

}  // namespace crucible
