// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_messages.h"

#include <gtest/gtest.h>

#include <functional>

#include "tests/core/model/model_expect.h"

namespace crucible {
namespace {

using model_test::expectSame;

void expectSame(const KernelBinary& a, const KernelBinary& b) {
  EXPECT_TRUE(a.cubin == b.cubin) << "cubin differs (" << a.cubin.size() << " vs " << b.cubin.size() << " bytes)";
  expectSame(a.launch, b.launch);
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

TEST(WorkerMessages, TensorMapsOfTheCandidateAndTheReferenceTravelInOrder) {
  const Task task = sampleTask();
  EvaluationRequest r;
  r.task = &task;
  r.candidate = sampleKernel(64, "gemm_tma");
  r.candidate.launch.tensorMaps = {{"A", 128, 64, "128B"}, {"B", 64, 256, "none"}};
  r.reference = sampleKernel(64, "gemm_ref");
  r.reference.launch.tensorMaps = {{"C", 1, 4, "32B"}};
  const OwnedEvaluationRequest back = decodeEvaluationRequest(encodeEvaluationRequest(r));
  EXPECT_EQ(back.request.candidate.launch.tensorMaps, r.candidate.launch.tensorMaps);
  EXPECT_EQ(back.request.reference.launch.tensorMaps, r.reference.launch.tensorMaps);
  // The profiler launches the candidate with its maps too.
  const ProfileRequest profile = decodeProfileRequest(encodeProfileRequest(task, r.candidate));
  EXPECT_EQ(profile.kernel.launch.tensorMaps, r.candidate.launch.tensorMaps);
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
  for (std::size_t i = 0; i < 2; ++i) expectSame(back.trials[i], e.trials[i]);
  ASSERT_TRUE(back.timing);
  expectSame(*back.timing, t);
  EXPECT_EQ(back.gpuSeconds, 0.125);

  Evaluation untimed;
  untimed.status = CandidateStatus::Faulted;
  EXPECT_FALSE(decodeEvaluation(encodeEvaluation(untimed)).timing.has_value());
}

// The worker's split of its seconds (validation, timing) travels; a worker of
// an older build that does not send it decodes as 0 (not said), not as an error.
TEST(WorkerMessages, AnEvaluationsValidateAndTimeSecondsTravelAndMayBeAbsent) {
  Evaluation e;
  e.status = CandidateStatus::Valid;
  e.gpuSeconds = 0.5;
  e.validateSeconds = 0.25;
  e.timeSeconds = 0.2;
  const Evaluation back = decodeEvaluation(encodeEvaluation(e));
  EXPECT_EQ(back.validateSeconds, 0.25);
  EXPECT_EQ(back.timeSeconds, 0.2);

  auto older = nlohmann::json::from_cbor(encodeEvaluation(e));
  older.erase("validateSeconds");
  older.erase("timeSeconds");
  const auto olderBytes = nlohmann::json::to_cbor(older);
  const Evaluation fromOlder = decodeEvaluation(std::string(olderBytes.begin(), olderBytes.end()));
  EXPECT_EQ(fromOlder.validateSeconds, 0);
  EXPECT_EQ(fromOlder.timeSeconds, 0);
  EXPECT_EQ(fromOlder.gpuSeconds, 0.5);
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
  for (std::size_t i = 0; i < 2; ++i) expectSame(back[i], c[i]);
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

// The bytes of j as CBOR, the way a payload arrives.
std::string cborOf(const nlohmann::json& j) {
  const auto bytes = nlohmann::json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

// A fault inside a domain type (the shared codec's ModelJsonError) reaches the
// caller as a MessageError, the one error the worker and engine catch, and names the field.
TEST(WorkerMessages, NestedFieldErrorsAreMessageErrors) {
  auto hello = nlohmann::json::from_cbor(encodeHello(Hello{}));
  hello["device"].erase("nvrtc");
  Evaluation withTrial;
  withTrial.trials = {ValidationTrial{}};
  auto evaluation = nlohmann::json::from_cbor(encodeEvaluation(withTrial));
  evaluation["trials"][0]["passed"] = "yes";
  std::vector<std::string> messages;
  for (const auto& decode : std::vector<std::function<void()>>{[&] { decodeHello(cborOf(hello)); },
                                                               [&] { decodeEvaluation(cborOf(evaluation)); }}) {
    try {
      decode();
      messages.push_back("(no MessageError thrown)");
    } catch (const MessageError& e) {
      messages.push_back(e.what());
    }
  }
  EXPECT_EQ(messages, (std::vector<std::string>{"Fingerprint: missing field 'nvrtc'",
                                                "ValidationTrial[0]: field 'passed': expected a boolean"}));
}

}  // namespace
}  // namespace crucible
