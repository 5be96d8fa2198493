// SPDX-License-Identifier: GPL-3.0-or-later
// "Add claim…" in the knowledge browser: scope (architecture, operator
// family, shape class), the decision, the claim in the user's words, and
// whether to pin it. Checked (core/knowledge/user_claims.h) before it closes.
#pragma once
#include <QDialog>
#include <vector>
#include "core/knowledge/user_claims.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace crucible::views {

class AddClaimDialog : public QDialog {
  Q_OBJECT
public:
  // existing: the project's claims (a duplicate is refused); start: the fields' first values.
  AddClaimDialog(std::vector<KnowledgeEntry> existing, const UserClaimDraft& start, QWidget* parent = nullptr);

  UserClaimDraft draft() const;
  void setDraft(const UserClaimDraft& d);
  // The problem shown, "" when none.
  QString problem() const;

public slots:
  void accept() override;

private:
  std::vector<KnowledgeEntry> existing_;
  QLineEdit* arch_ = nullptr;
  QLineEdit* family_ = nullptr;
  QLineEdit* shape_ = nullptr;
  QLineEdit* decision_ = nullptr;
  QPlainTextEdit* text_ = nullptr;
  QCheckBox* pinned_ = nullptr;
  QLabel* problem_ = nullptr;
};

}  // namespace crucible::views
