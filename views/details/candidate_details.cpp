// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/candidate_details.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include "core/model/roofline_point.h"
#include "core/task/launch_variables.h"

namespace crucible::views {

namespace {

// Profile counters read by name (backends/cuda/worker/cupti_profiler.cpp, cuda_evaluator.cpp).
constexpr const char* kL2Bytes = "lts__t_bytes.sum";
constexpr const char* kL1Bytes = "l1tex__t_bytes.sum";
constexpr const char* kAchievedOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* kTheoreticalOccupancy = "crucible__theoretical_occupancy_pct";
constexpr const char* kBlocksPerSm = "crucible__blocks_per_sm";
constexpr const char* kDriverRegisters = "crucible__registers_per_thread";
constexpr const char* kFp32Flops = "crucible__fp32_flops";
constexpr const char* kTensorFlops = "crucible__tensor_flops";
constexpr const char* kDuration = "gpu__time_duration.sum";

Missing why(MissingKind kind, std::string name = {}, std::string other = {}, std::string detail = {}) {
  return Missing{kind, std::move(name), std::move(other), std::move(detail)};
}
Source from(SourceKind kind, std::string name = {}, std::string other = {}) {
  return Source{kind, std::move(name), std::move(other)};
}
Source named(std::string name) { return Source{SourceKind::Named, std::move(name), {}}; }

DetailRow figure(std::string key, std::string label, double value, std::string unit, Source source) {
  DetailRow r;
  r.key = std::move(key);
  r.label = std::move(label);
  r.value = value;
  r.unit = std::move(unit);
  r.source = std::move(source);
  return r;
}

DetailRow missingFigure(std::string key, std::string label, std::string unit, Missing why) {
  DetailRow r;
  r.key = std::move(key);
  r.label = std::move(label);
  r.unit = std::move(unit);
  r.missing = std::move(why);
  return r;
}

DetailRow textFigure(std::string key, std::string label, std::string text, Source source) {
  DetailRow r;
  r.key = std::move(key);
  r.label = std::move(label);
  r.text = std::move(text);
  r.source = std::move(source);
  return r;
}

DetailRow wordFigure(std::string key, std::string label, TextKind kind, Source source) {
  DetailRow r;
  r.key = std::move(key);
  r.label = std::move(label);
  r.textKind = kind;
  r.source = std::move(source);
  return r;
}

// A log's lines, at most kMaxLogLines of them (a row each in the views):
// the rest is counted (`notShown`).
constexpr std::size_t kMaxLogLines = 2000;
std::vector<std::string> splitLines(const std::string& text, std::size_t& total, std::size_t& notShown) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::size_t more = 0;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.size() < kMaxLogLines) lines.push_back(line);
    else ++more;
  }
  while (!lines.empty() && lines.back().empty() && more == 0) lines.pop_back();
  total = lines.size() + more;
  notShown = more;
  return lines;
}

// The candidate's figures, with the reasons shared by rows that lack them.
class Builder {
public:
  Builder(const Candidate& c, const DetailsContext& ctx) : c_(c), ctx_(ctx) {
    if (c.timing && c.timing->medianUs > 0) seconds_ = c.timing->medianUs * 1e-6;
    if (ctx.spec) {
      try {
        taskFlops_ = crucible::taskFlops(*ctx.spec);
      } catch (const std::exception& e) {
        taskFormulaProblem_ = why(MissingKind::FormulaDoesNotEvaluate, "flops", {}, e.what());
      }
      try {
        taskMinBytes_ = crucible::taskMinBytes(*ctx.spec);
      } catch (const std::exception& e) {
        taskFormulaProblem_ = why(MissingKind::FormulaDoesNotEvaluate, "minBytes", {}, e.what());
      }
    }
  }

