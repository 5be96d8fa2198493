// SPDX-License-Identifier: GPL-3.0-or-later
// Reply parsing: fenced blocks, SEARCH/REPLACE edits, launch rules checked at
// the task's axes, the kernel ABI check, and one outcome per failure.
#include <gtest/gtest.h>

#include <chrono>

#include "backends/proposers/llm/launch_rule_reply.h"
#include "backends/proposers/llm/reply_blocks.h"
#include "backends/proposers/llm/reply_parser.h"
#include "backends/proposers/llm/search_replace.h"
#include "tests/backends/llm/llm_test_task.h"

namespace crucible::llm {
namespace {

using testing::kWarpPerRowKernel;
using testing::kWarpPerRowLaunch;

std::string wholeKernelReply(const std::string& kernel = kWarpPerRowKernel, const std::string& launch = kWarpPerRowLaunch) {
  return "Here is the kernel.\n\n```cuda\n" + kernel + "```\n\nLaunch:\n```json\n" + launch + "\n```\n";
}

class ReplyParserTest : public ::testing::Test {
protected:
  ParsedReply parse(const std::string& text, const std::string& stop = "stop", const Candidate* parent = nullptr) {
    ReplyInput in;
    in.text = text;
    in.stopReason = stop;
    in.spec = &spec;
    in.parent = parent;
    return parseKernelReply(in);
  }
  Candidate parent() {
    Candidate c;
    c.id = 7;
    c.source = kWarpPerRowKernel;
    c.launch = parseLaunchRuleReply(kWarpPerRowLaunch, spec, spec.entry).rule;
    return c;
  }
  TaskSpec spec = testing::rowAbsMaxSpec();
};

TEST_F(ReplyParserTest, WholeKernelWithLaunchRule) {
  const ParsedReply r = parse(wholeKernelReply());
  ASSERT_TRUE(r.ok()) << r.detail();
  EXPECT_EQ(r.source, kWarpPerRowKernel);
  EXPECT_EQ(r.launch.entry, "rowabsmax_kernel");
  EXPECT_EQ(r.launch.grid[0], "ceil_div(M, 4)");
  EXPECT_EQ(r.launch.block[0], "128");
  EXPECT_FALSE(r.fromEdits);
}

TEST_F(ReplyParserTest, CppFenceAndShortLaunchFormAccepted) {
  const std::string reply = "```c++\n" + std::string(kWarpPerRowKernel) +
                            "```\n```json\n{\"grid\": \"ceil_div(M, 4)\", \"block\": [128], \"dynamicSmemBytes\": 0}\n```\n";
  const ParsedReply r = parse(reply);
  ASSERT_TRUE(r.ok()) << r.detail();
  EXPECT_EQ(r.launch.entry, "rowabsmax_kernel");  // the task's entry by default
  EXPECT_EQ(r.launch.grid[1], "1");
  EXPECT_EQ(r.launch.block[0], "128");
}

TEST_F(ReplyParserTest, ReplyWithoutCodeIsNoCode) {
  const ParsedReply r = parse("I would use a warp per row with shuffles.");
  EXPECT_EQ(r.outcome, ReplyOutcome::NoCode);
  EXPECT_EQ(r.detail().rfind("no-code: ", 0), 0u) << r.detail();
  EXPECT_EQ(parse("```python\nprint(1)\n```\n").outcome, ReplyOutcome::NoCode);
}

TEST_F(ReplyParserTest, UnterminatedFenceIsTruncated) {
  const std::string text = "```cuda\nextern \"C\" __global__ void rowabsmax_kernel(const float* __restrict__ x,";
  const ParsedReply r = parse(text, "length");
  EXPECT_EQ(r.outcome, ReplyOutcome::Truncated);
  EXPECT_NE(r.reason.find("token limit"), std::string::npos) << r.reason;
  EXPECT_EQ(parse(text, "stop").outcome, ReplyOutcome::Truncated);
}

TEST_F(ReplyParserTest, UnbalancedBracesAreTruncated) {
  std::string cut = kWarpPerRowKernel;
  cut = cut.substr(0, cut.rfind('}'));  // drop the closing brace of the kernel
  const ParsedReply r = parse(wholeKernelReply(cut));
  EXPECT_EQ(r.outcome, ReplyOutcome::Truncated);
  EXPECT_NE(r.reason.find("never closed"), std::string::npos) << r.reason;
  EXPECT_FALSE(r.source.empty());  // kept for inspection
}

TEST_F(ReplyParserTest, LengthStopBeforeLaunchRuleIsTruncated) {
  const std::string text = "```cuda\n" + std::string(kWarpPerRowKernel) + "```\n";
  EXPECT_EQ(parse(text, "length").outcome, ReplyOutcome::Truncated);
  EXPECT_EQ(parse(text, "stop").outcome, ReplyOutcome::BadLaunchRule);
}

TEST_F(ReplyParserTest, WrongSignatureNamesExpectedAndFound) {
  std::string wrong = kWarpPerRowKernel;
  wrong.replace(wrong.find("long long M, long long N"), 24, "int M, int N");
  const ParsedReply r = parse(wholeKernelReply(wrong));
  EXPECT_EQ(r.outcome, ReplyOutcome::WrongSignature);
  EXPECT_NE(r.reason.find("expected `extern \"C\" __global__ void rowabsmax_kernel(const float* __restrict__ x, float* "
                          "__restrict__ y, long long M, long long N)`"),
            std::string::npos)
      << r.reason;
  EXPECT_NE(r.reason.find("int M, int N"), std::string::npos) << r.reason;
}

TEST_F(ReplyParserTest, MissingEntryIsWrongSignature) {
  const std::string launch = R"J({"entry": "other_kernel", "grid": ["M"], "block": ["128"]})J";
  const ParsedReply r = parse(wholeKernelReply(kWarpPerRowKernel, launch));
  EXPECT_EQ(r.outcome, ReplyOutcome::WrongSignature);
  EXPECT_NE(r.reason.find("no __global__ function named 'other_kernel'"), std::string::npos) << r.reason;
}

// The GPU's SM count may size a persistent grid; the worker resolves it.
TEST_F(ReplyParserTest, ALaunchRuleMayNameTheSmCount) {
  const std::string rule = R"J({"grid": ["min(ceil_div(M, 4), 2 * sm_count)"], "block": ["128"]})J";
  const LaunchRuleParse p = parseLaunchRuleReply(rule, spec, spec.entry);
  EXPECT_TRUE(p.ok) << p.problem;
  EXPECT_EQ(p.rule.grid[0], "min(ceil_div(M, 4), 2 * sm_count)");
}

TEST_F(ReplyParserTest, BadLaunchRulesNameTheField) {
  struct Case {
    const char* json;
    const char* expect;
  } cases[] = {
      {R"J({"grid": ["ceil_div(R, 4)"], "block": ["128"]})J", "grid[0]"},
      {R"J({"grid": ["M"], "block": ["2048"]})J", "block[0]"},
      {R"J({"grid": ["M"], "block": ["32", "32", "2"]})J", "threads per block"},
      {R"J({"grid": ["M"], "block": ["128"], "dynamicSmemBytes": "300000"})J", "dynamicSmemBytes"},
      {R"J({"grid": ["M"]})J", "block: missing"},
      {R"J({"grid": ["M"], "block": [true]})J", "block[0]"},
      {R"J({"grid": ["M", "1", "1", "1"], "block": ["128"]})J", "1 to 3"},
      {R"J(not json)J", "not valid JSON"},
      {R"J({"grid": ["0"], "block": ["128"]})J", "must be positive"},
      // A grid sized to the GPU must hold on every GPU: checked at 1 and 1024 SMs.
      {R"J({"grid": ["sm_count - 1"], "block": ["128"]})J", "grid[0]: 'sm_count - 1' evaluates to 0 at sm_count = 1"},
  };
  for (const Case& c : cases) {
    const ParsedReply r = parse(wholeKernelReply(kWarpPerRowKernel, c.json));
    EXPECT_EQ(r.outcome, ReplyOutcome::BadLaunchRule) << c.json;
    EXPECT_NE(r.reason.find(c.expect), std::string::npos) << c.json << " -> " << r.reason;
  }
}

TEST_F(ReplyParserTest, SearchReplaceEditExactMatch) {
  const Candidate p = parent();
  const std::string reply =
      "Unroll the shuffle.\n```cuda\n<<<<<<< SEARCH\n"
      "  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));\n"
      "=======\n"
      "#pragma unroll\n"
      "  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));\n"
      ">>>>>>> REPLACE\n```\n";
  const ParsedReply r = parse(reply, "stop", &p);
  ASSERT_TRUE(r.ok()) << r.detail();
  EXPECT_TRUE(r.fromEdits);
  EXPECT_EQ(r.edits, 1);
  EXPECT_NE(r.source.find("#pragma unroll\n  for (int o = 16"), std::string::npos);
  EXPECT_EQ(r.launch.grid[0], p.launch.grid[0]);  // the parent's rule is kept
}

TEST_F(ReplyParserTest, SearchReplaceWhitespaceInsensitiveMatch) {
  const Candidate p = parent();
  const std::string reply =
      "<<<<<<< SEARCH\n"
      "if (row >= M)    return;\n"
      "=======\n"
      "  if (row >= M) return;  // guard\n"
      ">>>>>>> REPLACE\n";
  const ParsedReply r = parse(reply, "stop", &p);
  ASSERT_TRUE(r.ok()) << r.detail();
  EXPECT_NE(r.source.find("return;  // guard"), std::string::npos);
}

TEST_F(ReplyParserTest, SearchReplaceWithNewLaunchRule) {
  const Candidate p = parent();
  const std::string reply = "<<<<<<< SEARCH\n  if (row >= M) return;\n=======\n  if (row >= M) return;\n>>>>>>> REPLACE\n"
                            "```json\n{\"grid\": [\"ceil_div(M, 8)\"], \"block\": [\"256\"]}\n```\n";
  const ParsedReply r = parse(reply, "stop", &p);
  ASSERT_TRUE(r.ok()) << r.detail();
  EXPECT_EQ(r.launch.grid[0], "ceil_div(M, 8)");
  EXPECT_EQ(r.launch.entry, "rowabsmax_kernel");
}

TEST_F(ReplyParserTest, EditsThatDoNotApply) {
  const Candidate p = parent();
  const std::string missing = "<<<<<<< SEARCH\n  float q = 1.0f;\n=======\n  float q = 2.0f;\n>>>>>>> REPLACE\n";
  ParsedReply r = parse(missing, "stop", &p);
  EXPECT_EQ(r.outcome, ReplyOutcome::EditNotApplied);
  EXPECT_NE(r.reason.find("not in the parent"), std::string::npos) << r.reason;

  // "fabsf(v." occurs on one line, but "fmaxf(m," occurs twice: ambiguous.
  const std::string ambiguous = "<<<<<<< SEARCH\nfmaxf(m,\n=======\nfmaxf(m ,\n>>>>>>> REPLACE\n";
  Candidate twice = p;
  twice.source += "// fmaxf(m,\n// fmaxf(m,\n";
  r = parse(ambiguous, "stop", &twice);
  EXPECT_EQ(r.outcome, ReplyOutcome::EditNotApplied);
  EXPECT_NE(r.reason.find("more than once"), std::string::npos) << r.reason;

  r = parse(missing, "stop", nullptr);
  EXPECT_EQ(r.outcome, ReplyOutcome::EditNotApplied);
  EXPECT_NE(r.reason.find("no parent"), std::string::npos);

  r = parse("<<<<<<< SEARCH\n  if (row >= M) return;\n>>>>>>> REPLACE\n", "stop", &p);
  EXPECT_EQ(r.outcome, ReplyOutcome::EditNotApplied);
  EXPECT_NE(r.reason.find("no '======='"), std::string::npos) << r.reason;
}

TEST_F(ReplyParserTest, EditBlockCutOffIsTruncated) {
  const Candidate p = parent();
  const ParsedReply r = parse("<<<<<<< SEARCH\n  if (row >= M) return;\n=======\n  if (row", "length", &p);
  EXPECT_EQ(r.outcome, ReplyOutcome::Truncated);
}

TEST_F(ReplyParserTest, EditCountAndReplySizeAreBounded) {
  const Candidate p = parent();
  std::string many;
  for (int i = 0; i < 40; ++i) many += "<<<<<<< SEARCH\n  if (row >= M) return;\n=======\n  if (row >= M) return;\n>>>>>>> REPLACE\n";
  const ParsedReply r = parse(many, "stop", &p);
  EXPECT_EQ(r.outcome, ReplyOutcome::EditNotApplied);
  EXPECT_NE(r.reason.find("more than 32"), std::string::npos) << r.reason;
  EXPECT_EQ(parse(std::string(kMaxReplyBytes + 1, 'x')).outcome, ReplyOutcome::TooLarge);
}

TEST(ReplyBlocks, BracketProblemsIgnoreCommentsAndStrings) {
  EXPECT_EQ(bracketProblem("int f() { return g(\"}\", '{'); } // }\n/* { */"), "");
  EXPECT_NE(bracketProblem("int f() { return (1; }"), "");
  EXPECT_NE(bracketProblem("int f() {\n /* open"), "");
  EXPECT_NE(bracketProblem("}"), "");
}

TEST(ReplyBlocks, FencesWithInfoAndTildes) {
  const auto blocks = fencedBlocks("a\n~~~cuda title=k\nx\n~~~\n```JSON\n{}\n```\n```cpp\ny\n");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].language, "cuda");
  EXPECT_EQ(blocks[0].body, "x\n");
  EXPECT_EQ(blocks[1].language, "json");
  EXPECT_TRUE(blocks[1].terminated);
  EXPECT_FALSE(blocks[2].terminated);
  EXPECT_EQ(blocks[2].openingLine, 8);
}

