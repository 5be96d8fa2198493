// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/knowledge/knowledge_view.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QAction>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include "views/diff/candidate_figures.h"
#include "views/knowledge/add_claim_dialog.h"
#include "views/knowledge/knowledge_editor.h"
#include "views/knowledge/knowledge_model.h"
#include "views/common/locale_numbers.h"
#include "views/common/message_stack.h"
#include "views/common/status_names.h"
#include "views/common/lazy_refresh.h"
#include "views/session/project_session.h"

namespace crucible::views {

namespace {
constexpr int kCandidateRole = Qt::UserRole + 1;
constexpr int kRunRole = Qt::UserRole + 2;
}  // namespace

KnowledgeView::KnowledgeView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  search_ = new QLineEdit(this);
  search_->setObjectName(QStringLiteral("knowledgeSearch"));
  search_->setPlaceholderText(tr("Search claims, decisions and scopes (full text)"));
  search_->setClearButtonEnabled(true);
  searchStatus_ = new QLabel(this);
  editor_ = new KnowledgeEditor(session_, this);
  pin_ = new QAction(tr("Pin"), this);
  pin_->setObjectName(QStringLiteral("knowledgePin"));
  pin_->setCheckable(true);
  pin_->setToolTip(tr("Use this claim as validated whatever its statistics say (from the next run on)"));
  disable_ = new QAction(tr("Disable"), this);
  disable_->setObjectName(QStringLiteral("knowledgeDisable"));
  disable_->setCheckable(true);
  disable_->setToolTip(tr("Never use this claim (its statistics are still kept)"));
  edit_ = new QAction(tr("Edit claim…"), this);
  edit_->setObjectName(QStringLiteral("knowledgeEdit"));
  edit_->setToolTip(tr("Word the claim your way; its measurements stay as they are"));
  add_ = new QAction(tr("Add claim…"), this);
  add_->setObjectName(QStringLiteral("knowledgeAdd"));
  add_->setToolTip(tr("Write a claim of your own: a hypothesis until evidence arrives, unless you pin it"));
  connect(pin_, &QAction::triggered, this, &KnowledgeView::setCurrentPinned);
  connect(disable_, &QAction::triggered, this, &KnowledgeView::setCurrentDisabled);
  connect(edit_, &QAction::triggered, this, &KnowledgeView::editCurrent);
  connect(add_, &QAction::triggered, this, &KnowledgeView::addWithDialog);
  editStatus_ = new QLabel(this);
  editStatus_->setObjectName(QStringLiteral("knowledgeEditStatus"));
  connect(editor_, &KnowledgeEditor::finished, this, [this](const QString& error) {
    editStatus_->setText(error.isEmpty() ? QString() : tr("Not saved: %1").arg(error));
    updateActions();
  });
  auto* bar = new QHBoxLayout;
  bar->addWidget(search_, 1);
  bar->addWidget(searchStatus_);
  for (QAction* a : {pin_, disable_, edit_, add_}) {
    auto* button = new QToolButton(this);
    button->setDefaultAction(a);
    bar->addWidget(button);
  }

  model_ = new KnowledgeModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setSortingEnabled(false);
  table_->horizontalHeader()->setSectionResizeMode(KnowledgeModel::Claim, QHeaderView::Stretch);
  table_->verticalHeader()->hide();

  detail_ = new QLabel(this);
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  evidence_ = new QListWidget(this);
  auto* detailBox = new QWidget(this);
  auto* dl = new QVBoxLayout(detailBox);
  dl->setContentsMargins(0, 0, 0, 0);
  dl->addWidget(detail_);
  dl->addWidget(new QLabel(tr("Evidence (click to select):"), this));
  dl->addWidget(evidence_, 1);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(table_);
  splitter->addWidget(detailBox);
  stack_ = new MessageStack(splitter, this);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(editStatus_);
  layout->addWidget(stack_, 1);
  table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    const int row = table_->indexAt(pos).row();
    if (row >= 0) table_->selectRow(row);
    QMenu* menu = claimMenuFor(row, table_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(table_->viewport()->mapToGlobal(pos));
  });

  connect(search_, &QLineEdit::textChanged, this, &KnowledgeView::reload);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& i) { showEntry(i.row()); });
  connect(evidence_, &QListWidget::itemClicked, this, &KnowledgeView::selectEvidence);
  evidence_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(evidence_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    const int row = evidence_->indexAt(pos).row();
    if (row < 0) return;
    QMenu* menu = evidenceMenuFor(row, evidence_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(evidence_->viewport()->mapToGlobal(pos));
  });
  // Only a change of the knowledge base re-reads it; a closed dock catches up when shown.
  auto* lazy = new LazyRefresh(this, [this] { reload(); });
  connect(session_, &ProjectSession::knowledgeChanged, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::projectOpened, this, &KnowledgeView::reload);
  connect(session_, &ProjectSession::projectClosed, this, &KnowledgeView::reload);
  reload();
}

