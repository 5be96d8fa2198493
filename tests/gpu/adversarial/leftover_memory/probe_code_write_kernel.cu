// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a kernel can read or write the memory a device function's address
// points to: if code is writable from a kernel, a candidate could patch the
// reference kernel timed beside it (found by its bytes) and slow it down. A
// device function's address is what an indirect call jumps to.
__device__ __noinline__ int victim(int v) { return v * 3 + 1; }
typedef int (*Fn)(int);
__device__ Fn table[1] = {victim};
extern "C" __global__ void touch(int mode, unsigned long long* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  volatile unsigned long long* code = (volatile unsigned long long*)table[0];
  out[0] = (unsigned long long)code;
  if (mode >= 1) {  // read the first 32 bytes of the function
    out[1] = code[0];
    out[2] = code[1];
    out[3] = code[2];
    out[4] = code[3];
  }
  if (mode >= 2) code[0] = code[0];  // write the same bytes back
  out[5] = table[0](13);              // the call still works (40)
}
