// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/nvml_clocks.h"
#include <dlfcn.h>

namespace crucible::cuda {
namespace {
// The few NVML entry points used, declared here (the toolkit ships no nvml.h
// on every machine). Signatures follow NVML's documented C API.
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr int kClockSm = 1;   // NVML_CLOCK_SM
constexpr int kClockMem = 2;  // NVML_CLOCK_MEM
struct Nvml {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*byBusId)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*clock)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*maxClock)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*driverVersion)(char*, unsigned) = nullptr;
};
const Nvml* nvml(std::string& reason) {
  static Nvml api;
  static std::string failure;
  static bool loaded = [] {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      failure = "NVML (libnvidia-ml.so.1) not found";
      return false;
    }
    api.init = reinterpret_cast<NvmlReturn (*)()>(dlsym(lib, "nvmlInit_v2"));
    api.byBusId = reinterpret_cast<NvmlReturn (*)(const char*, NvmlDevice*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    api.clock = reinterpret_cast<NvmlReturn (*)(NvmlDevice, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    api.maxClock = reinterpret_cast<NvmlReturn (*)(NvmlDevice, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    api.driverVersion = reinterpret_cast<NvmlReturn (*)(char*, unsigned)>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    if (!api.init || !api.byBusId || !api.clock || !api.maxClock || !api.driverVersion) {
      failure = "NVML lacks an entry point Crucible needs";
      return false;
    }
    if (NvmlReturn rc = api.init(); rc != 0) {
      failure = "nvmlInit failed (NVML error " + std::to_string(rc) + ")";
      return false;
    }
    return true;
  }();
  if (!loaded) {
    reason = failure;
    return nullptr;
  }
  return &api;
}
}  // namespace

NvmlClocks::NvmlClocks(const std::string& pciBusId) {
  const Nvml* api = nvml(reason_);
  if (!api) return;
  char version[96] = {};
  if (api->driverVersion(version, sizeof version) == 0) driverVersion_ = version;
  NvmlDevice dev = nullptr;
  if (NvmlReturn rc = api->byBusId(pciBusId.c_str(), &dev); rc != 0) {
    reason_ = "NVML does not know the GPU at PCI bus " + pciBusId + " (NVML error " + std::to_string(rc) + ")";
    return;
  }
  device_ = dev;
}

double NvmlClocks::smClockMHz() const {
  std::string ignored;
  unsigned mhz = 0;
  if (device_ && nvml(ignored)->clock(device_, kClockSm, &mhz) == 0) return mhz;
  return 0;
}

double NvmlClocks::memClockMHz() const {
  std::string ignored;
  unsigned mhz = 0;
  if (device_ && nvml(ignored)->clock(device_, kClockMem, &mhz) == 0) return mhz;
  return 0;
}

double NvmlClocks::maxSmClockMHz() const {
  std::string ignored;
  unsigned mhz = 0;
  if (device_ && nvml(ignored)->maxClock(device_, kClockSm, &mhz) == 0) return mhz;
  return 0;
}

}  // namespace crucible::cuda