QString KnowledgeView::message() const { return stack_->message(); }

void KnowledgeView::selectEvidence(const QListWidgetItem* item) {
  const CandidateId id = item ? item->data(kCandidateRole).toLongLong() : 0;
  if (id == 0) return;
  const RunId run = item->data(kRunRole).toLongLong();
  if (run) session_->setCurrentRun(run);  // evidence may come from an earlier run
  session_->selectCandidate(id);
}

QMenu* KnowledgeView::evidenceMenuFor(int row, QWidget* parent) {
  auto* menu = new QMenu(parent);
  const QListWidgetItem* item = evidence_->item(row);
  const CandidateId id = item ? item->data(kCandidateRole).toLongLong() : 0;
  QAction* select = menu->addAction(id ? tr("Select candidate #%1").arg(id) : tr("Select candidate"), this,
                                    [this, row] { selectEvidence(evidence_->item(row)); });
  select->setEnabled(id != 0);
  return menu;
}

void KnowledgeView::setSearch(const QString& query) { search_->setText(query); }

QString KnowledgeView::editStatus() const { return editStatus_->text(); }

const KnowledgeEntry* KnowledgeView::current() const { return model_->entryAt(table_->currentIndex().row()); }

void KnowledgeView::updateActions() {
  const KnowledgeEntry* k = current();
  const bool open = session_->isOpen();
  for (QAction* a : {pin_, disable_, edit_}) a->setEnabled(open && k);
  add_->setEnabled(open);
  pin_->setChecked(k && k->pinned);
  disable_->setChecked(k && k->disabled);
}

QMenu* KnowledgeView::claimMenuFor(int row, QWidget* parent) {
  if (row >= 0 && row != table_->currentIndex().row()) table_->selectRow(row);
  auto* menu = new QMenu(parent);
  menu->addAction(pin_);
  menu->addAction(disable_);
  menu->addAction(edit_);
  menu->addSeparator();
  menu->addAction(add_);
  return menu;
}

void KnowledgeView::setCurrentPinned(bool pinned) {
  const KnowledgeEntry* k = current();
  if (!k) return;
  // Pinning a disabled claim enables it: the two contradict each other.
  editor_->setUserState(k->id, pinned, pinned ? false : k->disabled, QString::fromStdString(k->userClaim));
}

void KnowledgeView::setCurrentDisabled(bool disabled) {
  const KnowledgeEntry* k = current();
  if (!k) return;
  editor_->setUserState(k->id, disabled ? false : k->pinned, disabled, QString::fromStdString(k->userClaim));
}

void KnowledgeView::rewordCurrent(const QString& text) {
  const KnowledgeEntry* k = current();
  if (!k) return;
  // The measured wording back when the text is empty or unchanged from it.
  const QString measured = QString::fromStdString(k->claim);
  editor_->setUserState(k->id, k->pinned, k->disabled, text.trimmed() == measured ? QString() : text);
}

QString KnowledgeView::addClaim(const UserClaimDraft& draft) {
  if (auto p = userClaimProblem(draft, session_->knowledge())) {
    editStatus_->setText(tr("Not saved: %1").arg(QString::fromStdString(*p)));
    return QString::fromStdString(*p);
  }
  editor_->addClaim(draft);
  return {};
}

void KnowledgeView::editCurrent() {
  const KnowledgeEntry* k = current();
  if (!k) return;
  bool ok = false;
  const QString shown = QString::fromStdString(k->userClaim.empty() ? k->claim : k->userClaim);
  const QString text = QInputDialog::getMultiLineText(this, tr("Edit claim"),
                                                      tr("The claim in your words (empty: the measured wording):"),
                                                      shown, &ok);
  if (ok) rewordCurrent(text);
}

void KnowledgeView::addWithDialog() {
  UserClaimDraft start;
  if (const KnowledgeEntry* k = current()) {
    start.arch = k->scopeArch;
    start.family = k->scopeFamily;
    start.shape = k->scopeShape;
  }
  AddClaimDialog dialog(session_->knowledge(), start, this);
  if (dialog.exec() == QDialog::Accepted) addClaim(dialog.draft());
}

