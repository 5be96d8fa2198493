// SPDX-License-Identifier: GPL-3.0-or-later
// The driver table's types against what cuGetProcAddress hands out. The worker
// resolves every entry point at CUDA_VERSION, which gives the newest version
// of the function at or below it; the member's type comes from cuda.h's
// unversioned prototype, which can be older (cuCtxGetDevice: one parameter in
// cuda.h, two in the _v2 the driver returns at 13000, which crashed the worker
// on its first allocation). cudaTypedefs.h names each version's PFN, so every
// member's parameter count is checked against the PFN the driver resolves.
#include <gtest/gtest.h>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include "backends/cuda/worker/driver_api.h"

namespace {

template <typename T>
struct Arity;
template <typename R, typename... A>
struct Arity<R (*)(A...)> {
  static constexpr int value = sizeof...(A);
};

std::map<std::string, int> tableArities() {
  std::map<std::string, int> out;
#define CRUCIBLE_ARITY(f) out[#f] = Arity<decltype(crucible::cuda::DriverApi::f)>::value;
  CRUCIBLE_CU_FUNCTIONS(CRUCIBLE_ARITY)
#undef CRUCIBLE_ARITY
#define CRUCIBLE_ARITY_VERSIONED(f, type) out[#f] = Arity<type>::value;
  CRUCIBLE_CU_VERSIONED_FUNCTIONS(CRUCIBLE_ARITY_VERSIONED)
#undef CRUCIBLE_ARITY_VERSIONED
  return out;
}

int countParameters(const std::string& list) {
  std::string trimmed = std::regex_replace(list, std::regex(R"(^\s+|\s+$)"), "");
  if (trimmed.empty() || trimmed == "void") return 0;
  int commas = 0;
  for (char c : trimmed) commas += c == ',';
  return commas + 1;
}

TEST(DriverApi, EveryEntryTakesTheParametersOfTheVersionTheDriverResolves) {
  std::ifstream in(CRUCIBLE_CUDA_TYPEDEFS_H);
  ASSERT_TRUE(in) << "cannot read " << CRUCIBLE_CUDA_TYPEDEFS_H;
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  // typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v3020)(CUdeviceptr_v2 *dptr, size_t bytesize);
  const std::regex pfn(R"(PFN_(cu\w+?)_v(\d+)\)\s*\(([^)]*)\))");
  struct Newest {
    int version = -1;
    int parameters = -1;
  };
  std::map<std::string, Newest> resolved;
  for (auto it = std::sregex_iterator(all.begin(), all.end(), pfn); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    const int version = std::stoi((*it)[2]);
    if (version > CUDA_VERSION) continue;
    Newest& n = resolved[name];
    if (version > n.version) n = {version, countParameters((*it)[3])};
  }
  const auto table = tableArities();
  ASSERT_GT(table.size(), 50u);
  for (const auto& [name, arity] : table) {
    auto found = resolved.find(name);
    ASSERT_NE(found, resolved.end()) << name << " has no PFN at or below " << CUDA_VERSION << " in cudaTypedefs.h";
    EXPECT_EQ(arity, found->second.parameters)
        << name << ": the table's type takes " << arity << " parameters, the driver resolves _v"
        << found->second.version << " with " << found->second.parameters;
  }
}

}  // namespace
