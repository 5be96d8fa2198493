// SPDX-License-Identifier: GPL-3.0-or-later
// Tunable kernels (core/task/tunable_kernel.h): the tune document, its errors
// naming the field, restrictions, the space-size limit, the #define lines,
// launch expressions over parameters and axes, and the kernel ABI check.
#include <gtest/gtest.h>
#include <random>
#include "core/task/expression.h"
#include "core/task/tunable_kernel.h"
#include "spec_fixture.h"

namespace crucible {
namespace {

const char* kSource = R"CU(extern "C" __global__ void scale_kernel(const float* __restrict__ x,
    const long long* __restrict__ idx, float* __restrict__ y, long long M, long long N) {
  long long i = (long long)blockIdx.x * (THREADS * ITEMS) + threadIdx.x;
  for (int k = 0; k < ITEMS; ++k, i += THREADS)
    if (i < M * N) y[i] = 2.0f * x[i];
}
)CU";

const char* kTune = R"JSON({
  "format": 1,
  "parameters": {"THREADS": [64, 128, 256, 512, 1024], "ITEMS": [1, 2, 4, 8]},
  "restrictions": ["THREADS * ITEMS <= 2048", "(M * N) % ITEMS == 0"],
  "launch": {"grid": ["ceil_div(M * N, THREADS * ITEMS)"], "block": ["THREADS"]},
  "default": {"THREADS": 256, "ITEMS": 2}
})JSON";

TaskSpec task() { return parseTaskSpec(testing_support::validSpecJson().dump()); }  // M=64, N=32

std::string fieldOf(const std::string& doc) {
  try {
    parseTuneSpec(doc);
  } catch (const TaskSpecError& e) {
    return e.field();
  }
  return "(no error)";
}