void KnowledgeView::reload() {
  searchStatus_->clear();
  if (!session_->isOpen()) {
    model_->setEntries({});
    stack_->setMessage(tr("No project open."));
    stack_->showMessage();
    return;
  }
  const QString query = search_->text().trimmed();
  if (query.isEmpty()) return showEntries(query, session_->knowledge(), {});
  // A search is SQLite's (FTS5): off the GUI thread during a run.
  session_->read(
      this,
      [q = query.toStdString()](const ProjectStore& store) {
        std::pair<std::vector<KnowledgeEntry>, std::string> found;
        try {
          found.first = store.searchKnowledge(q);
        } catch (const StoreError& e) {
          found.second = e.what();  // an incomplete FTS5 query while typing
        }
        return found;
      },
      [this, query](std::pair<std::vector<KnowledgeEntry>, std::string> found) {
        if (search_->text().trimmed() != query) return;  // typed on meanwhile
        showEntries(query, std::move(found.first), QString::fromStdString(found.second));
      });
}

void KnowledgeView::showEntries(const QString& query, std::vector<KnowledgeEntry> entries, const QString& searchError) {
  // A failed search says so and keeps the table empty.
  if (!searchError.isEmpty()) searchStatus_->setText(tr("Search: %1").arg(searchError));
  // The claim shown stays shown across a reload (an edit re-reads the knowledge).
  const KnowledgeId shown = current() ? current()->id : 0;
  model_->setEntries(std::move(entries));
  updateActions();
  if (model_->rowCount() == 0) {
    stack_->setMessage(query.isEmpty() ? tr("The knowledge base is empty: claims appear as runs measure the effect of their decisions.")
                                      : tr("No claim matches \"%1\".").arg(query));
    stack_->showMessage();
    return;
  }
  searchStatus_->setText(query.isEmpty() ? tr("%n claim(s)", nullptr, model_->rowCount())
                                         : tr("%n match(es)", nullptr, model_->rowCount()));
  stack_->showContent();
  int row = 0;
  for (int r = 0; r < model_->rowCount(); ++r)
    if (model_->entryAt(r)->id == shown) row = r;
  table_->selectRow(row);
  showEntry(row);
}

void KnowledgeView::showEntry(int row) {
  evidence_->clear();
  updateActions();
  const KnowledgeEntry* k = model_->entryAt(row);
  if (!k) {
    detail_->clear();
    return;
  }
  QString html = QStringLiteral("<b>%1</b><br>").arg(
      QString::fromStdString(k->userClaim.empty() ? k->claim : k->userClaim).toHtmlEscaped());
  if (!k->userClaim.empty() && k->userClaim != k->claim)
    html += tr("Measured: %1<br>").arg(QString::fromStdString(k->claim).toHtmlEscaped());
  if (k->pinned) html += tr("Pinned: runs use it as validated.<br>");
  if (k->disabled) html += tr("Disabled: runs never use it.<br>");
  if (k->userAdded) html += tr("Added by you.<br>");
  html += tr("Scope: %1<br>").arg(formatScope(*k).toHtmlEscaped());
  if (!k->decision.empty()) html += tr("Supports the decision: <tt>%1</tt><br>").arg(QString::fromStdString(k->decision).toHtmlEscaped());
  html += tr("Status: %1; measured effect %2× over %3 observation(s)")
              .arg(statusName(k->status))
              .arg(localNumber(k->effect, 'g', 3))
              .arg(localInteger(k->observations));
  if (!k->probe.empty()) html += tr("<br>Certified by the hardware probe: %1").arg(QString::fromStdString(k->probe).toHtmlEscaped());
  if (k->updatedAt) html += tr("<br>Updated %1").arg(QDateTime::fromSecsSinceEpoch(k->updatedAt).toString(Qt::ISODate));
  detail_->setText(html);
  if (k->evidence.empty()) {
    evidence_->addItem(tr("No evidence candidates recorded."));
    return;
  }
  // The evidence candidates' figures: off the GUI thread during a run.
  session_->read(
      this,
      [ids = k->evidence](const ProjectStore& store) {
        std::vector<std::pair<CandidateId, std::optional<Candidate>>> rows;
        for (CandidateId id : ids) rows.emplace_back(id, store.candidate(id));
        return rows;
      },
      [this, entry = k->id](std::vector<std::pair<CandidateId, std::optional<Candidate>>> rows) {
        const KnowledgeEntry* shown = model_->entryAt(table_->currentIndex().row());
        if (shown && shown->id != entry) return;  // another claim was chosen meanwhile
        evidence_->clear();
        for (const auto& [id, c] : rows) {
          auto* item = new QListWidgetItem(evidence_);
          item->setData(kCandidateRole, QVariant::fromValue<qlonglong>(id));
          if (c) {
            item->setData(kRunRole, QVariant::fromValue<qlonglong>(c->runId));
            item->setText(tr("run #%1 · %2").arg(c->runId).arg(candidateHeadline(*c)) + QStringLiteral(" · ") + candidateFigures(*c));
          } else {
            item->setText(tr("#%1 (missing from the project)").arg(id));
          }
        }
      });
}

}  // namespace crucible::views
