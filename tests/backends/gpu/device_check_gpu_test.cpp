// SPDX-License-Identifier: GPL-3.0-or-later
// The device's output check (HarnessKernels::tallyOutput, put in words by
// describeOutputCheck) against the host's checkOutput, its specification, on
// the same bytes: every dtype, random outputs with poison, NaN, Inf and
// mismatches injected, all-zero and constant outputs, references with zeros,
// Inf and NaN. Every OutputCheck field must agree exactly (doubles bit for
// bit). Also the masked copies and element comparisons validation uses, and
// TaskRuntime's device checks against the host ones on a real task.
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/output_check.h"
#include "backends/cuda/worker/task_runtime.h"
#include "gelu_kernels.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

using cuda::HostTensor;

std::uint64_t bitsOf(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

void setBits(HostTensor& t, std::int64_t i, std::uint64_t bits) {
  const std::size_t w = sizeOf(t.dtype);
  std::memcpy(t.bytes.data() + static_cast<std::size_t>(i) * w, &bits, w);
}
void setBytes(HostTensor& t, std::int64_t i, const std::vector<std::byte>& pattern) {
  std::memcpy(t.bytes.data() + static_cast<std::size_t>(i) * sizeOf(t.dtype), pattern.data(), sizeOf(t.dtype));
}
// A quiet NaN unlike the poison patterns, +Inf and -Inf of a floating dtype.
std::uint64_t nanBits(DType d) {
  switch (d) {
    case DType::F32: return 0x7FC00000u;
    case DType::F16: return 0x7E00u;
    case DType::BF16: return 0x7FC0u;
    default: return 0x7FF8000000000000ull;
  }
}
std::uint64_t infBits(DType d, bool negative) {
  switch (d) {
    case DType::F32: return negative ? 0xFF800000u : 0x7F800000u;
    case DType::F16: return negative ? 0xFC00u : 0x7C00u;
    case DType::BF16: return negative ? 0xFF80u : 0x7F80u;
    default: return negative ? 0xFFF0000000000000ull : 0x7FF0000000000000ull;
  }
}

class DeviceCheck : public ::testing::Test {
protected:
  void SetUp() override {
    CRUCIBLE_REQUIRE_GPU();
    gpu_ = std::make_unique<cuda::GpuContext>(0);
    harness_ = std::make_unique<cuda::HarnessKernels>(compiler_, gpu_->info().arch());
  }

  // The device's verdict on `got` against `ref`, as TaskRuntime::checkOutput builds it.
  cuda::OutputCheck onDevice(const HostTensor& got, const std::vector<double>& ref, const Tolerance& tol,
                             const std::vector<std::byte>& poison) {
    const cuda::DriverApi& d = cuda::driver();
    cuda::DeviceBuffer out(std::max<std::size_t>(got.byteSize(), 1)), plain(std::max<std::size_t>(ref.size() * 8, 1)),
        masked(std::max<std::size_t>(ref.size() * 8, 1));
    if (got.byteSize()) EXPECT_EQ(d.cuMemcpyHtoD(out.get(), got.bytes.data(), got.byteSize()), CUDA_SUCCESS);
    if (!ref.empty()) EXPECT_EQ(d.cuMemcpyHtoD(plain.get(), ref.data(), ref.size() * 8), CUDA_SUCCESS);
    const std::uint64_t key = keys_();
    harness_->maskedCopy(masked.get(), plain.get(), 8, static_cast<std::int64_t>(ref.size()), key, gpu_->stream());
    const cuda::OutputTally t =
        harness_->tallyOutput(out.get(), got.dtype, got.count, masked.get(), key, tol, poison, gpu_->stream());
    return cuda::describeOutputCheck(
        "y", t, tol, [&](std::int64_t i) { return got.valueAt(i); },
        [&](std::int64_t i) { return ref[static_cast<std::size_t>(i)]; });
  }

  // Field by field, doubles bit for bit.
  void expectSame(const HostTensor& got, const std::vector<double>& ref, const Tolerance& tol, int poisonIndex,
                  const std::string& what) {
    SCOPED_TRACE(std::string(toString(got.dtype)) + " " + what + " (" + std::to_string(got.count) + " elements)");
    const std::vector<std::byte> poison = cuda::poisonPattern(got.dtype, poisonIndex);
    const cuda::OutputCheck want = cuda::checkOutput("y", got, ref, tol, poison);
    const cuda::OutputCheck dev = onDevice(got, ref, tol, poison);
    EXPECT_EQ(dev.elements, want.elements);
    EXPECT_EQ(dev.unwritten, want.unwritten);
    EXPECT_EQ(dev.nonFinite, want.nonFinite);
    EXPECT_EQ(dev.mismatches, want.mismatches);
    EXPECT_EQ(bitsOf(dev.maxAbsError), bitsOf(want.maxAbsError)) << dev.maxAbsError << " vs " << want.maxAbsError;
    EXPECT_EQ(bitsOf(dev.maxRelError), bitsOf(want.maxRelError)) << dev.maxRelError << " vs " << want.maxRelError;
    EXPECT_EQ(dev.allZero, want.allZero);
    EXPECT_EQ(dev.constant, want.constant);
    EXPECT_EQ(dev.firstBad, want.firstBad);
    EXPECT_EQ(bitsOf(dev.firstGot), bitsOf(want.firstGot));
    EXPECT_EQ(bitsOf(dev.firstWant), bitsOf(want.firstWant));
    EXPECT_EQ(dev.reason, want.reason);
    ++compared_;
  }

  NvrtcCompiler compiler_;
  std::unique_ptr<cuda::GpuContext> gpu_;
  std::unique_ptr<cuda::HarnessKernels> harness_;
  std::mt19937_64 keys_{12345};
  int compared_ = 0;
};

constexpr DType kDtypes[] = {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I32, DType::I64};

// A random output of `dtype` and a reference close to it (within `tol` but
// for the elements the caller spoils).
struct Case {
  HostTensor got;
  std::vector<double> ref;
};
Case randomCase(DType dtype, std::int64_t n, std::uint64_t seed) {
  Case c{HostTensor(dtype, n), std::vector<double>(static_cast<std::size_t>(n))};
  if (n == 0) return c;
  try {
    cuda::fillRandom(c.got, isFloating(dtype) ? Distribution{"normal", 0, 3} : Distribution{"randint", -1000, 1000},
                     seed, 0);
  } catch (const std::invalid_argument&) {  // a tiny integer draw that came out all zeros
    for (std::int64_t i = 0; i < n; ++i) setBits(c.got, i, static_cast<std::uint64_t>(i + 7));
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-1e-4, 1e-4);
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = c.got.valueAt(i);
    c.ref[static_cast<std::size_t>(i)] = v + jitter(rng) * (std::fabs(v) + 1e-3);
  }
  return c;
}

