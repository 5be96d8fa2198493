// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/key_store.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <memory>
#include <qt6keychain/keychain.h>

namespace crucible::gui {
namespace {

// Runs a job to its end (or the timeout) and says how it went.
KeyStoreResult finish(QKeychain::Job& job, int timeoutMs, const QString& what) {
  job.setAutoDelete(false);
  job.setInsecureFallback(false);  // never a plaintext file
  QEventLoop loop;
  bool done = false;
  QObject::connect(&job, &QKeychain::Job::finished, &loop, [&] {
    done = true;
    loop.quit();
  });
  QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
  job.start();
  if (!done) loop.exec();
  KeyStoreResult r;
  if (!done) {
    r.error = QCoreApplication::translate("crucible::gui::KeyStore", "the system keychain did not answer within %1 s (%2)").arg(timeoutMs / 1000).arg(what);
    return r;
  }
  switch (job.error()) {
    case QKeychain::NoError: r.ok = true; break;
    case QKeychain::EntryNotFound:
      r.notFound = true;
      r.error = QCoreApplication::translate("crucible::gui::KeyStore", "no key is stored under %1").arg(job.key());
      break;
    case QKeychain::NoBackendAvailable:
      r.error = QCoreApplication::translate("crucible::gui::KeyStore", "no system keychain is available (%1); set the key in the environment variable "
                               "%2 instead")
                    .arg(job.errorString(), job.key());
      break;
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
      r.error = QCoreApplication::translate("crucible::gui::KeyStore", "the system keychain refused access (%1)").arg(job.errorString());
      break;
    default:
      r.error = QCoreApplication::translate("crucible::gui::KeyStore", "the system keychain failed (%1); set the key in the environment variable %2 instead")
                    .arg(job.errorString(), job.key());
      break;
  }
  return r;
}

}  // namespace

KeyStore::KeyStore(QString service, int timeoutMs) : service_(std::move(service)), timeoutMs_(timeoutMs) {}

KeyStoreResult KeyStore::store(const QString& name, const QString& key) const {
  if (name.trimmed().isEmpty()) return {false, false, QCoreApplication::translate("crucible::gui::KeyStore", "the key needs a name (the key variable)")};
  if (key.trimmed().isEmpty()) return {false, false, QCoreApplication::translate("crucible::gui::KeyStore", "the key is empty")};
  QKeychain::WritePasswordJob job(service_);
  job.setKey(name);
  job.setTextData(key.trimmed());
  return finish(job, timeoutMs_, QCoreApplication::translate("crucible::gui::KeyStore", "storing %1").arg(name));
}

KeyStoreResult KeyStore::read(const QString& name, QString& key) const {
  key.clear();
  QKeychain::ReadPasswordJob job(service_);
  job.setKey(name);
  KeyStoreResult r = finish(job, timeoutMs_, QCoreApplication::translate("crucible::gui::KeyStore", "reading %1").arg(name));
  if (r.ok) key = job.textData();
  return r;
}

KeyStoreResult KeyStore::remove(const QString& name) const {
  QKeychain::DeletePasswordJob job(service_);
  job.setKey(name);
  return finish(job, timeoutMs_, QCoreApplication::translate("crucible::gui::KeyStore", "removing %1").arg(name));
}

std::function<std::string()> apiKeyProvider(const QString& key) {
  auto held = std::make_shared<const std::string>(key.trimmed().toStdString());
  return [held] { return *held; };
}

}  // namespace crucible::gui