  std::vector<DetailGroup> build() {
    std::vector<DetailGroup> groups{throughput(), compute(), occupancy(), launch(), compileGroup(), timing(),
                                    validation()};
    DetailGroup other = otherCounters();
    if (!other.rows.empty()) groups.push_back(std::move(other));
    return groups;
  }

private:
  std::optional<double> counter(const char* name) {
    auto it = c_.profile.find(name);
    if (it == c_.profile.end()) return std::nullopt;
    return it->second;
  }
  Missing noCounter(const char* name) const {
    return c_.profile.empty() ? why(MissingKind::NotProfiled) : why(MissingKind::ProfileLacks, name);
  }
  Missing notTimed() const { return why(MissingKind::NotTimed); }

  // A stored counter as a row.
  DetailRow counterRow(std::string key, std::string label, const char* name, std::string unit, double scale = 1) {
    shown_.insert(name);
    if (auto v = counter(name)) return figure(std::move(key), std::move(label), *v * scale, std::move(unit), named(name));
    return missingFigure(std::move(key), std::move(label), std::move(unit), noCounter(name));
  }

  // amount / median time, as a row.
  DetailRow rateRow(std::string key, std::string label, const DetailRow& amount, std::string unit) {
    if (!amount.value) return missingFigure(std::move(key), std::move(label), std::move(unit), amount.missing);
    if (!seconds_) return missingFigure(std::move(key), std::move(label), std::move(unit), notTimed());
    return figure(std::move(key), std::move(label), *amount.value / *seconds_, std::move(unit),
                  from(SourceKind::PerMedianTime, amount.key, amount.label));
  }

  // rate as % of a measured ceiling of the context's device.
  DetailRow roofRow(std::string key, std::string label, const DetailRow& rate, const char* ceilingName) {
    if (!rate.value) return missingFigure(std::move(key), std::move(label), "%", rate.missing);
    if (ctx_.device.empty()) return missingFigure(std::move(key), std::move(label), "%", ctx_.ceilingProblem);
    for (const Ceiling& ceiling : ctx_.ceilings)
      if (ceiling.name == ceilingName && ceiling.measured > 0)
        return figure(std::move(key), std::move(label), 100.0 * *rate.value / ceiling.measured, "%",
                      from(SourceKind::OfCeilingOnDevice, ceilingName, ctx_.device));
    return missingFigure(std::move(key), std::move(label), "%", why(MissingKind::NoCeilingOnDevice, ceilingName, ctx_.device));
  }

  DetailRow formulaRow(std::string key, std::string label, const std::optional<double>& value, const char* field,
                       std::string unit) {
    if (!ctx_.spec) return missingFigure(std::move(key), std::move(label), std::move(unit), ctx_.specProblem);
    if (value) return figure(std::move(key), std::move(label), *value, std::move(unit),
                             from(SourceKind::TaskFormula, field));
    if (!taskFormulaProblem_.empty()) return missingFigure(std::move(key), std::move(label), std::move(unit), taskFormulaProblem_);
    return missingFigure(std::move(key), std::move(label), std::move(unit), why(MissingKind::NoFormula, field));
  }

