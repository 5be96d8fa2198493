// SPDX-License-Identifier: GPL-3.0-or-later
// The knowledge browser's writes (issue 19): pin, disable, reword and add a
// claim. The session's connection only reads, so each write opens the
// project for writing on a thread of its own (the GUI thread never waits on
// the store, even while a run holds it), then asks the session to catch up.
// A run in progress keeps the claims it read when it started; the next run
// (or a resumed one) reads the user's word.
#pragma once
#include <QObject>
#include <QString>
#include <functional>
#include <string>
#include "core/knowledge/user_claims.h"
#include "core/model/ids.h"

namespace crucible {
class ProjectStore;
}

namespace crucible::views {

class ProjectSession;

class KnowledgeEditor : public QObject {
  Q_OBJECT
public:
  explicit KnowledgeEditor(ProjectSession* session, QObject* parent = nullptr);

  // The user's word on claim id; userClaim "" returns to the measured wording.
  void setUserState(KnowledgeId id, bool pinned, bool disabled, const QString& userClaim);
  // Stores a new claim; the draft is checked again against the project as it
  // is when written (userClaimProblem), so two windows cannot add one twice.
  void addClaim(const UserClaimDraft& draft);
  bool busy() const { return pending_ > 0; }

signals:
  // After each write: "" when it was stored, else why not.
  void finished(const QString& error);

private:
  // Runs write (which returns "" or why it refused) on a worker thread.
  void run(std::function<std::string(ProjectStore&)> write);

  ProjectSession* session_;
  int pending_ = 0;
};

}  // namespace crucible::views
