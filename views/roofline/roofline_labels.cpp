// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_labels.h"

#include <map>
#include "core/model/roofline_point.h"

namespace crucible::views {

QString RooflineReasons::of(BandwidthMissing why) {
  switch (why) {
    case BandwidthMissing::None: return {};
    case BandwidthMissing::NotTimed: return tr("not timed");
    case BandwidthMissing::NotProfiled: return tr("not profiled");
    case BandwidthMissing::NoByteCounters:
      return tr("profile lacks the DRAM and L2 byte counters (%1, %2)")
          .arg(QString::fromLatin1(kDramBytesRead), QString::fromLatin1(kL2Bytes));
  }
  return {};
}

QString RooflineReasons::of(const std::string& reason) {
  // core/model/roofline_point.cpp's phrases, word for word.
  static const std::map<std::string, const char*> fixed{
      {"not timed", QT_TR_NOOP("not timed")},
      {"not profiled", QT_TR_NOOP("not profiled")},
      {"tensor-core kernel and the task has no usable flops formula",
       QT_TR_NOOP("tensor-core kernel and the task has no usable flops formula")},
      {"profile lacks the SASS fadd/fmul/ffma counters", QT_TR_NOOP("profile lacks the SASS fadd/fmul/ffma counters")},
      {"no floating-point work counted", QT_TR_NOOP("no floating-point work counted")},
      {"no DRAM traffic counted", QT_TR_NOOP("no DRAM traffic counted")},
  };
  if (const auto it = fixed.find(reason); it != fixed.end()) return tr(it->second);
  if (reason == std::string("profile lacks ") + kDramBytesRead + " or " + kDramBytesWrite)
    return tr("profile lacks %1 or %2").arg(QString::fromLatin1(kDramBytesRead), QString::fromLatin1(kDramBytesWrite));
  return QString::fromStdString(reason);
}

}  // namespace crucible::views