  DetailGroup throughput() {
    DetailGroup g{"Throughput", {}};
    g.rows.push_back(counterRow("throughput.dram_read", "DRAM bytes read", kDramBytesRead, "B"));
    g.rows.push_back(counterRow("throughput.dram_write", "DRAM bytes written", kDramBytesWrite, "B"));
    DetailRow dram = missingFigure("throughput.dram_bytes", "DRAM bytes", "B",
                                   c_.profile.empty() ? why(MissingKind::NotProfiled)
                                                      : why(MissingKind::ProfileLacksEither, kDramBytesRead, kDramBytesWrite));
    if (auto b = dramBytes(c_.profile)) dram = figure("throughput.dram_bytes", "DRAM bytes", *b, "B", from(SourceKind::ReadPlusWritten));
    g.rows.push_back(dram);
    DetailRow dramRate = rateRow("throughput.dram_bandwidth", "DRAM bandwidth", dram, "B/s");
    g.rows.push_back(dramRate);
    g.rows.push_back(roofRow("throughput.dram_roof", "DRAM bandwidth, % of roof", dramRate, "dram_bw"));
    DetailRow l2 = counterRow("throughput.l2_bytes", "L2 bytes", kL2Bytes, "B");
    g.rows.push_back(l2);
    DetailRow l2Rate = rateRow("throughput.l2_bandwidth", "L2 bandwidth", l2, "B/s");
    g.rows.push_back(l2Rate);
    g.rows.push_back(roofRow("throughput.l2_roof", "L2 bandwidth, % of roof", l2Rate, "l2_bw"));
    DetailRow l1 = counterRow("throughput.l1_bytes", "L1 bytes", kL1Bytes, "B");
    g.rows.push_back(l1);
    g.rows.push_back(rateRow("throughput.l1_bandwidth", "L1 bandwidth", l1, "B/s"));
    DetailRow minBytes = formulaRow("throughput.min_bytes", "Task minimum bytes", taskMinBytes_, "minBytes", "B");
    g.rows.push_back(minBytes);
    DetailRow effective = rateRow("throughput.effective_bandwidth", "Effective bandwidth", minBytes, "B/s");
    g.rows.push_back(effective);
    g.rows.push_back(roofRow("throughput.effective_roof", "Effective bandwidth, % of DRAM roof", effective, "dram_bw"));
    return g;
  }

  DetailGroup compute() {
    DetailGroup g{"Compute", {}};
    DetailRow fp32 = missingFigure("compute.fp32_flops", "FP32 FLOPs", "FLOP",
                                   c_.profile.empty() ? why(MissingKind::NotProfiled) : why(MissingKind::NoSassFlopCounters));
    if (auto f = sassFlops(c_.profile)) fp32 = figure("compute.fp32_flops", "FP32 FLOPs", *f, "FLOP", from(SourceKind::SassFlops));
    else if (auto it = c_.profile.find(kFp32Flops); it != c_.profile.end()) {
      fp32 = figure("compute.fp32_flops", "FP32 FLOPs", it->second, "FLOP", named(kFp32Flops));
      shown_.insert(kFp32Flops);
    }
    g.rows.push_back(fp32);
    DetailRow fp32Rate = rateRow("compute.fp32_rate", "FP32 FLOP/s", fp32, "FLOP/s");
    g.rows.push_back(fp32Rate);
    g.rows.push_back(roofRow("compute.fp32_roof", "FP32, % of FMA roof", fp32Rate, "fp32_fma"));
    DetailRow tensor = counterRow("compute.tensor_flops", "Tensor-core FLOPs", kTensorFlops, "FLOP");
    if (!tensor.value && !c_.profile.empty())
      tensor.missing = why(MissingKind::NoTensorPathCounters);
    g.rows.push_back(tensor);
    DetailRow tensorRate = rateRow("compute.tensor_rate", "Tensor-core FLOP/s", tensor, "FLOP/s");
    g.rows.push_back(tensorRate);
    g.rows.push_back(roofRow("compute.tensor_roof", "Tensor cores, % of BF16 roof", tensorRate, "bf16_tensor"));
    if (c_.compile || !c_.descriptor.empty())
      g.rows.push_back(wordFigure("compute.tensor_use", "Uses tensor cores", usesTensorCores(c_) ? TextKind::Yes : TextKind::No,
                                  from(SourceKind::TensorUseEvidence)));
    else
      g.rows.push_back(missingFigure("compute.tensor_use", "Uses tensor cores", "", why(MissingKind::NotCompiledNoDescriptor)));
    DetailRow flops = formulaRow("compute.task_flops", "Task FLOPs", taskFlops_, "flops", "FLOP");
    g.rows.push_back(flops);
    g.rows.push_back(rateRow("compute.task_rate", "Task FLOP/s", flops, "FLOP/s"));
    // The roofline's own point, so the two views agree.
    const RooflineOutcome point = rooflinePoint(c_, taskFlops_);
    if (point.point)
      g.rows.push_back(figure("compute.intensity", "Arithmetic intensity", point.point->intensity, "FLOP/B",
                              from(point.point->flopSource == FlopSource::TaskFormula ? SourceKind::TaskIntensity
                                                                                      : SourceKind::SassIntensity)));
    else
      g.rows.push_back(missingFigure("compute.intensity", "Arithmetic intensity", "FLOP/B",
                                     why(MissingKind::Roofline, {}, {}, point.missing)));
    return g;
  }

