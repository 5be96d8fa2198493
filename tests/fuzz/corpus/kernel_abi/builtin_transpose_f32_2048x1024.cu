// transpose baseline: 32x32 tiles staged through shared memory (one padding
// column against bank conflicts), 32x8 threads, each moving 4 elements, so that
// both the read of x and the write of y are coalesced.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_kernel(const float* __restrict__ x, float* __restrict__ y,
                                            long long M, long long N) {
  __shared__ float tile[TILE][TILE + 1];
  const long long xRow0 = (long long)blockIdx.y * TILE;   // rows of x: 0..M
  const long long xCol0 = (long long)blockIdx.x * TILE;   // columns of x: 0..N
  for (int r = threadIdx.y; r < TILE; r += ROWS) {
    const long long i = xRow0 + r, j = xCol0 + threadIdx.x;
    if (i < M && j < N) tile[r][threadIdx.x] = x[i * N + j];
  }
  __syncthreads();
  // y is N x M and y[j][i] = x[i][j]: threadIdx.x now runs along y's rows (x's row index i).
  for (int r = threadIdx.y; r < TILE; r += ROWS) {
    const long long j = xCol0 + r, i = xRow0 + threadIdx.x;
    if (i < M && j < N) y[j * M + i] = tile[threadIdx.x][r];
  }
}
