// SPDX-License-Identifier: GPL-3.0-or-later
// ComputeSanitizer against a fake compute-sanitizer placed first on PATH and
// a fake worker: what it runs, with which environment, and how each ending
// of a tool's run reads in the report. No GPU needed.
#include "backends/cuda/sanitize/compute_sanitizer.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include "backends/cuda/sanitize/sanitize_job.h"
#include "backends/cuda/sanitize/sanitizer_executable.h"
#include "core/engine/seal_policy.h"
#include "core/task/task_spec.h"
#include "tests/backends/sanitize/fake_tools.h"
#include "tests/backends/sanitize/sample_logs.h"

namespace crucible {
namespace {

using testing::FakeTools;
using testing::ScopedEnv;

Task geluTask() {
  Task t;
  t.name = "gelu_f32_1048576";
  t.specJson = testing::readText(std::string(CRUCIBLE_SOURCE_DIR) + "/resources/tasks/gelu_f32_1048576.json");
  return t;
}

KernelBinary geluKernel(const Task& task) {
  return KernelBinary{"not really a cubin", parseTaskSpec(task.specJson).baseline.launch};
}

// The fake tools first on PATH, the real toolkit folder out of the way.
struct Fixture {
  Fixture() : path("PATH", tools.dir().string() + ":" + std::getenv("PATH")), cudaHome("CUDA_HOME", std::nullopt) {}
  ComputeSanitizer sanitizer(ComputeSanitizerOptions options = {}) const {
    options.toolkitBin = "/nonexistent/cuda/bin";
    options.workerExecutable = tools.workerPath();
    return ComputeSanitizer(options);
  }
  FakeTools tools;
  ScopedEnv path;
  ScopedEnv cudaHome;
  Task task = geluTask();
};

TEST(ComputeSanitizer, ACleanRunOfEveryToolAllowsTheSeal) {
  Fixture f;
  f.tools.sanitizer(FakeTools::cleanBody());
  SanitizerReport r = f.sanitizer().sanitize(f.task, geluKernel(f.task), 0);
  EXPECT_TRUE(r.ran);
  EXPECT_TRUE(r.clean) << r.log;
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.tools, (std::vector<std::string>{"memcheck", "racecheck", "initcheck", "synccheck"}));
  EXPECT_FALSE(sanitizerRefusal(&r));
  EXPECT_NE(r.log.find("== synccheck: clean"), std::string::npos) << r.log;
}

TEST(ComputeSanitizer, RunsEachToolOnTheWorkerWithTheAgreedOptions) {
  Fixture f;
  f.tools.sanitizer(FakeTools::cleanBody());
  ComputeSanitizer s = f.sanitizer();
  s.sanitize(f.task, geluKernel(f.task), 0);
  const std::string args = f.tools.arguments();
  for (const char* tool : {"memcheck", "racecheck", "initcheck", "synccheck"})
    EXPECT_NE(args.find(std::string("--tool ") + tool + " --error-exitcode 99 --print-limit 20"), std::string::npos)
        << args;
  EXPECT_NE(args.find("--racecheck-report hazard " + f.tools.workerPath() + " --sanitize-run "), std::string::npos)
      << args;
  int hazardReports = 0;
  for (std::size_t at = 0; (at = args.find("--racecheck-report", at)) != std::string::npos; ++at) ++hazardReports;
  EXPECT_EQ(hazardReports, 1) << "racecheck only";

  const auto argv = s.commandFor("/opt/cs", "memcheck", "/tmp/job");
  EXPECT_EQ(argv.front(), "/opt/cs");
  // Padding after every allocation, so a read one past a tensor reaches no neighbour.
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--padding"), argv.end());
  EXPECT_EQ(argv[argv.size() - 3], f.tools.workerPath());
  EXPECT_EQ(argv[argv.size() - 2], "--sanitize-run");
  EXPECT_EQ(argv.back(), "/tmp/job");
}

TEST(ComputeSanitizer, TheToolsSeeAMinimalEnvironmentAndOnlyTheirGpu) {
  Fixture f;
  ScopedEnv secret("CRUCIBLE_TEST_API_KEY", std::string("do-not-leak"));
  ScopedEnv preload("LD_PRELOAD", std::string(""));
  ScopedEnv visible("CUDA_VISIBLE_DEVICES", std::nullopt);
  ScopedEnv lang("LANG", std::string("C.UTF-8"));
  f.tools.sanitizer(FakeTools::cleanBody());
  f.sanitizer().sanitize(f.task, geluKernel(f.task), 2);
  const std::string env = f.tools.environment();
  EXPECT_EQ(env.find("CRUCIBLE_TEST_API_KEY"), std::string::npos) << env;
  EXPECT_EQ(env.find("LD_PRELOAD"), std::string::npos) << env;
  EXPECT_NE(env.find("CUDA_VISIBLE_DEVICES=2\n"), std::string::npos) << "the evaluator's GPU: " << env;
  EXPECT_NE(env.find("LANG=C.UTF-8\n"), std::string::npos) << env;
  EXPECT_NE(env.find("PATH=" + f.tools.dir().string()), std::string::npos) << env;
}

TEST(ComputeSanitizer, FindingsRefuseTheSealAndTheRestOfTheToolsAreSkipped) {
  Fixture f;
  std::string hazards;
  for (const char* p = samples::kRacecheckHazards; *p; ++p) hazards += *p == '\'' ? std::string("'\\''") : std::string(1, *p);
  f.tools.sanitizer("if [ \"$tool\" = racecheck ]; then\n"
                    "  printf '%s' '" + hazards + "' > \"$log\"\n"
                    "  exit 99\n"
                    "fi\n" +
                    FakeTools::cleanBody());
  SanitizerReport r = f.sanitizer().sanitize(f.task, geluKernel(f.task), 0);
  EXPECT_TRUE(r.ran);
  EXPECT_FALSE(r.clean);
  EXPECT_EQ(r.tools, (std::vector<std::string>{"memcheck", "racecheck"})) << "a seal is refused after the first";
  EXPECT_EQ(r.reportedErrors.at("racecheck"), 3);
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].tool, "racecheck");
  EXPECT_EQ(sanitizerRefusal(&r),
            "racecheck found 3 hazards: Error: Potential RAW hazard detected at __shared__ 0x3fc in block (0,0,0) : "
            "(at " + r.shape + ")");
  EXPECT_FALSE(r.shape.empty()) << "the refusal says at which shape the kernel ran";
  EXPECT_NE(r.log.find("Current Value"), std::string::npos) << "the tool's own report comes with it";

  ComputeSanitizerOptions all;
  all.stopAtFirstFinding = false;
  SanitizerReport full = f.sanitizer(all).sanitize(f.task, geluKernel(f.task), 0);
  EXPECT_EQ(full.tools.size(), 4u) << "on demand, every tool runs";
  EXPECT_FALSE(full.clean);
}