  DetailGroup occupancy() {
    DetailGroup g{"Occupancy", {}};
    g.rows.push_back(counterRow("occupancy.achieved", "Achieved occupancy", kAchievedOccupancy, "%"));
    DetailRow theoretical = counterRow("occupancy.theoretical", "Theoretical occupancy", kTheoreticalOccupancy, "%");
    g.rows.push_back(theoretical);
    g.rows.push_back(counterRow("occupancy.blocks_per_sm", "Blocks per SM (theoretical)", kBlocksPerSm, "blocks"));
    if (threadsPerBlock_ || evaluateBlock())
      g.rows.push_back(figure("occupancy.warps_per_block", "Warps per block", std::ceil(*threadsPerBlock_ / 32.0), "warps",
                              from(SourceKind::BlockOverWarp)));
    else
      g.rows.push_back(missingFigure("occupancy.warps_per_block", "Warps per block", "warps", blockProblem_));
    if (theoretical.value && *theoretical.value >= 100)
      g.rows.push_back(wordFigure("occupancy.limiter", "Occupancy limiter", TextKind::NoLimiter,
                                  named(kTheoreticalOccupancy)));
    else
      g.rows.push_back(missingFigure("occupancy.limiter", "Occupancy limiter", "",
                                     theoretical.value ? why(MissingKind::LimiterNotStored) : theoretical.missing));
    return g;
  }

  // What launch expressions are evaluated over: the task's axes and, when the candidate was
  // timed on a GPU whose SM count is recorded, sm_count; a rule naming it otherwise does not evaluate.
  std::map<std::string, std::int64_t> launchAxes() const {
    const int sms = c_.timing ? c_.timing->device.smCount : 0;
    return launchNames(ctx_.spec->axes, sms > 0 ? sms : 0);
  }

  bool evaluateBlock() {
    if (!ctx_.spec) {
      blockProblem_ = ctx_.specProblem;
      return false;
    }
    try {
      double threads = 1;
      const auto axes = launchAxes();
      for (const std::string& e : c_.launch.block) threads *= static_cast<double>(evalExpression(e, axes));
      threadsPerBlock_ = threads;
      return true;
    } catch (const std::exception& e) {
      blockProblem_ = why(MissingKind::BlockDoesNotEvaluate, {}, {}, e.what());
      return false;
    }
  }

  // A grid or block: "4096 × 1 × 1" at the task's axes (the rule's
  // expressions in its source), or the expressions when they do not
  // evaluate; the product in `total`.
  DetailRow dims(std::string key, std::string label, const std::string (&e)[3], std::optional<double>& total,
                 Missing& problem) {
    const std::string rule = e[0] + " × " + e[1] + " × " + e[2];
    if (!ctx_.spec) {
      problem = ctx_.specProblem;
      return textFigure(std::move(key), std::move(label), rule, from(SourceKind::LaunchRule));
    }
    try {
      std::int64_t v[3];
      const auto axes = launchAxes();
      for (int i = 0; i < 3; ++i) v[i] = evalExpression(e[i], axes);
      const std::string values = std::to_string(v[0]) + " × " + std::to_string(v[1]) + " × " + std::to_string(v[2]);
      total = static_cast<double>(v[0]) * static_cast<double>(v[1]) * static_cast<double>(v[2]);
      return textFigure(std::move(key), std::move(label), values,
                        values == rule ? from(SourceKind::LaunchRule)
                                       : from(SourceKind::LaunchRuleAtAxes, rule, describeAxes(axes)));
    } catch (const std::exception& ex) {
      problem = why(MissingKind::DimsDoNotEvaluate, {}, {}, ex.what());
      return textFigure(std::move(key), std::move(label), rule, from(SourceKind::LaunchRuleProblem, rule, ex.what()));
    }
  }

