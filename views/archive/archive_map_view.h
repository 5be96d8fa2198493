// SPDX-License-Identifier: GPL-3.0-or-later
// The current run's MAP-Elites archive as a heatmap over two chosen
// descriptor dimensions (the others folded: best over them); cell colour
// by best fitness; clicking a cell selects its elite.
#pragma once
#include "core/model/ids.h"
#include <QWidget>
#include <vector>
#include "views/archive/archive_grid.h"

class QComboBox;
class QLabel;
class QMenu;
class QTableView;

namespace crucible::views {

class MessageStack;

class ProjectSession;
class ArchiveGridModel;

class ArchiveMapView : public QWidget {
  Q_OBJECT
public:
  explicit ArchiveMapView(ProjectSession* session, QWidget* parent = nullptr);

  ArchiveGridModel* model() const { return model_; }
  QString message() const;
  // A cell's context menu: select its elite, or fork it into the kernel editor; nullptr for an empty cell.
  QMenu* contextMenuFor(const QModelIndex& cell, QWidget* parent = nullptr);

signals:
  // Fork && edit on a cell's elite: the main window opens the kernel editor on it.
  void forkRequested(crucible::CandidateId id);

public slots:
  void reload();
  void setAxes(const QString& xDimension, const QString& yDimension);
  void selectCell(int row, int column);

private:
  void rebuild();

  ProjectSession* session_;
  QComboBox* xBox_ = nullptr;
  QComboBox* yBox_ = nullptr;
  QLabel* summary_ = nullptr;
  MessageStack* stack_ = nullptr;
  QTableView* table_ = nullptr;
  ArchiveGridModel* model_ = nullptr;
  std::vector<ArchiveElite> elites_;
};

}  // namespace crucible::views
