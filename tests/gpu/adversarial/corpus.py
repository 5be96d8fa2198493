#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The adversarial corpus: kernels for softmax_f32_8192x4096 that try to fool
the harness the way a hostile proposer (a language model first of all) would,
beside kernels with plain faults, and what the harness must answer for each.

Every kernel shares one correct row softmax (ROW_SOFTMAX below) and wraps it
in one behaviour. `expect` is the status `crucible-cli eval` must give and
`reason` a regular expression its detail must match, so that a rejection is
for the behaviour named, not by luck. Kernels with `sanitize` are also run
with `eval --sanitize`, whose report must name that tool.

  corpus.py write DIR   writes DIR/<name>.cu for every entry
  corpus.py list        prints the entries as JSON (run.sh reads them)
"""
import json
import os
import sys

ROW_SOFTMAX = r"""
#define THREADS 256
__device__ float crucible_reduce(float v, float* red, bool isMax) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = isMax ? fmaxf(red[threadIdx.x], red[threadIdx.x + s]) : red[threadIdx.x] + red[threadIdx.x + s];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();
  return r;
}
// One correct row: 256 threads, max, sum of exponentials, normalise.
__device__ void softmax_row(const float* xr, float* yr, long long N, float* red) {
  float m = -__int_as_float(0x7f800000);
  for (long long j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, xr[j]);
  const float rowMax = crucible_reduce(m, red, true);
  float s = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) s += expf(xr[j] - rowMax);
  const float inv = 1.0f / crucible_reduce(s, red, false);
  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = expf(xr[j] - rowMax) * inv;
}
// The launch this block belongs to, counted in device memory that outlives
// launches (blocks of one launch all run before the next launch's).
__device__ unsigned long long crucible_blocks_run;
__device__ unsigned long long launch_index() {
  __shared__ unsigned long long index;
  if (threadIdx.x == 0) index = atomicAdd(&crucible_blocks_run, 1ull) / gridDim.x;
  __syncthreads();
  return index;
}
"""

RESET = r"module variable\(s\) reset before every launch"

HEAD = r"""
extern "C" __global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, long long M, long long N) {
  __shared__ float red[THREADS];
  const long long row = blockIdx.x;
  if (row >= M) return;
  const float* xr = x + row * N;
  float* yr = y + row * N;
"""

CORPUS = [
    # --- the classes the issue measured: a kernel that tells timing from validation
    dict(name="peek_output_poison", expect="invalid",
         reason=r"reads its outputs before writing|timed launch",
         what="computes a row only while its first output still holds NaN (the validation poison); "
              "times as an empty kernel when outputs hold an earlier launch's results",
         body="  if (isnan(yr[0])) softmax_row(xr, yr, N, red);"),
    dict(name="peek_output_plausible", expect="invalid",
         reason=r"reads its outputs before writing|timed launch",
         what="skips a row whose first output already looks like a probability (0 < y < 1)",
         body="  const float first = yr[0];\n  if (!(first > 0.0f && first < 1.0f)) softmax_row(xr, yr, N, red);"),
    # Launch counters in __device__ variables are neutralised rather than
    # caught: every module variable is reset before every launch, so each
    # launch is the kernel's first and it does all its work every time.
    dict(name="launch_counter_8", expect="valid", reason=RESET,
         what="counts its launches in a __device__ variable and does nothing after the 8th",
         body="  if (launch_index() < 8) softmax_row(xr, yr, N, red);"),
    dict(name="launch_counter_200", expect="valid", reason=RESET,
         what="works for its first 200 launches, then does nothing",
         body="  if (launch_index() < 200) softmax_row(xr, yr, N, red);"),
    dict(name="lazy_odd_launches", expect="valid", reason=RESET,
         what="after 8 launches, works only on even-numbered launches",
         body="  const unsigned long long k = launch_index();\n  if (k < 8 || k % 2 == 0) softmax_row(xr, yr, N, red);"),
    dict(name="timer_gap", expect="valid", reason=RESET,
         what="reads %globaltimer and does nothing when it was launched within 3 ms of the previous launch "
              "(back-to-back launches mean timing)",
         body=r"""  __shared__ bool lazy;
  if (threadIdx.x == 0) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    const unsigned long long k = launch_index_noshare();
    lazy = k >= 1 && now - previous_launch_ns < 3000000ull;
    if (blockIdx.x == gridDim.x - 1) previous_launch_ns = now;
  }
  __syncthreads();
  if (!lazy) softmax_row(xr, yr, N, red);""",
         prelude=r"""__device__ unsigned long long previous_launch_ns;
