// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/session/project_session.h"

namespace crucible::views {

ProjectSession::ProjectSession(QObject* parent) : QObject(parent) {}
ProjectSession::~ProjectSession() = default;

void ProjectSession::open(const QString& path) {
  auto store = ProjectStore::open(path.toStdString(), ProjectStore::Mode::ReadOnly);
  close();
  store_ = std::move(store);
  const auto runs = store_->runs();
  currentRun_ = runs.empty() ? 0 : runs.back().id;
  emit projectOpened();
  emit currentRunChanged(currentRun_);
}

void ProjectSession::close() {
  if (!store_) return;
  store_.reset();
  currentRun_ = 0;
  selected_ = 0;
  emit projectClosed();
}

QString ProjectSession::path() const {
  return store_ ? QString::fromStdString(store_->path()) : QString();
}

void ProjectSession::setCurrentRun(RunId run) {
  if (run == currentRun_) return;
  currentRun_ = run;
  emit currentRunChanged(run);
}

void ProjectSession::selectCandidate(CandidateId id) {
  if (id == selected_) return;
  selected_ = id;
  emit candidateSelected(id);
}

void ProjectSession::notifyDataChanged() { emit dataChanged(); }

}  // namespace crucible::views
