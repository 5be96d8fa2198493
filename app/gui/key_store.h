// SPDX-License-Identifier: GPL-3.0-or-later
// Language-model API keys in the system keychain (qtkeychain: the Secret
// Service or KWallet on Linux, the Keychain on macOS, the Credential Manager
// on Windows), filed under the service "Crucible" by the NAME the model
// settings give the key (apiKeyEnv, e.g. OPENAI_API_KEY).
//
// The key is never written to a file: qtkeychain's plaintext fallback stays
// off, so on a machine without a keychain service storing fails and says so.
// It is never put in an environment either (worker processes inherit it): a
// run reads it here once, on the GUI thread, and hands it to the model's
// client in memory (apiKeyProvider, for llm::ClientSettings::apiKey).
//
// The calls block on a local event loop (a keychain may ask the user to
// unlock it), bounded by the timeout; call them on the GUI thread.
#pragma once
#include <QString>
#include <functional>
#include <string>

namespace crucible::gui {

struct KeyStoreResult {
  bool ok = false;
  bool notFound = false;  // read/remove: there is no key under that name
  QString error;          // for the user; never contains the key
};

class KeyStore {
public:
  explicit KeyStore(QString service = QStringLiteral("Crucible"), int timeoutMs = 30000);

  KeyStoreResult store(const QString& name, const QString& key) const;
  // The key in `key` when ok.
  KeyStoreResult read(const QString& name, QString& key) const;
  KeyStoreResult remove(const QString& name) const;

  const QString& service() const { return service_; }

private:
  QString service_;
  int timeoutMs_;
};

// For llm::ClientSettings::apiKey: returns the key given, from memory only.
std::function<std::string()> apiKeyProvider(const QString& key);

}  // namespace crucible::gui
