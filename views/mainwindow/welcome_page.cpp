// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/welcome_page.h"
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include "core/task/task_library.h"
#include "views/mainwindow/recent_projects.h"

namespace crucible::views {

QString WelcomePage::samplePath() {
  // Installed beside the tasks (share/crucible/{tasks,sample}); in the source tree resources/{tasks,sample}.
  const std::string tasks = builtinTasksDir();
  if (tasks.empty()) return {};
  const QString path = QDir(QString::fromStdString(tasks)).filePath(QStringLiteral("../sample/sample.crucible"));
  return QFileInfo(path).isFile() ? QFileInfo(path).canonicalFilePath() : QString();
}

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent), recent_(new QListWidget(this)) {
  setObjectName(QStringLiteral("welcomePage"));
  auto* title = new QLabel(tr("<h2>Crucible</h2><p>Evolve, validate and seal GPU kernels.</p>"), this);
  title->setWordWrap(true);
  auto* open = new QPushButton(tr("Open project…"), this);
  open->setObjectName(QStringLiteral("welcomeOpen"));
  auto* create = new QPushButton(tr("New project…"), this);
  create->setObjectName(QStringLiteral("welcomeNew"));
  sample_ = new QPushButton(tr("Open the sample project"), this);
  sample_->setObjectName(QStringLiteral("welcomeSample"));
  auto* import = new QPushButton(tr("Import a task…"), this);
  import->setObjectName(QStringLiteral("welcomeImport"));
  import->setToolTip(tr("Add a task spec (.json) to a project: opens or creates one first when none is open"));
  recent_->setObjectName(QStringLiteral("welcomeRecent"));
  recent_->setMinimumHeight(60);

  auto* buttons = new QGridLayout;
  buttons->addWidget(open, 0, 0);
  buttons->addWidget(create, 0, 1);
  buttons->addWidget(sample_, 1, 0);
  buttons->addWidget(import, 1, 1);
  auto* column = new QVBoxLayout;
  column->addWidget(title);
  column->addLayout(buttons);
  column->addWidget(new QLabel(tr("Recent projects:"), this));
  column->addWidget(recent_, 1);
  auto* outer = new QHBoxLayout(this);
  outer->addStretch(1);
  outer->addLayout(column, 4);
  outer->addStretch(1);

  connect(open, &QPushButton::clicked, this, &WelcomePage::openDialogRequested);
  connect(create, &QPushButton::clicked, this, &WelcomePage::newProjectRequested);
  connect(import, &QPushButton::clicked, this, &WelcomePage::importTaskRequested);
  connect(sample_, &QPushButton::clicked, this, [this] {
    if (const QString path = samplePath(); !path.isEmpty()) emit openRequested(path);
  });
  connect(recent_, &QListWidget::itemActivated, this,
          [this](QListWidgetItem* item) { emit openRequested(item->data(Qt::UserRole).toString()); });
  refresh();
}

void WelcomePage::refresh() {
  recent_->clear();
  QSettings settings;
  for (const QString& path : RecentProjects(settings).paths()) {
    auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(QFileInfo(path).fileName(), path), recent_);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
  }
  if (recent_->count() == 0) {
    auto* none = new QListWidgetItem(tr("(none yet)"), recent_);
    none->setFlags(Qt::NoItemFlags);
  }
  const bool hasSample = !samplePath().isEmpty();
  sample_->setEnabled(hasSample);
  sample_->setToolTip(hasSample ? samplePath() : tr("This installation has no sample project"));
}

}  // namespace crucible::views
