// SPDX-License-Identifier: GPL-3.0-or-later
// Small pieces several views share: how a JSON document is shown, and the
// one-row-at-a-time tables of the review queue and the vault.
#pragma once
#include <QString>
#include <string>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace crucible::views {

// Indented JSON; text that is not a JSON document is shown verbatim, so the
// user always sees what was stored.
QString prettyJson(const std::string& json);

// A table over `model` that selects whole rows, one at a time.
QTableView* makeRowTable(QAbstractItemModel* model, QWidget* parent);

}  // namespace crucible::views
