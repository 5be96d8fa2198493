// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's view of one open project: its own read connection to the store,
// the current run, and the candidate selected anywhere (every view follows).
// Views read through this object and never open the store themselves.
#pragma once
#include <QObject>
#include <memory>
#include "core/model/ids.h"
#include "core/store/project_store.h"

namespace crucible::views {

class ProjectSession : public QObject {
  Q_OBJECT
public:
  explicit ProjectSession(QObject* parent = nullptr);
  ~ProjectSession() override;

  // Opens the project read-only for the GUI; throws crucible::StoreError.
  void open(const QString& path);
  void close();
  bool isOpen() const { return store_ != nullptr; }
  QString path() const;
  // nullptr when no project is open.
  const ProjectStore* store() const { return store_.get(); }

  RunId currentRun() const { return currentRun_; }
  CandidateId selectedCandidate() const { return selected_; }

public slots:
  void setCurrentRun(crucible::RunId run);
  void selectCandidate(crucible::CandidateId id);
  // The engine recorded something: views re-read what they show.
  void notifyDataChanged();

signals:
  void projectOpened();
  void projectClosed();
  void currentRunChanged(crucible::RunId run);
  void candidateSelected(crucible::CandidateId id);
  void dataChanged();

private:
  std::unique_ptr<ProjectStore> store_;
  RunId currentRun_ = 0;
  CandidateId selected_ = 0;
};

}  // namespace crucible::views
