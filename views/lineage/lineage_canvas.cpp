// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/lineage/lineage_canvas.h"
#include <algorithm>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace crucible::views {

LineageCanvasItem::LineageCanvasItem() {
  // Needed for exposedRect: paint only what is visible.
  setFlag(QGraphicsItem::ItemUsesExtendedStyleOption);
}

void LineageCanvasItem::setGraph(std::vector<CanvasNode> nodes, std::vector<CanvasEdge> edges) {
  prepareGeometryChange();
  nodes_ = std::move(nodes);
  edges_ = std::move(edges);
  QRectF r;
  for (const auto& n : nodes_) r |= QRectF(n.pos.x() - 1, n.pos.y() - 1, 2, 2);
  // Room for the node, its rings and the label below it.
  bounds_ = nodes_.empty() ? QRectF() : r.adjusted(-3 * kRadius, -3 * kRadius, 3 * kRadius, 4 * kRadius);
  update();
}

void LineageCanvasItem::setSelectedId(CandidateId id) {
  selected_ = id;
  update();
}

void LineageCanvasItem::setMarkedIds(std::vector<CandidateId> ids) {
  marked_ = std::move(ids);
  update();
}

int LineageCanvasItem::nodeAt(const QPointF& p) const {
  int best = -1;
  double bestD2 = (kRadius + 2) * (kRadius + 2);
  for (int i = 0; i < static_cast<int>(nodes_.size()); ++i) {
    const QPointF d = nodes_[static_cast<std::size_t>(i)].pos - p;
    const double d2 = d.x() * d.x() + d.y() * d.y();
    if (d2 <= bestD2) {
      bestD2 = d2;
      best = i;
    }
  }
  return best;
}

int LineageCanvasItem::indexOf(CandidateId id) const {
  for (int i = 0; i < static_cast<int>(nodes_.size()); ++i)
    if (nodes_[static_cast<std::size_t>(i)].id == id) return i;
  return -1;
}

void LineageCanvasItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const QRectF exposed = option->exposedRect.adjusted(-2 * kRadius, -2 * kRadius, 2 * kRadius, 2 * kRadius);
  const double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
  const bool detailed = lod > 0.45;
  painter->setRenderHint(QPainter::Antialiasing, detailed);

  // Edges: tree edges thin grey, crossover parents dashed, the best path thick.
  QPen treePen(QColor(150, 150, 150), 0);
  QPen crossPen(QColor(120, 120, 200), 0, Qt::DashLine);
  QPen bestPen(QColor(230, 120, 0), 3);
  for (const auto& e : edges_) {
    const QPointF a = nodes_[static_cast<std::size_t>(e.parent)].pos;
    const QPointF b = nodes_[static_cast<std::size_t>(e.child)].pos;
    if (!exposed.intersects(QRectF(a, b).normalized().adjusted(-1, -1, 1, 1))) continue;
    painter->setPen(e.onBestPath ? bestPen : (e.primary ? treePen : crossPen));
    if (e.primary) {
      // Elbow: down from the parent, across, down to the child.
      const double midY = (a.y() + b.y()) / 2;
      const QPointF pts[4] = {a, {a.x(), midY}, {b.x(), midY}, b};
      painter->drawPolyline(pts, 4);
    } else {
      painter->drawLine(a, b);
    }
  }

  const QFont font = painter->font();
  QFont small = font;
  small.setPointSizeF(7);
  painter->setFont(small);
  const QPen elitePen(Qt::black, 2);
  const QPen plainPen(QColor(60, 60, 60), 0);
  for (const auto& n : nodes_) {
    if (!exposed.contains(n.pos)) continue;
    const QRectF box(n.pos.x() - kRadius, n.pos.y() - kRadius, 2 * kRadius, 2 * kRadius);
    painter->setBrush(n.fill);
    painter->setPen(n.elite ? elitePen : plainPen);
    if (n.reference) painter->drawRect(box);
    else painter->drawEllipse(box);
    if (n.sealed) {
      painter->setBrush(Qt::NoBrush);
      painter->setPen(QPen(QColor(212, 160, 23), 3));
      painter->drawEllipse(box.adjusted(-4, -4, 4, 4));
    }
    if (n.onBestPath) {
      painter->setBrush(Qt::NoBrush);
      painter->setPen(QPen(QColor(230, 120, 0), 2));
      painter->drawEllipse(box.adjusted(-2, -2, 2, 2));
    }
    if (n.id == selected_) {
      painter->setBrush(Qt::NoBrush);
      painter->setPen(QPen(QColor(0, 90, 255), 3));
      painter->drawEllipse(box.adjusted(-7, -7, 7, 7));
    }
    if (std::find(marked_.begin(), marked_.end(), n.id) != marked_.end()) {
      painter->setBrush(Qt::NoBrush);
      painter->setPen(QPen(QColor(0, 90, 255), 2, Qt::DashLine));
      painter->drawEllipse(box.adjusted(-10, -10, 10, 10));
    }
    if (detailed && !n.label.isEmpty()) {
      painter->setPen(Qt::black);
      painter->drawText(QRectF(n.pos.x() - 3 * kRadius, n.pos.y() + kRadius, 6 * kRadius, 2 * kRadius),
                        Qt::AlignHCenter | Qt::AlignTop, n.label);
    }
  }
  painter->setFont(font);
}

LineageGraphicsView::LineageGraphicsView(QWidget* parent) : QGraphicsView(parent) {
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setRenderHint(QPainter::Antialiasing);
}

void LineageGraphicsView::wheelEvent(QWheelEvent* event) {
  const double factor = std::pow(1.0015, event->angleDelta().y());
  scale(factor, factor);
  event->accept();
}

void LineageGraphicsView::mousePressEvent(QMouseEvent* event) {
  pressPos_ = event->position().toPoint();
  QGraphicsView::mousePressEvent(event);
}

void LineageGraphicsView::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  // A click, not the end of a pan.
  if (event->button() != Qt::LeftButton || !canvas_) return;
  if ((event->position().toPoint() - pressPos_).manhattanLength() > 4) return;
  const int i = canvas_->nodeAt(mapToScene(event->position().toPoint()));
  if (i < 0) return;
  const CandidateId id = canvas_->nodes()[static_cast<std::size_t>(i)].id;
  if (event->modifiers() & Qt::ControlModifier)
    emit nodeCtrlClicked(id);
  else
    emit nodeClicked(id);
}

bool LineageGraphicsView::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip && canvas_ && toolTip_) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int i = canvas_->nodeAt(mapToScene(help->pos()));
    if (i >= 0) QToolTip::showText(help->globalPos(), toolTip_(canvas_->nodes()[static_cast<std::size_t>(i)].id), this);
    else QToolTip::hideText();
    return true;
  }
  return QGraphicsView::viewportEvent(event);
}

}  // namespace crucible::views
