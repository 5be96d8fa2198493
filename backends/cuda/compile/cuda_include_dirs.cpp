// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/cuda_include_dirs.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef CRUCIBLE_CUDA_CONFIGURED_INCLUDE_DIR
#define CRUCIBLE_CUDA_CONFIGURED_INCLUDE_DIR ""
#endif

namespace crucible {
namespace {
bool holdsToolkitHeaders(const std::filesystem::path& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::is_regular_file(dir / "cuda_fp16.h", ec);
}
}  // namespace

std::string findCudaIncludeDir() {
  std::vector<std::filesystem::path> candidates;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(var); root && *root) candidates.push_back(std::filesystem::path(root) / "include");
  candidates.emplace_back("/usr/local/cuda/include");
  candidates.emplace_back(CRUCIBLE_CUDA_CONFIGURED_INCLUDE_DIR);
  for (const auto& dir : candidates)
    if (holdsToolkitHeaders(dir)) return dir.string();
  return {};
}

std::vector<std::string> nvrtcIncludeDirs(const std::string& toolkitIncludeDir) {
  if (toolkitIncludeDir.empty()) return {};
  std::vector<std::string> dirs{toolkitIncludeDir};
  std::error_code ec;
  const auto cccl = std::filesystem::path(toolkitIncludeDir) / "cccl";
  if (std::filesystem::is_directory(cccl, ec)) dirs.push_back(cccl.string());
  return dirs;
}

}  // namespace crucible
