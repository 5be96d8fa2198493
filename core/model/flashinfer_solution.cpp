// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/flashinfer_solution.h"

#include <cctype>
#include <stdexcept>

namespace crucible {

std::string flashInferHardwareName(const std::string& gpu) {
  std::string out;
  for (unsigned char c : gpu) {
    if (std::isalnum(c)) out += static_cast<char>(std::toupper(c));
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

nlohmann::json flashInferSolution(const FlashInferSolutionInfo& info, const std::vector<ExportedFile>& torchFiles) {
  nlohmann::json sources = nlohmann::json::array();
  bool haveLoader = false;
  for (const ExportedFile& f : torchFiles) {
    const bool loader = f.path.size() > 3 && f.path.compare(f.path.size() - 3, 3, ".py") == 0;
    if (loader) haveLoader = true;
    // The loader is the entry point; FlashInfer-Bench's convention names it main.py.
    sources.push_back({{"path", loader ? std::string("main.py") : f.path}, {"content", f.content}});
  }
  if (!haveLoader) throw std::invalid_argument("flashInferSolution: the PyTorch extension has no loader (.py) file");
  nlohmann::json hardware = nlohmann::json::array();
  if (!info.gpu.empty()) hardware.push_back(flashInferHardwareName(info.gpu));
  nlohmann::json dependencies = nlohmann::json::array({"torch"});
  dependencies.push_back(info.cudaVersion.empty() ? std::string("CUDA") : "CUDA >= " + info.cudaVersion);
  return {{"name", info.name},
          {"definition", info.definition},
          {"description", info.description},
          {"author", info.author},
          {"spec",
           {{"language", "CUDA"},
            {"target_hardware", hardware},
            {"dependencies", dependencies},
            {"entry_point", "main.py::run"},
            {"build_commands", nlohmann::json::array()}}},
          {"sources", sources}};
}

}  // namespace crucible
