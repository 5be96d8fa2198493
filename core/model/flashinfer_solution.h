// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel exported as a FlashInfer-Trace Solution (the JSON document
// FlashInfer-Bench benchmarks): name, definition (the task), author, spec
// (language CUDA, target hardware, dependencies, entry point main.py::run)
// and the sources: the PyTorch extension's files (torch_extension_export.h)
// with main.py as the entry point, whose run() takes the definition's inputs
// by name and returns {output name: tensor}.
// Pure: nothing here reads or writes files.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include "core/model/torch_extension_export.h"

namespace crucible {

struct FlashInferSolutionInfo {
  std::string name;            // unique solution name, e.g. "crucible_softmax_f32_c42"
  std::string definition;      // the definition it solves: the task's name
  std::string description;     // figures and provenance, one paragraph
  std::string author;          // "crucible (template)"
  std::string gpu;             // where it was validated ("NVIDIA H200"); "" when unknown
  std::string cudaVersion;     // "13.0"; "" when unknown
};

// "NVIDIA H200" -> "NVIDIA_H200" (the schema's hardware names).
std::string flashInferHardwareName(const std::string& gpu);

// The solution document. torchFiles are torchExtensionFiles(...) for the
// same kernel; their loader becomes main.py.
nlohmann::json flashInferSolution(const FlashInferSolutionInfo& info, const std::vector<ExportedFile>& torchFiles);

}  // namespace crucible
