// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/vault/vault_view.h"

#include <Qsci/qsciscintilla.h>
#include <QClipboard>
#include <cmath>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMenu>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include "views/common/locale_numbers.h"
#include "core/model/kernel_export.h"
#include "core/task/task_spec.h"
#include "views/diff/cuda_lexer.h"
#include "views/common/message_stack.h"
#include "views/common/view_helpers.h"
#include "views/common/lazy_refresh.h"
#include "views/session/project_session.h"
#include "views/vault/seal_model.h"

namespace crucible::views {

VaultView::VaultView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  model_ = new SealModel(this);
  table_ = makeRowTable(model_, this);

  fingerprint_ = new QLabel(this);
  fingerprint_->setWordWrap(true);
  fingerprint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  validation_ = new QPlainTextEdit(this);
  performance_ = new QPlainTextEdit(this);
  for (auto* e : {validation_, performance_}) {
    e->setReadOnly(true);
    e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  }
  source_ = new QsciScintilla(this);
  setupSourceEditor(source_);
  auto* tabs = new QTabWidget(this);
  tabs->addTab(validation_, tr("Validation report"));
  tabs->addTab(performance_, tr("Performance report"));
  tabs->addTab(source_, tr("Source"));
  tabs->addTab(revalidations_, tr("Validated again"));
  export_ = new QPushButton(tr("Export .cu…"), this);
  revalidate_ = new QPushButton(tr("Validate again on this GPU"), this);
  revalidate_->setObjectName(QStringLiteral("vaultRevalidate"));
  connect(revalidate_, &QPushButton::clicked, this, [this] {
    if (const Seal* s = model_->sealAt(table_->currentIndex().row())) emit revalidateRequested(s->id);
  });
  hardware_ = new QLabel(this);
  hardware_->setWordWrap(true);
  hardware_->setObjectName(QStringLiteral("vaultHardware"));
  revalidations_ = new QPlainTextEdit(this);
  revalidations_->setReadOnly(true);
  revalidations_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

  auto* detail = new QWidget(this);
  auto* dl = new QVBoxLayout(detail);
  dl->setContentsMargins(0, 0, 0, 0);
  auto* top = new QHBoxLayout;
  top->addWidget(fingerprint_, 1);
  top->addWidget(export_);
  dl->addLayout(top);
  auto* again = new QHBoxLayout;
  again->addWidget(hardware_, 1);
  again->addWidget(revalidate_);
  dl->addLayout(again);
  dl->addWidget(tabs, 1);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(table_);
  splitter->addWidget(detail);
  splitter->setStretchFactor(1, 2);
  stack_ = new MessageStack(splitter, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(stack_);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& i) { showSeal(i.row()); });
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
    if (const Seal* s = model_->sealAt(i.row())) {
      session_->setCurrentRun(s->runId);
      session_->selectCandidate(s->candidateId);
    }
  });
  connect(export_, &QPushButton::clicked, this, [this] { exportWithDialog(table_->currentIndex().row()); });
  table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    const int row = table_->indexAt(pos).row();
    if (!model_->sealAt(row)) return;
    QMenu* menu = contextMenuFor(row, table_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(table_->viewport()->mapToGlobal(pos));
  });
  // Seals (and task names) are what the vault lists; a closed dock catches up when shown.
  auto* lazy = new LazyRefresh(this, [this] { reload(); });
  connect(session_, &ProjectSession::sealsChanged, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::runsChanged, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::projectOpened, this, &VaultView::reload);
  connect(session_, &ProjectSession::projectClosed, this, &VaultView::reload);
  reload();
}

QString VaultView::message() const { return stack_->message(); }

void VaultView::reload() {
  kernel_.reset();
  if (!session_->isOpen()) {
    model_->setSeals({}, {});
    stack_->setMessage(tr("No project open."));
    stack_->showMessage();
    return;
  }
  std::map<TaskId, QString> names;
  for (const Task& t : session_->tasks()) names[t.id] = QString::fromStdString(t.name);
  const qlonglong current = model_->data(model_->index(table_->currentIndex().row(), 0), Qt::UserRole).toLongLong();
  model_->setSeals(session_->seals(), std::move(names));
  if (model_->rowCount() == 0) {
    stack_->setMessage(tr("No sealed kernels yet: a candidate is sealed when it passes correctness and performance validation."));
    stack_->showMessage();
    return;
  }
  stack_->showContent();
  int row = 0;
  for (int r = 0; r < model_->rowCount(); ++r)
    if (model_->sealAt(r)->id == current) row = r;
  table_->selectRow(row);
  showSeal(row);
}

