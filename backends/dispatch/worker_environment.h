// SPDX-License-Identifier: GPL-3.0-or-later
// The environment a worker process starts with. Workers run code a language
// model wrote, so they inherit only what a CUDA program needs from the
// engine's environment, never its credentials (API keys, tokens, cloud
// settings): an allow-list, not a deny-list, so a new secret's name cannot
// slip through.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace crucible {

// True for the variables a worker inherits: PATH, HOME, LANG, LANGUAGE,
// LC_*, TMPDIR, LD_LIBRARY_PATH, CUDA_* (CUDA_VISIBLE_DEVICES, the driver's
// and JIT cache's settings, CUDA_HOME for NVRTC's headers) and the
// sanitizers' ASAN_/UBSAN_/LSAN_OPTIONS (the asan preset's tests). A name
// that looks like a credential (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL) is
// refused even with an allowed prefix.
bool workerMayInherit(std::string_view name);

// "NAME=value" entries for a worker: those of `inherited` (a null-terminated
// environ-style array) that workerMayInherit, then every override, which is
// set whatever its name (the engine chooses those, e.g. CUDA_VISIBLE_DEVICES).
std::vector<std::string> workerEnvironment(const char* const* inherited,
                                           const std::map<std::string, std::string>& overrides);

}  // namespace crucible
