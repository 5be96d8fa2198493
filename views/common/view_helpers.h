// SPDX-License-Identifier: GPL-3.0-or-later
// Small pieces several views share: how a JSON document is shown, tooltips
// of text from a project, and the one-row-at-a-time tables of the review
// queue and the vault.
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

// A tooltip that shows `text` as it is. Qt renders a tooltip as HTML when it
// looks like HTML, and a project's text may come from another project's
// knowledge file, a language model or a damaged file: it is escaped, and
// wrapped in a paragraph that keeps its line breaks and wraps long lines.
QString plainTextToolTip(const QString& text);

// A table over `model` that selects whole rows, one at a time.
QTableView* makeRowTable(QAbstractItemModel* model, QWidget* parent);

}  // namespace crucible::views
