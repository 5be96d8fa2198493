// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/prompt_builder.h"

#include <cstdio>
#include "backends/proposers/llm/launch_rule_reply.h"
#include "backends/proposers/llm/strategy_sections.h"
#include "core/io/utf8_text.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"

namespace crucible::llm {
namespace {

constexpr std::size_t kMaxInspirations = 3;
constexpr std::size_t kMaxFailures = 5;
constexpr std::size_t kMaxKnowledge = 12;
constexpr std::size_t kMaxDetailChars = 600;
constexpr std::size_t kMaxStrategyChars = 8000;

std::string fmt(double v, const char* spec = "%.4g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

std::string codeBlock(const std::string& source) {
  std::string s = utf8Capped(source, kMaxSourceCharsInPrompt);
  if (!s.empty() && s.back() != '\n') s += '\n';
  return "```cuda\n" + s + "```\n";
}

std::string shapeText(const TensorSpec& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + t.shape[i];
  return s + "]";
}

std::string evaluatedOrText(const std::string& expr, const TaskSpec& spec) {
  if (expr.empty()) return "(not given)";
  try {
    return expr + " = " + std::to_string(evaluateAxisExpression(expr, spec.axes));
  } catch (const ExpressionError& e) {
    return expr + " (cannot evaluate: " + e.what() + ")";
  }
}

std::string taskSection(const TaskSpec& spec) {
  std::string b;
  b += "Name: " + spec.name + "\nFamily: " + spec.family + "\n";
  if (!spec.description.empty()) b += "Computes: " + spec.description + "\n";
  b += "Axes: " + describeAxes(spec.axes) + "\n";
  b += "Inputs (read-only):\n";
  for (const auto& t : spec.inputs) b += "  " + t.name + ": " + toString(t.dtype) + " (" + cudaTypeName(t.dtype) + ") " + shapeText(t) + ", row-major\n";
  b += "Outputs:\n";
  for (const auto& t : spec.outputs) {
    b += "  " + t.name + ": " + toString(t.dtype) + " (" + cudaTypeName(t.dtype) + ") " + shapeText(t) + ", row-major";
    if (auto it = spec.tolerances.find(t.name); it != spec.tolerances.end())
      b += "; tolerance rtol " + fmt(it->second.rtol) + ", atol " + fmt(it->second.atol);
    b += "\n";
  }
  if (!spec.scalars.empty()) {
    b += "Scalars (passed as long long): ";
    for (std::size_t i = 0; i < spec.scalars.size(); ++i) b += (i ? ", " : "") + spec.scalars[i];
    b += "\n";
  }
  b += "FLOPs: " + evaluatedOrText(spec.flops, spec) + "\n";
  b += "Minimum bytes moved: " + evaluatedOrText(spec.minBytes, spec) + "\n";
  b += "Exact kernel signature (the ABI; nothing else is passed):\n  " +
       kernelSignature(spec, KernelRole::Candidate, spec.entry) + "\n";
  b += "Launch rule expressions may use the axes above, integers, + - * / %, ceil_div(a, b), min(a, b), max(a, b).\n";
  b += "Correctness is checked on several fresh random inputs with poisoned outputs: every output element must be "
       "written, and NaN or all-zero outputs fail.\n";
  return b;
}

std::string gpuSection(const PromptContext& ctx) {
  std::string b;
  if (ctx.gpu) {
    const Fingerprint& g = *ctx.gpu;
    b += "GPU: " + g.gpu + " (" + g.arch + ")";
    if (g.smClockMHz > 0) b += ", SM clock " + fmt(g.smClockMHz, "%.0f") + " MHz";
    if (g.memClockMHz > 0) b += ", memory clock " + fmt(g.memClockMHz, "%.0f") + " MHz";
    b += "\n";
    if (!g.cudaRuntime.empty()) b += "CUDA runtime " + g.cudaRuntime + ", NVRTC " + g.nvrtc + "\n";
  }
  if (!ctx.ceilings.empty()) {
    b += "Measured roofs:\n";
    for (const Ceiling& c : ctx.ceilings) {
      const double scale = c.unit == "B/s" ? 1e9 : 1e12;
      const char* unit = c.unit == "B/s" ? "GB/s" : "TFLOP/s";
      b += "  " + c.name + ": " + fmt(c.measured / scale, "%.1f") + " " + unit;
      if (c.datasheet > 0) b += " (datasheet " + fmt(c.datasheet / scale, "%.1f") + ")";
      b += "\n";
    }
  }
  return b;
}

std::string knowledgeSection(const std::vector<const KnowledgeEntry*>& entries) {
  std::string facts, hypotheses, warnings;
  std::size_t shown = 0;
  for (const KnowledgeEntry* k : entries) {
    if (!k || shown >= kMaxKnowledge) continue;
    ++shown;
    std::string line = "- " + k->claim;
    if (!k->decision.empty()) line += " (decision: " + k->decision + ")";
    if (k->effect > 0) line += "; measured effect x" + fmt(k->effect, "%.3g");
    if (k->observations > 0) line += " over " + std::to_string(k->observations) + " observations";
    if (!k->scopeArch.empty() || !k->scopeFamily.empty())
      line += " [scope: " + (k->scopeArch.empty() ? std::string("any GPU") : k->scopeArch) + ", " +
              (k->scopeFamily.empty() ? std::string("any operator") : k->scopeFamily) + "]";
    line += "\n";
    switch (k->status) {
      case KnowledgeStatus::Validated: facts += line; break;
      case KnowledgeStatus::Hypothesis: hypotheses += line; break;
      case KnowledgeStatus::Refuted: warnings += line; break;
    }
  }
  std::string b;
  if (!facts.empty()) b += "Validated on this hardware (treat as facts):\n" + facts;
  if (!hypotheses.empty()) b += "Hypotheses (not yet confirmed; test them if useful):\n" + hypotheses;
  if (!warnings.empty()) b += "Refuted (these did NOT help here; avoid relying on them):\n" + warnings;
  return b;
}

std::string modeInstruction(const std::string& mode) {
  if (mode == "edit")
    return "Improve the parent kernel with SEARCH/REPLACE edits against its source.";
  if (mode == "rewrite") return "Write a complete new kernel that improves on the parent kernel.";
  return "Propose a kernel architecture different from those shown above.";
}

std::string modeOf(const PromptContext& ctx) {
  return strategyMode(ctx.strategy ? ctx.strategy->name : "", ctx.parent != nullptr);
}

std::string wholeKernelFormat(const TaskSpec& spec) {
  return "Answer with exactly one ```cuda block holding the whole kernel source (NVRTC compiles it alone: no host "
         "code, no #include of host headers; the entry point must have exactly this signature:\n  " +
         kernelSignature(spec, KernelRole::Candidate, spec.entry) +
         "\n) and one ```json block with the launch rule, for example:\n```json\n"
         "{\"entry\": \"" + spec.entry + "\", \"grid\": [\"ceil_div(M, 4)\", \"1\", \"1\"], \"block\": [\"128\", \"1\", \"1\"], "
         "\"dynamicSmemBytes\": \"0\"}\n```\n"
         "Launch expressions are integers over the task's axes with + - * / % (truncating), ceil_div, min and max; "
         "they may also use sm_count, the SM count of the GPU it runs on (\"min(ceil_div(M, 4), 2 * sm_count)\").\n";
}

std::string editFormat(const Candidate& parent) {
  return "Answer with SEARCH/REPLACE edits against the parent's source. Each edit is:\n"
         "<<<<<<< SEARCH\n(lines copied exactly from the parent, enough to be unique)\n=======\n(their replacement)\n"
         ">>>>>>> REPLACE\n"
         "At most 32 edits. The parent's launch rule is kept:\n```json\n" + launchRuleJson(parent.launch) +
         "\n```\nunless you add a ```json block with a new one (same format).\n";
}

}  // namespace

std::string Prompt::text() const {
  std::string out;
  for (const auto& s : sections) out += "# " + s.title + "\n\n" + s.body + (s.body.empty() || s.body.back() == '\n' ? "\n" : "\n\n");
  return out;
}

std::string systemPrompt() {
  return "You are an expert CUDA kernel engineer. You write fast, correct kernels for NVIDIA GPUs, compiled with "
         "NVRTC and launched by a harness that passes exactly the parameters of the given signature. Every kernel "
         "is validated against a double-precision reference on fresh random inputs and timed against a reference "
         "kernel. Think about the memory hierarchy and the roofline before writing code.";
}

std::string candidateFigures(const Candidate& c) {
  std::string b;
  b += "Status: " + std::string(toString(c.status));
  if (!c.statusDetail.empty()) b += " (" + utf8Capped(c.statusDetail, kMaxDetailChars) + ")";
  b += "\n";
  if (!c.architectureKey.empty()) b += "Architecture: " + c.architectureKey + "\n";
  if (!c.descriptor.empty()) {
    b += "Descriptor:";
    for (const auto& [k, v] : c.descriptor) b += " " + k + "=" + v;
    b += "\n";
  }
  if (c.timing) {
    b += "Median time: " + fmt(c.timing->medianUs, "%.2f") + " us (IQR " + fmt(c.timing->iqrUs, "%.2f") + " us)";
    if (c.timing->speedup > 0) b += ", speedup x" + fmt(c.timing->speedup, "%.3f") + " over the reference";
    b += "\n";
  }
  if (c.compile) {
    const CompileReport& r = *c.compile;
    b += "Compile: " + std::string(r.ok ? "ok" : "failed") + (r.arch.empty() ? "" : " (" + r.arch + ")") + ", " +
         std::to_string(r.registers) + " registers, " + std::to_string(r.staticSmemBytes) + " B static shared memory, " +
         std::to_string(r.localBytes) + " B local, spills " + std::to_string(r.spillStoreBytes) + " B stored / " +
         std::to_string(r.spillLoadBytes) + " B loaded\n";
    if (!r.features.empty()) {
      b += "PTX features:";
      for (const auto& [k, v] : r.features) b += " " + k + "=" + std::to_string(v);
      b += "\n";
    }
  }
  std::string profile;
  for (const auto& [k, v] : c.profile) profile += " " + k + "=" + fmt(v);
  if (!profile.empty()) b += "Profile:" + profile + "\n";
  return b;
}

Prompt buildPlanPrompt(const PromptContext& ctx) {
  Prompt p;
  p.system = systemPrompt();
  if (!ctx.spec) return p;
  const TaskSpec& spec = *ctx.spec;
  p.sections.push_back({"task", "Task", taskSection(spec)});
  if (std::string g = gpuSection(ctx); !g.empty()) p.sections.push_back({"gpu", "GPU", g});

  std::string ref;
  if (ctx.reference) {
    ref = candidateFigures(*ctx.reference) + "Launch rule: " + launchRuleJson(ctx.reference->launch) + "\n" +
          codeBlock(ctx.reference->source);
  } else {
    ref = "The task's baseline kernel (correct, straightforward; the reference to beat).\nLaunch rule: " +
          launchRuleJson(spec.baseline.launch) + "\n" + codeBlock(spec.baseline.source);
  }
  p.sections.push_back({"reference", "Reference kernel", ref});

  if (ctx.parent)
    p.sections.push_back({"parent", "Parent kernel #" + std::to_string(ctx.parent->id),
                          candidateFigures(*ctx.parent) + "Launch rule: " + launchRuleJson(ctx.parent->launch) + "\n" +
                              codeBlock(ctx.parent->source)});
  if (ctx.best && ctx.best != ctx.parent) {
    const bool sameSource = ctx.parent && ctx.parent->source == ctx.best->source;
    p.sections.push_back({"best", "Best kernel so far #" + std::to_string(ctx.best->id),
                          candidateFigures(*ctx.best) + "Launch rule: " + launchRuleJson(ctx.best->launch) + "\n" +
                              (sameSource ? std::string("(same source as the parent)\n") : codeBlock(ctx.best->source))});
  }
  std::string insp;
  std::size_t shown = 0;
  for (const Candidate* c : ctx.inspirations) {
    if (!c || shown >= kMaxInspirations) continue;
    ++shown;
    insp += "## Inspiration #" + std::to_string(c->id) + "\n" + candidateFigures(*c) + codeBlock(c->source) + "\n";
  }
  if (!insp.empty()) p.sections.push_back({"inspirations", "Inspirations from other archive cells", insp});

  std::string failures;
  shown = 0;
  for (const Candidate* c : ctx.recentFailures) {
    if (!c || shown >= kMaxFailures) continue;
    ++shown;
    failures += "- #" + std::to_string(c->id) + (c->architectureKey.empty() ? "" : " (" + c->architectureKey + ")") + ": " +
                toString(c->status) + (c->statusDetail.empty() ? "" : ": " + utf8Capped(c->statusDetail, kMaxDetailChars)) + "\n";
  }
  if (!failures.empty())
    p.sections.push_back({"failures", "Recent failures of sibling kernels (do not repeat them)", failures});

  if (std::string k = knowledgeSection(ctx.knowledge); !k.empty())
    p.sections.push_back({"knowledge", "What is known about this hardware", k});

  const std::string mode = modeOf(ctx);
  std::string strategy = modeInstruction(mode) + "\n";
  if (ctx.strategy) {
    for (const StrategySection& s : strategySections(utf8Capped(ctx.strategy->text, kMaxStrategyChars)))
      strategy += "\n## " + s.title + "\n" + s.body + "\n";
  }
  p.sections.push_back({"strategy", "Strategy" + (ctx.strategy ? ": " + ctx.strategy->name : std::string()), strategy});

  p.sections.push_back(
      {"answer", "What to answer now",
       "First state the architecture you propose, WITHOUT code: a short name and a plan of a few steps (how work maps "
       "to threads, warps and blocks; the memory path; what makes it faster than the parent or reference). Answer "
       "with one ```json block:\n```json\n{\"name\": \"warp-per-row float4 shuffle\", \"plan\": \"1. ... 2. ...\"}\n```\n"
       "The implementation is asked for in the next message.\n"});
  return p;
}

std::string implementationRequest(const PromptContext& ctx, const ArchitecturePlan& plan) {
  if (!ctx.spec) return "";
  std::string b = "Now implement the architecture \"" + plan.name + "\".\n";
  if (modeOf(ctx) == "edit" && ctx.parent) b += editFormat(*ctx.parent);
  else b += wholeKernelFormat(*ctx.spec);
  return b;
}

std::string repairRequest(const PromptContext& ctx, const std::string& problem) {
  std::string b = "That kernel cannot be used yet:\n" + utf8Capped(problem, 6000) +
                  "\n\nFix it. Answer either with SEARCH/REPLACE edits against your previous kernel (same format as "
                  "before), or with the complete corrected kernel in one ```cuda block and its launch rule in one ```json "
                  "block.";
  if (ctx.spec)
    b += " The signature must be exactly:\n  " + kernelSignature(*ctx.spec, KernelRole::Candidate, ctx.spec->entry) + "\n";
  return b;
}

}  // namespace crucible::llm