TEST_F(DeviceCheck, GivesTheHostsVerdictsForEveryDtype) {
  const Tolerance loose{1e-3, 1e-3}, tight{1e-6, 0}, absOnly{0, 1e-2};
  std::mt19937_64 rng(7);
  for (DType dtype : kDtypes) {
    // Sizes: empty, one, two, under one block, many blocks, more than the grid covers in one stride.
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{200}, std::int64_t{300007},
                           std::int64_t{1} << 21}) {
      Case c = randomCase(dtype, n, static_cast<std::uint64_t>(n) * 31 + static_cast<std::uint64_t>(dtype));
      for (const Tolerance& tol : {loose, tight, absOnly}) expectSame(c.got, c.ref, tol, 0, "clean");
      if (n < 2) continue;
      std::uniform_int_distribution<std::int64_t> at(0, n - 1);

      Case spoiled = c;  // mismatches only
      for (int k = 0; k < 5; ++k) spoiled.ref[static_cast<std::size_t>(at(rng))] += 50;
      expectSame(spoiled.got, spoiled.ref, loose, 0, "mismatches");
      expectSame(spoiled.got, spoiled.ref, absOnly, 1, "mismatches, atol only");

      if (isFloating(dtype)) {  // non-finite outputs beside the mismatches
        setBits(spoiled.got, at(rng), nanBits(dtype));
        setBits(spoiled.got, at(rng), infBits(dtype, false));
        setBits(spoiled.got, at(rng), infBits(dtype, true));
        expectSame(spoiled.got, spoiled.ref, loose, 0, "non-finite");
      }
      for (int k = 0; k < 4; ++k) setBytes(spoiled.got, at(rng), cuda::poisonPattern(dtype, 0));
      expectSame(spoiled.got, spoiled.ref, loose, 0, "poisoned");
      expectSame(spoiled.got, spoiled.ref, loose, 1, "the other poison's pattern");
      setBytes(spoiled.got, 0, cuda::poisonPattern(dtype, 0));
      expectSame(spoiled.got, spoiled.ref, loose, 0, "element 0 poisoned");

      Case zeros = c;
      std::fill(zeros.got.bytes.begin(), zeros.got.bytes.end(), std::byte{0});
      expectSame(zeros.got, zeros.ref, loose, 0, "all zeros");
      expectSame(zeros.got, zeros.ref, Tolerance{0, 1e9}, 0, "all zeros within a huge atol");
      std::vector<double> zeroRef(static_cast<std::size_t>(n), 0.0);
      expectSame(zeros.got, zeroRef, loose, 0, "all zeros, reference too");
      zeroRef[static_cast<std::size_t>(n - 1)] = -0.0;
      expectSame(zeros.got, zeroRef, loose, 0, "all zeros, reference zeros and a negative zero");

      Case constant = c;
      for (std::int64_t i = 0; i < n; ++i)
        std::memcpy(constant.got.bytes.data() + i * sizeOf(dtype), c.got.bytes.data(), sizeOf(dtype));
      expectSame(constant.got, constant.ref, Tolerance{0, 1e9}, 0, "constant within a huge atol");
      std::vector<double> constantRef(static_cast<std::size_t>(n), constant.got.valueAt(0));
      expectSame(constant.got, constantRef, loose, 0, "constant, reference too");
      if (isFloating(dtype)) {
        for (std::int64_t i = 0; i < n; ++i) setBits(constant.got, i, nanBits(dtype));
        expectSame(constant.got, constant.ref, loose, 0, "all NaN (the NaN rule of the constant test)");
        setBytes(constant.got, n / 2, cuda::poisonPattern(dtype, 0));
        expectSame(constant.got, constant.ref, loose, 0, "all NaN but one poisoned");
      }

      // References the oracle check would refuse, compared all the same: an
      // Inf reference gives an Inf error and a NaN relative error, a NaN one
      // NaN errors, which neither maximum may take.
      Case odd = c;
      odd.ref[static_cast<std::size_t>(at(rng))] = std::numeric_limits<double>::infinity();
      odd.ref[static_cast<std::size_t>(at(rng))] = std::numeric_limits<double>::quiet_NaN();
      odd.ref[static_cast<std::size_t>(at(rng))] = 0.0;
      expectSame(odd.got, odd.ref, loose, 0, "Inf, NaN and zero in the reference");
      expectSame(odd.got, odd.ref, tight, 0, "Inf, NaN and zero in the reference, tight");
    }
  }
  // i64 beyond 2^53 and f64 differences that overflow to Inf.
  HostTensor big(DType::I64, 3);
  setBits(big, 0, 0x7FFFFFFFFFFFFFFFull);
  setBits(big, 1, 0x8000000000000001ull);
  setBits(big, 2, (1ull << 53) + 1);
  expectSame(big, {9.2e18, -9.2e18, 9007199254740992.0}, Tolerance{0, 0}, 0, "beyond 2^53");
  HostTensor huge(DType::F64, 2);
  setBits(huge, 0, bitsOf(1.7e308));
  setBits(huge, 1, bitsOf(-1.7e308));
  expectSame(huge, {-1.7e308, 1.7e308}, loose, 0, "differences that overflow");
  EXPECT_GT(compared_, 200);
}

