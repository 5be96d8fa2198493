// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/reference_analysis.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include "core/knowledge/claim_scope.h"
#include "core/model/roofline_point.h"
#include "core/task/launch_variables.h"

namespace crucible {
namespace {

std::string figure(double v, const char* format = "%.3g") {
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}
std::string percent(double fraction) { return figure(100 * fraction, "%.0f") + "%"; }

std::string rate(double value, const std::string& unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::abs(value) >= 1000 && i < 5) value /= 1000, ++i;
  return figure(value) + " " + prefixes[i] + unit;
}

const Ceiling* ceiling(const std::vector<Ceiling>& all, const std::string& gpu, const std::string& name) {
  for (const Ceiling& c : all)
    if (c.device == gpu && c.name == name && c.measured > 0 && std::isfinite(c.measured)) return &c;
  return nullptr;
}

// At the task's axes and, for a rule that names sm_count, the device's SM count.
std::optional<std::int64_t> evaluated(const std::string& expr, const TaskSpec& spec, int smCount) {
  try {
    return evalExpression(expr, launchNames(spec.axes, std::max(smCount, 0)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// What the PTX features say, in words, widest global access first.
std::vector<std::string> featureWords(const std::map<std::string, int>& f) {
  std::vector<std::string> out;
  auto has = [&f](const std::string& key) {
    auto it = f.find(key);
    return it != f.end() && it->second > 0;
  };
  for (const char* bytes : {"32", "16", "8"}) {
    const bool load = has(std::string("ld.global.") + bytes + "B"), store = has(std::string("st.global.") + bytes + "B");
    if (load || store) {
      out.push_back(std::string(bytes) + "-byte global " + (load && store ? "loads and stores" : load ? "loads" : "stores"));
      break;
    }
  }
  if (out.empty() && (has("ld.global") || has("st.global"))) out.push_back("scalar global accesses (4 bytes or less)");
  const std::pair<const char*, const char*> words[] = {
      {"ld.shared", "shared memory"},
      {"shfl", "warp shuffles"},
      {"cp.async", "cp.async copies"},
      {"cp.async.bulk.tensor", "TMA tensor copies"},
      {"wgmma", "wgmma (warpgroup tensor cores)"},
      {"mma", "mma.sync tensor cores"},
      {"wmma", "wmma tensor cores"},
      {"tcgen05.mma", "tcgen05 tensor cores"},
      {"ldmatrix", "ldmatrix"},
      {"atom", "atomics"},
      {"red", "reductions to memory"},
      {"bar.sync", "block barriers"},
      {"setmaxnreg", "setmaxnreg (register reallocation)"},
  };
  for (const auto& [key, word] : words)
    if (has(key)) out.push_back(word);
  if (has("cp.async.bulk") && !has("cp.async.bulk.tensor")) out.push_back("bulk asynchronous copies");
  return out;
}

}  // namespace

std::optional<SmLimits> smLimitsOf(const std::string& arch) {
  std::string a = arch;
  while (!a.empty() && std::isalpha(static_cast<unsigned char>(a.back()))) a.pop_back();  // sm_90a -> sm_90
  // The CUDA programming guide's per-SM limits (compute capabilities).
  if (a == "sm_80") return SmLimits{64, 32, 65536, 167936, 1024};
  if (a == "sm_86") return SmLimits{48, 16, 65536, 102400, 1024};
  if (a == "sm_87") return SmLimits{48, 16, 65536, 167936, 1024};
  if (a == "sm_89") return SmLimits{48, 24, 65536, 102400, 1024};
  if (a == "sm_90") return SmLimits{64, 32, 65536, 233472, 1024};
  if (a == "sm_100" || a == "sm_103") return SmLimits{64, 32, 65536, 233472, 1024};
  if (a == "sm_120") return SmLimits{48, 32, 65536, 102400, 1024};
  return std::nullopt;
}

std::optional<TheoreticalOccupancy> theoreticalOccupancy(const SmLimits& sm, int threadsPerBlock,
                                                         int registersPerThread, int sharedBytesPerBlock) {
  if (threadsPerBlock <= 0 || sm.maxWarps <= 0) return std::nullopt;
  const int warps = (threadsPerBlock + 31) / 32;
  const std::pair<int, const char*> limits[] = {
      {sm.maxWarps / warps, "warps"},
      {registersPerThread > 0 ? (sm.registers / (((registersPerThread * 32 + 255) / 256) * 256)) / warps : sm.maxBlocks,
       "registers"},
      {sm.sharedBytes / std::max(1, sharedBytesPerBlock + sm.reservedSharedPerBlock), "shared memory"},
      {sm.maxBlocks, "blocks"},
  };
  const auto least = std::min_element(std::begin(limits), std::end(limits),
                                      [](const auto& x, const auto& y) { return x.first < y.first; });
  if (least->first <= 0) return std::nullopt;
  return TheoreticalOccupancy{static_cast<double>(least->first * warps) / sm.maxWarps, least->first, least->second};
}

ReferenceAnalysis analyseReference(const ReferenceAnalysisInput& in) {
  ReferenceAnalysis out;
  if (!in.reference || !in.spec) throw std::invalid_argument("analyseReference: no reference or no task spec");
  const Candidate& c = *in.reference;
  const TaskSpec& spec = *in.spec;
  const std::string shape = shapeClassOf(spec.axes);
  const std::string subject = "the reference kernel of " + in.family + (shape.empty() ? "" : " (" + shape + ")") +
                              " on " + in.arch;
  auto claim = [&](const std::string& decision, std::string text) {
    KnowledgeEntry k;
    k.scopeArch = in.arch;
    k.scopeFamily = in.family;
    k.scopeShape = shape;
    k.decision = decision;
    text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    k.claim = std::move(text);
    k.effect = 1;
    k.observations = 1;
    k.status = KnowledgeStatus::Validated;
    k.probe = "reference profile";
    if (c.id != 0) k.evidence = {c.id};
    out.claims.push_back(std::move(k));
  };
  auto missing = [&](const std::string& decision, const std::string& why) { out.missing.push_back(decision + ": " + why); };

  // --- The roof that bounds it.
  const double seconds = c.timing ? c.timing->medianUs * 1e-6 : 0;
  const auto dram = dramBytes(c.profile);
  const Ceiling* bandwidth = ceiling(in.ceilings, in.gpu, "dram_bw");
  const bool tensor = usesTensorCores(c);
  const Ceiling* peak = ceiling(in.ceilings, in.gpu, tensor ? "bf16_tensor" : "fp32_fma");
  std::optional<double> flops;
  try {
    flops = taskFlops(spec);
  } catch (const std::exception&) {
    flops = std::nullopt;
  }
  if (!(seconds > 0)) {
    missing("reference.bound", "the reference is not timed");
  } else if (!dram) {
    missing("reference.bound", c.profile.empty() ? "the reference is not profiled" : "its profile has no DRAM counters");
  } else if (!bandwidth) {
    missing("reference.bound", "no dram_bw ceiling measured on " + in.gpu);
  } else {
    const double bytesPerSecond = *dram / seconds;
    const double ofBandwidth = bytesPerSecond / bandwidth->measured;
    const RooflineOutcome point = rooflinePoint(c, flops);
    const bool flopFree = !flops || *flops <= 0;
    if (flopFree || !point.point || !peak || point.point->dramBytes <= 0) {
      std::string why = flopFree ? "the task does no floating-point work"
                        : !peak  ? "no " + std::string(tensor ? "bf16_tensor" : "fp32_fma") + " ceiling measured"
                                 : point.missing.empty() ? "its FLOPs are unknown" : point.missing;
      claim("reference.bound", subject + " is judged against the DRAM roof only (" + why + "): it moves " +
                                   rate(bytesPerSecond, "B/s") + ", " + percent(ofBandwidth) + " of the " +
                                   rate(bandwidth->measured, "B/s") + " measured on " + in.gpu);
    } else {
      const double ridge = peak->measured / bandwidth->measured;
      const double intensity = point.point->intensity;
      if (intensity < ridge) {
        claim("reference.bound", subject + " is memory-bound (intensity " + figure(intensity) +
                                     " FLOP/B, below the ridge at " + figure(ridge) + " FLOP/B): it moves " +
                                     rate(bytesPerSecond, "B/s") + ", " + percent(ofBandwidth) + " of the " +
                                     rate(bandwidth->measured, "B/s") + " DRAM roof measured on " + in.gpu);
      } else {
        const double ofPeak = point.point->flopsPerSecond / peak->measured;
        claim("reference.bound", subject + " is compute-bound (intensity " + figure(intensity) +
                                     " FLOP/B, above the ridge at " + figure(ridge) + " FLOP/B): it reaches " +
                                     rate(point.point->flopsPerSecond, "FLOP/s") + ", " + percent(ofPeak) +
                                     " of the " + rate(peak->measured, "FLOP/s") + " " + peak->name +
                                     " roof measured on " + in.gpu);
      }
    }
  }

  // --- Occupancy: achieved (profile) against theoretical (occupancy rules).
  const auto achieved = c.profile.find(kAchievedOccupancyMetric);
  std::optional<TheoreticalOccupancy> theoretical;
  std::string theoreticalWhy;
  const auto sm = smLimitsOf(in.arch);
  std::optional<std::int64_t> threads = 1;
  for (const std::string& dim : c.launch.block) {
    const auto v = evaluated(dim, spec, in.smCount);
    threads = v && threads ? std::optional<std::int64_t>(*threads * *v) : std::nullopt;
  }
  const auto dynamicSmem = evaluated(c.launch.dynamicSmemBytes, spec, in.smCount);
  if (!sm) theoreticalWhy = "this build does not know the per-SM limits of " + in.arch;
  else if (!c.compile) theoreticalWhy = "no compile report";
  else if ((!threads || !dynamicSmem) && in.smCount <= 0 && usesSmCount(c.launch))
    theoreticalWhy = "its launch rule uses sm_count and the SM count of " + in.gpu + " is not recorded";
  else if (!threads || !dynamicSmem) theoreticalWhy = "its launch rule does not evaluate at the task's axes";
  else {
    theoretical = theoreticalOccupancy(*sm, static_cast<int>(*threads), c.compile->registers,
                                       c.compile->staticSmemBytes + static_cast<int>(*dynamicSmem));
    if (!theoretical) theoreticalWhy = "its block does not fit on one SM";
  }
  if (achieved == c.profile.end() && !theoretical) {
    missing("reference.occupancy", (c.profile.empty() ? "the reference is not profiled" : "no achieved occupancy in its profile") +
                                       std::string("; ") + theoreticalWhy);
  } else {
    std::string text = subject;
    if (achieved != c.profile.end())
      text += " keeps " + figure(achieved->second, "%.0f") + "% of the SM's warp slots busy (achieved occupancy)";
    if (theoretical) {
      text += std::string(achieved != c.profile.end() ? " of a theoretical " : " has a theoretical occupancy of ") +
              percent(theoretical->fraction) + " (" + std::to_string(theoretical->blocksPerSm) + " blocks of " +
              std::to_string(*threads) + " threads per SM, limited by " + theoretical->limiter + ")";
    } else {
      text += " (no theoretical occupancy: " + theoreticalWhy + ")";
    }
    claim("reference.occupancy", text);
  }

  // --- Registers and the features its code uses.
  if (!c.compile) {
    missing("reference.registers", "no compile report");
    missing("reference.features", "no compile report");
    return out;
  }
  const CompileReport& r = *c.compile;
  std::string spills = r.spillStoreBytes + r.spillLoadBytes > 0
                           ? "spills " + std::to_string(r.spillStoreBytes) + " bytes stored and " +
                                 std::to_string(r.spillLoadBytes) + " loaded"
                           : "no spills";
  claim("reference.registers", subject + " uses " + std::to_string(r.registers) + " registers per thread, " +
                                   std::to_string(r.staticSmemBytes) + " bytes of static shared memory, " + spills);
  const auto words = featureWords(r.features);
  if (words.empty()) {
    missing("reference.features", "its compile report lists no PTX features");
  } else {
    std::string list;
    for (const auto& w : words) list += (list.empty() ? "" : ", ") + w;
    claim("reference.features", subject + " uses " + list);
  }
  return out;
}

}  // namespace crucible
