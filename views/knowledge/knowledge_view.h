// SPDX-License-Identifier: GPL-3.0-or-later
// The knowledge base, across runs: claims about hardware mechanisms with
// their scope, status and measured effect; full-text search (FTS5); the
// detail lists the evidence candidates, one click selects one. The user's
// word on a claim (issue 19): pin it (used as validated whatever the
// statistics say), disable it (never used), reword it, or add a claim.
#pragma once
#include <QWidget>
#include <vector>
#include "core/knowledge/user_claims.h"
#include "core/model/knowledge.h"

class QAction;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QTableView;

namespace crucible::views {

class MessageStack;

class ProjectSession;
class KnowledgeEditor;
class KnowledgeModel;

class KnowledgeView : public QWidget {
  Q_OBJECT
public:
  explicit KnowledgeView(ProjectSession* session, QWidget* parent = nullptr);

  KnowledgeModel* model() const { return model_; }
  QListWidget* evidenceList() const { return evidence_; }
  QString message() const;
  // The context menu of a row of the evidence list: Select candidate. The caller owns it.
  QMenu* evidenceMenuFor(int row, QWidget* parent = nullptr);
  // The context menu of a claim's row: Pin, Disable, Edit claim…, Add claim…. The caller owns it.
  QMenu* claimMenuFor(int row, QWidget* parent = nullptr);

  QAction* pinAction() const { return pin_; }
  QAction* disableAction() const { return disable_; }
  QAction* editAction() const { return edit_; }
  QAction* addClaimAction() const { return add_; }
  KnowledgeEditor* editor() const { return editor_; }
  // The last edit's outcome ("" while none failed).
  QString editStatus() const;

  // What the actions do, after their dialogs (on the current claim).
  void setCurrentPinned(bool pinned);
  void setCurrentDisabled(bool disabled);
  void rewordCurrent(const QString& text);   // "" returns to the measured wording
  // A problem with the draft (shown, and nothing written), or "" when it was sent to be stored.
  QString addClaim(const UserClaimDraft& draft);

public slots:
  void reload();
  void setSearch(const QString& query);
  void showEntry(int row);
  void showEntries(const QString& query, std::vector<KnowledgeEntry> entries, const QString& searchError);

private:
  void selectEvidence(const QListWidgetItem* item);
  const KnowledgeEntry* current() const;
  void updateActions();
  void editCurrent();     // asks for the wording
  void addWithDialog();   // asks for the claim

  ProjectSession* session_;
  KnowledgeModel* model_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* searchStatus_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* detail_ = nullptr;
  QListWidget* evidence_ = nullptr;
  MessageStack* stack_ = nullptr;
  KnowledgeEditor* editor_ = nullptr;
  QLabel* editStatus_ = nullptr;
  QAction* pin_ = nullptr;
  QAction* disable_ = nullptr;
  QAction* edit_ = nullptr;
  QAction* add_ = nullptr;
};

}  // namespace crucible::views