TEST(SearchReplace, SequentialEditsSeeEarlierResults) {
  std::vector<SearchReplaceEdit> edits = {{"a = 1;\n", "a = 2;\n", 1}, {"a = 2;\n", "a = 3;\n", 5}};
  const EditResult r = applySearchReplace("int a;\na = 1;\n", edits);
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_EQ(r.source, "int a;\na = 3;\n");
  EXPECT_EQ(r.exactMatches, 2);
}

TEST(SearchReplace, HostileInputsTakeLinearTime) {
  // Naive substring and line searches cost |parent| x |SEARCH| here (~10^10 steps).
  std::string parent;
  for (int i = 0; i < 40000; ++i) parent += "a\n";
  std::string search;
  for (int i = 0; i < 20000; ++i) search += "a\n";
  search += "b\n";
  const auto start = std::chrono::steady_clock::now();
  EditResult r = applySearchReplace(parent, {{search, "c\n", 1}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.problem.find("not in the parent"), std::string::npos) << r.problem;
  r = applySearchReplace(std::string(1 << 20, 'a'), {{std::string(1 << 18, 'a') + "b", "c", 1}});
  EXPECT_FALSE(r.ok);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(SearchReplace, RepeatedLinesAreAmbiguousNotGuessed) {
  const EditResult r = applySearchReplace("x\na\na\na\ny\n", {{"a\na\n", "b\n", 1}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.problem.find("more than once"), std::string::npos) << r.problem;
}

TEST_F(ReplyParserTest, WrongSignatureFoundOnTheLineBeforeTheName) {
  // "__global__ void" on its own line, the name on the next: still found and shown.
  const std::string kernel = "extern \"C\" __global__ void\nrowabsmax_kernel(const float* x, float* y, long long M, long long N) {\n}\n";
  const ParsedReply r = parse(wholeKernelReply(kernel));
  EXPECT_EQ(r.outcome, ReplyOutcome::WrongSignature);
  EXPECT_NE(r.reason.find("found `rowabsmax_kernel(const float* x, float* y, long long M, long long N)`"), std::string::npos)
      << r.reason;
  // A call of the entry inside another function is not its declaration.
  const std::string call = "__device__ void f() {\n  rowabsmax_kernel(0, 0, 1, 2);\n}\n";
  EXPECT_NE(parse(wholeKernelReply("__global__ void other() {}\n" + call)).reason.find("no __global__ function named"),
            std::string::npos);
}

}  // namespace
}  // namespace crucible::llm
