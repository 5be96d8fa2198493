// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_messages.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

// Field-by-field comparisons, written out so a field the codec forgets fails here.
void expectSame(const Fingerprint& a, const Fingerprint& b) {
  EXPECT_EQ(a.gpu, b.gpu);
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.driver, b.driver);
  EXPECT_EQ(a.cudaRuntime, b.cudaRuntime);
  EXPECT_EQ(a.nvrtc, b.nvrtc);
  EXPECT_EQ(a.smClockMHz, b.smClockMHz);
  EXPECT_EQ(a.memClockMHz, b.memClockMHz);
  EXPECT_EQ(a.host, b.host);
}
void expectSame(const Task& a, const Task& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.specJson, b.specJson);
  EXPECT_EQ(a.specVersion, b.specVersion);
}
void expectSame(const KernelBinary& a, const KernelBinary& b) {
  EXPECT_TRUE(a.cubin == b.cubin) << "cubin differs (" << a.cubin.size() << " vs " << b.cubin.size() << " bytes)";
  EXPECT_EQ(a.launch.entry, b.launch.entry);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.launch.grid[i], b.launch.grid[i]);
    EXPECT_EQ(a.launch.block[i], b.launch.block[i]);
  }
  EXPECT_EQ(a.launch.dynamicSmemBytes, b.launch.dynamicSmemBytes);
}

Fingerprint sampleFingerprint() {
  return Fingerprint{"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980.5, 2619.0, "gpu-node-7"};
}

Task sampleTask() {
  return Task{17, "softmax_f32_8192x4096", "softmax", R"({"op":"softmax","shape":[8192,4096]})", 2};
}

KernelBinary sampleKernel(std::size_t bytes, const std::string& entry) {
  KernelBinary k;
  k.cubin.assign(bytes, '\0');
  for (std::size_t i = 0; i < bytes; ++i) k.cubin[i] = static_cast<char>(i * 37 % 256);  // NULs and high bytes
  k.launch.entry = entry;
  k.launch.grid[0] = "ceil_div(M, 128)";
  k.launch.grid[1] = "N";
  k.launch.block[0] = "256";
  k.launch.dynamicSmemBytes = "BLOCK_M * 4";
  return k;
}

TEST(WorkerMessages, HelloRoundTrips) {
  Hello h;
  h.pid = 4242;
  h.device = sampleFingerprint();
  h.error = "cuInit failed";
  const Hello back = decodeHello(encodeHello(h));
  EXPECT_EQ(back.protocol, kWorkerProtocolVersion);
  EXPECT_EQ(back.pid, 4242);
  EXPECT_EQ(back.error, "cuInit failed");
  expectSame(back.device, h.device);
}

TEST(WorkerMessages, FingerprintRoundTrips) {
  expectSame(decodeFingerprint(encodeFingerprint(sampleFingerprint())), sampleFingerprint());
}

TEST(WorkerMessages, EvaluationRequestRoundTripsWithItsTaskAndBinaryCubins) {
  const Task task = sampleTask();
  EvaluationRequest r;
  r.task = &task;
  r.candidate = sampleKernel(300000, "softmax_v4");
  r.reference = sampleKernel(1234, "softmax_ref");
  r.seeds = {1, 2, 0xffffffffffffffffull};
  r.time = false;
  r.extended = true;

  OwnedEvaluationRequest back = decodeEvaluationRequest(encodeEvaluationRequest(r));
  ASSERT_NE(back.request.task, nullptr);
  EXPECT_EQ(back.request.task, back.task.get());
  expectSame(*back.request.task, task);
  expectSame(back.request.candidate, r.candidate);
  expectSame(back.request.reference, r.reference);
  EXPECT_EQ(back.request.seeds, r.seeds);
  EXPECT_FALSE(back.request.time);
  EXPECT_TRUE(back.request.extended);

  // The owned task stays put when the decoded request moves.
  OwnedEvaluationRequest moved = std::move(back);
  EXPECT_EQ(moved.request.task, moved.task.get());
  EXPECT_EQ(moved.request.task->name, task.name);
}

TEST(WorkerMessages, EvaluationRoundTrips) {
  Evaluation e;
  e.status = CandidateStatus::Invalid;
  e.detail = "seed 2: 12 mismatches";
  e.trials = {ValidationTrial{1, true, "", 1e-7, 2e-6, 0}, ValidationTrial{2, false, "mismatches", 0.5, 0.25, 12}};
  Timing t;
  t.samplesUs = {10.5, 11.25, 9.75};
  t.medianUs = 10.5;
  t.iqrUs = 0.75;
  t.referenceMedianUs = 21.0;
  t.referenceIqrUs = 1.5;
  t.speedup = 2.0;
  t.smClockMHz = 1980;
  e.timing = t;
  e.gpuSeconds = 0.125;

  const Evaluation back = decodeEvaluation(encodeEvaluation(e));
  EXPECT_EQ(back.status, CandidateStatus::Invalid);
  EXPECT_EQ(back.detail, e.detail);
  ASSERT_EQ(back.trials.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.trials[i].seed, e.trials[i].seed);
    EXPECT_EQ(back.trials[i].passed, e.trials[i].passed);
    EXPECT_EQ(back.trials[i].reason, e.trials[i].reason);
    EXPECT_EQ(back.trials[i].maxAbsError, e.trials[i].maxAbsError);
    EXPECT_EQ(back.trials[i].maxRelError, e.trials[i].maxRelError);
    EXPECT_EQ(back.trials[i].mismatches, e.trials[i].mismatches);
  }
  ASSERT_TRUE(back.timing);
  EXPECT_EQ(back.timing->samplesUs, t.samplesUs);
  EXPECT_EQ(back.timing->medianUs, t.medianUs);
  EXPECT_EQ(back.timing->iqrUs, t.iqrUs);
  EXPECT_EQ(back.timing->referenceMedianUs, t.referenceMedianUs);
  EXPECT_EQ(back.timing->referenceIqrUs, t.referenceIqrUs);
  EXPECT_EQ(back.timing->speedup, t.speedup);
  EXPECT_EQ(back.timing->smClockMHz, t.smClockMHz);
  EXPECT_EQ(back.gpuSeconds, 0.125);

  Evaluation untimed;
  untimed.status = CandidateStatus::Faulted;
  EXPECT_FALSE(decodeEvaluation(encodeEvaluation(untimed)).timing.has_value());
}

