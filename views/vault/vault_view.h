// SPDX-License-Identifier: GPL-3.0-or-later
// The vault: every sealed kernel with its validation and performance
// reports, the fingerprint it was measured on and its source; export as a
// .cu file with its figures in a header comment and a launch snippet; a seal
// measured on other hardware than this machine's is offered for validating
// and timing again here, and its re-validations are shown beside its figures.
#pragma once
#include <QWidget>
#include <functional>
#include <optional>
#include "core/model/candidate.h"
#include "core/model/ids.h"
#include "core/model/seal.h"

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
  // Re-validation (issue 17). The app says which device a new measurement
  // would be taken on (nullopt: not known yet or none) and why it cannot run
  // one ("" when it can). "Validate again on this GPU" is offered when the
  // shown seal was measured on other hardware (GPU model, driver or CUDA).
  void setHostDevice(const std::optional<Fingerprint>& device);
  void setRevalidationProblem(const QString& why);
  // How the seal's fingerprint differs from this machine's ("GPU NVIDIA H100, here NVIDIA H200"); empty: it does not.
  static QStringList fingerprintDifferences(const Fingerprint& sealed, const Fingerprint& here);
  QPushButton* revalidateButton() const { return revalidate_; }
  // The shown seal's hardware note and its re-validations as shown.
  QString hardwareText() const;
  QString revalidationsText() const;
  // Asks where to export (default: a QFileDialog); tests answer without a dialog.
  using SavePathAsker = std::function<QString(const QString& suggestedName)>;
  void setSavePathAsker(SavePathAsker asker) { askSavePath_ = std::move(asker); }

public slots:
  void reload();
  void showSeal(int row);
  // Reads the shown seal's re-validations again (the app stored one).
  void refreshRevalidations();


signals:
  // "Fork && edit" on a seal: the window opens the kernel editor on the sealed candidate.
  void forkRequested(crucible::CandidateId id);
  // Export kernel...: the sealed candidate's bundle in a format the user picks (MainWindow::exportKernelDialog).
  void exportRequested(crucible::CandidateId id);
  // "Validate again on this GPU": the app evaluates the sealed kernel again and stores the new figures beside the old.
  void revalidateRequested(crucible::SealId seal);
  // A seal is shown and the device of this machine is not known yet: the app may find out (off the GUI thread).
  void hostDeviceWanted();

private:
  void exportWithDialog(int row);
  void updateRevalidation();
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
  QPushButton* revalidate_ = nullptr;
  QLabel* hardware_ = nullptr;
  QPlainTextEdit* revalidations_ = nullptr;
  std::optional<Fingerprint> hostDevice_;
  QString revalidationProblem_;
  std::optional<Candidate> kernel_;  // the shown seal's candidate, read once
  std::optional<Candidate> sealedKernel(CandidateId id, QString* why) const;
  SavePathAsker askSavePath_;
};

}  // namespace crucible::views
