// SPDX-License-Identifier: GPL-3.0-or-later
// Times the host-side steps of one validation trial at the suite's large
// shapes, before (legacy_host_checks.h: one thread, mt19937_64, fresh
// buffers) and after (the worker's parallel, counter-based code). No GPU: the
// device copies are not timed, only what the worker's CPU does per seed.
//
//   host_costs_bench [--threads N] [--small]
//
// Per seed the trial draws every input twice (its seed, then the in-place
// re-randomisation), compares the inputs read back with the host copy twice,
// checks the outputs twice against the reference, compares two launches'
// outputs bit for bit once, and checks the oracle's output twice. Before, it
// also allocated a fresh zeroed host buffer for each of 7 downloads per seed
// (3 output sets, 2 input readbacks, 2 reference stagings) and built a host
// poison image for each of 3 output poisonings; after, buffers are reused and
// 2- and 4-byte poisons are set on the device.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/output_check.h"
#include "backends/cuda/worker/parallel_chunks.h"
#include "tests/backends/gpu/legacy_host_checks.h"

using namespace crucible;
using namespace crucible::cuda;

namespace {

// Results are summed here so the compiler cannot drop a step whose result is unused.
volatile std::int64_t sink = 0;

double secondsOf(const std::function<void()>& f) {
  const auto t = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Shape {
  std::string name;
  DType inputDtype;
  std::int64_t inputElements;
  DType outputDtype;
  std::int64_t outputElements;
};

// A plausible kernel output: the reference rounded to the output dtype, so the
// check walks every element through the tolerance test and passes.
HostTensor roundedCopy(DType d, const std::vector<double>& ref) {
  HostTensor t(d, static_cast<std::int64_t>(ref.size()));
  for (std::size_t i = 0; i < ref.size(); ++i) legacy::storeValue(t.bytes.data() + i * sizeOf(d), d, ref[i]);
  return t;
}

struct Row {
  std::string step;
  int perSeed;
  std::int64_t elements;
  double before, after;
};

void printRow(const Row& r) {
  const double n = static_cast<double>(r.elements);
  std::printf("  %-34s x%d  %9.3f s %7.2f ns/el | %8.3f s %7.2f ns/el | %6.1fx\n", r.step.c_str(), r.perSeed, r.before,
              1e9 * r.before / n, r.after, 1e9 * r.after / n, r.after > 0 ? r.before / r.after : 0.0);
}

void benchShape(const Shape& s) {
  std::printf("\n%s: input %lld x %s, output %lld x %s, %d threads\n", s.name.c_str(),
              static_cast<long long>(s.inputElements), toString(s.inputDtype),
              static_cast<long long>(s.outputElements), toString(s.outputDtype), hostThreads());
  std::printf("  %-34s %4s %25s | %24s | %7s\n", "step", "", "before (1 thread)", "after", "speedup");
  std::vector<Row> rows;
  const Distribution normal{"normal", 0, 1};

  HostTensor in(s.inputDtype, s.inputElements), inBefore(s.inputDtype, s.inputElements);
  rows.push_back({"draw inputs (normal)", 2, s.inputElements,
                  secondsOf([&] { legacy::fillRandom(inBefore, normal, 1, 0); }),
                  secondsOf([&] { fillRandom(in, normal, 1, 0); })});
  HostTensor readback = in;  // what the device would hand back, unchanged
  rows.push_back({"inputs unchanged (bitwise)", 2, s.inputElements,
                  secondsOf([&] { sink = sink + legacy::compareBitwise(readback, in).differing; }),
                  secondsOf([&] { sink = sink + compareBitwise(readback, in).differing; })});

  std::vector<double> ref(static_cast<std::size_t>(s.outputElements));
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = std::tanh(in.valueAt(static_cast<std::int64_t>(i % static_cast<std::size_t>(s.inputElements))) + 0.5);
  const HostTensor out = roundedCopy(s.outputDtype, ref);
  const HostTensor out2 = out;
  const Tolerance tol{1e-2, 1e-2};
  const auto poison = poisonPattern(s.outputDtype, 0);
  OutputCheck before, after;
  rows.push_back({"check outputs vs reference", 2, s.outputElements,
                  secondsOf([&] { before = legacy::checkOutput(out, ref, tol, poison); }),
                  secondsOf([&] { after = checkOutput("y", out, ref, tol, poison); })});
  if (!after.passed() || before.mismatches != after.mismatches || before.maxAbsError != after.maxAbsError)
    std::printf("  !! the two checks disagree: %s\n", after.reason.c_str());
  rows.push_back({"two launches agree (bitwise)", 1, s.outputElements,
                  secondsOf([&] { sink = sink + legacy::compareBitwise(out, out2).differing; }),
                  secondsOf([&] { sink = sink + compareBitwise(out, out2).differing; })});
  rows.push_back({"oracle output finite", 2, s.outputElements, secondsOf([&] { sink = sink + legacy::nonFiniteCount(ref); }),
                  secondsOf([&] { sink = sink + static_cast<std::int64_t>(checkReference("y", ref).size()); })});
  // Before only: a fresh zeroed buffer per download, and host poison images.
  rows.push_back({"fresh buffer per input download", 2, s.inputElements,
                  secondsOf([&] { HostTensor fresh(s.inputDtype, s.inputElements); sink = sink + static_cast<std::int64_t>(fresh.bytes[fresh.bytes.size() / 2]); }), 0});
  rows.push_back({"fresh buffer per output download", 3, s.outputElements,
                  secondsOf([&] { HostTensor fresh(s.outputDtype, s.outputElements); sink = sink + static_cast<std::int64_t>(fresh.bytes[fresh.bytes.size() / 2]); }), 0});
  rows.push_back({"staging buffer for the reference", 2, s.outputElements,
                  secondsOf([&] { HostTensor fresh(DType::F64, s.outputElements); sink = sink + static_cast<std::int64_t>(fresh.bytes[fresh.bytes.size() / 2]); }), 0});
  rows.push_back({"host poison image (2/4-byte dtypes)", 3, s.outputElements, secondsOf([&] {
                    HostTensor image(s.outputDtype, s.outputElements);
                    for (std::size_t off = 0; off < image.bytes.size(); off += poison.size())
                      std::memcpy(image.bytes.data() + off, poison.data(), poison.size());
                    sink = sink + static_cast<std::int64_t>(image.bytes[image.bytes.size() / 2]);
                  }),
                  0});

  double totalBefore = 0, totalAfter = 0;
  for (const Row& r : rows) {
    printRow(r);
    totalBefore += r.perSeed * r.before;
    totalAfter += r.perSeed * r.after;
  }
  std::printf("  %-38s %9.3f s                | %8.3f s                | %6.1fx\n", "host work per seed (weighted)",
              totalBefore, totalAfter, totalAfter > 0 ? totalBefore / totalAfter : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  bool small = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      setHostThreads(std::stoi(argv[++i]));
    } else if (a == "--small") {
      small = true;
    } else {
      std::fprintf(stderr, "usage: %s [--threads N] [--small]\n", argv[0]);
      return 2;
    }
  }
  const std::int64_t div = small ? 16 : 1;
  const std::vector<Shape> shapes = {
      {"gelu_f32_67108864", DType::F32, (1ll << 26) / div, DType::F32, (1ll << 26) / div},
      {"cross_entropy_f32_8192x32000 (logits)", DType::F32, 8192ll * 32000 / div, DType::F32, 8192 / div},
      {"rmsnorm_bf16_8192x8192", DType::BF16, 8192ll * 8192 / div, DType::BF16, 8192ll * 8192 / div},
  };
  for (const Shape& s : shapes) benchShape(s);
  return 0;
}