std::string messageOf(const std::string& doc) {
  try {
    parseTuneSpec(doc);
  } catch (const TaskSpecError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string bindErrorField(const std::string& source, const std::string& doc, std::string* message = nullptr) {
  try {
    TunableKernel k("scale", source, parseTuneSpec(doc), task());
  } catch (const TaskSpecError& e) {
    if (message) *message = e.what();
    return e.field();
  }
  return "(no error)";
}

TEST(TuneSpec, ParsesTheDocument) {
  const TuneSpec s = parseTuneSpec(kTune);
  ASSERT_EQ(s.parameters.size(), 2u);
  EXPECT_EQ(s.parameters[0].name, "ITEMS");  // name order
  EXPECT_EQ(s.parameters[1].values, (std::vector<std::int64_t>{64, 128, 256, 512, 1024}));
  EXPECT_EQ(s.restrictions.size(), 2u);
  EXPECT_EQ(s.launch.grid[0], "ceil_div(M * N, THREADS * ITEMS)");
  EXPECT_EQ(s.launch.grid[1], "1");
  EXPECT_EQ(s.launch.block[0], "THREADS");
  EXPECT_EQ(s.launch.dynamicSmemBytes, "0");
  EXPECT_EQ(s.defaultPoint, (ParameterPoint{{"THREADS", 256}, {"ITEMS", 2}}));
  EXPECT_TRUE(s.entry.empty());
  // The canonical JSON reads back to the same spec.
  const TuneSpec again = parseTuneSpec(tuneSpecToJson(s));
  EXPECT_EQ(tuneSpecToJson(again), tuneSpecToJson(s));
  EXPECT_EQ(again.defaultPoint, s.defaultPoint);
}

TEST(TuneSpec, ValuesAreSortedAndMayBeNegative) {
  const TuneSpec s = parseTuneSpec(R"({"parameters": {"P": [8, -2, 4]}, "launch": {"grid": [1], "block": [32]}})");
  EXPECT_EQ(s.parameters[0].values, (std::vector<std::int64_t>{-2, 4, 8}));
}

TEST(TuneSpec, ErrorsNameTheField) {
  const std::string launch = R"("launch": {"grid": [1], "block": [32]})";
  EXPECT_EQ(fieldOf("[1]"), "document");
  EXPECT_EQ(fieldOf("{"), "document");
  EXPECT_EQ(fieldOf(R"({"parameters": {}})"), "launch");
  EXPECT_EQ(fieldOf(R"({)" + launch + "}"), "parameters");
  EXPECT_EQ(fieldOf(R"({"parameters": [], )" + launch + "}"), "parameters");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": [1, "2"]}, )" + launch + "}"), "parameters.B[1]");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": [1, 2.5]}, )" + launch + "}"), "parameters.B[1]");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": [1, 4000000000]}, )" + launch + "}"), "parameters.B[1]");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": []}, )" + launch + "}"), "parameters.B");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": 4}, )" + launch + "}"), "parameters.B");
  EXPECT_EQ(fieldOf(R"({"parameters": {"int": [1]}, )" + launch + "}"), "parameters.int");
  EXPECT_EQ(fieldOf(R"({"parameters": {"2B": [1]}, )" + launch + "}"), "parameters.2B");
  EXPECT_EQ(fieldOf(R"({"parameters": {"min": [1]}, )" + launch + "}"), "parameters.min");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "restriction": [], )" + launch + "}"), "restriction");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "restrictions": ["B < 4", ""], )" + launch + "}"), "restrictions[1]");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "restrictions": "B < 4", )" + launch + "}"), "restrictions");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "launch": {"grid": [1]}})"), "launch.block");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "launch": {"grid": [1.5], "block": [1]}})"), "launch.grid[0]");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "launch": {"grid": [1, 1, 1, 1], "block": [1]}})"), "launch.grid");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "launch": {"grid": [1], "block": [1], "smem": 0}})"), "launch.smem");
  EXPECT_EQ(fieldOf(R"({"parameters": {}, "launch": {"grid": [1], "block": [1], "dynamicSmemBytes": []}})"),
            "launch.dynamicSmemBytes");
  EXPECT_EQ(fieldOf(R"({"format": 2, "parameters": {}, )" + launch + "}"), "format");
  EXPECT_EQ(fieldOf(R"({"entry": "return", "parameters": {}, )" + launch + "}"), "entry");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": [1, 2]}, "default": {"B": 3}, )" + launch + "}"), "default.B");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": [1, 2]}, "default": {"C": 1}, )" + launch + "}"), "default.C");
  EXPECT_EQ(fieldOf(R"({"parameters": {"B": [1, 2], "C": [1]}, "default": {"B": 1}, )" + launch + "}"), "default.C");
  // Messages say what is wrong, with the parameter.
  EXPECT_NE(messageOf(R"({"parameters": {"B": [1, 2, 1]}, )" + launch + "}").find("parameters.B: lists the value 1 twice"),
            std::string::npos);
  EXPECT_NE(messageOf(R"({"parameters": {"B": [1, 2]}, "default": {"B": 3}, )" + launch + "}")
                .find("3 is not one of the values of parameter B"),
            std::string::npos);
}

