// SPDX-License-Identifier: GPL-3.0-or-later
// compute-sanitizer logs as its documentation shows them (every line starts
// with "========= "; a report's head line is followed by indented details),
// written for these tests around the kernels a Crucible task launches.
#pragma once

namespace crucible::samples {

inline constexpr const char* kCleanMemcheck =
    "========= COMPUTE-SANITIZER\n"
    "========= ERROR SUMMARY: 0 errors\n";

inline constexpr const char* kCleanRacecheck =
    "========= COMPUTE-SANITIZER\n"
    "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";

// A read one element past the end of the input: the allocation has exactly
// the tensor's size, so memcheck names the distance to it.
inline constexpr const char* kMemcheckOutOfBounds =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at gelu_kernel+0x90\n"
    "=========     by thread (255,0,0) in block (4095,0,0)\n"
    "=========     Address 0x7f3c2a400000 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f3c2a000000 of size 4194304 bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: [0x2d4f6e] in libcuda.so.1\n"
    "=========\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at gelu_kernel+0xb0\n"
    "=========     by thread (255,0,0) in block (4095,0,0)\n"
    "=========     Address 0x7f3c2a800000 is out of bounds\n"
    "=========\n"
    "========= Target application returned an error\n"
    "========= ERROR SUMMARY: 256 errors\n";

inline constexpr const char* kInitcheckUnwrittenOutput =
    "========= COMPUTE-SANITIZER\n"
    "========= Uninitialized __global__ memory read of size 4 bytes\n"
    "=========     at gelu_kernel+0x70\n"
    "=========     by thread (0,0,0) in block (0,0,0)\n"
    "=========     Address 0x7f3c2a400000\n"
    "=========\n"
    "========= ERROR SUMMARY: 1 error\n";

inline constexpr const char* kSynccheckDivergentBarrier =
    "========= COMPUTE-SANITIZER\n"
    "========= Barrier error detected. Divergent thread(s) in block.\n"
    "=========     at gelu_kernel+0x120\n"
    "=========     by thread (128,0,0) in block (0,0,0)\n"
    "=========\n"
    "========= ERROR SUMMARY: 1 error\n";

// --racecheck-report hazard: one report per hazard, errors and warnings.
inline constexpr const char* kRacecheckHazards =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Potential RAW hazard detected at __shared__ 0x3fc in block (0,0,0) :\n"
    "=========     Write Thread (255,0,0) at gelu_kernel+0x60\n"
    "=========     Read Thread (254,0,0) at gelu_kernel+0x80\n"
    "=========     Current Value : 0\n"
    "=========\n"
    "========= Error: Potential WAR hazard detected at __shared__ 0x0 in block (1,0,0) :\n"
    "=========     Read Thread (0,0,0) at gelu_kernel+0x80\n"
    "=========     Write Thread (1,0,0) at gelu_kernel+0x60\n"
    "=========\n"
    "========= Warning: Potential RAW hazard detected at __shared__ 0x4 in block (2,0,0) :\n"
    "=========     Write Thread (1,0,0) at gelu_kernel+0x60\n"
    "=========     Read Thread (33,0,0) at gelu_kernel+0x80\n"
    "=========\n"
    "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n";

// The default (analysis) report: one line per race, its hazards counted.
inline constexpr const char* kRacecheckAnalysis =
    "========= COMPUTE-SANITIZER\n"
    "========= ERROR: Race reported between Write access at gelu_kernel+0x60\n"
    "=========     and Read access at gelu_kernel+0x80 [1024 hazards]\n"
    "=========\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

// A summary that wraps: the error and warning counts on the next line.
inline constexpr const char* kRacecheckWrappedSummary =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Potential WAW hazard detected at __shared__ 0x10 in block (3,0,0) :\n"
    "=========     Write Thread (0,0,0) at gelu_kernel+0x60\n"
    "=========     Write Thread (32,0,0) at gelu_kernel+0x60\n"
    "=========\n"
    "========= RACECHECK SUMMARY: 20 hazards displayed\n"
    "========= (4528 errors, 66 warnings)\n";

// The tool never saw a launch: the worker exited before initialising CUDA.
inline constexpr const char* kNoInstrumentedCall =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Target application terminated before first instrumented API call\n";

}  // namespace crucible::samples
