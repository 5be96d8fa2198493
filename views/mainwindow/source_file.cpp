// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/source_file.h"
#include <QCoreApplication>
#include <QSaveFile>

namespace crucible::views {

QString writeSourceFile(const QString& path, const std::string& source) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(source.data(), static_cast<qint64>(source.size())) < 0 ||
      !file.commit())
    return QCoreApplication::translate("crucible::views::SourceFile", "Cannot write %1: %2").arg(path, file.errorString());
  return {};
}

QString suggestedSourceFileName(CandidateId id) { return QStringLiteral("candidate_%1.cu").arg(id); }

}  // namespace crucible::views
