// GELU (erf form) with 16-byte loads and stores: four elements per thread.
// For `crucible-cli eval --task gelu_f32_67108864 --kernel tests/gpu/kernels/gelu_vec4.cu
//  --grid 'ceil_div(N, 1024)' --block 256` on a GPU machine (tests/gpu/run-on-device.sh).
__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }

extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {
  const long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    const float4 v = *reinterpret_cast<const float4*>(x + i);
    *reinterpret_cast<float4*>(y + i) = make_float4(gelu(v.x), gelu(v.y), gelu(v.z), gelu(v.w));
    return;
  }
  for (long long k = i; k < N; ++k) y[k] = gelu(x[k]);
}