void VaultView::showSeal(int row) {
  const Seal* s = model_->sealAt(row);
  export_->setEnabled(s != nullptr);
  updateRevalidation();
  refreshRevalidations();
  if (!s) return;
  const Fingerprint& fp = s->fingerprint;
  fingerprint_->setText(tr("Seal #%1: candidate #%2 of run #%3, sealed %4\nMeasured on %5 (%6), driver %7, CUDA runtime %8, "
                           "NVRTC %9, SM %10 MHz, memory %11 MHz%12")
                            .arg(s->id)
                            .arg(s->candidateId)
                            .arg(s->runId)
                            .arg(QString::fromStdString(formatUtc(s->sealedAt)))
                            .arg(QString::fromStdString(fp.gpu), QString::fromStdString(fp.arch),
                                 QString::fromStdString(fp.driver), QString::fromStdString(fp.cudaRuntime),
                                 QString::fromStdString(fp.nvrtc))
                            .arg(localNumber(fp.smClockMHz, 'f', 0))
                            .arg(localNumber(fp.memClockMHz, 'f', 0))
                            .arg(fp.host.empty() ? QString() : tr(", host %1").arg(QString::fromStdString(fp.host))));
  validation_->setPlainText(prettyJson(s->validationReportJson));
  performance_->setPlainText(prettyJson(s->performanceReportJson));
  // The sealed source: off the GUI thread during a run; kept for copy and export.
  if (kernel_ && kernel_->id == s->candidateId) return;
  session_->read(
      this, [id = s->candidateId](const ProjectStore& store) { return store.candidate(id); },
      [this, id = s->candidateId](std::optional<Candidate> c) {
        const Seal* shown = model_->sealAt(table_->currentIndex().row());
        if (!shown || shown->candidateId != id) return;
        source_->setText(c ? QString::fromStdString(c->source) : tr("// The sealed candidate #%1 is missing from the project.").arg(id));
        kernel_ = std::move(c);
      });
}

QStringList VaultView::fingerprintDifferences(const Fingerprint& sealed, const Fingerprint& here) {
  QStringList out;
  // Only what both sides know can differ: an unknown field says nothing.
  auto compare = [&](const QString& what, const std::string& a, const std::string& b) {
    if (!a.empty() && !b.empty() && a != b)
      out << tr("%1 %2, here %3").arg(what, QString::fromStdString(a), QString::fromStdString(b));
  };
  compare(tr("GPU"), sealed.gpu, here.gpu);
  compare(tr("driver"), sealed.driver, here.driver);
  compare(tr("CUDA runtime"), sealed.cudaRuntime, here.cudaRuntime);
  return out;
}

void VaultView::setHostDevice(const std::optional<Fingerprint>& device) {
  hostDevice_ = device;
  updateRevalidation();
}

void VaultView::setRevalidationProblem(const QString& why) {
  revalidationProblem_ = why;
  updateRevalidation();
}

QString VaultView::hardwareText() const { return hardware_->text(); }
QString VaultView::revalidationsText() const { return revalidations_->toPlainText(); }

void VaultView::updateRevalidation() {
  const Seal* s = model_->sealAt(table_->currentIndex().row());
  if (!s) {
    hardware_->clear();
    revalidate_->setEnabled(false);
    revalidate_->setToolTip(tr("Select a seal"));
    return;
  }
  QString why = revalidationProblem_;
  if (!hostDevice_) {
    if (why.isEmpty()) {
      why = tr("Finding out which GPU this machine has…");
      emit hostDeviceWanted();
    }
    hardware_->setText(tr("The figures above were measured on the hardware named in the fingerprint."));
  } else {
    const QStringList differences = fingerprintDifferences(s->fingerprint, *hostDevice_);
    if (differences.isEmpty()) {
      hardware_->setText(tr("Measured on this machine's hardware (GPU, driver and CUDA as here)."));
      if (why.isEmpty()) why = tr("This seal was measured on this GPU, driver and CUDA: its figures hold here.");
    } else {
      hardware_->setText(tr("Measured on other hardware than this machine's: %1.").arg(differences.join(QStringLiteral("; "))));
    }
  }
  revalidate_->setEnabled(why.isEmpty());
  revalidate_->setToolTip(why.isEmpty() ? tr("Validate, time and profile the sealed kernel on this GPU; the new figures are "
                                             "kept beside the sealed ones")
                                        : why);
}

