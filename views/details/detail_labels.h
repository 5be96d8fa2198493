// SPDX-License-Identifier: GPL-3.0-or-later
// The details rows' labels and group names as the user reads them, translated
// (issue 22). candidate_details.cpp stays Qt-free and gives each row an
// English label under a stable key; this table holds the same English under
// that key, marked for lupdate, and the views show its translation. A row
// whose key the table does not know (the profile's other counters, named by
// their metric), or whose label no longer matches the table, is shown as given:
// tests/views/details/detail_labels_test.cpp keeps the two equal.
#pragma once
#include <QString>
#include <map>
#include <string>

namespace crucible::views {

// The row's label as shown: the translation of `label` when the table holds
// it under `key`, else `label` as given.
QString detailLabel(const std::string& key, const std::string& label);
// "yes"/"no" figures (the row's text) as shown.
QString detailText(const std::string& text);
// key -> English label: the table itself.
const std::map<std::string, const char*>& detailLabelSources();

}  // namespace crucible::views
