// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/lineage/lineage_layout.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace crucible::views {

namespace {

// Buchheim-Jünger-Leipert state over node indices; index n is the virtual super-root.
class TidyTree {
public:
  TidyTree(std::vector<std::vector<int>> children, double distance)
      : kids_(std::move(children)), d_(distance) {
    const std::size_t n = kids_.size();
    parent_.assign(n, -1);
    number_.assign(n, 0);
    prelim_.assign(n, 0);
    mod_.assign(n, 0);
    shift_.assign(n, 0);
    change_.assign(n, 0);
    thread_.assign(n, -1);
    ancestor_.resize(n);
    for (std::size_t v = 0; v < n; ++v) {
      ancestor_[v] = static_cast<int>(v);
      for (std::size_t i = 0; i < kids_[v].size(); ++i) {
        parent_[static_cast<std::size_t>(kids_[v][i])] = static_cast<int>(v);
        number_[static_cast<std::size_t>(kids_[v][i])] = static_cast<int>(i) + 1;
      }
    }
  }

  // Final x and depth of every node (root at depth 0).
  void run(int root, std::vector<double>& x, std::vector<int>& depth) {
    firstWalk(root);
    secondWalk(root, x, depth);
  }

private:
  int left(int v) const { return thread_[u(v)] >= 0 ? thread_[u(v)] : (kids_[u(v)].empty() ? -1 : kids_[u(v)].front()); }
  int right(int v) const { return thread_[u(v)] >= 0 ? thread_[u(v)] : (kids_[u(v)].empty() ? -1 : kids_[u(v)].back()); }
  int leftBrother(int v) const { return number_[u(v)] > 1 ? kids_[u(parent_[u(v)])][u(number_[u(v)] - 2)] : -1; }
  int leftmostSibling(int v) const { return parent_[u(v)] >= 0 ? kids_[u(parent_[u(v)])].front() : v; }
  static std::size_t u(int i) { return static_cast<std::size_t>(i); }

