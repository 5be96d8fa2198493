// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder translation unit so the library exists before its views land.
namespace crucible::views {
int viewsLibraryVersion() { return 1; }
}  // namespace crucible::views