TEST(ComputeSanitizer, AToolThatDoesNotFinishIsKilledWithItsChildrenAndRefusesTheSeal) {
  Fixture f;
  const std::string survivor = (f.tools.dir() / "survivor").string();
  f.tools.sanitizer("(sleep 2; touch '" + survivor + "') &\nsleep 30\n" + FakeTools::cleanBody());
  ComputeSanitizerOptions quick;
  quick.toolTimeoutSeconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  SanitizerReport r = f.sanitizer(quick).sanitize(f.task, geluKernel(f.task), 0);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_FALSE(r.clean);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].tool, "memcheck");
  EXPECT_EQ(r.findings[0].message, "did not finish within 0.5 s");
  EXPECT_EQ(sanitizerRefusal(&r), "memcheck: did not finish within 0.5 s (at " + r.shape + ")");
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_FALSE(std::filesystem::exists(survivor)) << "the tool's whole process group was killed";
}

TEST(ComputeSanitizer, AMissingToolIsSaidPlainlyAndNothingRuns) {
  FakeTools tools;   // a PATH folder without compute-sanitizer
  ScopedEnv path("PATH", tools.dir().string());
  ScopedEnv cudaHome("CUDA_HOME", std::nullopt);
  ComputeSanitizerOptions options;
  options.toolkitBin = "/nonexistent/cuda/bin";
  options.workerExecutable = tools.workerPath();
  ComputeSanitizer s(options);
  SanitizerReport r = s.sanitize(geluTask(), geluKernel(geluTask()), 0);
  EXPECT_FALSE(r.ran);
  EXPECT_FALSE(r.clean);
  EXPECT_EQ(r.unavailableReason,
            "compute-sanitizer is not installed (not on PATH, not in /nonexistent/cuda/bin, and CUDA_HOME is not set; "
            "it comes with the CUDA toolkit's compute-sanitizer package)");
  auto why = sanitizerRefusal(&r);
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("the sanitizers did not run: compute-sanitizer is not installed", 0), 0u) << *why;
  EXPECT_NE(s.status().find("nothing can be sealed"), std::string::npos) << s.status();
}