  DetailGroup launch() {
    DetailGroup g{"Launch", {}};
    const std::string entry = c_.launch.entry.empty() && ctx_.spec ? ctx_.spec->entry : c_.launch.entry;
    g.rows.push_back(entry.empty() ? wordFigure("launch.entry", "Entry", TextKind::TaskEntry, from(SourceKind::LaunchRule))
                                   : textFigure("launch.entry", "Entry", entry, from(SourceKind::LaunchRule)));
    std::optional<double> blocks, threads;
    Missing gridProblem, blockProblem;
    g.rows.push_back(dims("launch.grid", "Grid", c_.launch.grid, blocks, gridProblem));
    g.rows.push_back(dims("launch.block", "Block", c_.launch.block, threads, blockProblem));
    g.rows.push_back(blocks ? figure("launch.blocks", "Blocks", *blocks, "blocks", from(SourceKind::Grid))
                            : missingFigure("launch.blocks", "Blocks", "blocks", gridProblem));
    g.rows.push_back(threads ? figure("launch.threads_per_block", "Threads per block", *threads, "threads", from(SourceKind::Block))
                             : missingFigure("launch.threads_per_block", "Threads per block", "threads", blockProblem));
    if (blocks && threads) g.rows.push_back(figure("launch.threads", "Threads", *blocks * *threads, "threads", from(SourceKind::GridTimesBlock)));
    else g.rows.push_back(missingFigure("launch.threads", "Threads", "threads", blocks ? blockProblem : gridProblem));
    // Dynamic shared memory is an expression too.
    const std::string smem = c_.launch.dynamicSmemBytes.empty() ? "0" : c_.launch.dynamicSmemBytes;
    if (!ctx_.spec) g.rows.push_back(missingFigure("launch.dynamic_smem", "Dynamic shared memory", "B", ctx_.specProblem));
    else {
      try {
        g.rows.push_back(figure("launch.dynamic_smem", "Dynamic shared memory",
                                static_cast<double>(evalExpression(smem, launchAxes())), "B",
                                smem == "0" ? from(SourceKind::LaunchRule) : from(SourceKind::LaunchRuleExpression, smem)));
      } catch (const std::exception& e) {
        g.rows.push_back(missingFigure("launch.dynamic_smem", "Dynamic shared memory", "B",
                                       why(MissingKind::ExpressionDoesNotEvaluate, smem, {}, e.what())));
      }
    }
    const bool compiled = c_.compile && c_.compile->ok;
    const Missing notCompiled = why(!c_.compile ? MissingKind::NotCompiled : MissingKind::CompileFailed);
    auto ptxas = [&](std::string key, std::string label, int value, std::string unit) {
      g.rows.push_back(compiled ? figure(std::move(key), std::move(label), value, std::move(unit), named("ptxas"))
                                : missingFigure(std::move(key), std::move(label), std::move(unit), notCompiled));
    };
    ptxas("launch.registers", "Registers per thread", compiled ? c_.compile->registers : 0, "registers");
    g.rows.push_back(counterRow("launch.driver_registers", "Registers per thread (driver)", kDriverRegisters, "registers"));
    ptxas("launch.static_smem", "Static shared memory", compiled ? c_.compile->staticSmemBytes : 0, "B");
    ptxas("launch.local_bytes", "Local memory per thread", compiled ? c_.compile->localBytes : 0, "B");
    ptxas("launch.spill_stores", "Spill stores", compiled ? c_.compile->spillStoreBytes : 0, "B");
    ptxas("launch.spill_loads", "Spill loads", compiled ? c_.compile->spillLoadBytes : 0, "B");
    if (compiled && c_.compile->maxThreadsPerBlock > 0)
      ptxas("launch.max_threads", "Max threads per block (compiled)", c_.compile->maxThreadsPerBlock, "threads");
    if (!c_.launch.tensorMaps.empty()) {
      std::string maps;
      for (const TensorMapRule& m : c_.launch.tensorMaps) {
        maps += (maps.empty() ? "" : ", ") + m.tensor + " " + std::to_string(m.boxRows) + "×" + std::to_string(m.boxCols);
        if (m.swizzle != "none") maps += " " + m.swizzle;
      }
      g.rows.push_back(textFigure("launch.tensor_maps", "TMA tensor maps", maps, from(SourceKind::LaunchRule)));
    }
    return g;
  }

