// SPDX-License-Identifier: GPL-3.0-or-later
// The vault: every sealed kernel with its validation and performance
// reports, the fingerprint it was measured on and its source; export as a
// .cu file with its figures in a header comment and a launch snippet.
#pragma once
#include <QWidget>
#include <functional>
#include <optional>
#include "core/model/candidate.h"
#include "core/model/ids.h"

class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QsciScintilla;

namespace crucible::views {

class MessageStack;

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
  // The context menu of a row of the seal list: Export .cu…, Copy source. The caller owns it.
  QMenu* contextMenuFor(int row, QWidget* parent = nullptr);
  // Asks where to export (default: a QFileDialog); tests answer without a dialog.
  using SavePathAsker = std::function<QString(const QString& suggestedName)>;
  void setSavePathAsker(SavePathAsker asker) { askSavePath_ = std::move(asker); }

public slots:
  void reload();
  void showSeal(int row);


signals:
  // "Fork && edit" on a seal: the window opens the kernel editor on the sealed candidate.
  void forkRequested(crucible::CandidateId id);

private:
  void exportWithDialog(int row);
  void copySource(int row);

  ProjectSession* session_;
  SealModel* model_ = nullptr;
  QTableView* table_ = nullptr;
  MessageStack* stack_ = nullptr;
  QLabel* fingerprint_ = nullptr;
  QPlainTextEdit* validation_ = nullptr;
  QPlainTextEdit* performance_ = nullptr;
  QsciScintilla* source_ = nullptr;
  QPushButton* export_ = nullptr;
  std::optional<Candidate> kernel_;  // the shown seal's candidate, read once
  std::optional<Candidate> sealedKernel(CandidateId id, QString* why) const;
  SavePathAsker askSavePath_;
};

}  // namespace crucible::views
