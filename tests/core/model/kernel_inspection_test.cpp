// SPDX-License-Identifier: GPL-3.0-or-later
// Listing lines <-> source lines for the kernel editor (issue 17). The PTX
// sample is the shape NVRTC writes with -lineinfo; the SASS sample the shape
// `nvdisasm --print-line-info` writes (both trimmed to what the maps read).
// tests/backends/compile/kernel_inspector_test.cpp maps NVRTC's own PTX.
#include "core/model/kernel_inspection.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

constexpr const char* kPtx = R"(//
.version 9.0
.target sm_90
.address_size 64

	// .globl	scale
.visible .entry scale(
	.param .u64 scale_param_0
)
{
	.reg .b32 	%r<5>;
	.loc	1 4 3
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	.loc	2 100 1
	mad.lo.s32 	%r3, %r1, %r2, %r4;
	.loc	1 5 3
	st.global.f32 	[%rd1], %f1;
$L__BB0_2:
	ret;

}
	.file	1 "candidate.cu"
	.file	2 "/usr/local/cuda/include/cuda_fp16.hpp"
)";

TEST(PtxLineMap, InstructionsFollowTheirLocDirectiveInTheCandidatesFileOnly) {
  // .file lines come after the body in NVRTC's PTX: the map reads them first.
  const ListingLineMap map = ptxLineMap(kPtx, "candidate.cu");
  ASSERT_EQ(map.sourceLineOf.size(), 24u);
  EXPECT_EQ(map.linesFor(4), (std::vector<int>{13, 14})) << "the two instructions after `.loc 1 4 3`";
  EXPECT_EQ(map.linesFor(5), (std::vector<int>{18, 20})) << "st.global and ret";
  EXPECT_EQ(map.sourceLineOf[15], 0) << "an instruction from a header maps to no candidate line";
  EXPECT_EQ(map.sourceLineOf[18], 0) << "a label is not an instruction";
  EXPECT_TRUE(map.linesFor(100).empty());
  EXPECT_TRUE(map.linesFor(1).empty());
}

constexpr const char* kSass = R"sass(	code for sm_90
		Function : scale
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
.text.scale:
	//## File "candidate.cu", line 4
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_CTAID.X ;
	//## File "/usr/local/cuda/include/cuda_fp16.hpp", line 100 inlined at "candidate.cu", line 5
	//## File "candidate.cu", line 5
        /*0020*/                   IMAD R0, R0, c[0x0][0x0], R3 ;
	//## File "candidate.cu", line 6
        /*0030*/                   STG.E desc[UR4][R2.64], R5 ;
        /*0040*/                   EXIT ;
.L_x_0:
        /*0050*/                   BRA `(.L_x_0);
)sass";

TEST(SassLineMap, EachMarkerBlockGivesTheLineOfTheInstructionsAfterIt) {
  const ListingLineMap map = sassLineMap(kSass, "candidate.cu");
  ASSERT_EQ(map.sourceLineOf.size(), 15u);
  EXPECT_EQ(map.linesFor(4), (std::vector<int>{6, 7}));
  EXPECT_EQ(map.linesFor(5), (std::vector<int>{10})) << "an inlined header line gives way to the candidate's own";
  EXPECT_EQ(map.linesFor(6), (std::vector<int>{12, 13, 15})) << "the branch after the label keeps the last line";
  EXPECT_EQ(map.sourceLineOf[0], 0);
  EXPECT_TRUE(map.linesFor(100).empty());
}

TEST(ListingLineMaps, AnythingElseMapsToNothingAndNeverThrows) {
  for (const std::string text : {std::string(), std::string("\n\n\n"), std::string(".loc 1 99999999999999 1\nx;"),
                                 std::string("//## File \"candidate.cu\", line -3\n/*0*/ NOP ;"),
                                 std::string(".file 1 \"candidate.cu\n.loc 1 2\nmov;")}) {
    const ListingLineMap ptx = ptxLineMap(text, "candidate.cu");
    const ListingLineMap sass = sassLineMap(text, "candidate.cu");
    for (int line : ptx.sourceLineOf) EXPECT_GE(line, 0);
    for (const auto& [source, lines] : sass.listingLinesOf) EXPECT_GT(source, 0);
  }
}

}  // namespace
}  // namespace crucible
