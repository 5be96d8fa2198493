// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window's centre shows while no project is open: open a
// recent project, the sample, a new project, an existing one, or import a task.
#pragma once
#include <QWidget>

class QListWidget;
class QPushButton;

namespace crucible::views {

class WelcomePage : public QWidget {
  Q_OBJECT
public:
  explicit WelcomePage(QWidget* parent = nullptr);

  // The bundled sample project next to the built-in tasks ("" when this install has none).
  static QString samplePath();
  QListWidget* recentList() const { return recent_; }

public slots:
  // Re-reads the recent projects from QSettings.
  void refresh();

signals:
  void openRequested(const QString& path);
  void openDialogRequested();
  void newProjectRequested();
  void importTaskRequested();

private:
  QListWidget* recent_;
  QPushButton* sample_;
};

}  // namespace crucible::views
