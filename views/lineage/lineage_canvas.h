// SPDX-License-Identifier: GPL-3.0-or-later
// The drawing of a laid-out lineage: one QGraphicsItem paints every node and
// edge (only those in the exposed rectangle, labels only when zoomed in
// enough), so ten thousand candidates cost one item, not twenty thousand.
// LineageGraphicsView adds wheel zoom, drag to pan, click and tooltips.
#pragma once
#include <QColor>
#include <QGraphicsItem>
#include <QGraphicsView>
#include <QString>
#include <functional>
#include <vector>
#include "core/model/ids.h"

namespace crucible::views {

struct CanvasNode {
  CandidateId id = 0;
  QPointF pos;            // scene centre
  QColor fill;
  QString label;          // e.g. the speedup
  bool reference = false; // drawn as a square
  bool sealed = false;    // drawn with a gold ring
  bool elite = false;     // drawn with a dark outline
  bool onBestPath = false;
};

struct CanvasEdge {
  int child = 0;
  int parent = 0;
  bool primary = true;
  bool onBestPath = false;
};

class LineageCanvasItem : public QGraphicsItem {
public:
  static constexpr double kRadius = 9;

  LineageCanvasItem();
  void setGraph(std::vector<CanvasNode> nodes, std::vector<CanvasEdge> edges);
  void setSelectedId(CandidateId id);
  // Candidates marked for comparison (Ctrl-click), drawn with a dashed ring.
  void setMarkedIds(std::vector<CandidateId> ids);
  const std::vector<CanvasNode>& nodes() const { return nodes_; }
  // Index of the node under a scene point, or -1.
  int nodeAt(const QPointF& scenePos) const;
  int indexOf(CandidateId id) const;

  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
  std::vector<CanvasNode> nodes_;
  std::vector<CanvasEdge> edges_;
  QRectF bounds_;
  CandidateId selected_ = 0;
  std::vector<CandidateId> marked_;
};

class LineageGraphicsView : public QGraphicsView {
  Q_OBJECT
public:
  explicit LineageGraphicsView(QWidget* parent = nullptr);
  void setCanvas(LineageCanvasItem* canvas) { canvas_ = canvas; }
  // Tooltip text of a node, supplied by the owner.
  void setToolTipProvider(std::function<QString(CandidateId)> provider) { toolTip_ = std::move(provider); }

signals:
  void nodeClicked(crucible::CandidateId id);
  // A click with Ctrl held: the node is marked or unmarked for comparison.
  void nodeCtrlClicked(crucible::CandidateId id);

protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  bool viewportEvent(QEvent* event) override;

private:
  LineageCanvasItem* canvas_ = nullptr;
  std::function<QString(CandidateId)> toolTip_;
  QPoint pressPos_;
};

}  // namespace crucible::views