TEST(TuneSpec, TheSpaceIsBounded) {
  // 8 parameters of 8 values: 16,777,216 points, above 10^7.
  std::string params;
  for (int i = 0; i < 8; ++i) params += std::string(i ? ", " : "") + "\"P" + std::to_string(i) + "\": [1,2,3,4,5,6,7,8]";
  const std::string doc = "{\"parameters\": {" + params + "}, \"launch\": {\"grid\": [1], \"block\": [32]}}";
  EXPECT_EQ(fieldOf(doc), "parameters");
  EXPECT_NE(messageOf(doc).find("16777216 points"), std::string::npos) << messageOf(doc);
  EXPECT_NE(messageOf(doc).find("10000000"), std::string::npos);
  // 7 of them (2,097,152 points) are fine.
  params.clear();
  for (int i = 0; i < 7; ++i) params += std::string(i ? ", " : "") + "\"P" + std::to_string(i) + "\": [1,2,3,4,5,6,7,8]";
  EXPECT_EQ(fieldOf("{\"parameters\": {" + params + "}, \"launch\": {\"grid\": [1], \"block\": [32]}}"), "(no error)");
  // Too many parameters, too many values, too many restrictions.
  params.clear();
  for (int i = 0; i < 33; ++i) params += std::string(i ? ", " : "") + "\"P" + std::to_string(i) + "\": [1]";
  EXPECT_EQ(fieldOf("{\"parameters\": {" + params + "}, \"launch\": {\"grid\": [1], \"block\": [32]}}"), "parameters");
  std::string values;
  for (int i = 0; i < 257; ++i) values += std::string(i ? "," : "") + std::to_string(i);
  EXPECT_EQ(fieldOf("{\"parameters\": {\"B\": [" + values + "]}, \"launch\": {\"grid\": [1], \"block\": [32]}}"),
            "parameters.B");
  std::string restrictions;
  for (int i = 0; i < 65; ++i) restrictions += std::string(i ? "," : "") + "\"1 < 2\"";
  EXPECT_EQ(fieldOf("{\"parameters\": {}, \"restrictions\": [" + restrictions +
                    "], \"launch\": {\"grid\": [1], \"block\": [32]}}"),
            "restrictions");
  EXPECT_EQ(fieldOf(std::string(kMaxTuneDocumentBytes + 1, ' ')), "document");
  EXPECT_EQ(fieldOf(std::string(100, '[') + std::string(100, ']')), "document");
}

TEST(Restrictions, Evaluate) {
  const std::map<std::string, std::int64_t> n{{"BM", 64}, {"BN", 128}, {"N", 1000}, {"VEC", 8}};
  EXPECT_TRUE(evaluateRestriction("BM * BN <= 16384", n));
  EXPECT_FALSE(evaluateRestriction("BM * BN < 8192", n));
  EXPECT_TRUE(evaluateRestriction("N % VEC == 0", n));
  EXPECT_FALSE(evaluateRestriction("N % 16 == 0", n));
  EXPECT_TRUE(evaluateRestriction("BM != BN", n));
  EXPECT_TRUE(evaluateRestriction("BN >= 2*BM", n));
  EXPECT_FALSE(evaluateRestriction("BN > 2*BM", n));
  EXPECT_TRUE(evaluateRestriction("BM == 64 && BN == 128", n));
  EXPECT_FALSE(evaluateRestriction("BM == 64 && BN == 64", n));
  EXPECT_TRUE(evaluateRestriction("BM == 32 || BN == 128 && VEC == 8", n));
  EXPECT_FALSE(evaluateRestriction("BM == 32 || BN == 128 && VEC == 4", n));
  EXPECT_TRUE(evaluateRestriction("min(BM, BN) == 64", n));
  EXPECT_TRUE(evaluateRestriction("N % VEC", n) == false);  // a bare expression holds when not zero
  EXPECT_TRUE(evaluateRestriction("BM", n));
  EXPECT_THROW(evaluateRestriction("BM = 64", n), ExpressionError);
  EXPECT_THROW(evaluateRestriction("1 < BM < 100", n), ExpressionError);
  EXPECT_THROW(evaluateRestriction("BM <= ", n), ExpressionError);
  EXPECT_THROW(evaluateRestriction("BM < 4 && ", n), ExpressionError);
  EXPECT_THROW(evaluateRestriction("Q < 4", n), ExpressionError);
  EXPECT_THROW(evaluateRestriction("N / (BM - 64) > 1", n), ExpressionError);  // division by zero
  EXPECT_THROW(evaluateRestriction("!BM", n), ExpressionError);
  EXPECT_EQ(namesInExpression("ceil_div(M * N, THREADS) <= max(ITEMS, 4) && M2 > 0"),
            (std::vector<std::string>{"M", "N", "THREADS", "ITEMS", "M2"}));
}

