// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/detail_labels.h"

#include <QCoreApplication>

namespace crucible::views {

const std::map<std::string, const char*>& detailLabelSources() {
  static const std::map<std::string, const char*> labels{
      {"compile.arch", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Architecture")},
      {"compile.diagnostics", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Diagnostics")},
      {"compile.features", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "PTX features")},
      {"compile.log", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "ptxas log")},
      {"compile.result", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Result")},
      {"compile.seconds", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Compile time")},
      {"compute.fp32_flops", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "FP32 FLOPs")},
      {"compute.fp32_rate", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "FP32 FLOP/s")},
      {"compute.fp32_roof", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "FP32, % of FMA roof")},
      {"compute.intensity", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Arithmetic intensity")},
      {"compute.task_flops", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Task FLOPs")},
      {"compute.task_rate", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Task FLOP/s")},
      {"compute.tensor_flops", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Tensor-core FLOPs")},
      {"compute.tensor_rate", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Tensor-core FLOP/s")},
      {"compute.tensor_roof", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Tensor cores, % of BF16 roof")},
      {"compute.tensor_use", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Uses tensor cores")},
      {"launch.block", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Block")},
      {"launch.blocks", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Blocks")},
      {"launch.driver_registers", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Registers per thread (driver)")},
      {"launch.dynamic_smem", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Dynamic shared memory")},
      {"launch.entry", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Entry")},
      {"launch.grid", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Grid")},
      {"launch.local_bytes", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Local memory per thread")},
      {"launch.max_threads", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Max threads per block (compiled)")},
      {"launch.registers", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Registers per thread")},
      {"launch.spill_loads", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Spill loads")},
      {"launch.spill_stores", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Spill stores")},
      {"launch.static_smem", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Static shared memory")},
      {"launch.tensor_maps", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "TMA tensor maps")},
      {"launch.threads", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Threads")},
      {"launch.threads_per_block", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Threads per block")},
      {"occupancy.achieved", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Achieved occupancy")},
      {"occupancy.blocks_per_sm", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Blocks per SM (theoretical)")},
      {"occupancy.limiter", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Occupancy limiter")},
      {"occupancy.theoretical", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Theoretical occupancy")},
      {"occupancy.warps_per_block", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Warps per block")},
      {"throughput.dram_bandwidth", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "DRAM bandwidth")},
      {"throughput.dram_bytes", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "DRAM bytes")},
      {"throughput.dram_read", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "DRAM bytes read")},
      {"throughput.dram_roof", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "DRAM bandwidth, % of roof")},
      {"throughput.dram_write", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "DRAM bytes written")},
      {"throughput.effective_bandwidth", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Effective bandwidth")},
      {"throughput.effective_roof", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Effective bandwidth, % of DRAM roof")},
      {"throughput.l1_bandwidth", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "L1 bandwidth")},
      {"throughput.l1_bytes", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "L1 bytes")},
      {"throughput.l2_bandwidth", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "L2 bandwidth")},
      {"throughput.l2_bytes", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "L2 bytes")},
      {"throughput.l2_roof", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "L2 bandwidth, % of roof")},
      {"throughput.min_bytes", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Task minimum bytes")},
      {"timing.iqr", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Interquartile range")},
      {"timing.iqr_pct", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Interquartile range / median")},
      {"timing.max", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Maximum")},
      {"timing.mean", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Mean")},
      {"timing.median", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Median")},
      {"timing.min", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Minimum")},
      {"timing.profiled_duration", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Duration under the profiler")},
      {"timing.reference_iqr", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Reference interquartile range")},
      {"timing.reference_median", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Reference median (interleaved)")},
      {"timing.samples", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Samples")},
      {"timing.sm_clock", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "SM clock")},
      {"timing.speedup", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Speedup over the reference")},
      {"timing.spread", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Spread (max − min)")},
      {"validation.max_abs_error", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Largest absolute error")},
      {"validation.max_rel_error", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Largest relative error")},
      {"validation.mismatches", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Mismatched elements")},
      {"validation.passed", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Trials passed")},
      {"validation.trials", QT_TRANSLATE_NOOP("crucible::views::DetailLabels", "Trials")},
  };
  return labels;
}

// The groups' names, translated by groupTitle() (views/details/figure_text.h).
[[maybe_unused]] static const char* const kGroupNames[] = {
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Throughput"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Compute"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Occupancy"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Launch"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Compile"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Timing"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Validation"),
    QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "Other counters")};

QString detailLabel(const std::string& key, const std::string& label) {
  // Each validation trial's row is numbered: "Trial 3" under "validation.trial.3".
  static const std::string trial = "validation.trial.";
  if (key.rfind(trial, 0) == 0 && label == "Trial " + key.substr(trial.size()))
    return QCoreApplication::translate("crucible::views::DetailLabels", "Trial %1").arg(QString::fromStdString(key.substr(trial.size())));
  const auto& labels = detailLabelSources();
  const auto it = labels.find(key);
  if (it == labels.end() || label != it->second) return QString::fromStdString(label);
  return QCoreApplication::translate("crucible::views::DetailLabels", it->second);
}

QString detailText(const std::string& text) {
  if (text == "yes") return QCoreApplication::translate("crucible::views::DetailLabels", "yes");
  if (text == "no") return QCoreApplication::translate("crucible::views::DetailLabels", "no");
  return QString::fromStdString(text);
}

}  // namespace crucible::views