  DetailGroup compileGroup() {
    DetailGroup g{"Compile", {}};
    if (!c_.compile) {
      g.rows.push_back(missingFigure("compile.result", "Result", "", why(MissingKind::NotCompiled)));
      return g;
    }
    const CompileReport& r = *c_.compile;
    g.rows.push_back(wordFigure("compile.result", "Result", r.ok ? TextKind::Compiled : TextKind::CompileFailed, named("NVRTC")));
    g.rows.push_back(r.arch.empty() ? missingFigure("compile.arch", "Architecture", "", why(MissingKind::NotRecorded))
                                    : textFigure("compile.arch", "Architecture", r.arch, named("NVRTC")));
    if (r.seconds > 0) g.rows.push_back(figure("compile.seconds", "Compile time", r.seconds, "s", from(SourceKind::NvrtcPtxas)));
    else g.rows.push_back(missingFigure("compile.seconds", "Compile time", "s", why(MissingKind::NotRecorded)));
    int errors = 0, warnings = 0;
    DetailRow diagnostics = wordFigure("compile.diagnostics", "Diagnostics", TextKind::Diagnostics, named("NVRTC"));
    for (const CompileDiagnostic& d : r.diagnostics) {
      (d.severity == "error" ? errors : warnings) += 1;
      diagnostics.lines.push_back((d.line > 0 ? "line " + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " : "") +
                                  d.severity + ": " + d.message);
    }
    diagnostics.counts = {errors, warnings};
    g.rows.push_back(diagnostics);
    DetailRow log = wordFigure("compile.log", "ptxas log", TextKind::LogLines, from(SourceKind::NvrtcLog));
    std::size_t total = 0;
    log.lines = splitLines(r.log, total, log.linesNotShown);
    if (log.lines.empty()) log = missingFigure("compile.log", "ptxas log", "", why(MissingKind::NoCompileLog));
    else log.counts = {static_cast<std::int64_t>(total)};
    g.rows.push_back(log);
    if (r.features.empty()) g.rows.push_back(missingFigure("compile.features", "PTX features", "", why(MissingKind::NoneRecorded)));
    for (const auto& [feature, count] : r.features)
      g.rows.push_back(figure("compile.feature." + feature, "PTX " + feature, count, "instructions", from(SourceKind::PtxFeatures)));
    return g;
  }

  DetailGroup timing() {
    DetailGroup g{"Timing", {}};
    if (!c_.timing) {
      g.rows.push_back(missingFigure("timing.median", "Median", "µs", notTimed()));
      return g;
    }
    const Timing& t = *c_.timing;
    g.rows.push_back(figure("timing.median", "Median", t.medianUs, "µs", from(SourceKind::StoredWithTiming)));
    g.rows.push_back(figure("timing.iqr", "Interquartile range", t.iqrUs, "µs", from(SourceKind::StoredWithTiming)));
    if (t.medianUs > 0) g.rows.push_back(figure("timing.iqr_pct", "Interquartile range / median", 100 * t.iqrUs / t.medianUs, "%", from(SourceKind::IqrOverMedian)));
    if (auto s = sampleSpread(t.samplesUs)) {
      g.rows.push_back(figure("timing.min", "Minimum", s->min, "µs", from(SourceKind::TimingSamples)));
      g.rows.push_back(figure("timing.max", "Maximum", s->max, "µs", from(SourceKind::TimingSamples)));
      g.rows.push_back(figure("timing.mean", "Mean", s->mean, "µs", from(SourceKind::TimingSamples)));
      g.rows.push_back(figure("timing.spread", "Spread (max − min)", s->max - s->min, "µs", from(SourceKind::TimingSamples)));
      g.rows.push_back(figure("timing.samples", "Samples", static_cast<double>(s->count), "launches", from(SourceKind::TimingSamples)));
    } else {
      g.rows.push_back(missingFigure("timing.samples", "Samples", "launches", why(MissingKind::NoTimingSamples)));
    }
    if (t.speedup > 0) g.rows.push_back(figure("timing.speedup", "Speedup over the reference", t.speedup, "×", from(SourceKind::ReferenceOverMedian)));
    else g.rows.push_back(missingFigure("timing.speedup", "Speedup over the reference", "×", why(MissingKind::NoReferenceTimed)));
    if (t.referenceMedianUs > 0) {
      g.rows.push_back(figure("timing.reference_median", "Reference median (interleaved)", t.referenceMedianUs, "µs",
                              from(SourceKind::ReferenceSameWorker)));
      g.rows.push_back(figure("timing.reference_iqr", "Reference interquartile range", t.referenceIqrUs, "µs",
                              from(SourceKind::ReferenceSameWorker)));
    }
    if (t.smClockMHz > 0) g.rows.push_back(figure("timing.sm_clock", "SM clock", t.smClockMHz, "MHz", from(SourceKind::ReadWhileTiming)));
    else g.rows.push_back(missingFigure("timing.sm_clock", "SM clock", "MHz", why(MissingKind::ClockNotRead)));
    DetailRow profiled = counterRow("timing.profiled_duration", "Duration under the profiler", kDuration, "µs", 1e-3);
    g.rows.push_back(profiled);
    return g;
  }

  DetailGroup validation() {
    DetailGroup g{"Validation", {}};
    if (c_.validation.empty()) {
      g.rows.push_back(missingFigure("validation.trials", "Trials", "trials", why(MissingKind::NotValidated)));
      return g;
    }
    int passed = 0;
    double maxAbs = 0, maxRel = 0;
    std::int64_t mismatches = 0;
    for (const ValidationTrial& t : c_.validation) {
      passed += t.passed ? 1 : 0;
      maxAbs = std::max(maxAbs, t.maxAbsError);
      maxRel = std::max(maxRel, t.maxRelError);
      mismatches += t.mismatches;
    }
    g.rows.push_back(figure("validation.trials", "Trials", static_cast<double>(c_.validation.size()), "trials", from(SourceKind::Validation)));
    g.rows.push_back(figure("validation.passed", "Trials passed", passed, "trials", from(SourceKind::Validation)));
    g.rows.push_back(figure("validation.max_abs_error", "Largest absolute error", maxAbs, "", from(SourceKind::OverTrials)));
    g.rows.push_back(figure("validation.max_rel_error", "Largest relative error", maxRel, "", from(SourceKind::OverTrials)));
    g.rows.push_back(figure("validation.mismatches", "Mismatched elements", static_cast<double>(mismatches), "elements", from(SourceKind::SummedOverTrials)));
    for (std::size_t i = 0; i < c_.validation.size(); ++i) {
      DetailRow trial = wordFigure("validation.trial." + std::to_string(i + 1), "Trial " + std::to_string(i + 1),
                                   TextKind::Trial, from(SourceKind::Validation));
      trial.trial = c_.validation[i];
      g.rows.push_back(std::move(trial));
    }
    return g;
  }

  // Every stored counter no row above shows as it is (the SASS FP32
  // counters behind the FP32 FLOPs too): the profile is shown whole.
  DetailGroup otherCounters() {
    DetailGroup g{"Other counters", {}};
    for (const auto& [name, value] : c_.profile) {
      if (shown_.count(name)) continue;
      std::string unit;
      if (name.find("bytes") != std::string::npos) unit = "B";
      else if (name.find("pct") != std::string::npos) unit = "%";
      else if (name.find("inst") != std::string::npos) unit = "instructions";
      else if (name.find("flops") != std::string::npos) unit = "FLOP";
      else if (name.find("ops") != std::string::npos) unit = "operations";
      g.rows.push_back(figure("counter." + name, name, value, unit, from(SourceKind::ProfileCounter)));
    }
    return g;
  }

  const Candidate& c_;
  const DetailsContext& ctx_;
  std::optional<double> seconds_;
  std::optional<double> taskFlops_, taskMinBytes_;
  Missing taskFormulaProblem_;
  std::optional<double> threadsPerBlock_;
  Missing blockProblem_;
  std::set<std::string> shown_;  // counters a row shows verbatim
};

}  // namespace