TEST(TunableKernel, BindsToTheTaskAndStartsAtTheDefault) {
  const TunableKernel k("scale", kSource, parseTuneSpec(kTune), task());
  EXPECT_EQ(k.entry(), "scale_kernel");  // the task's entry, as the document names none
  EXPECT_EQ(k.startingPoint(), (ParameterPoint{{"THREADS", 256}, {"ITEMS", 2}}));
  EXPECT_EQ(k.architectureKey().rfind("tunable:scale@", 0), 0u);
  EXPECT_EQ(k.architectureKey().size(), std::string("tunable:scale@").size() + 12);
  // A different source is a different architecture.
  const TunableKernel other("scale", std::string(kSource) + "// changed\n", parseTuneSpec(kTune), task());
  EXPECT_NE(other.architectureKey(), k.architectureKey());
}

TEST(TunableKernel, DefinesArePrependedAndTheSourceComesBack) {
  const TunableKernel k("scale", kSource, parseTuneSpec(kTune), task());
  const ParameterPoint p{{"THREADS", 128}, {"ITEMS", 4}};
  const std::string s = k.sourceAt(p);
  EXPECT_EQ(s.rfind("// Tunable kernel 'scale'", 0), 0u);
  EXPECT_NE(s.find("\n#define ITEMS 4\n#define THREADS 128\n"), std::string::npos) << s;
  EXPECT_LT(s.find("#define THREADS 128"), s.find("extern \"C\""));
  EXPECT_EQ(s.substr(s.size() - std::string(kSource).size()), kSource);
  ASSERT_TRUE(sourceBeforeParameters(s).has_value());
  EXPECT_EQ(*sourceBeforeParameters(s), kSource);
  EXPECT_FALSE(sourceBeforeParameters(kSource).has_value());
  // A negative value is parenthesised, so `a-NAME` stays a subtraction.
  const TuneSpec neg = parseTuneSpec(R"({"parameters": {"OFF": [-3, 0]}, "launch": {"grid": [1], "block": ["32 - OFF"]}})");
  const TunableKernel kn("scale", kSource, neg, task());
  EXPECT_NE(kn.sourceAt({{"OFF", -3}}).find("#define OFF (-3)\n"), std::string::npos);
  EXPECT_EQ(kn.launchAt({{"OFF", -3}}).block[0], "32 - (-3)");
  EXPECT_EQ(evalExpression(kn.launchAt({{"OFF", -3}}).block[0], {}), 35);
}

TEST(TunableKernel, LaunchExpressionsAreEvaluatedOverParametersAndAxes) {
  const TunableKernel k("scale", kSource, parseTuneSpec(kTune), task());
  const LaunchRule r = k.launchAt({{"THREADS", 128}, {"ITEMS", 4}});
  EXPECT_EQ(r.entry, "scale_kernel");
  EXPECT_EQ(r.grid[0], "ceil_div(M * N, 128 * 4)");
  EXPECT_EQ(r.block[0], "128");
  EXPECT_EQ(r.dynamicSmemBytes, "0");
  const TaskSpec t = task();
  EXPECT_EQ(evalExpression(r.grid[0], t.axes), 4);  // 64*32 / 512
  EXPECT_EQ(evalExpression(r.block[0], t.axes), 128);
  // Names that merely contain a parameter's name are left alone.
  const TuneSpec s = parseTuneSpec(R"J({"parameters": {"B": [2, 4]}, "launch": {"grid": ["ceil_div(N, B)"], "block": [32],
                                       "dynamicSmemBytes": "B * 4 * 32"}})J");
  const TunableKernel kb("scale", kSource, s, task());
  EXPECT_EQ(kb.launchAt({{"B", 4}}).grid[0], "ceil_div(N, 4)");
  EXPECT_EQ(kb.launchAt({{"B", 4}}).dynamicSmemBytes, "4 * 4 * 32");
}

