// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/host_info.h"
#include <QCoreApplication>
#include "crucible/version.h"

namespace crucible::views {

QString aboutText(const HostInfo& host) {
  auto tr = [](const char* s) { return QCoreApplication::translate("crucible::views::AboutBox", s); };
  QStringList lines;
  lines << QStringLiteral("<h3>Crucible %1</h3>").arg(QStringLiteral(CRUCIBLE_VERSION));
  lines << tr("A workbench that evolves GPU kernels.<br>Licensed under the GPL, version 3 or later.");
  lines << QStringLiteral("<p>");
  lines << tr("Qt: %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)) + "<br>";
  lines << (host.driverFound ? tr("CUDA driver: %1").arg(host.driverVersion.isEmpty() ? tr("version unknown")
                                                                                      : host.driverVersion)
                             : tr("CUDA driver: not found"))
        << QStringLiteral("<br>");
  if (host.gpus.isEmpty()) {
    lines << tr("GPUs: none");
  } else {
    lines << tr("GPUs:") << QStringLiteral("<ul>");
    for (const QString& gpu : host.gpus) lines << QStringLiteral("<li>%1</li>").arg(gpu.toHtmlEscaped());
    lines << QStringLiteral("</ul>");
  }
  if (!host.statusLine.isEmpty()) lines << QStringLiteral("<p>%1</p>").arg(host.statusLine.toHtmlEscaped());
  return lines.join(QString());
}

}  // namespace crucible::views
