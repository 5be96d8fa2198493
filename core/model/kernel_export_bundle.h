// SPDX-License-Identifier: GPL-3.0-or-later
// Every file an export of one kernel writes, in one of the formats
// `crucible-cli best|seal export --format` and the GUI offer (issue 22):
//   cu         <task>.cu (kernel_export.h, with its host launcher) and <task>.json
//   torch      <task>.json, the PyTorch extension of the kernel
//              (torch_extension_export.h) and that of the task's baseline as
//              <task>_baseline*, to compare against
//   flashinfer <task>.solution.json (flashinfer_solution.h)
// One place for the choice of files, so the front ends cannot drift apart.
// Pure: nothing here reads or writes files.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/model/task.h"
#include "core/model/torch_extension_export.h"

namespace crucible {

enum class ExportFormat { Cu, Torch, FlashInfer };
// "cu" | "torch" | "flashinfer"; nullopt for anything else.
std::optional<ExportFormat> exportFormatFromString(const std::string& text);

struct KernelExportInput {
  Task task;                       // name, family, spec
  Candidate kernel;                // with its source, launch, compile report and timing
  std::optional<Seal> seal;        // the kernel's seal, when it is sealed
  std::string measuredOn;          // the GPU its figures come from ("" when not known for certain)
};

// Where an exported kernel's figures were measured: the seal's fingerprint,
// else the one GPU the project measured its roofs on; "" when that is not
// known for certain. crucible-cli best and the workbench's Export kernel say the same.
std::string exportMeasuredOn(const std::optional<Seal>& seal, const std::vector<Ceiling>& projectCeilings);

// One line saying what the kernel is and how it measured.
std::string describeExportedKernel(const KernelExportInput& in);

// The record beside an exported kernel: exportedKernelJson plus where it comes from and how it measured.
nlohmann::json exportedKernelRecord(const KernelExportInput& in);

// The files, named relative to the export folder. Throws TaskSpecError when a
// torch or flashinfer export meets a task spec that does not parse, and
// std::invalid_argument when the task's name cannot be a file name.
std::vector<ExportedFile> kernelExportFiles(const KernelExportInput& in, ExportFormat format);

}  // namespace crucible