  void firstWalk(int root) {
    struct Frame { int v; std::size_t next; };
    std::vector<int> defaultAncestor(kids_.size(), -1);
    std::vector<Frame> stack{{root, 0}};
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < kids_[u(f.v)].size()) {
        const int w = kids_[u(f.v)][f.next++];
        if (defaultAncestor[u(f.v)] < 0) defaultAncestor[u(f.v)] = w;
        stack.push_back({w, 0});
        continue;
      }
      const int v = f.v;
      finish(v);
      stack.pop_back();
      if (!stack.empty()) {
        const int p = stack.back().v;
        defaultAncestor[u(p)] = apportion(v, defaultAncestor[u(p)]);
      }
    }
  }

  // All of v's children are placed: place v.
  void finish(int v) {
    const int w = leftBrother(v);
    if (kids_[u(v)].empty()) {
      prelim_[u(v)] = w >= 0 ? prelim_[u(w)] + d_ : 0;
      return;
    }
    executeShifts(v);
    const double mid = (prelim_[u(kids_[u(v)].front())] + prelim_[u(kids_[u(v)].back())]) / 2;
    if (w >= 0) {
      prelim_[u(v)] = prelim_[u(w)] + d_;
      mod_[u(v)] = prelim_[u(v)] - mid;
    } else {
      prelim_[u(v)] = mid;
    }
  }

  int apportion(int v, int defaultAncestor) {
    const int w = leftBrother(v);
    if (w < 0) return defaultAncestor;
    int vir = v, vor = v, vil = w, vol = leftmostSibling(v);
    double sir = mod_[u(v)], sor = mod_[u(v)], sil = mod_[u(vil)], sol = mod_[u(vol)];
    while (right(vil) >= 0 && left(vir) >= 0) {
      vil = right(vil);
      vir = left(vir);
      vol = left(vol);
      vor = right(vor);
      ancestor_[u(vor)] = v;
      const double shift = (prelim_[u(vil)] + sil) - (prelim_[u(vir)] + sir) + d_;
      if (shift > 0) {
        const int a = parent_[u(ancestor_[u(vil)])] == parent_[u(v)] ? ancestor_[u(vil)] : defaultAncestor;
        moveSubtree(a, v, shift);
        sir += shift;
        sor += shift;
      }
      sil += mod_[u(vil)];
      sir += mod_[u(vir)];
      sol += mod_[u(vol)];
      sor += mod_[u(vor)];
    }
    if (right(vil) >= 0 && right(vor) < 0) {
      thread_[u(vor)] = right(vil);
      mod_[u(vor)] += sil - sor;
    }
    if (left(vir) >= 0 && left(vol) < 0) {
      thread_[u(vol)] = left(vir);
      mod_[u(vol)] += sir - sol;
      defaultAncestor = v;
    }
    return defaultAncestor;
  }

  void moveSubtree(int wl, int wr, double shift) {
    const double subtrees = number_[u(wr)] - number_[u(wl)];
    change_[u(wr)] -= shift / subtrees;
    shift_[u(wr)] += shift;
    change_[u(wl)] += shift / subtrees;
    prelim_[u(wr)] += shift;
    mod_[u(wr)] += shift;
  }

  void executeShifts(int v) {
    double shift = 0, change = 0;
    const auto& ks = kids_[u(v)];
    for (auto it = ks.rbegin(); it != ks.rend(); ++it) {
      prelim_[u(*it)] += shift;
      mod_[u(*it)] += shift;
      change += change_[u(*it)];
      shift += shift_[u(*it)] + change;
    }
  }

  void secondWalk(int root, std::vector<double>& x, std::vector<int>& depth) {
    x.assign(kids_.size(), 0);
    depth.assign(kids_.size(), 0);
    struct Item { int v; double m; int depth; };
    std::vector<Item> stack{{root, 0, 0}};
    while (!stack.empty()) {
      const Item it = stack.back();
      stack.pop_back();
      x[u(it.v)] = prelim_[u(it.v)] + it.m;
      depth[u(it.v)] = it.depth;
      for (int w : kids_[u(it.v)]) stack.push_back({w, it.m + mod_[u(it.v)], it.depth + 1});
    }
  }

  std::vector<std::vector<int>> kids_;
  double d_;
  std::vector<int> parent_, number_, thread_, ancestor_;
  std::vector<double> prelim_, mod_, shift_, change_;
};

}  // namespace

LineageLayout layoutLineage(const std::vector<LineageInput>& input, double distance) {
  LineageLayout out;
  const int n = static_cast<int>(input.size());
  if (n == 0) return out;
  std::unordered_map<CandidateId, int> index;
  index.reserve(input.size());
  for (int i = 0; i < n; ++i) index.emplace(input[static_cast<std::size_t>(i)].id, i);

  // Primary parent: the first listed parent that is in the set.
  std::vector<int> treeParent(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    for (CandidateId p : input[static_cast<std::size_t>(i)].parents) {
      auto it = index.find(p);
      if (it != index.end() && it->second != i) {
        treeParent[static_cast<std::size_t>(i)] = it->second;
        break;
      }
    }
  }
  // A corrupt lineage could hold a cycle of primary parents: cut each cycle
  // at the node where it is found, so that node becomes a root.
  {
    std::vector<char> state(static_cast<std::size_t>(n), 0);  // 0 new, 1 on path, 2 done
    for (int s = 0; s < n; ++s) {
      std::vector<int> path;
      int v = s;
      while (v >= 0 && state[static_cast<std::size_t>(v)] == 0) {
        state[static_cast<std::size_t>(v)] = 1;
        path.push_back(v);
        v = treeParent[static_cast<std::size_t>(v)];
      }
      if (v >= 0 && state[static_cast<std::size_t>(v)] == 1) treeParent[static_cast<std::size_t>(path.back())] = -1;
      for (int p : path) state[static_cast<std::size_t>(p)] = 2;
    }
  }

  // Children in input order; the super-root (index n) adopts the roots.
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i < n; ++i) {
    const int p = treeParent[static_cast<std::size_t>(i)];
    children[static_cast<std::size_t>(p >= 0 ? p : n)].push_back(i);
  }
  std::vector<double> x;
  std::vector<int> depth;
  TidyTree(std::move(children), distance).run(n, x, depth);

  double minX = std::numeric_limits<double>::max();
  for (int i = 0; i < n; ++i) minX = std::min(minX, x[static_cast<std::size_t>(i)]);
  out.nodes.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto& node = out.nodes[static_cast<std::size_t>(i)];
    node.id = input[static_cast<std::size_t>(i)].id;
    node.x = x[static_cast<std::size_t>(i)] - minX;
    node.depth = depth[static_cast<std::size_t>(i)] - 1;  // the super-root is depth 0
    node.treeParent = treeParent[static_cast<std::size_t>(i)];
    out.width = std::max(out.width, node.x);
    out.maxDepth = std::max(out.maxDepth, node.depth);
    if (node.treeParent >= 0) out.edges.push_back({i, node.treeParent, true});
    for (CandidateId p : input[static_cast<std::size_t>(i)].parents) {
      auto it = index.find(p);
      if (it != index.end() && it->second != i && it->second != node.treeParent)
        out.edges.push_back({i, it->second, false});
    }
  }
  return out;
}

