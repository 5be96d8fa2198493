// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/driver_api.h"
#include <dlfcn.h>
#include <atomic>
#include <mutex>

namespace crucible::cuda {
namespace {

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

DriverApi load() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    throw DriverError(CUDA_SUCCESS, std::string("no CUDA driver on this machine (libcuda.so.1 not found: ") +
                                        dlerror() + "); candidates cannot be evaluated here");
  auto getProc = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc)
    throw DriverError(CUDA_SUCCESS, "the CUDA driver is older than CUDA 12 (no cuGetProcAddress_v2); "
                                    "Crucible's worker needs a driver for CUDA " +
                                        std::to_string(CUDA_VERSION / 1000) + " or newer");
  DriverApi api;
  auto resolve = [&](const char* name, void** slot) {
    CUdriverProcAddressQueryResult status{};
    CUresult rc = getProc(name, slot, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (rc != CUDA_SUCCESS || !*slot || status != CU_GET_PROC_ADDRESS_SUCCESS)
      throw DriverError(rc, std::string("the CUDA driver lacks ") + name + " at ABI version " +
                                std::to_string(CUDA_VERSION) + " (status " + std::to_string(status) +
                                "): update the driver");
  };
#define CRUCIBLE_CU_RESOLVE(f) resolve(#f, reinterpret_cast<void**>(&api.f));
  CRUCIBLE_CU_FUNCTIONS(CRUCIBLE_CU_RESOLVE)
#undef CRUCIBLE_CU_RESOLVE
#define CRUCIBLE_CU_RESOLVE_VERSIONED(f, type) resolve(#f, reinterpret_cast<void**>(&api.f));
  CRUCIBLE_CU_VERSIONED_FUNCTIONS(CRUCIBLE_CU_RESOLVE_VERSIONED)
#undef CRUCIBLE_CU_RESOLVE_VERSIONED
  // The library stays loaded for the life of the process: unloading a driver is never safe.
  return api;
}

}  // namespace

const DriverApi& driver() {
  // Not a function-local static of DriverApi: a failed load must throw again
  // on the next call with the same message rather than leave a half table.
  static std::once_flag once;
  static DriverApi api;
  static std::string failure;
  static CUresult failureCode = CUDA_SUCCESS;
  std::call_once(once, [] {
    try {
      api = load();
    } catch (const DriverError& e) {
      failure = e.what();
      failureCode = e.code();
    }
  });
  if (!failure.empty()) throw DriverError(failureCode, failure);
  return api;
}

namespace {
std::atomic<bool> lostFlag{false};
}
void markContextLost() { lostFlag = true; }
bool contextLost() { return lostFlag; }

std::string describe(CUresult rc) {
  const char* name = nullptr;
  const char* text = nullptr;
  try {
    const DriverApi& d = driver();
    d.cuGetErrorName(rc, &name);
    d.cuGetErrorString(rc, &text);
  } catch (const DriverError&) {
  }
  std::string s = name ? name : ("CUresult " + std::to_string(static_cast<int>(rc)));
  if (text) s += std::string(" (") + text + ")";
  return s;
}

void check(CUresult rc, const char* what) {
  if (rc != CUDA_SUCCESS) throw DriverError(rc, std::string(what) + " failed: " + describe(rc));
}

}  // namespace crucible::cuda
