// SPDX-License-Identifier: GPL-3.0-or-later
// The vault: every sealed kernel with its validation and performance
// reports, the fingerprint it was measured on and its source; export as a
// .cu file with its figures in a header comment and a launch snippet.
#pragma once
#include <QWidget>
#include "core/model/ids.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QsciScintilla;

namespace crucible::views {

class ProjectSession;
class SealModel;

class VaultView : public QWidget {
  Q_OBJECT
public:
  explicit VaultView(ProjectSession* session, QWidget* parent = nullptr);

  SealModel* model() const { return model_; }
  QString message() const;
  // Writes the seal's .cu file; on failure returns false and sets *error.
  bool exportSeal(SealId seal, const QString& path, QString* error) const;

public slots:
  void reload();
  void showSeal(int row);

private:
  ProjectSession* session_;
  SealModel* model_ = nullptr;
  QTableView* table_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* fingerprint_ = nullptr;
  QPlainTextEdit* validation_ = nullptr;
  QPlainTextEdit* performance_ = nullptr;
  QsciScintilla* source_ = nullptr;
  QPushButton* export_ = nullptr;
};

}  // namespace crucible::views
