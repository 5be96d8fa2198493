// SPDX-License-Identifier: GPL-3.0-or-later
#include "example_kernel.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace crucible::testing_support {

std::string readExampleFile(const std::string& relativePath) {
  const std::string path = std::string(CRUCIBLE_SOURCE_DIR) + "/resources/kernels/gemv/" + relativePath;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TaskSpec gemvSpec() { return parseTaskSpec(readExampleFile("gemv_f32_8192x8192.json")); }

Task gemvTask() {
  Task t;
  t.id = 1;
  t.specJson = readExampleFile("gemv_f32_8192x8192.json");
  const TaskSpec s = parseTaskSpec(t.specJson);
  t.name = s.name;
  t.family = s.family;
  return t;
}

StartingKernel gemvKernel() {
  return StartingKernel{"gemv", readExampleFile("gemv.cu"), parseTuneSpec(readExampleFile("gemv.tune.json")),
                        "gemv.cu with gemv.tune.json"};
}

}  // namespace crucible::testing_support
