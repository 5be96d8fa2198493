// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/shortcuts_dialog.h"
#include <QAction>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWidget>
#include <algorithm>

namespace crucible::views {

namespace {
QString where(const QAction* a) {
  if (a->shortcutContext() == Qt::WindowShortcut || a->shortcutContext() == Qt::ApplicationShortcut)
    return QCoreApplication::translate("crucible::views::ShortcutsDialog", "anywhere in the window");
  // Widget shortcuts act where the widget that holds them has focus.
  for (QObject* o : a->associatedObjects())
    if (auto* w = qobject_cast<QWidget*>(o); w && !qobject_cast<const QMenu*>(w))
      return w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className()) : w->objectName();
  return QCoreApplication::translate("crucible::views::ShortcutsDialog", "where its view has focus");
}
}  // namespace

QList<ShortcutEntry> shortcutEntries(const QWidget* root) {
  QList<ShortcutEntry> out;
  QSet<const QAction*> seen;
  QList<QAction*> actions = root->actions();
  actions += root->findChildren<QAction*>();
  for (const QWidget* w : root->findChildren<QWidget*>()) actions += w->actions();
  // Menus' entries that only hint at another action's key are shown once: by text and keys.
  QSet<QString> listed;
  for (const QAction* a : std::as_const(actions)) {
    if (seen.contains(a) || a->shortcuts().isEmpty() || a->isSeparator()) continue;
    seen.insert(a);
    ShortcutEntry e;
    e.action = a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")).trimmed();
    if (e.action.endsWith(QLatin1String("..."))) e.action.chop(3);
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    e.keys = keys.join(QStringLiteral(", "));
    e.where = where(a);
    const QString id = e.action + QLatin1Char('\n') + e.keys;
    if (listed.contains(id)) continue;
    listed.insert(id);
    out << e;
  }
  std::sort(out.begin(), out.end(), [](const ShortcutEntry& x, const ShortcutEntry& y) {
    return x.action.localeAwareCompare(y.action) < 0;
  });
  return out;
}

ShortcutsDialog::ShortcutsDialog(const QWidget* root, QWidget* parent) : QDialog(parent), table_(new QTableWidget(this)) {
  setWindowTitle(tr("Keyboard shortcuts"));
  const QList<ShortcutEntry> entries = shortcutEntries(root);
  table_->setColumnCount(3);
  table_->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut"), tr("Where")});
  table_->setRowCount(int(entries.size()));
  for (int r = 0; r < int(entries.size()); ++r) {
    table_->setItem(r, 0, new QTableWidgetItem(entries[r].action));
    table_->setItem(r, 1, new QTableWidgetItem(entries[r].keys));
    table_->setItem(r, 2, new QTableWidgetItem(entries[r].where));
  }
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->resizeColumnsToContents();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_);
  layout->addWidget(buttons);
  resize(560, 420);
}

}  // namespace crucible::views