CollapsedSubtrees collapseSubtrees(const std::vector<LineageInput>& input, const std::set<CandidateId>& collapsed) {
  CollapsedSubtrees out;
  if (collapsed.empty()) return out;
  std::unordered_map<CandidateId, std::vector<CandidateId>> children;
  for (const auto& n : input)
    if (!n.parents.empty()) children[n.parents.front()].push_back(n.id);
  for (CandidateId root : collapsed) {
    // Depth-first over the first-parent children; a node already hidden by an
    // outer collapse is counted for each collapsed ancestor, as the user sees it.
    int count = 0;
    std::vector<CandidateId> stack = {root};
    while (!stack.empty()) {
      const CandidateId id = stack.back();
      stack.pop_back();
      const auto it = children.find(id);
      if (it == children.end()) continue;
      for (CandidateId child : it->second) {
        out.hidden.insert(child);
        ++count;
        stack.push_back(child);
      }
    }
    out.hiddenBelow[root] = count;
  }
  return out;
}

std::vector<LineageInput> filterLineage(const std::vector<LineageInput>& input,
                                        const std::function<bool(CandidateId)>& keep) {
  std::unordered_map<CandidateId, const LineageInput*> byId;
  for (const auto& n : input) byId.emplace(n.id, &n);
  std::unordered_map<CandidateId, bool> kept;
  for (const auto& n : input) kept.emplace(n.id, keep(n.id));

  // Nearest kept ancestor along primary parents (0 = none); memoized.
  std::unordered_map<CandidateId, CandidateId> nearest;
  auto nearestKept = [&](CandidateId start) -> CandidateId {
    std::vector<CandidateId> path;
    std::unordered_set<CandidateId> seen;
    CandidateId v = start, found = 0;
    while (v != 0 && byId.count(v) && seen.insert(v).second) {
      if (auto it = nearest.find(v); it != nearest.end()) { found = it->second; break; }
      if (kept[v]) { found = v; break; }
      path.push_back(v);
      const auto& ps = byId[v]->parents;
      v = ps.empty() ? 0 : ps.front();
    }
    for (CandidateId p : path) nearest[p] = found;
    return found;
  };

  std::vector<LineageInput> out;
  for (const auto& n : input) {
    if (!kept[n.id]) continue;
    LineageInput f{n.id, {}};
    for (CandidateId p : n.parents) {
      const CandidateId a = nearestKept(p);
      if (a != 0 && a != n.id && std::find(f.parents.begin(), f.parents.end(), a) == f.parents.end())
        f.parents.push_back(a);
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<CandidateId> primaryPathToRoot(const std::vector<LineageInput>& input, CandidateId id) {
  std::unordered_map<CandidateId, const LineageInput*> byId;
  for (const auto& n : input) byId.emplace(n.id, &n);
  std::vector<CandidateId> path;
  std::unordered_set<CandidateId> seen;
  while (id != 0 && byId.count(id) && seen.insert(id).second) {
    path.push_back(id);
    const auto& ps = byId[id]->parents;
    id = ps.empty() ? 0 : ps.front();
  }
  return path;
}

}  // namespace crucible::views
