// SPDX-License-Identifier: GPL-3.0-or-later
// Where a figure was measured: GPU, clocks, driver, toolkit; and whether two
// figures were measured on the same hardware, so that a speedup never divides
// a timing from one GPU model or driver by a timing from another.
#pragma once
#include <optional>
#include <string>

namespace crucible {

struct Fingerprint {
  std::string gpu;            // "NVIDIA H200"; empty: not recorded
  std::string arch;           // "sm_90"
  std::string driver;         // "580.159.04"
  std::string cudaRuntime;    // "13.0"
  std::string nvrtc;          // "13.0"
  double smClockMHz = 0;
  double memClockMHz = 0;
  std::string host;
  // Streaming multiprocessors the worker's device has (a MIG slice or a
  // cut-down part has fewer under the same name); 0: not recorded.
  int smCount = 0;
};

// True when the fingerprint names the GPU it was taken on.
inline bool recorded(const Fingerprint& f) { return !f.gpu.empty(); }

// Why timings taken on `a` and on `b` cannot be compared: the GPU model, its
// architecture, its SM count (when both are recorded) or the driver differ,
// e.g. "timed on NVIDIA A100-SXM4-80GB (sm_80), the reference on NVIDIA H200
// (sm_90)"; nullopt when they are the same hardware. Clocks, host and toolkit
// are recorded but do not make two GPUs different hardware: two H200s of one
// pool compare. `what` and `other` name the two sides in the sentence.
// Throws nothing; an unrecorded side is reported as such, never as a match.
std::optional<std::string> hardwareDifference(const Fingerprint& a, const Fingerprint& b,
                                              const std::string& what = "timed",
                                              const std::string& other = "the reference");

// "NVIDIA H200 (sm_90, 132 SMs, driver 580.159.04)", for logs and details.
std::string describeHardware(const Fingerprint& f);

}  // namespace crucible
