// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/host_info.h"
#include <QCoreApplication>
#include "crucible/version.h"

namespace crucible::views {

QString aboutText(const HostInfo& host) {
  // Each call spelled out, not through a local tr helper: lupdate takes the context from the call itself, and a
  // helper left these strings under a context the lookup never used (so they were never translated).
  QStringList lines;
  lines << QStringLiteral("<h3>Crucible %1</h3>").arg(QStringLiteral(CRUCIBLE_VERSION));
  lines << QCoreApplication::translate("crucible::views::AboutBox", "A workbench that evolves GPU kernels.<br>Licensed under the GPL, version 3 or later.");
  lines << QStringLiteral("<p>");
  lines << QCoreApplication::translate("crucible::views::AboutBox", "Qt: %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)) + "<br>";
  lines << (host.driverFound ? QCoreApplication::translate("crucible::views::AboutBox", "CUDA driver: %1").arg(host.driverVersion.isEmpty() ? QCoreApplication::translate("crucible::views::AboutBox", "version unknown")
                                                                                      : host.driverVersion)
                             : QCoreApplication::translate("crucible::views::AboutBox", "CUDA driver: not found"))
        << QStringLiteral("<br>");
  if (host.gpus.isEmpty()) {
    lines << QCoreApplication::translate("crucible::views::AboutBox", "GPUs: none");
  } else {
    lines << QCoreApplication::translate("crucible::views::AboutBox", "GPUs:") << QStringLiteral("<ul>");
    for (const QString& gpu : host.gpus) lines << QStringLiteral("<li>%1</li>").arg(gpu.toHtmlEscaped());
    lines << QStringLiteral("</ul>");
  }
  if (!host.statusLine.isEmpty()) lines << QStringLiteral("<p>%1</p>").arg(host.statusLine.toHtmlEscaped());
  return lines.join(QString());
}

}  // namespace crucible::views
