// SPDX-License-Identifier: GPL-3.0-or-later
// C++ highlighting plus CUDA's qualifiers, built-in variables, intrinsics and
// vector types, for every editor that shows kernel source.
#pragma once
#include <Qsci/qscilexercpp.h>

namespace crucible::views {

class CudaLexer : public QsciLexerCPP {
  Q_OBJECT
public:
  explicit CudaLexer(QObject* parent = nullptr);
  const char* language() const override { return "CUDA"; }
  // Set 1: C++ keywords and CUDA qualifiers; set 2: CUDA built-ins and types.
  const char* keywords(int set) const override;
};

}  // namespace crucible::views

class QsciScintilla;
namespace crucible::views {
// A read-only, monospace editor with the CUDA lexer: shared by the views that show source.
void setupSourceEditor(::QsciScintilla* editor);
}  // namespace crucible::views
