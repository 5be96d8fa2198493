// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/knowledge/add_claim_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace crucible::views {

AddClaimDialog::AddClaimDialog(std::vector<KnowledgeEntry> existing, const UserClaimDraft& start, QWidget* parent)
    : QDialog(parent), existing_(std::move(existing)) {
  setWindowTitle(tr("Add claim"));
  arch_ = new QLineEdit(this);
  arch_->setObjectName(QStringLiteral("claimArch"));
  arch_->setPlaceholderText(QStringLiteral("sm_90"));
  family_ = new QLineEdit(this);
  family_->setObjectName(QStringLiteral("claimFamily"));
  family_->setPlaceholderText(tr("empty: any operator"));
  shape_ = new QLineEdit(this);
  shape_->setObjectName(QStringLiteral("claimShape"));
  shape_->setPlaceholderText(tr("empty: any shape; or e.g. M~2^13 N~2^12"));
  decision_ = new QLineEdit(this);
  decision_->setObjectName(QStringLiteral("claimDecision"));
  decision_->setPlaceholderText(tr("vector: 1 -> 4, or vector=4"));
  text_ = new QPlainTextEdit(this);
  text_->setObjectName(QStringLiteral("claimText"));
  text_->setPlaceholderText(tr("The claim in your words"));
  pinned_ = new QCheckBox(tr("Pin: use it as validated before any evidence arrives"), this);
  pinned_->setObjectName(QStringLiteral("claimPinned"));
  problem_ = new QLabel(this);
  problem_->setObjectName(QStringLiteral("claimProblem"));
  problem_->setWordWrap(true);
  problem_->setStyleSheet(QStringLiteral("color: #d62728"));

  auto* form = new QFormLayout;
  form->addRow(tr("Architecture:"), arch_);
  form->addRow(tr("Operator family:"), family_);
  form->addRow(tr("Shape class:"), shape_);
  form->addRow(tr("Decision:"), decision_);
  form->addRow(tr("Claim:"), text_);
  auto* note = new QLabel(tr("A claim you add is a hypothesis with no evidence: runs use it once observations of its "
                             "decision validate it, or at once if you pin it."),
                          this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &AddClaimDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(pinned_);
  layout->addWidget(note);
  layout->addWidget(problem_);
  layout->addWidget(buttons);
  setDraft(start);
}

UserClaimDraft AddClaimDialog::draft() const {
  UserClaimDraft d;
  d.arch = arch_->text().trimmed().toStdString();
  d.family = family_->text().trimmed().toStdString();
  d.shape = shape_->text().trimmed().toStdString();
  d.decision = decision_->text().trimmed().toStdString();
  d.text = text_->toPlainText().trimmed().toStdString();
  d.pinned = pinned_->isChecked();
  return d;
}

void AddClaimDialog::setDraft(const UserClaimDraft& d) {
  arch_->setText(QString::fromStdString(d.arch));
  family_->setText(QString::fromStdString(d.family));
  shape_->setText(QString::fromStdString(d.shape));
  decision_->setText(QString::fromStdString(d.decision));
  text_->setPlainText(QString::fromStdString(d.text));
  pinned_->setChecked(d.pinned);
}

QString AddClaimDialog::problem() const { return problem_->text(); }

void AddClaimDialog::accept() {
  // The core's wording names the field; shown as it is (user data, not chrome).
  if (auto p = userClaimProblem(draft(), existing_)) {
    problem_->setText(QString::fromStdString(*p));
    return;
  }
  problem_->clear();
  QDialog::accept();
}

}  // namespace crucible::views