TEST_F(DeviceCheck, ElementComparisonsAreCompareBitwise) {
  const cuda::DriverApi& d = cuda::driver();
  for (DType dtype : kDtypes) {
    SCOPED_TRACE(toString(dtype));
    const std::int64_t n = 1 << 20;
    Case c = randomCase(dtype, n, 99);
    HostTensor other = c.got;
    for (std::int64_t i : {std::int64_t{70001}, std::int64_t{5}, n - 1, std::int64_t{70001} + 4096})
      other.bytes[static_cast<std::size_t>(i) * sizeOf(dtype)] ^= std::byte{1};
    const cuda::BitwiseDiff want = cuda::compareBitwise(c.got, other);
    ASSERT_EQ(want.differing, 4);
    cuda::DeviceBuffer a(c.got.byteSize()), b(c.got.byteSize()), masked(c.got.byteSize());
    ASSERT_EQ(d.cuMemcpyHtoD(a.get(), c.got.bytes.data(), c.got.byteSize()), CUDA_SUCCESS);
    ASSERT_EQ(d.cuMemcpyHtoD(b.get(), other.bytes.data(), other.byteSize()), CUDA_SUCCESS);
    const int width = static_cast<int>(sizeOf(dtype));
    cuda::BitwiseDiff got = harness_->compareElements(a.get(), b.get(), width, n, false, 0, gpu_->stream());
    EXPECT_EQ(got.differing, want.differing);
    EXPECT_EQ(got.first, want.first);
    EXPECT_EQ(harness_->compareElements(a.get(), a.get(), width, n, false, 0, gpu_->stream()).differing, 0);
    // Masked: the copy holds none of the plain bytes' elements, and unmasks to them.
    harness_->maskedCopy(masked.get(), b.get(), width, n, 0xABCDEFull, gpu_->stream());
    got = harness_->compareElements(a.get(), masked.get(), width, n, true, 0xABCDEFull, gpu_->stream());
    EXPECT_EQ(got.differing, want.differing);
    EXPECT_EQ(got.first, want.first);
    EXPECT_GT(harness_->compareElements(b.get(), masked.get(), width, n, false, 0, gpu_->stream()).differing, n * 9 / 10);
    // Another key unmasks nothing, but for chance: a 2-byte element's mask
    // equals the right one's with probability 2^-16 (16 of 2^20 elements seen
    // on the H200); 4- and 8-byte elements practically never.
    const std::int64_t chance = width >= 4 ? 0 : n >> 10;
    EXPECT_GE(harness_->compareElements(b.get(), masked.get(), width, n, true, 0xABCDEFull ^ 1, gpu_->stream()).differing,
              n - chance)
        << "another key unmasks nothing";
    HostTensor seen(dtype, n);
    ASSERT_EQ(d.cuMemcpyDtoH(seen.bytes.data(), masked.get(), seen.byteSize()), CUDA_SUCCESS);
    std::uint64_t e = 0, m = 0;
    std::memcpy(&e, other.bytes.data() + 3 * width, static_cast<std::size_t>(width));
    std::memcpy(&m, seen.bytes.data() + 3 * width, static_cast<std::size_t>(width));
    const std::uint64_t low = width == 8 ? ~0ull : (1ull << (8 * width)) - 1;
    EXPECT_EQ(m, (e ^ cuda::maskBits(0xABCDEFull, 3)) & low) << "the host's mirror of the mask";
  }
}