TEST(ComputeSanitizer, IsFoundOnPathThenInTheToolkitThenInCudaHome) {
  FakeTools a, b, c;
  for (const FakeTools* t : {&a, &b, &c}) t->sanitizer("exit 0");
  EXPECT_EQ(findComputeSanitizer(a.dir().string(), b.dir().string(), c.dir().string()).path,
            (a.dir() / "compute-sanitizer").string());
  EXPECT_EQ(findComputeSanitizer("/nonexistent", b.dir().string(), c.dir().string()).path,
            (b.dir() / "compute-sanitizer").string());
  std::filesystem::create_directories(c.dir() / "bin");
  std::filesystem::rename(c.dir() / "compute-sanitizer", c.dir() / "bin" / "compute-sanitizer");
  EXPECT_EQ(findComputeSanitizer("/nonexistent", "/nonexistent", c.dir().string()).path,
            (c.dir() / "bin" / "compute-sanitizer").string());
  EXPECT_EQ(findComputeSanitizer("", "", "").path, "");
}

TEST(ComputeSanitizer, AFailedLaunchInTheWorkerRefusesTheSealWithItsReason) {
  Fixture f;
  f.tools.worker("echo \"crucible-worker --sanitize-run: launch 1 of 'gelu_kernel' was refused: "
                 "CUDA_ERROR_INVALID_VALUE\" >&2\nexit 3");
  f.tools.sanitizer(FakeTools::cleanBody());
  SanitizerReport r = f.sanitizer().sanitize(f.task, geluKernel(f.task), 0);
  EXPECT_FALSE(r.clean);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].message,
            "the kernel's run under memcheck failed (exit code 3): crucible-worker --sanitize-run: launch 1 of "
            "'gelu_kernel' was refused: CUDA_ERROR_INVALID_VALUE");
}

TEST(ComputeSanitizer, AMissingWorkerIsSaidPlainly) {
  Fixture f;
  f.tools.sanitizer(FakeTools::cleanBody());
  ComputeSanitizerOptions options;
  options.toolkitBin = "/nonexistent/cuda/bin";
  options.workerExecutable = "/nonexistent/crucible-worker";
  SanitizerReport r = ComputeSanitizer(options).sanitize(f.task, geluKernel(f.task), 0);
  EXPECT_FALSE(r.ran);
  EXPECT_NE(r.unavailableReason.find("/nonexistent/crucible-worker"), std::string::npos) << r.unavailableReason;
}

TEST(SanitizeJob, WhatTheEngineWritesTheWorkerReads) {
  FakeTools scratch;
  Task task = geluTask();
  LaunchRule launch = parseTaskSpec(task.specJson).baseline.launch;
  launch.tensorMaps.push_back(TensorMapRule{"x", 1, 256, "none"});
  writeSanitizeJob(scratch.dir(), SanitizeJob{task.specJson, std::string("\x7f" "ELF\0\1", 6), launch});
  SanitizeJob back = readSanitizeJob(scratch.dir());
  EXPECT_EQ(back.taskSpecJson, task.specJson);
  EXPECT_EQ(back.cubin, std::string("\x7f" "ELF\0\1", 6)) << "binary-safe";
  EXPECT_EQ(back.launch.entry, launch.entry);
  EXPECT_EQ(back.launch.grid[0], launch.grid[0]);
  ASSERT_EQ(back.launch.tensorMaps.size(), 1u);
  EXPECT_EQ(back.launch.tensorMaps[0].tensor, "x");

  std::filesystem::remove(scratch.dir() / "kernel.cubin");
  try {
    readSanitizeJob(scratch.dir());
    FAIL() << "a job without its cubin was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel.cubin"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crucible
