// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the store tests: a scratch folder, fully-filled domain
// objects, and the raw bytes of a file (to prove a refused file is untouched).
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/store/project_store.h"

namespace crucible::store_test {

// A fresh folder per test, removed afterwards.
class ScratchDir {
public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "crucible-store-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

private:
  std::filesystem::path dir_;
};

inline std::vector<char> fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline Task sampleTask(const std::string& name = "softmax_f32_8192x4096") {
  Task t;
  t.name = name;
  t.family = "softmax";
  t.specJson = R"({"op":"softmax","shape":[8192,4096]})";
  t.specVersion = 3;
  return t;
}

inline Run sampleRun(TaskId task) {
  Run r;
  r.taskId = task;
  r.name = "first run";
  r.proposer = "template";
  r.seed = 0xfedcba9876543210ULL;  // above INT64_MAX: must survive the signed column
  r.budget = {500, 3600.5, 1200.25};
  r.gated = true;
  r.settingsJson = R"({"islands":4})";
  r.status = RunStatus::Running;
  r.createdAt = 1700000000;
  r.evaluationsDone = 17;
  r.wallSecondsUsed = 12.5;
  r.gpuSecondsUsed = 3.25;
  r.bestSpeedup = 1.75;
  return r;
}

// A candidate with every field set to a non-default value.
inline Candidate fullCandidate(RunId run, std::vector<CandidateId> parents = {}, MetaPromptId prompt = 0) {
  Candidate c;
  c.runId = run;
  c.generation = 7;
  c.source = "extern \"C\" __global__ void softmax(const float* x, float* y) {\n  // 'quotes' \"and\" unicode: \xc2\xb5s\n}\n";
  c.launch.entry = "softmax";
  c.launch.grid[0] = "ceil_div(M, 4)";
  c.launch.grid[1] = "2";
  c.launch.grid[2] = "3";
  c.launch.block[0] = "128";
  c.launch.block[1] = "4";
  c.launch.block[2] = "5";
  c.launch.dynamicSmemBytes = "N * 4";
  c.parents = std::move(parents);
  c.proposer = "llm:some-model";
  c.mutation = "mutate:vector_width";
  c.metaPrompt = prompt;
  c.genomeJson = R"({"vec":4,"rows_per_block":4})";
  c.architectureKey = "vec=4;smem=0";
  c.descriptor = {{"memory", "registers"}, {"vector", "4"}};
  c.status = CandidateStatus::Valid;
  c.statusDetail = "passed 5 seeds";
  CompileReport report;
  report.ok = true;
  report.arch = "sm_90a";
  report.diagnostics = {{12, 5, "warning", "variable 'x' was declared but never referenced"},
                        {0, 0, "error", "something\nmultiline"}};
  report.log = "nvrtc log\nline 2";
  report.registers = 40;
  report.staticSmemBytes = 1024;
  report.localBytes = 8;
  report.spillStoreBytes = 4;
  report.spillLoadBytes = 12;
  report.maxThreadsPerBlock = 768;
  report.features = {{"ld.global.v4", 3}, {"shfl.sync", 10}};
  report.seconds = 0.123456789012345;
  c.compile = report;
  c.validation = {{1, true, "", 1e-7, 2.5e-6, 0}, {0xffffffffffffffffULL, false, "unwritten output elements: 4096", 3.5, 0.1, 4096}};
  Timing t;
  t.samplesUs = {10.1, 10.25, 9.875, 1.0 / 3.0};
  t.medianUs = 10.1;
  t.iqrUs = 0.3;
  t.referenceMedianUs = 17.0;
  t.referenceIqrUs = 0.4;
  t.speedup = 17.0 / 10.1;
  t.smClockMHz = 1980;
  c.timing = t;
  c.profile = {{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 81.5}, {"sm__warps_active", 0.1}};
  c.fitness = 17.0 / 10.1;
  c.createdAt = 1700000123;
  return c;
}

}  // namespace crucible::store_test
