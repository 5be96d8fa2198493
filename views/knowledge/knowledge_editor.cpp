// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/knowledge/knowledge_editor.h"

#include <QCoreApplication>
#include <QPointer>
#include <thread>
#include "core/store/project_store.h"
#include "views/session/project_session.h"

namespace crucible::views {

KnowledgeEditor::KnowledgeEditor(ProjectSession* session, QObject* parent) : QObject(parent), session_(session) {}

void KnowledgeEditor::setUserState(KnowledgeId id, bool pinned, bool disabled, const QString& userClaim) {
  run([id, pinned, disabled, text = userClaim.trimmed().toStdString()](ProjectStore& store) {
    store.setKnowledgeUserState(id, pinned, disabled, text);
    return std::string();
  });
}

void KnowledgeEditor::addClaim(const UserClaimDraft& draft) {
  run([draft](ProjectStore& store) {
    std::string problem;
    store.transaction([&] {
      if (auto p = userClaimProblem(draft, store.knowledge())) {
        problem = *p;
        return;
      }
      store.addKnowledge(userClaimEntry(draft));
    });
    return problem;
  });
}

void KnowledgeEditor::run(std::function<std::string(ProjectStore&)> write) {
  if (!session_->isOpen()) {
    emit finished(tr("No project open."));
    return;
  }
  ++pending_;
  QPointer<KnowledgeEditor> guard(this);
  std::thread([path = session_->path().toStdString(), write = std::move(write), guard] {
    std::string error;
    try {
      auto store = ProjectStore::open(path);  // read-write; migrates an older project
      error = write(*store);
    } catch (const std::exception& e) {
      error = e.what();
    }
    QCoreApplication* app = QCoreApplication::instance();
    if (!app) return;
    QMetaObject::invokeMethod(
        app,
        [guard, error] {
          if (!guard) return;
          --guard->pending_;
          if (error.empty()) guard->session_->notifyDataChanged();
          emit guard->finished(QString::fromStdString(error));
        },
        Qt::QueuedConnection);
  }).detach();
}

}  // namespace crucible::views