DetailsContext detailsContext(const std::string& specJson, const std::vector<Ceiling>& ceilings,
                              const std::string& preferredDevice) {
  DetailsContext ctx;
  if (specJson.empty() || specJson == "{}") {
    ctx.specProblem = why(MissingKind::SpecNotStored);
  } else {
    try {
      ctx.spec = parseTaskSpec(specJson);
    } catch (const std::exception& e) {
      ctx.specProblem = why(MissingKind::SpecDoesNotParse, {}, {}, e.what());
    }
  }
  std::set<std::string> devices;
  for (const Ceiling& c : ceilings) devices.insert(c.device);
  if (devices.empty()) ctx.ceilingProblem = why(MissingKind::NoCeilings);
  else if (devices.count(preferredDevice)) ctx.device = preferredDevice;
  else if (devices.size() == 1) ctx.device = *devices.begin();
  else ctx.ceilingProblem = why(MissingKind::SeveralGpus);
  for (const Ceiling& c : ceilings)
    if (!ctx.device.empty() && c.device == ctx.device) ctx.ceilings.push_back(c);
  return ctx;
}

std::vector<DetailGroup> candidateDetails(const Candidate& c, const DetailsContext& context) {
  return Builder(c, context).build();
}

const DetailRow* findDetail(const std::vector<DetailGroup>& groups, const std::string& key) {
  for (const DetailGroup& g : groups)
    for (const DetailRow& r : g.rows)
      if (r.key == key) return &r;
  return nullptr;
}

std::optional<FigureDifference> figureDifference(const DetailRow& row, const DetailRow& baseline) {
  if (!row.value || !baseline.value || row.unit != baseline.unit) return std::nullopt;
  FigureDifference d;
  d.absolute = *row.value - *baseline.value;
  if (*baseline.value != 0) d.percent = 100.0 * d.absolute / std::fabs(*baseline.value);
  return d;
}

std::optional<SampleSpread> sampleSpread(std::vector<double> samples) {
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  auto quantile = [&](double q) {
    const double pos = q * static_cast<double>(samples.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, samples.size() - 1);
    return samples[lo] + (pos - static_cast<double>(lo)) * (samples[hi] - samples[lo]);
  };
  SampleSpread s;
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.q1 = quantile(0.25);
  s.median = quantile(0.5);
  s.q3 = quantile(0.75);
  double sum = 0;
  for (double v : samples) sum += v;
  s.mean = sum / static_cast<double>(samples.size());
  return s;
}

}  // namespace crucible::views