TEST(TunableKernel, IllegalPointsSayWhy) {
  const TunableKernel k("scale", kSource, parseTuneSpec(kTune), task());
  EXPECT_FALSE(k.problem({{"THREADS", 256}, {"ITEMS", 8}}).has_value());
  auto why = k.problem({{"THREADS", 1024}, {"ITEMS", 4}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("THREADS * ITEMS <= 2048"), std::string::npos) << *why;
  why = k.problem({{"THREADS", 100}, {"ITEMS", 1}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("THREADS = 100 is not one of its values"), std::string::npos) << *why;
  why = k.problem({{"THREADS", 128}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("no value for parameter ITEMS"), std::string::npos) << *why;
  why = k.problem({{"THREADS", 128}, {"ITEMS", 1}, {"X", 1}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("no parameter X"), std::string::npos) << *why;
  // The launch rule is held to CUDA's limits: 2048 threads per block is illegal.
  const TuneSpec wide = parseTuneSpec(R"({"parameters": {"T": [512, 2048]}, "launch": {"grid": [1], "block": ["T"]}})");
  const TunableKernel kw("scale", kSource, wide, task());
  why = kw.problem({{"T", 2048}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("launch.block[0]: 'T' evaluates to 2048, above the CUDA limit 1024"), std::string::npos) << *why;
  EXPECT_EQ(kw.startingPoint(), (ParameterPoint{{"T", 512}}));
  const TuneSpec smem = parseTuneSpec(
      R"({"parameters": {"S": [1024, 300000]}, "launch": {"grid": [1], "block": [32], "dynamicSmemBytes": "S"}})");
  why = TunableKernel("scale", kSource, smem, task()).problem({{"S", 300000}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("launch.dynamicSmemBytes: 'S' evaluates to 300000, must be in [0, 232448]"), std::string::npos)
      << *why;
}

TEST(TunableKernel, WithoutADefaultTheFirstLegalPointStarts) {
  // Restrictions over an axis: N = 32, so only VEC in {1, 2, 4, 8, 16, 32} divides it, and VEC*T <= 256.
  const TuneSpec s = parseTuneSpec(R"({"parameters": {"VEC": [3, 5, 16, 64], "T": [32, 64]},
      "restrictions": ["N % VEC == 0", "VEC * T <= 512"], "launch": {"grid": [1], "block": ["T"]}})");
  const TunableKernel k("scale", kSource, s, task());
  EXPECT_EQ(k.startingPoint(), (ParameterPoint{{"T", 32}, {"VEC", 16}}));
  // No legal point at all: the error says which restriction stopped the last one.
  std::string message;
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {"VEC": [3, 5]}, "restrictions": ["N % VEC == 0"],
      "launch": {"grid": [1], "block": [32]}})", &message), "restrictions");
  EXPECT_NE(message.find("N % VEC == 0"), std::string::npos) << message;
  // An illegal default is refused with the reason.
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {"VEC": [3, 16]}, "restrictions": ["N % VEC == 0"],
      "default": {"VEC": 3}, "launch": {"grid": [1], "block": [32]}})", &message), "default");
  EXPECT_NE(message.find("N % VEC == 0"), std::string::npos) << message;
}

TEST(TunableKernel, ALargeSparseSpaceFindsItsLegalPointQuickly) {
  // 2,097,152 points, one legal: restrictions prune as soon as their parameters are set.
  std::string params, restrictions;
  for (int i = 0; i < 7; ++i) {
    params += std::string(i ? ", " : "") + "\"P" + std::to_string(i) + "\": [1,2,3,4,5,6,7,8]";
    restrictions += std::string(i ? ", " : "") + "\"P" + std::to_string(i) + " == 8\"";
  }
  const TuneSpec s = parseTuneSpec("{\"parameters\": {" + params + "}, \"restrictions\": [" + restrictions +
                                   "], \"launch\": {\"grid\": [1], \"block\": [32]}}");
  const TunableKernel k("scale", kSource, s, task());
  for (const auto& [name, value] : k.startingPoint()) EXPECT_EQ(value, 8) << name;
}

TEST(TunableKernel, AKernelWithoutParametersHasOnePoint) {
  const TuneSpec s = parseTuneSpec(R"J({"parameters": {}, "launch": {"grid": ["ceil_div(M*N, 256)"], "block": [256]}})J");
  const TunableKernel k("scale", kSource, s, task());
  EXPECT_TRUE(k.startingPoint().empty());
  EXPECT_FALSE(k.problem({}).has_value());
  std::mt19937_64 rng(1);
  EXPECT_FALSE(k.neighbour({}, 1, rng).has_value());
  EXPECT_NE(k.sourceAt({}).find(kTuneHeaderEnd), std::string::npos);
}

TEST(TunableKernel, NamesAreCheckedAgainstTheTask) {
  std::string message;
  // A parameter named like an axis or a tensor would be replaced by its #define.
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {"M": [1]}, "launch": {"grid": [1], "block": [32]}})"),
            "parameters.M");
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {"x": [1]}, "launch": {"grid": [1], "block": [32]}})"),
            "parameters.x");
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {"B": [1]}, "restrictions": ["B < 4", "Q > 1"],
      "launch": {"grid": [1], "block": [32]}})", &message), "restrictions[1]");
  EXPECT_NE(message.find("unknown name 'Q'"), std::string::npos) << message;
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {}, "launch": {"grid": [1, "BLOCKS"], "block": [32]}})"),
            "launch.grid[1]");
  EXPECT_EQ(bindErrorField(kSource, R"({"parameters": {}, "launch": {"grid": [1], "block": [32], "dynamicSmemBytes": "x"}})"),
            "launch.dynamicSmemBytes");
}