TEST(WorkerMessages, ProfileRequestAndResultRoundTrip) {
  const ProfileRequest back = decodeProfileRequest(encodeProfileRequest(sampleTask(), sampleKernel(999, "k")));
  expectSame(back.task, sampleTask());
  expectSame(back.kernel, sampleKernel(999, "k"));

  ProfileResult p;
  p.permitted = false;
  p.detail = "ERR_NVGPUCTRPERM";
  p.metrics = {{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 87.5}, {"sm__warps_active", 0.25}};
  const ProfileResult pb = decodeProfileResult(encodeProfileResult(p));
  EXPECT_FALSE(pb.permitted);
  EXPECT_EQ(pb.detail, p.detail);
  EXPECT_EQ(pb.metrics, p.metrics);
}

TEST(WorkerMessages, CeilingsRoundTrip) {
  const std::vector<Ceiling> c{{"NVIDIA H200", "dram_bw", 4.1e12, 4.8e12, "B/s", 1700000000},
                               {"NVIDIA H200", "bf16_tensor", 7.0e14, 9.89e14, "FLOP/s", 1700000001}};
  const auto back = decodeCeilings(encodeCeilings(c));
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back[i].device, c[i].device);
    EXPECT_EQ(back[i].name, c[i].name);
    EXPECT_EQ(back[i].measured, c[i].measured);
    EXPECT_EQ(back[i].datasheet, c[i].datasheet);
    EXPECT_EQ(back[i].unit, c[i].unit);
    EXPECT_EQ(back[i].measuredAt, c[i].measuredAt);
  }
  EXPECT_TRUE(decodeCeilings(encodeCeilings({})).empty());
}

TEST(WorkerMessages, ErrorRoundTrips) { EXPECT_EQ(decodeError(encodeError("no context")), "no context"); }

TEST(WorkerMessages, BadPayloadsSayWhatIsWrong) {
  EXPECT_THROW(decodeEvaluation("definitely not cbor"), MessageError);
  // A missing field is named.
  const auto noDetail = nlohmann::json::to_cbor(
      nlohmann::json{{"status", "valid"}, {"trials", nlohmann::json::array()}, {"timing", nullptr}, {"gpuSeconds", 0}});
  try {
    decodeEvaluation(std::string(noDetail.begin(), noDetail.end()));
    FAIL();
  } catch (const MessageError& e) {
    EXPECT_NE(std::string(e.what()).find("'detail'"), std::string::npos) << e.what();
  }
  // So is an unknown status.
  const auto badStatus = nlohmann::json::to_cbor(nlohmann::json{
      {"status", "brilliant"}, {"detail", ""}, {"trials", nlohmann::json::array()}, {"timing", nullptr}, {"gpuSeconds", 0}});
  try {
    decodeEvaluation(std::string(badStatus.begin(), badStatus.end()));
    FAIL();
  } catch (const MessageError& e) {
    EXPECT_NE(std::string(e.what()).find("brilliant"), std::string::npos) << e.what();
  }
  // A cubin sent as text instead of binary is refused.
  auto j = nlohmann::json::from_cbor(encodeProfileRequest(sampleTask(), sampleKernel(4, "k")));
  j["kernel"]["cubin"] = "text";
  const auto textCubin = nlohmann::json::to_cbor(j);
  EXPECT_THROW(decodeProfileRequest(std::string(textCubin.begin(), textCubin.end())), MessageError);
}

}  // namespace
}  // namespace crucible