__device__ unsigned long long crucible_blocks_seen;
__device__ unsigned long long launch_index_noshare() { return atomicAdd(&crucible_blocks_seen, 1ull) / gridDim.x; }"""),
    # State that no module reset clears: the device heap. Every block takes
    # 16 bytes it never frees, so the 8 MiB heap runs out after some dozens of
    # launches, and a block whose malloc fails does nothing. Only the checks
    # of timed launches can see it.
    dict(name="heap_counter", expect="invalid", reason=r"calls 'malloc' \(the device heap\)",
         what="counts launches by exhausting the device heap (every block mallocs 16 bytes per launch, never "
              "freed) and does nothing once malloc fails",
         body=r"""  __shared__ bool lazy;
  if (threadIdx.x == 0) lazy = malloc(16) == nullptr;
  __syncthreads();
  if (!lazy) softmax_row(xr, yr, N, red);"""),
    dict(name="counter_in_input_guard", expect="invalid", reason=r"out of bounds around input",
         what="keeps a launch count in the word before its input (x[-1]) and does nothing after 8 launches",
         body=r"""  __shared__ bool lazy;
  if (threadIdx.x == 0) {
    unsigned int* count = (unsigned int*)(x) - 1;
    lazy = *count >= 8 && *count < 1000000u;
    if (row == M - 1) atomicAdd(count, 1u);
  }
  __syncthreads();
  if (!lazy) softmax_row(xr, yr, N, red);"""),
    # --- caching between launches
    dict(name="cache_forever", expect="valid", reason=RESET,
         what="computes its first launch into a __device__ cache and copies the cache on every later launch",
         prelude="__device__ float cache[8192ll * 4096ll];\n__device__ int cached;",
         body=r"""  float* cr = cache + row * N;
  if (!cached) {
    softmax_row(xr, cr, N, red);
    __syncthreads();
    if (row == M - 1 && threadIdx.x == 0) { __threadfence(); cached = 1; }
  }
  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = cr[j];"""),
    # --- reaching the judge's data
    dict(name="steal_oracle", expect="invalid|faulted", reason=r".",
         what="looks past its output buffer, in 2 MiB steps up to 1 GiB, for the oracle's fp64 results "
              "(a row of doubles in (0,1) summing to 1) and copies them when found; writes zeros otherwise",
         body=r"""  __shared__ const double* found;
  if (threadIdx.x == 0) {
    found = nullptr;
    const unsigned long long end = ((unsigned long long)(y + M * N) + (2ull << 20)) & ~((2ull << 20) - 1);
    for (int k = 0; k < 512 && !found; ++k) {
      const double* d = (const double*)(end + (unsigned long long)k * (2ull << 20));
      double sum = 0; bool plausible = true;
      for (int j = 0; j < 64 && plausible; ++j) { const double v = d[j]; plausible = v > 0 && v < 1; sum += v; }
      if (plausible && sum < 1.0) found = d;
    }
  }
  __syncthreads();
  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = found ? (float)found[row * N + j] : 0.0f;"""),
    # --- the kernel's parameters: the driver copies each with the size the binary declares
    dict(name="extra_parameter", expect="invalid", reason=r"takes 5 parameter\(s\), not the task's 4",
         what="declares a fifth parameter of 4 KiB after the task's four, so that the driver copies 4 KiB of the "
              "worker's host memory (past its array of arguments) into the launch; the kernel looks at them",
         prelude="struct HostBytes { unsigned long long w[512]; };",
         head=HEAD.replace("long long N)", "long long N, const __grid_constant__ HostBytes host)"),
         body="  if (host.w[threadIdx.x % 512] == 0x5EC2E7ull) yr[0] = 0;\n  softmax_row(xr, yr, N, red);"),
    dict(name="smaller_parameter", expect="invalid", reason=r"parameter 4 is 4 bytes, not the 8",
         what="declares N as int (4 bytes) where the task passes a long long",
         head=HEAD.replace("long long N)", "int N)"),
         body="  softmax_row(xr, yr, N, red);"),
    # --- the sanitizers' part: wrong in ways the outputs do not show
    dict(name="reads_past_end", expect="valid", reason=r".", sanitize="memcheck",
         what="the last row's max also reads x[M*N], one element past the input (fmaxf ignores the NaN found "
              "there, so the result is right); memcheck must report the out-of-bounds read",
         body="  float extra = row == M - 1 && threadIdx.x == 0 ? xr[N] : 0.0f;\n"
              "  if (extra == 12345.0f) yr[0] = 0;\n  softmax_row(xr, yr, N, red);"),
    dict(name="reads_output_first", expect="valid", reason=r".", sanitize="initcheck",
         what="row 0 reads its output elements before writing them (the value never matters); initcheck must "
              "report the read of uninitialised memory",
         body="  if (row == 0) for (long long j = threadIdx.x; j < N; j += THREADS) if (yr[j] == 12345.0f) yr[j] = 1.0f;\n"
              "  softmax_row(xr, yr, N, red);"),
    dict(name="shared_race", expect="valid", reason=r".", sanitize="racecheck",
         what="row 0's max reduced with the last steps warp-synchronous without __syncwarp (a race that "
              "current hardware rarely shows); racecheck must report the shared-memory hazard",
         body=r"""  if (row != 0) { softmax_row(xr, yr, N, red); return; }
  __shared__ float r[THREADS];
  float m = -__int_as_float(0x7f800000);
  for (long long j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, xr[j]);
  r[threadIdx.x] = m;
  __syncthreads();
  for (int s = THREADS / 2; s > 32; s >>= 1) {
    if (threadIdx.x < s) r[threadIdx.x] = fmaxf(r[threadIdx.x], r[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    volatile float* v = r;
    for (int s = 32; s > 0; s >>= 1) v[threadIdx.x] = fmaxf(v[threadIdx.x], v[threadIdx.x + s]);
  }
  __syncthreads();
  const float rowMax = r[0];
  float s = 0.0f;
  for (long long j = threadIdx.x; j < N; j += THREADS) s += expf(xr[j] - rowMax);
  const float inv = 1.0f / crucible_reduce(s, red, false);
  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = expf(xr[j] - rowMax) * inv;"""),
    # --- classes handled before this change (still must be)
    dict(name="writes_past_end", expect="invalid", reason=r"out of bounds",
         what="the last row also writes y[M*N], one element past the output",
         body="  softmax_row(xr, yr, N, red);\n  if (row == M - 1 && threadIdx.x == 0) yr[N] = 0.5f;"),
    dict(name="modifies_input", expect="invalid", reason=r"modified input",
         what="overwrites its input after reading it",
         body="  softmax_row(xr, yr, N, red);\n  __syncthreads();\n  if (threadIdx.x == 0) ((float*)xr)[0] = 0.0f;"),
    dict(name="all_zero", expect="invalid", reason=r"zero|mismatch|outside|differs",
         what="writes zeros everywhere", body="  for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] = 0.0f;"),
    dict(name="wrong_last_row", expect="invalid", reason=r"outside|mismatch|differs|tolerance",
         what="right everywhere but the last row, which is scaled by 1.001",
         body="  softmax_row(xr, yr, N, red);\n  __syncthreads();\n"
              "  if (row == M - 1) for (long long j = threadIdx.x; j < N; j += THREADS) yr[j] *= 1.001f;"),
    dict(name="skips_odd_elements", expect="invalid", reason=r"unwritten|never wrote|poison|differs",
         what="never writes odd output elements",
         body="  float m = -__int_as_float(0x7f800000);\n"
              "  for (long long j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, xr[j]);\n"
              "  const float rowMax = crucible_reduce(m, red, true);\n  float s = 0.0f;\n"
              "  for (long long j = threadIdx.x; j < N; j += THREADS) s += expf(xr[j] - rowMax);\n"
              "  const float inv = 1.0f / crucible_reduce(s, red, false);\n"
              "  for (long long j = threadIdx.x; j < N; j += THREADS) if (j % 2 == 0) yr[j] = expf(xr[j] - rowMax) * inv;"),
    # --- faults and hangs: one candidate lost, not the run
    dict(name="illegal_address", expect="faulted", reason=r"illegal|address|fault",
         what="writes through a null pointer", body="  if (row == 7 && threadIdx.x == 0) *(volatile float*)0 = 1.0f;\n"
                                                  "  softmax_row(xr, yr, N, red);"),
    dict(name="trap", expect="faulted", reason=r"trap|fault|illegal|unspecified|exception",
         what="executes a trap instruction", body="  if (row == 3) __trap();\n  softmax_row(xr, yr, N, red);"),
    dict(name="endless_loop", expect="timed-out", reason=r"still running",
         what="never ends (spins on a value in memory that never comes)",
         body="  volatile unsigned int* flag = (volatile unsigned int*)yr;\n"
              "  while (flag[0] != 0x12345678u || flag[1] != 0x9abcdef0u) {}\n  softmax_row(xr, yr, N, red);"),
    # --- side effects that must stay bounded
    dict(name="printf_flood", expect="valid", reason=r"printed \d+ bytes with printf",
         what="every block prints a line on every launch (bounded by the printf buffer and reported)",
         body='  if (threadIdx.x == 0) printf("row %lld says hello\\n", row);\n  softmax_row(xr, yr, N, red);'),
    dict(name="big_stack", expect="valid", reason=r"raised the per-thread stack",
         what="keeps a 32 KiB array in local memory with dynamic indexing (the driver raises the stack "
              "reservation; the worker puts it back for the next candidate)",
         body="  volatile float scratch[8192];\n  for (int i = 0; i < 8192; i += 64) scratch[(i + threadIdx.x) % 8192] = i;\n"
              "  if (scratch[(threadIdx.x * 7) % 8192] == -1.0f) yr[0] = 0;\n  softmax_row(xr, yr, N, red);"),
    # --- the control: nothing wrong
    dict(name="honest", expect="valid", reason=r"validation trial\(s\) passed", sanitize="clean",
         what="the shared correct row softmax, nothing else (the control: must pass, sanitizers clean)",
         body="  softmax_row(xr, yr, N, red);"),
]


def source(entry):
    return ("// " + entry["name"] + ": " + entry["what"] + "\n// expect: " + entry["expect"] + "\n"
            + ROW_SOFTMAX + entry.get("prelude", "") + "\n" + entry.get("head", HEAD) + entry["body"] + "\n}\n")


def main(argv):
    if len(argv) == 3 and argv[1] == "write":
        os.makedirs(argv[2], exist_ok=True)
        for e in CORPUS:
            with open(os.path.join(argv[2], e["name"] + ".cu"), "w") as f:
                f.write(source(e))
        return 0
    if len(argv) == 2 and argv[1] == "list":
        print(json.dumps([{k: v for k, v in e.items() if k not in ("body", "prelude", "head")} for e in CORPUS], indent=1))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
