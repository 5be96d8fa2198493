// SPDX-License-Identifier: GPL-3.0-or-later
// A CPU stand-in for `crucible-worker --job DIR` on the test cluster: answers
// job folders with the real job-folder code and an Evaluator whose behaviour
// the request's task name picks (its spec is a marker file's path):
//   "ok"          Valid; the detail names the Slurm job that ran it
//   "slow"        appends its job to the marker, sleeps 5 s, then ok
//   "hang-first"  first run: writes its job (JOB_TASK) to the marker and sleeps
//                 120 s (a test cancels it); later runs: ok
//   "exit"        exits 3 without a result
//   "garbage"     writes a malformed result and exits 0
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "backends/dispatch/slurm/job_folder.h"

namespace {

using namespace crucible;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string slurmJob() { return env("SLURM_ARRAY_JOB_ID") + "_" + env("SLURM_ARRAY_TASK_ID"); }

class FakeJobEvaluator : public Evaluator {
public:
  explicit FakeJobEvaluator(std::string dir) : dir_(std::move(dir)) {}

  Fingerprint device() const override {
    Fingerprint f;
    f.gpu = "Fake GPU";
    f.arch = "sm_90";
    f.driver = "fake";
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    f.host = std::string(host) + " CUDA_VISIBLE_DEVICES=" + env("CUDA_VISIBLE_DEVICES");
    return f;
  }

  Evaluation evaluate(const EvaluationRequest& r) override {
    const std::string name = r.task ? r.task->name : "";
    const std::string marker = r.task ? r.task->specJson : "";
    if (name == "exit") {
      std::cerr << "fake job worker: exiting without a result as asked\n";
      std::exit(3);
    }
    if (name == "garbage") {
      std::ofstream(std::filesystem::path(dir_) / kJobResultFile) << "this is no frame";
      std::exit(0);
    }
    if (name == "slow") {
      std::ofstream(marker, std::ios::app) << slurmJob() << "\n";
      std::this_thread::sleep_for(std::chrono::seconds(5));
    }
    if (name == "hang-first" && !std::filesystem::exists(marker)) {
      {
        std::ofstream out(marker + ".tmp");
        out << slurmJob() << "\n";
      }
      std::filesystem::rename(marker + ".tmp", marker);
      std::this_thread::sleep_for(std::chrono::seconds(120));
    }
    Evaluation e;
    e.status = CandidateStatus::Valid;
    e.detail = "job=" + slurmJob();
    for (auto seed : r.seeds) e.trials.push_back(ValidationTrial{seed, true, "", 0, 0, 0});
    // Timed like crucible-worker, interleaved; the device is left for the job code to record.
    Timing t;
    t.samplesUs = {2.0};
    t.medianUs = 2.0;
    t.referenceMedianUs = 4.0;
    t.speedup = 2.0;
    e.timing = t;
    e.gpuSeconds = 0.25;
    return e;
  }

  ProfileResult profile(const Task&, const KernelBinary& kernel) override {
    ProfileResult p;
    p.metrics["cubin_bytes"] = static_cast<double>(kernel.cubin.size());
    return p;
  }

  std::vector<Ceiling> measureCeilings() override { return {Ceiling{"Fake GPU", "dram_bw", 4.0e12, 4.8e12, "B/s", 7}}; }

private:
  std::string dir_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--job") {
    std::cerr << "usage: fake_job_worker --job DIR\n";
    return 2;
  }
  FakeJobEvaluator evaluator(argv[2]);
  return crucible::runJobFolder(argv[2], evaluator, std::cerr);
}