void VaultView::refreshRevalidations() {
  const Seal* s = model_->sealAt(table_->currentIndex().row());
  if (!s) {
    revalidations_->clear();
    return;
  }
  const Seal sealed = *s;
  session_->read(
      this, [id = sealed.id](const ProjectStore& store) { return store.sealRevalidations(id); },
      [this, sealed](std::vector<SealRevalidation> again) {
        const Seal* shown = model_->sealAt(table_->currentIndex().row());
        if (!shown || shown->id != sealed.id) return;
        auto figures = [](double medianUs, double speedup) {
          if (!std::isfinite(medianUs)) return tr("not timed");
          return tr("%1 us, %2x the reference").arg(localNumber(medianUs, 'f', 2)).arg(localNumber(speedup, 'f', 2));
        };
        const Fingerprint& f = sealed.fingerprint;
        QStringList lines;
        lines << tr("Sealed %1 on %2 (%3), driver %4, CUDA %5: %6")
                     .arg(QString::fromStdString(formatUtc(sealed.sealedAt)), QString::fromStdString(f.gpu),
                          QString::fromStdString(f.arch), QString::fromStdString(f.driver),
                          QString::fromStdString(f.cudaRuntime), figures(sealed.medianUs, sealed.speedup));
        if (again.empty()) lines << tr("Not validated again on other hardware yet.");
        for (const SealRevalidation& r : again) {
          const Fingerprint& h = r.fingerprint;
          lines << tr("Again %1 on %2 (%3), driver %4, CUDA %5: %6, %7 (candidate #%8)")
                       .arg(QString::fromStdString(formatUtc(r.validatedAt)), QString::fromStdString(h.gpu),
                            QString::fromStdString(h.arch), QString::fromStdString(h.driver),
                            QString::fromStdString(h.cudaRuntime), QString::fromStdString(r.status),
                            figures(r.medianUs, r.speedup))
                       .arg(r.candidateId);
        }
        revalidations_->setPlainText(lines.join(QLatin1Char('\n')));
      });
}

std::optional<Candidate> VaultView::sealedKernel(CandidateId id, QString* why) const {
  if (kernel_ && kernel_->id == id) return kernel_;
  // Not the shown seal: read now, which the GUI thread may only do outside a run.
  if (session_->runActive() || !session_->store()) {
    *why = tr("Select the seal first: its kernel is read off the GUI thread while a run is in progress.");
    return std::nullopt;
  }
  auto c = session_->store()->candidate(id);
  if (!c) *why = tr("The sealed candidate #%1 is missing from the project.").arg(id);
  return c;
}

QMenu* VaultView::contextMenuFor(int row, QWidget* parent) {
  auto* menu = new QMenu(parent);
  const bool isSeal = model_->sealAt(row) != nullptr;
  menu->addAction(tr("Export .cu…"), this, [this, row] { exportWithDialog(row); })->setEnabled(isSeal);
  menu->addAction(tr("Copy source"), this, [this, row] { copySource(row); })->setEnabled(isSeal);
  const CandidateId sealed = isSeal ? model_->sealAt(row)->candidateId : 0;
  // The main window opens the kernel editor on the sealed candidate (MainWindow::forkCandidate).
  menu->addAction(tr("Fork && edit"), this, [this, sealed] { emit forkRequested(sealed); })->setEnabled(isSeal);
  // The same bundles as crucible-cli best --export (cu, PyTorch extension, FlashInfer solution), by the main window.
  menu->addAction(tr("Export kernel (.cu, PyTorch, FlashInfer)…"), this, [this, sealed] { emit exportRequested(sealed); })
      ->setEnabled(isSeal);
  return menu;
}

void VaultView::exportWithDialog(int row) {
  const Seal* s = model_->sealAt(row);
  if (!s) return;
  const SealId id = s->id;
  const QString suggested = QStringLiteral("seal_%1.cu").arg(id);
  const QString path = askSavePath_ ? askSavePath_(suggested)
                                    : QFileDialog::getSaveFileName(this, tr("Export sealed kernel"), suggested,
                                                                   tr("CUDA source (*.cu)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportSeal(id, path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void VaultView::copySource(int row) {
  const Seal* s = model_->sealAt(row);
  if (!s) return;
  QString why;
  const auto c = sealedKernel(s->candidateId, &why);
  if (!c) {
    QMessageBox::warning(this, tr("Copy failed"), why);
    return;
  }
  QGuiApplication::clipboard()->setText(QString::fromStdString(c->source));
}

bool VaultView::exportSeal(SealId id, const QString& path, QString* error) const {
  std::optional<Seal> seal;
  for (const Seal& s : session_->seals())
    if (s.id == id) seal = s;
  if (!seal) {
    *error = tr("Seal #%1 is not in this project.").arg(id);
    return false;
  }
  const auto kernel = sealedKernel(seal->candidateId, error);
  if (!kernel) return false;
  const auto task = session_->task(seal->taskId);
  std::optional<TaskSpec> spec;
  if (task) {
    try {
      spec = parseTaskSpec(task->specJson);
    } catch (const std::exception&) {
      // The launch snippet then names the argument groups instead of the tensors.
    }
  }
  const std::string text = sealedKernelFile(*seal, *kernel, task ? task->name : "task #" + std::to_string(seal->taskId),
                                            spec ? &*spec : nullptr);
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit()) {
    *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace crucible::views
