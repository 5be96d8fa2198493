// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/host_probe.h"
#include <QCoreApplication>

namespace crucible::app {

views::HostInfo hostInfoFrom(const GpuProbe& probe) {
  // Each call spelled out, not through a local tr helper: lupdate takes the context from the call itself, and a
  // helper left these strings under a context the lookup never used (so they were never translated).
  views::HostInfo host;
  host.driverFound = probe.driverFound;
  host.driverVersion = QString::fromStdString(probe.driverVersion);
  for (const GpuInfo& g : probe.gpus)
    host.gpus << QStringLiteral("%1: %2 (%3)")
                     .arg(g.ordinal)
                     .arg(QString::fromStdString(g.name), QString::fromStdString(g.arch()));
  if (probe.gpus.empty()) {
    // The probe's sentence says what was missing and that only review is possible.
    host.statusLine = QString::fromStdString(probe.message);
  } else {
    const GpuInfo& first = probe.gpus.front();
    host.statusLine = QCoreApplication::translate("crucible::app::HostProbe", "GPU: %1 (%2), CUDA driver %3")
                          .arg(QString::fromStdString(first.name), QString::fromStdString(first.arch()),
                               host.driverVersion);
    if (probe.gpus.size() > 1) host.statusLine += QCoreApplication::translate("crucible::app::HostProbe", " and %1 more GPU(s)").arg(probe.gpus.size() - 1);
  }
  return host;
}

}  // namespace crucible::app
