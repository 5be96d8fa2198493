// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/gpu_probe.h"
#include <dlfcn.h>

namespace crucible {
namespace {
// The few driver entry points the probe needs, declared here so this file
// builds without CUDA headers. Signatures follow the CUDA driver API.
using CuResult = int;
using CuInit = CuResult (*)(unsigned);
using CuDriverGetVersion = CuResult (*)(int*);
using CuDeviceGetCount = CuResult (*)(int*);
using CuDeviceGet = CuResult (*)(int*, int);
using CuDeviceGetName = CuResult (*)(char*, int, int);
using CuDeviceGetAttribute = CuResult (*)(int*, int, int);
constexpr int kAttrCcMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttrCcMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
}  // namespace

GpuProbe probeGpus() {
  GpuProbe probe;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    probe.message = "No CUDA driver found: review only (projects open, nothing can be evaluated here).";
    return probe;
  }
  auto sym = [&](const char* n) { return dlsym(lib, n); };
  auto init = reinterpret_cast<CuInit>(sym("cuInit"));
  auto version = reinterpret_cast<CuDriverGetVersion>(sym("cuDriverGetVersion"));
  auto count = reinterpret_cast<CuDeviceGetCount>(sym("cuDeviceGetCount"));
  auto get = reinterpret_cast<CuDeviceGet>(sym("cuDeviceGet"));
  auto name = reinterpret_cast<CuDeviceGetName>(sym("cuDeviceGetName"));
  auto attr = reinterpret_cast<CuDeviceGetAttribute>(sym("cuDeviceGetAttribute"));
  if (!init || !version || !count || !get || !name || !attr) {
    probe.message = "The CUDA driver library is incomplete: review only.";
    return probe;
  }
  probe.driverFound = true;
  int v = 0;
  if (version(&v) == 0) probe.driverVersion = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  if (int rc = init(0); rc != 0) {
    probe.message = "CUDA driver " + probe.driverVersion + " found but cuInit failed (error " +
                    std::to_string(rc) + "): review only.";
    return probe;
  }
  int n = 0;
  count(&n);
  for (int i = 0; i < n; ++i) {
    int dev = 0;
    if (get(&dev, i) != 0) continue;
    GpuInfo g;
    g.ordinal = i;
    char buf[256] = {};
    name(buf, sizeof buf, dev);
    g.name = buf;
    attr(&g.ccMajor, kAttrCcMajor, dev);
    attr(&g.ccMinor, kAttrCcMinor, dev);
    probe.gpus.push_back(g);
  }
  if (probe.gpus.empty()) {
    probe.message = "CUDA driver " + probe.driverVersion + " found, but no GPU: review only.";
  } else {
    probe.message = std::to_string(probe.gpus.size()) + " GPU(s): " + probe.gpus.front().name + " (" +
                    probe.gpus.front().arch() + "), CUDA driver " + probe.driverVersion;
  }
  // The library stays loaded: unloading the driver is never safe.
  return probe;
}

}  // namespace crucible
