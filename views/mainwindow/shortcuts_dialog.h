// SPDX-License-Identifier: GPL-3.0-or-later
// Help > Keyboard shortcuts: every action of a window that has a shortcut,
// listed from the actions themselves (never a hand-written list).
#pragma once
#include <QDialog>
#include <QList>

class QAction;
class QTableWidget;

namespace crucible::views {

struct ShortcutEntry {
  QString action;    // its text, without the & of mnemonics
  QString keys;      // every shortcut, native text, ", " between them
  QString where;     // "window" or the widget it acts in
};

// The actions with a shortcut under root (root's own and its children's,
// menus included), sorted by action text; each action once.
QList<ShortcutEntry> shortcutEntries(const QWidget* root);

class ShortcutsDialog : public QDialog {
  Q_OBJECT
public:
  explicit ShortcutsDialog(const QWidget* root, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }

private:
  QTableWidget* table_;
};

}  // namespace crucible::views
