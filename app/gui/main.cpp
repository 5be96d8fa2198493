// SPDX-License-Identifier: GPL-3.0-or-later
#include <QApplication>
#include <QTextStream>
#include "crucible/version.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (app.arguments().contains(QStringLiteral("--version"))) {
    QTextStream(stdout) << "crucible " << CRUCIBLE_VERSION << "\n";
    return 0;
  }
  return 0;
}