TEST(TunableKernel, TheSignatureIsCheckedAgainstTheTask) {
  const std::string doc = R"({"parameters": {}, "launch": {"grid": [1], "block": [32]}})";
  std::string message;
  // Missing __restrict__ on y.
  std::string wrong = kSource;
  wrong.replace(wrong.find("float* __restrict__ y"), std::string("float* __restrict__ y").size(), "float* y");
  EXPECT_EQ(bindErrorField(wrong, doc, &message), "source");
  EXPECT_NE(message.find("parameter 3 ('y') is 'float* y', the task expects 'float* __restrict__ y'"),
            std::string::npos) << message;
  // A missing scalar.
  wrong = kSource;
  wrong.replace(wrong.find(", long long N"), std::string(", long long N").size(), "");
  EXPECT_EQ(bindErrorField(wrong, doc, &message), "source");
  EXPECT_NE(message.find("parameter 5 is missing: the task expects 'long long N'"), std::string::npos) << message;
  // An extra parameter.
  wrong = kSource;
  wrong.replace(wrong.find("long long N)"), std::string("long long N)").size(), "long long N, int extra)");
  EXPECT_EQ(bindErrorField(wrong, doc, &message), "source");
  EXPECT_NE(message.find("parameter 6 'int extra' is not in the task's kernel ABI"), std::string::npos) << message;
  // No extern "C".
  wrong = kSource;
  wrong.replace(wrong.find("extern \"C\" "), std::string("extern \"C\" ").size(), "");
  EXPECT_EQ(bindErrorField(wrong, doc, &message), "source");
  EXPECT_NE(message.find("extern \"C\""), std::string::npos) << message;
  // Another entry than the task's, named by the document.
  EXPECT_EQ(bindErrorField(kSource, R"({"entry": "my_kernel", "parameters": {}, "launch": {"grid": [1], "block": [32]}})",
                           &message), "source");
  EXPECT_NE(message.find("defines no __global__ function 'my_kernel'"), std::string::npos) << message;
  std::string renamed = kSource;
  renamed.replace(renamed.find("scale_kernel"), std::string("scale_kernel").size(), "my_kernel");
  EXPECT_EQ(bindErrorField(renamed, R"({"entry": "my_kernel", "parameters": {}, "launch": {"grid": [1], "block": [32]}})"),
            "(no error)");
  // Line breaks and alignment inside the parameter list do not matter.
  std::string spaced = kSource;
  spaced.replace(spaced.find("long long M,"), std::string("long long M,").size(), "long   long\n    M ,");
  EXPECT_EQ(bindErrorField(spaced, doc, &message), "source") << "a space before the comma is not the ABI's spelling";
}

