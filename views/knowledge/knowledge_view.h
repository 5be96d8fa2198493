// SPDX-License-Identifier: GPL-3.0-or-later
// The knowledge base, across runs: claims about hardware mechanisms with
// their scope, status and measured effect; full-text search (FTS5); the
// detail lists the evidence candidates, one click selects one.
#pragma once
#include <QWidget>
#include <vector>
#include "core/model/knowledge.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QTableView;

namespace crucible::views {

class MessageStack;

class ProjectSession;
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

public slots:
  void reload();
  void setSearch(const QString& query);
  void showEntry(int row);
  void showEntries(const QString& query, std::vector<KnowledgeEntry> entries, const QString& searchError);

private:
  void selectEvidence(const QListWidgetItem* item);

  ProjectSession* session_;
  KnowledgeModel* model_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* searchStatus_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* detail_ = nullptr;
  QListWidget* evidence_ = nullptr;
  MessageStack* stack_ = nullptr;
};

}  // namespace crucible::views
