// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/sanitizer_executable.h"

#include <sys/stat.h>
#include <unistd.h>
#include <sstream>
#include <vector>

namespace crucible {
namespace {

bool isExecutableFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string inFolder(const std::string& dir, const std::string& name) {
  return dir.empty() ? std::string() : dir + "/" + name;
}

}  // namespace

ToolkitExecutable findToolkitExecutable(const std::string& name, const std::string& package,
                                        const std::string& pathVariable, const std::string& toolkitBin,
                                        const std::string& cudaHome) {
  std::vector<std::string> candidates;
  std::stringstream path(pathVariable);
  for (std::string dir; std::getline(path, dir, ':');)
    if (!dir.empty()) candidates.push_back(inFolder(dir, name));
  if (!toolkitBin.empty()) candidates.push_back(inFolder(toolkitBin, name));
  if (!cudaHome.empty()) candidates.push_back(inFolder(cudaHome + "/bin", name));
  for (const std::string& c : candidates)
    if (isExecutableFile(c)) return {c, {}};
  std::string where = "not on PATH";
  if (!toolkitBin.empty()) where += ", not in " + toolkitBin;
  where += cudaHome.empty() ? ", and CUDA_HOME is not set" : ", not in " + cudaHome + "/bin";
  return {{}, where + "; it comes with the CUDA toolkit's " + package + " package"};
}

SanitizerExecutable findComputeSanitizer(const std::string& pathVariable, const std::string& toolkitBin,
                                         const std::string& cudaHome) {
  return findToolkitExecutable("compute-sanitizer", "compute-sanitizer", pathVariable, toolkitBin, cudaHome);
}

}  // namespace crucible
