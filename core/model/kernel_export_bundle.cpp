// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/kernel_export_bundle.h"

#include <set>

#include <iomanip>
#include <sstream>
#include <stdexcept>
#include "core/model/flashinfer_solution.h"
#include "core/model/kernel_export.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

// Task names are validated by the spec parser (letters, digits, _ . -), but a
// project file is outside our control: anything that is not a plain file name is refused.
void requirePlainFileName(const std::string& name) {
  const bool plain = !name.empty() && name != "." && name != ".." && name.find_first_of("/\\") == std::string::npos;
  if (!plain) throw std::invalid_argument("task name '" + name + "' cannot be used as a file name");
}

std::optional<TaskSpec> specOf(const Task& task) {
  try {
    return parseTaskSpec(task.specJson);
  } catch (const TaskSpecError&) {
    return std::nullopt;  // a .cu export then names the argument groups instead of the tensors
  }
}

std::string cuFile(const KernelExportInput& in, const TaskSpec* spec) {
  return exportedKernelFile(in.kernel, in.task.name, spec, in.seal ? &*in.seal : nullptr);
}

}  // namespace

std::optional<ExportFormat> exportFormatFromString(const std::string& text) {
  if (text == "cu") return ExportFormat::Cu;
  if (text == "torch") return ExportFormat::Torch;
  if (text == "flashinfer") return ExportFormat::FlashInfer;
  return std::nullopt;
}

std::string describeExportedKernel(const KernelExportInput& in) {
  const Candidate& c = in.kernel;
  std::ostringstream out;
  out << in.task.name << ": candidate #" << c.id << " of run #" << c.runId;
  if (c.timing)
    out << std::fixed << std::setprecision(3) << ", median " << c.timing->medianUs << " us, " << c.timing->speedup
        << "x the reference it was measured against";
  if (in.seal) out << ", sealed (seal #" << in.seal->id << ")";
  if (!in.measuredOn.empty()) out << ", on " << in.measuredOn;
  out << ", exported by Crucible";
  return out.str();
}

nlohmann::json exportedKernelRecord(const KernelExportInput& in) {
  const Candidate& c = in.kernel;
  nlohmann::json j = exportedKernelJson(in.task.name, in.task.family, in.task.specJson, c);
  j["candidate"] = c.id;
  j["run"] = c.runId;
  j["median_us"] = c.timing ? c.timing->medianUs : 0.0;
  j["reference_median_us"] = c.timing ? c.timing->referenceMedianUs : 0.0;
  j["speedup"] = c.timing ? c.timing->speedup : 0.0;
  j["sm_clock_mhz"] = c.timing ? c.timing->smClockMHz : 0.0;
  if (in.seal) j["seal"] = in.seal->id;
  return j;
}

std::vector<ExportedFile> kernelExportFiles(const KernelExportInput& in, ExportFormat format) {
  requirePlainFileName(in.task.name);
  const std::string& name = in.task.name;
  const std::string record = exportedKernelRecord(in).dump(2) + "\n";
  if (format == ExportFormat::Cu) {
    const auto spec = specOf(in.task);
    return {{name + ".cu", cuFile(in, spec ? &*spec : nullptr)}, {name + ".json", record}};
  }
  const TaskSpec spec = parseTaskSpec(in.task.specJson);  // a damaged spec cannot make an extension
  const std::string description = describeExportedKernel(in);
  std::vector<ExportedFile> files = torchExtensionFiles(spec, in.kernel, cuFile(in, &spec), name, description);
  if (format == ExportFormat::FlashInfer) {
    FlashInferSolutionInfo info;
    info.name = "crucible_" + name + "_c" + std::to_string(in.kernel.id);
    info.definition = name;
    info.description = description;
    info.author = "crucible (" + (in.kernel.proposer.empty() ? std::string("unknown") : in.kernel.proposer) + ")";
    info.gpu = in.measuredOn;
    if (in.seal) info.cudaVersion = in.seal->fingerprint.cudaRuntime;
    return {{name + ".solution.json", flashInferSolution(info, files).dump(2) + "\n"}};
  }
  files.push_back({name + ".json", record});
  // The task's baseline, the reference the kernel was validated against, to compare with.
  Candidate baseline;
  baseline.source = spec.baseline.source;
  baseline.launch = spec.baseline.launch;
  baseline.compile = in.kernel.compile;  // the same GPU architecture
  for (ExportedFile& f : torchExtensionFiles(spec, baseline, exportedKernelFile(baseline, name, &spec, nullptr),
                                             name + "_baseline", name + ": the task's baseline kernel"))
    files.push_back(std::move(f));
  return files;
}

std::string exportMeasuredOn(const std::optional<Seal>& seal, const std::vector<Ceiling>& projectCeilings) {
  if (seal) return seal->fingerprint.gpu;
  std::set<std::string> devices;
  for (const Ceiling& c : projectCeilings) devices.insert(c.device);
  return devices.size() == 1 ? *devices.begin() : "";
}

}  // namespace crucible