TEST(TunableKernel, NeighboursAreLegalAndDiffer) {
  const TunableKernel k("scale", kSource, parseTuneSpec(kTune), task());
  std::mt19937_64 rng(7);
  const ParameterPoint from = k.startingPoint();
  int twoChanged = 0;
  for (int i = 0; i < 200; ++i) {
    const auto n = k.neighbour(from, 1 + i % 2, rng);
    ASSERT_TRUE(n.has_value());
    EXPECT_FALSE(k.problem(*n).has_value());
    int changed = 0;
    for (const auto& [name, value] : *n) changed += from.at(name) != value;
    EXPECT_GE(changed, 1);
    EXPECT_LE(changed, 2);
    twoChanged += changed == 2;
  }
  EXPECT_GT(twoChanged, 0);
}

TEST(TunableKernel, EmbeddedTuneComments) {
  EXPECT_FALSE(embeddedTuneText(kSource).has_value());
  const std::string src = std::string("/* crucible-tune {\"parameters\": {}, \"launch\": {\"grid\": [1], \"block\": [32]}} */\n") + kSource;
  const auto text = embeddedTuneText(src);
  ASSERT_TRUE(text.has_value());
  EXPECT_TRUE(parseTuneSpec(*text).parameters.empty());
  try {
    embeddedTuneText("/* crucible-tune {");
    FAIL() << "an unclosed comment passed";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "source");
  }
}

}  // namespace
}  // namespace crucible

namespace crucible {
namespace {

TEST(TunableKernel, ASpaceWithNoLegalPointIsRefusedInBoundedWork) {
  // 2,097,152 points and a restriction over all of them that never holds: the
  // search stops at its check limit with the reason instead of running on.
  std::string params;
  for (int i = 0; i < 7; ++i) params += std::string(i ? ", " : "") + "\"P" + std::to_string(i) + "\": [1,2,3,4,5,6,7,8]";
  const TuneSpec s = parseTuneSpec("{\"parameters\": {" + params +
                                   "}, \"restrictions\": [\"P0 + P1 + P2 + P3 + P4 + P5 + P6 < 0\"], "
                                   "\"launch\": {\"grid\": [1], \"block\": [32]}}");
  try {
    TunableKernel k("scale", kSource, s, task());
    FAIL() << "a space without a legal point was accepted";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "restrictions");
    EXPECT_NE(std::string(e.what()).find("P0 + P1"), std::string::npos) << e.what();
  }
}

// The count of checks in "no legal point found in N checks, the search's bound".
std::uint64_t checksIn(const std::string& message) {
  const std::string lead = "no legal point found in ";
  const auto at = message.find(lead);
  return at == std::string::npos ? 0 : std::stoull(message.substr(at + lead.size()));
}

TEST(TunableKernel, LongRestrictionsShortenTheSearchNotLengthenIt) {
  // 64 restrictions of about 4000 characters, 63 that hold and one that never
  // does, over 65,536 points: every point costs 64 long evaluations. Counted
  // in checks (two million of them), that search took about an hour; bounded
  // by the text it evaluates, it stops after a few thousand checks.
  std::string sum = "A + B";
  while (sum.size() < 3990) sum += " + 0";
  std::string restrictions;
  for (int i = 0; i < 63; ++i) restrictions += "\"" + sum + " > 0\", ";
  restrictions += "\"" + sum + " < 0\"";
  std::string values;
  for (int v = 1; v <= 256; ++v) values += (v > 1 ? "," : "") + std::to_string(v);
  std::string message;
  EXPECT_EQ(bindErrorField(kSource,
                           "{\"parameters\": {\"A\": [" + values + "], \"B\": [" + values + "]}, \"restrictions\": [" +
                               restrictions + "], \"launch\": {\"grid\": [1], \"block\": [32]}}",
                           &message),
            "restrictions");
  const std::uint64_t checks = checksIn(message);
  EXPECT_GT(checks, 0u) << message;
  EXPECT_LE(checks, kMaxLegalPointWork / 3990 + 64) << message;
  EXPECT_NE(message.find("< 0' does not hold"), std::string::npos) << message;
}

}  // namespace
}  // namespace crucible
