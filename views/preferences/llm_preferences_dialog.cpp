// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/preferences/llm_preferences_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace crucible::views {
namespace {

constexpr int kMaxModels = 16;

QJsonObject objectOf(const QString& json) {
  const QJsonDocument d = QJsonDocument::fromJson(json.toUtf8());
  return d.isObject() ? d.object() : QJsonObject();
}

double numberIn(const QTableWidget* t, int row, int column) {
  const QTableWidgetItem* item = t->item(row, column);
  bool ok = false;
  const double v = item ? item->text().trimmed().toDouble(&ok) : 0;
  return ok ? v : -1;  // the validator names a price that is not a number as out of range
}

}  // namespace

LlmPreferencesDialog::LlmPreferencesDialog(const QString& settingsJson, Validator validate, QWidget* parent)
    : QDialog(parent), original_(settingsJson), validate_(std::move(validate)) {
  setWindowTitle(tr("Language models"));
  const QJsonObject s = objectOf(settingsJson);

  api_ = new QComboBox(this);
  api_->addItem(tr("OpenAI-compatible (OpenAI, vLLM, llama.cpp, Ollama, SGLang)"), QStringLiteral("openai"));
  api_->addItem(tr("Anthropic"), QStringLiteral("anthropic"));
  api_->setCurrentIndex(s.value(QStringLiteral("api")).toString() == QLatin1String("anthropic") ? 1 : 0);
  endpoint_ = new QLineEdit(s.value(QStringLiteral("endpoint")).toString(), this);
  endpoint_->setPlaceholderText(QStringLiteral("https://api.openai.com/v1"));
  keyVariable_ = new QLineEdit(s.value(QStringLiteral("apiKeyEnv")).toString(), this);
  keyVariable_->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
  keyVariable_->setToolTip(tr("The name the key is filed under in the system keychain, and the environment "
                              "variable crucible-cli reads it from. Empty: a server without keys."));
  key_ = new QLineEdit(this);
  key_->setEchoMode(QLineEdit::Password);
  key_->setPlaceholderText(tr("leave empty to keep the stored key"));
  key_->setToolTip(tr("Stored in the system keychain only; never in the project or a settings file."));

  models_ = new QTableWidget(0, 3, this);
  models_->setHorizontalHeaderLabels({tr("Model"), tr("USD / M input tokens"), tr("USD / M output tokens")});
  models_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (const QJsonValue& m : s.value(QStringLiteral("models")).toArray()) {
    if (m.isString()) addModel(m.toString(), 0, 0);
    else if (m.isObject())
      addModel(m.toObject().value(QStringLiteral("name")).toString(),
               m.toObject().value(QStringLiteral("priceInPerMTok")).toDouble(),
               m.toObject().value(QStringLiteral("priceOutPerMTok")).toDouble());
  }
  auto* add = new QPushButton(tr("Add model"), this);
  auto* remove = new QPushButton(tr("Remove model"), this);
  connect(add, &QPushButton::clicked, this, [this] {
    if (models_->rowCount() < kMaxModels) addModel(QString(), 0, 0);
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    if (models_->currentRow() >= 0) models_->removeRow(models_->currentRow());
    revalidate();
  });

  temperature_ = new QDoubleSpinBox(this);
  temperature_->setRange(0, 2);
  temperature_->setSingleStep(0.1);
  temperature_->setValue(s.value(QStringLiteral("temperature")).toDouble(0.7));
  maxTokens_ = new QSpinBox(this);
  maxTokens_->setRange(256, 1000000);
  maxTokens_->setValue(s.value(QStringLiteral("maxTokens")).toInt(8192));
  concurrency_ = new QSpinBox(this);
  concurrency_->setRange(1, 64);
  concurrency_->setValue(s.value(QStringLiteral("concurrency")).toInt(4));

  problemLabel_ = new QLabel(this);
  problemLabel_->setWordWrap(true);
  problemLabel_->setStyleSheet(QStringLiteral("color: #b00020"));
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* form = new QFormLayout;
  form->addRow(tr("API"), api_);
  form->addRow(tr("Endpoint"), endpoint_);
  form->addRow(tr("Key name"), keyVariable_);
  form->addRow(tr("Key"), key_);
  form->addRow(tr("Temperature"), temperature_);
  form->addRow(tr("Max tokens per reply"), maxTokens_);
  form->addRow(tr("Requests at once"), concurrency_);
  auto* modelButtons = new QHBoxLayout;
  modelButtons->addWidget(add);
  modelButtons->addWidget(remove);
  modelButtons->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(new QLabel(tr("Models (several: a bandit picks each proposal's, weighing improvement and cost)"), this));
  layout->addWidget(models_);
  layout->addLayout(modelButtons);
  layout->addWidget(problemLabel_);
  layout->addWidget(buttons_);

  for (QLineEdit* e : {endpoint_, keyVariable_, key_}) connect(e, &QLineEdit::textChanged, this, [this] { revalidate(); });
  connect(api_, &QComboBox::currentIndexChanged, this, [this] { revalidate(); });
  connect(models_, &QTableWidget::itemChanged, this, [this] { revalidate(); });
  connect(temperature_, &QDoubleSpinBox::valueChanged, this, [this] { revalidate(); });
  connect(maxTokens_, &QSpinBox::valueChanged, this, [this] { revalidate(); });
  connect(concurrency_, &QSpinBox::valueChanged, this, [this] { revalidate(); });
  revalidate();
}