// TaskRuntime's device checks on the gelu task give the host's verdicts on
// the same device bytes.
TEST_F(DeviceCheck, TaskRuntimeChecksAreTheHostChecks) {
  const Task task = builtinTask(kGeluTask);
  TaskSpec spec = parseTaskSpec(task.specJson);
  CompileRequest req;
  req.source = spec.oracle.source;
  req.entry = spec.oracle.launch.entry;
  req.arch = gpu_->info().arch();
  const CompileResult oracle = compiler_.compile(req);
  ASSERT_TRUE(oracle.report.ok) << oracle.report.log;
  cuda::TaskRuntime rt(*gpu_, spec, oracle.cubin, *harness_);
  rt.randomizeInputs(3);
  rt.computeReference(10);
  EXPECT_TRUE(rt.oracleOutputsCleared());
  EXPECT_EQ(rt.inputDamage(), "");
  const std::vector<double> ref = rt.referenceForTests(0);  // unmasked from the device copy
  const Tolerance tol{1e-5, 1e-6};
  auto same = [&](int poison, const std::string& what) {
    SCOPED_TRACE(what);
    const HostTensor got = rt.downloadOutputs()[0];
    const cuda::OutputCheck want =
        cuda::checkOutput(spec.outputs[0].name, got, ref, tol, cuda::poisonPattern(got.dtype, poison));
    const cuda::OutputCheck dev = rt.checkOutput(0, tol, poison);
    EXPECT_EQ(dev.unwritten, want.unwritten);
    EXPECT_EQ(dev.mismatches, want.mismatches);
    EXPECT_EQ(dev.firstBad, want.firstBad);
    EXPECT_EQ(bitsOf(dev.firstGot), bitsOf(want.firstGot));
    EXPECT_EQ(bitsOf(dev.maxAbsError), bitsOf(want.maxAbsError));
    EXPECT_EQ(bitsOf(dev.maxRelError), bitsOf(want.maxRelError));
    EXPECT_EQ(dev.reason, want.reason);
    return want;
  };
  rt.fillOutputs(cuda::FillChoice{cuda::OutputFill::RandomFinite, 0x55ull}, true);
  EXPECT_FALSE(same(0, "random values").passed());
  rt.fillOutputs(cuda::FillChoice{cuda::OutputFill::Poison0, 0}, true);
  EXPECT_EQ(same(0, "poisoned").unwritten, elementCount(spec, spec.outputs[0]));
  // The oracle's own result, through the reference buffers it cannot reach: the candidate's buffers hold it here.
  HostTensor exact(spec.outputs[0].dtype, static_cast<std::int64_t>(ref.size()));
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const float f = static_cast<float>(ref[i]);
    ASSERT_EQ(exact.dtype, DType::F32);
    std::memcpy(exact.bytes.data() + i * 4, &f, 4);
  }
  ASSERT_EQ(cuda::driver().cuMemcpyHtoD(rt.outputBuffer(0), exact.bytes.data(), exact.byteSize()), CUDA_SUCCESS);
  EXPECT_TRUE(same(0, "the reference rounded to float").passed());

  // keepOutputs / compareWithKeptOutputs against compareBitwise of two downloads.
  rt.keepOutputs();
  EXPECT_EQ(rt.compareWithKeptOutputs(0).differing, 0);
  const HostTensor before = rt.downloadOutputs()[0];
  exact.bytes[4 * 1234] ^= std::byte{1};
  exact.bytes[4 * 999999] ^= std::byte{1};
  ASSERT_EQ(cuda::driver().cuMemcpyHtoD(rt.outputBuffer(0), exact.bytes.data(), exact.byteSize()), CUDA_SUCCESS);
  const cuda::BitwiseDiff want = cuda::compareBitwise(before, rt.downloadOutputs()[0]);
  const cuda::BitwiseDiff got = rt.compareWithKeptOutputs(0);
  EXPECT_EQ(got.differing, want.differing);
  EXPECT_EQ(got.first, want.first);
  EXPECT_EQ(got.differing, 2);

  // A changed input is found on the device, with its element count and first index.
  ASSERT_EQ(rt.input(0).dtype(), DType::F32);
  const std::uint32_t word = 0x12345678u;  // a float no normal draw gives
  ASSERT_EQ(cuda::driver().cuMemcpyHtoD(rt.input(0).data() + 4 * 4321, &word, 4), CUDA_SUCCESS);
  EXPECT_NE(rt.inputDamage().find("1 of " + std::to_string(rt.input(0).count()) + " elements changed, first at index 4321"),
            std::string::npos)
      << rt.inputDamage();
}

}  // namespace
}  // namespace crucible::gputest
