// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_environment.h"

#include <array>

namespace crucible {
namespace {

constexpr std::array<std::string_view, 9> kNames{"PATH",         "HOME",         "LANG",
                                                  "LANGUAGE",     "TMPDIR",       "LD_LIBRARY_PATH",
                                                  "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"};
constexpr std::array<std::string_view, 2> kPrefixes{"LC_", "CUDA_"};
constexpr std::array<std::string_view, 5> kSecretWords{"KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL"};

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

bool workerMayInherit(std::string_view name) {
  for (std::string_view word : kSecretWords)
    if (name.find(word) != std::string_view::npos) return false;
  for (std::string_view allowed : kNames)
    if (name == allowed) return true;
  for (std::string_view prefix : kPrefixes)
    if (startsWith(name, prefix) && name.size() > prefix.size()) return true;
  return false;
}

std::vector<std::string> workerEnvironment(const char* const* inherited,
                                           const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> env;
  for (const char* const* e = inherited; e && *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    if (workerMayInherit(name) && !overrides.count(std::string(name))) env.emplace_back(entry);
  }
  for (const auto& [name, value] : overrides) env.push_back(name + "=" + value);
  return env;
}

}  // namespace crucible
