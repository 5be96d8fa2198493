// SPDX-License-Identifier: GPL-3.0-or-later
// The API-key store on the system keychain (app/gui/key_store.h): a key
// stored is read back and removed where a keychain service runs; where none
// does (a build machine), storing fails with a message that says so. Either
// way the key is written to no file and is in no message.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/gui/key_store.h"

namespace crucible::gui {
namespace {

constexpr const char* kSecret = "sk-keystore-test-5ee5ee-SECRET";

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(KeyStore, StoresInTheKeychainOrSaysWhyNotAndNeverInAFile) {
  QTemporaryDir home;
  ASSERT_TRUE(home.isValid());
  // Where a plaintext fallback or a settings file would go.
  for (const char* v : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
    qputenv(v, home.path().toUtf8());
  const KeyStore store(QStringLiteral("CrucibleTest-%1").arg(QCoreApplication::applicationPid()), 10000);
  const QString name = QStringLiteral("CRUCIBLE_KEYSTORE_TEST_KEY");

  const KeyStoreResult stored = store.store(name, QString::fromLatin1(kSecret) + "\n");
  EXPECT_FALSE(stored.error.contains(QLatin1String(kSecret)));
  QString back;
  if (stored.ok) {
    const KeyStoreResult read = store.read(name, back);
    ASSERT_TRUE(read.ok) << read.error.toStdString();
    EXPECT_EQ(back.toStdString(), kSecret);  // trimmed
    EXPECT_TRUE(store.remove(name).ok);
    const KeyStoreResult gone = store.read(name, back);
    EXPECT_FALSE(gone.ok);
    EXPECT_TRUE(gone.notFound) << gone.error.toStdString();
  } else {
    // No keychain here: a message that says what to do, and nothing stored anywhere.
    EXPECT_TRUE(stored.error.contains(name)) << stored.error.toStdString();  // says which variable to set instead
    std::cout << "no keychain on this machine: " << stored.error.toStdString() << "\n";
    const KeyStoreResult read = store.read(name, back);
    EXPECT_FALSE(read.ok);
    EXPECT_TRUE(back.isEmpty());
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(home.path().toStdString())) {
    if (!entry.is_regular_file()) continue;
    EXPECT_EQ(readAll(entry.path()).find(kSecret), std::string::npos) << entry.path();
  }
}

TEST(KeyStore, RefusesAnEmptyKeyOrName) {
  const KeyStore store(QStringLiteral("CrucibleTest"), 1000);
  EXPECT_FALSE(store.store(QStringLiteral("K"), QStringLiteral("  ")).ok);
  EXPECT_FALSE(store.store(QString(), QStringLiteral("key")).ok);
}

TEST(KeyStore, ProviderHandsTheKeyOverFromMemory) {
  const auto provide = apiKeyProvider(QStringLiteral(" sk-abc \n"));
  EXPECT_EQ(provide(), "sk-abc");
  EXPECT_EQ(provide(), "sk-abc");
  EXPECT_EQ(apiKeyProvider(QString())(), "");
}

}  // namespace
}  // namespace crucible::gui
