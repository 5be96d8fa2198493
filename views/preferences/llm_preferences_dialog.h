// SPDX-License-Identifier: GPL-3.0-or-later
// Preferences > Language models: the endpoint, API kind, models with their
// prices, temperature, max tokens, concurrency and the NAME of the key's
// variable, edited as the language-model settings document
// (backends/proposers/llm/README.md), plus a field for the key itself.
//
// The document never holds the key: the key typed here is handed to the
// caller's keyStore (the system keychain, app/gui/key_store.h) and
// forgotten. Fields the dialog does not show (repairTurns, costWeight, ...)
// are kept as they were. Views know nothing of the settings' rules: the
// caller's validator (llmSettingsFromJson in the product) says what is
// wrong, and OK stays disabled until nothing is.
#pragma once
#include <QDialog>
#include <QString>
#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QDialogButtonBox;

namespace crucible::views {

class LlmPreferencesDialog : public QDialog {
  Q_OBJECT
public:
  // "" when the settings document is usable, else what is wrong with it.
  using Validator = std::function<QString(const QString& settingsJson)>;
  // `settingsJson`: the current document ("" or "{}" for none yet).
  LlmPreferencesDialog(const QString& settingsJson, Validator validate, QWidget* parent = nullptr);

  // The document as edited (compact JSON), never holding a key.
  QString settingsJson() const;
  // The key typed (trimmed); empty when the user left the field empty (the stored key stays).
  QString enteredKey() const;
  QString keyVariable() const;
  // What the validator says now ("" = nothing wrong).
  QString problem() const { return problem_; }

  // For tests and the caller: the widgets by role.
  QLineEdit* endpointEdit() const { return endpoint_; }
  QLineEdit* keyVariableEdit() const { return keyVariable_; }
  QLineEdit* keyEdit() const { return key_; }
  QComboBox* apiCombo() const { return api_; }
  QTableWidget* modelsTable() const { return models_; }
  QSpinBox* concurrencySpin() const { return concurrency_; }
  QPushButton* okButton() const;

  void addModel(const QString& name, double priceIn, double priceOut);

private:
  void revalidate();

  QString original_;  // the document as given (its other fields are kept)
  Validator validate_;
  QString problem_;
  QComboBox* api_ = nullptr;
  QLineEdit* endpoint_ = nullptr;
  QLineEdit* keyVariable_ = nullptr;
  QLineEdit* key_ = nullptr;
  QTableWidget* models_ = nullptr;
  QDoubleSpinBox* temperature_ = nullptr;
  QSpinBox* maxTokens_ = nullptr;
  QSpinBox* concurrency_ = nullptr;
  QLabel* problemLabel_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

// The whole Preferences > Language models step for the main window's
// preferencesRequested: shows the dialog on `settingsJson`; on OK stores a
// typed key with `storeKey(variableName, key)` (returns "" or why it could
// not) and, when that worked, replaces `settingsJson`. Returns true when the
// settings changed. A key that could not be stored is reported and the
// dialog stays open, its key field cleared.
bool editLlmPreferences(QWidget* parent, QString& settingsJson, const LlmPreferencesDialog::Validator& validate,
                        const std::function<QString(const QString& variable, const QString& key)>& storeKey);

}  // namespace crucible::views
