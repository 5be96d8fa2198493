// SPDX-License-Identifier: GPL-3.0-or-later
// The knowledge base, across runs: claims about hardware mechanisms with
// their scope, status and measured effect; full-text search (FTS5); the
// detail lists the evidence candidates, one click selects one.
#pragma once
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QStackedWidget;
class QTableView;

namespace crucible::views {

class ProjectSession;
class KnowledgeModel;

class KnowledgeView : public QWidget {
  Q_OBJECT
public:
  explicit KnowledgeView(ProjectSession* session, QWidget* parent = nullptr);

  KnowledgeModel* model() const { return model_; }
  QListWidget* evidenceList() const { return evidence_; }
  QString message() const;

public slots:
  void reload();
  void setSearch(const QString& query);
  void showEntry(int row);

private:
  ProjectSession* session_;
  KnowledgeModel* model_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* searchStatus_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* detail_ = nullptr;
  QListWidget* evidence_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* message_ = nullptr;
};

}  // namespace crucible::views