void LlmPreferencesDialog::addModel(const QString& name, double priceIn, double priceOut) {
  const QSignalBlocker block(models_);
  const int row = models_->rowCount();
  models_->insertRow(row);
  models_->setItem(row, 0, new QTableWidgetItem(name));
  models_->setItem(row, 1, new QTableWidgetItem(QString::number(priceIn)));
  models_->setItem(row, 2, new QTableWidgetItem(QString::number(priceOut)));
  if (buttons_) revalidate();  // not while the constructor fills the table
}

QString LlmPreferencesDialog::settingsJson() const {
  QJsonObject s = objectOf(original_);  // the fields this dialog does not show are kept
  s.insert(QStringLiteral("api"), api_->currentData().toString());
  s.insert(QStringLiteral("endpoint"), endpoint_->text().trimmed());
  s.insert(QStringLiteral("apiKeyEnv"), keyVariable_->text().trimmed());
  QJsonArray models;
  for (int row = 0; row < models_->rowCount(); ++row) {
    const QTableWidgetItem* name = models_->item(row, 0);
    models.append(QJsonObject{{QStringLiteral("name"), name ? name->text().trimmed() : QString()},
                              {QStringLiteral("priceInPerMTok"), numberIn(models_, row, 1)},
                              {QStringLiteral("priceOutPerMTok"), numberIn(models_, row, 2)}});
  }
  s.insert(QStringLiteral("models"), models);
  s.insert(QStringLiteral("temperature"), temperature_->value());
  s.insert(QStringLiteral("maxTokens"), maxTokens_->value());
  s.insert(QStringLiteral("concurrency"), concurrency_->value());
  return QString::fromUtf8(QJsonDocument(s).toJson(QJsonDocument::Compact));
}

QString LlmPreferencesDialog::enteredKey() const { return key_->text().trimmed(); }
QString LlmPreferencesDialog::keyVariable() const { return keyVariable_->text().trimmed(); }
QPushButton* LlmPreferencesDialog::okButton() const { return buttons_->button(QDialogButtonBox::Ok); }

void LlmPreferencesDialog::revalidate() {
  problem_ = validate_ ? validate_(settingsJson()) : QString();
  if (problem_.isEmpty() && !enteredKey().isEmpty() && keyVariable().isEmpty())
    problem_ = tr("Key name: a key needs a name to be filed under (e.g. OPENAI_API_KEY)");
  problemLabel_->setText(problem_);
  problemLabel_->setVisible(!problem_.isEmpty());
  okButton()->setEnabled(problem_.isEmpty());
}

bool editLlmPreferences(QWidget* parent, QString& settingsJson, const LlmPreferencesDialog::Validator& validate,
                        const std::function<QString(const QString& variable, const QString& key)>& storeKey) {
  LlmPreferencesDialog dialog(settingsJson, validate, parent);
  for (;;) {
    if (dialog.exec() != QDialog::Accepted) return false;
    if (!dialog.enteredKey().isEmpty()) {
      const QString why = storeKey ? storeKey(dialog.keyVariable(), dialog.enteredKey()) : QObject::tr("no key store");
      dialog.keyEdit()->clear();  // the key is not kept in the dialog either way
      if (!why.isEmpty()) {
        QMessageBox::warning(parent, QObject::tr("Language models"), QObject::tr("The key was not stored: %1").arg(why));
        continue;
      }
    }
    const QString edited = dialog.settingsJson();
    if (edited == settingsJson) return false;
    settingsJson = edited;
    return true;
  }
}

}  // namespace crucible::views
