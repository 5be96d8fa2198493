// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/cuda_lexer.h"

#include <Qsci/qsciscintilla.h>
#include <QFontDatabase>
#include <string>

namespace crucible::views {

namespace {
constexpr const char* kCudaQualifiers =
    " __global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__"
    " __forceinline__ __noinline__ __launch_bounds__ __grid_constant__ __align__";
constexpr const char* kCudaBuiltins =
    "threadIdx blockIdx blockDim gridDim warpSize"
    " __syncthreads __syncwarp __syncthreads_count __syncthreads_and __syncthreads_or __threadfence"
    " __threadfence_block __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync"
    " __ballot_sync __any_sync __all_sync __activemask __reduce_add_sync __reduce_max_sync"
    " __ldg __ldcg __ldcs __stcg __stcs __fmaf_rn __fdividef __expf __logf __exp10f __powf __saturatef"
    " __frcp_rn __fsqrt_rn rsqrtf sqrtf expf exp2f logf fmaxf fminf fabsf fmaf tanhf erff"
    " atomicAdd atomicMax atomicMin atomicCAS atomicExch"
    " __half __half2 __nv_bfloat16 __nv_bfloat162 __float2half __half2float __float2bfloat16 __bfloat162float"
    " float2 float3 float4 double2 int2 int3 int4 uint2 uint4 char4 uchar4 short2 half2 dim3"
    " make_float2 make_float4 make_int2 make_int4 cooperative_groups"
    " wmma mma_sync load_matrix_sync store_matrix_sync fill_fragment fragment"
    " __cvta_generic_to_shared __pipeline_commit __pipeline_wait_prior";
}  // namespace

CudaLexer::CudaLexer(QObject* parent) : QsciLexerCPP(parent) {
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  setDefaultFont(mono);
  setFont(mono);
  setColor(QColor(0x00, 0x66, 0x99), QsciLexerCPP::KeywordSet2);
}

const char* CudaLexer::keywords(int set) const {
  if (set == 1) {
    // The base list is static; ours is built once from it.
    static const std::string kw = std::string(QsciLexerCPP::keywords(1)) + kCudaQualifiers;
    return kw.c_str();
  }
  if (set == 2) return kCudaBuiltins;
  return QsciLexerCPP::keywords(set);
}

void setupSourceEditor(QsciScintilla* editor) {
  editor->setLexer(new CudaLexer(editor));
  editor->setReadOnly(true);
  editor->setUtf8(true);
  editor->setMarginType(0, QsciScintilla::NumberMargin);
  editor->setMarginWidth(0, QStringLiteral("00000"));
  editor->setWrapMode(QsciScintilla::WrapNone);
  editor->setCaretLineVisible(true);
}

}  // namespace crucible::views
