// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/candidate_figures.h"

#include <QCoreApplication>
#include <QStringList>
#include "views/common/locale_numbers.h"
#include "views/common/status_names.h"

namespace crucible::views {

// The translation context of these summaries (they belong to no widget).
class CandidateFigures {
  Q_DECLARE_TR_FUNCTIONS(CandidateFigures)
};

QString formatSpeedup(double speedup) { return CandidateFigures::tr("%1×").arg(localNumber(speedup, 'g', 3)); }

QString formatMicroseconds(double us) { return CandidateFigures::tr("%1 µs").arg(localNumber(us, 'f', us < 10 ? 2 : 1)); }

QString formatDescriptor(const std::map<std::string, std::string>& descriptor) {
  if (descriptor.empty()) return CandidateFigures::tr("no descriptor");
  QStringList parts;
  for (const auto& [k, v] : descriptor) parts << QStringLiteral("%1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
  return parts.join(QStringLiteral(", "));
}

QString formatTensorMaps(const std::vector<TensorMapRule>& maps) {
  QStringList boxes;
  for (const TensorMapRule& m : maps) {
    QString box = QStringLiteral("%1 %2×%3").arg(QString::fromStdString(m.tensor)).arg(m.boxRows).arg(m.boxCols);
    if (m.swizzle != "none") box += QStringLiteral(" %1").arg(QString::fromStdString(m.swizzle));
    boxes << box;
  }
  return CandidateFigures::tr("TMA maps %1").arg(boxes.join(QStringLiteral(", ")));
}

QString candidateHeadline(const Candidate& c) {
  QString s = CandidateFigures::tr("#%1 · generation %2 · %3").arg(c.id).arg(c.generation).arg(statusName(c.status));
  if (!c.mutation.empty()) s += QStringLiteral(" (%1)").arg(QString::fromStdString(c.mutation));
  return s;
}

QString candidateFigures(const Candidate& c) {
  QStringList parts;
  if (c.timing) {
    parts << CandidateFigures::tr("%1 median (IQR %2)").arg(formatMicroseconds(c.timing->medianUs), formatMicroseconds(c.timing->iqrUs));
    if (c.timing->speedup > 0) parts << CandidateFigures::tr("%1 the reference").arg(formatSpeedup(c.timing->speedup));
  } else {
    parts << CandidateFigures::tr("not timed");
  }
  if (c.compile && c.compile->ok) {
    parts << CandidateFigures::tr("%1 registers").arg(c.compile->registers);
    parts << CandidateFigures::tr("%1 B static smem").arg(c.compile->staticSmemBytes);
    if (c.launch.dynamicSmemBytes != "0" && !c.launch.dynamicSmemBytes.empty())
      parts << CandidateFigures::tr("dynamic smem %1").arg(QString::fromStdString(c.launch.dynamicSmemBytes));
    if (c.compile->spillStoreBytes + c.compile->spillLoadBytes > 0)
      parts << CandidateFigures::tr("spills %1/%2 B").arg(c.compile->spillStoreBytes).arg(c.compile->spillLoadBytes);
  } else if (c.compile) {
    parts << CandidateFigures::tr("compile failed");
  } else {
    parts << CandidateFigures::tr("not compiled");
  }
  if (!c.launch.tensorMaps.empty()) parts << formatTensorMaps(c.launch.tensorMaps);
  parts << formatDescriptor(c.descriptor);
  return parts.join(QStringLiteral(" · "));
}

QString candidateFigures(const CandidateSummary& c) {
  QStringList parts;
  parts << CandidateFigures::tr("#%1 · generation %2 · %3").arg(c.id).arg(c.generation).arg(statusName(c.status));
  if (c.medianUs > 0) parts << CandidateFigures::tr("%1 median").arg(formatMicroseconds(c.medianUs));
  if (c.speedup > 0) parts << CandidateFigures::tr("%1 the reference").arg(formatSpeedup(c.speedup));
  if (c.registers > 0) parts << CandidateFigures::tr("%1 registers").arg(c.registers);
  if (!c.mutation.empty()) parts << QString::fromStdString(c.mutation);
  return parts.join(QStringLiteral(" · "));
}

}  // namespace crucible::views
