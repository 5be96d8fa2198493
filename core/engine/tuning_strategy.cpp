// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/tuning_strategy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include "core/engine/parent_selection.h"

namespace crucible {
namespace {

using Position = std::vector<std::size_t>;  // index into each parameter's value list

Position positionOf(const std::vector<TunableParameter>& space, const ParameterPoint& p) {
  Position pos(space.size(), 0);
  for (std::size_t d = 0; d < space.size(); ++d) {
    auto it = p.find(space[d].name);
    if (it == p.end()) continue;  // a missing parameter sits at its first value
    const auto& values = space[d].values;
    auto v = std::find(values.begin(), values.end(), it->second);
    if (v == values.end())
      throw std::invalid_argument("tuning: parameter " + space[d].name + "=" + std::to_string(it->second) +
                                  " is not one of its legal values");
    pos[d] = static_cast<std::size_t>(v - values.begin());
  }
  return pos;
}

ParameterPoint pointOf(const std::vector<TunableParameter>& space, const Position& pos) {
  ParameterPoint p;
  for (std::size_t d = 0; d < space.size(); ++d) p[space[d].name] = space[d].values[pos[d]];
  return p;
}

double normalised(const TunableParameter& t, std::size_t index) {
  return t.values.size() > 1 ? static_cast<double>(index) / static_cast<double>(t.values.size() - 1) : 0.0;
}

std::vector<Position> neighbours(const std::vector<TunableParameter>& space, const Position& at) {
  std::vector<Position> out;
  for (std::size_t d = 0; d < space.size(); ++d) {
    if (at[d] > 0) {
      Position p = at;
      --p[d];
      out.push_back(p);
    }
    if (at[d] + 1 < space[d].values.size()) {
      Position p = at;
      ++p[d];
      out.push_back(p);
    }
  }
  return out;
}

Position randomPosition(const std::vector<TunableParameter>& space, std::mt19937_64& rng) {
  Position p(space.size());
  for (std::size_t d = 0; d < space.size(); ++d) p[d] = uniformIndex(rng, space[d].values.size());
  return p;
}

class Seen {
public:
  Seen(const std::vector<TunableParameter>& space, const std::vector<TuningObservation>& observed,
       const std::set<ParameterPoint>& excluded)
      : space_(space) {
    for (const auto& o : observed) seen_.insert(positionOf(space, o.point));
    for (const auto& p : excluded) seen_.insert(positionOf(space, p));
  }
  bool contains(const Position& p) const { return seen_.count(p) > 0; }
  void add(const Position& p) { seen_.insert(p); }
  std::size_t size() const { return seen_.size(); }
private:
  const std::vector<TunableParameter>& space_;
  std::set<Position> seen_;
};

std::vector<Position> randomUnseen(const std::vector<TunableParameter>& space, Seen& seen, std::mt19937_64& rng,
                                   std::size_t maxCount) {
  std::vector<Position> out;
  std::size_t total = spaceSize(space);
  // Rejection sampling while the space is sparse; enumeration would be
  // wasteful for large spaces and rejection slow for nearly full ones.
  for (std::size_t attempts = 0; out.size() < maxCount && seen.size() < total && attempts < 64 * maxCount + 64;
       ++attempts) {
    Position p = randomPosition(space, rng);
    if (seen.contains(p)) continue;
    seen.add(p);
    out.push_back(p);
  }
  if (out.size() < maxCount && seen.size() < total && total <= 65536) {
    // Nearly full: walk the space in order from a random start.
    std::size_t start = uniformIndex(rng, total);
    for (std::size_t k = 0; k < total && out.size() < maxCount; ++k) {
      std::size_t flat = (start + k) % total;
      Position p(space.size());
      for (std::size_t d = space.size(); d-- > 0;) {
        p[d] = flat % space[d].values.size();
        flat /= space[d].values.size();
      }
      if (seen.contains(p)) continue;
      seen.add(p);
      out.push_back(p);
    }
  }
  return out;
}

std::vector<Position> greedyUnseen(const std::vector<TunableParameter>& space, const ParameterPoint& base,
                                   const std::vector<TuningObservation>& observed, Seen& seen,
                                   std::mt19937_64& rng, std::size_t maxCount) {
  // Successful observations, fastest first; the base when nothing succeeded.
  std::vector<const TuningObservation*> ok;
  for (const auto& o : observed)
    if (o.timeUs > 0) ok.push_back(&o);
  std::stable_sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return a->timeUs < b->timeUs; });
  std::vector<Position> centres;
  for (auto* o : ok) centres.push_back(positionOf(space, o->point));
  if (centres.empty()) centres.push_back(positionOf(space, base));

  std::vector<Position> out;
  for (const Position& centre : centres) {
    if (!seen.contains(centre)) {  // the base itself, never measured
      seen.add(centre);
      out.push_back(centre);
    }
    std::vector<Position> around = neighbours(space, centre);
    std::shuffle(around.begin(), around.end(), rng);
    for (const Position& p : around) {
      if (out.size() >= maxCount) return out;
      if (seen.contains(p)) continue;
      seen.add(p);
      out.push_back(p);
    }
    if (out.size() >= maxCount) return out;
  }
  // Every neighbourhood explored: a local optimum; restart randomly.
  auto more = randomUnseen(space, seen, rng, maxCount - out.size());
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

// Solves A x = b (n x n, row-major) by Gaussian elimination with partial
// pivoting; false when singular.
bool solve(std::vector<double> a, std::vector<double> b, std::size_t n, std::vector<double>& x) {
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
    if (std::abs(a[pivot * n + col]) < 1e-12) return false;
    if (pivot != col) {
      for (std::size_t c = 0; c < n; ++c) std::swap(a[col * n + c], a[pivot * n + c]);
      std::swap(b[col], b[pivot]);
    }
    for (std::size_t r = col + 1; r < n; ++r) {
      double f = a[r * n + col] / a[col * n + col];
      for (std::size_t c = col; c < n; ++c) a[r * n + c] -= f * a[col * n + c];
      b[r] -= f * b[col];
    }
  }
  x.assign(n, 0);
  for (std::size_t r = n; r-- > 0;) {
    double s = b[r];
    for (std::size_t c = r + 1; c < n; ++c) s -= a[r * n + c] * x[c];
    x[r] = s / a[r * n + r];
  }
  return true;
}

std::vector<double> features(const std::vector<TunableParameter>& space, const Position& p) {
  std::vector<double> f{1.0};
  for (std::size_t d = 0; d < space.size(); ++d) {
    double x = normalised(space[d], p[d]);
    f.push_back(x);
    f.push_back(x * x);
  }
  return f;
}

std::vector<Position> modelUnseen(const std::vector<TunableParameter>& space, const ParameterPoint& base,
                                  const std::vector<TuningObservation>& observed, Seen& seen,
                                  std::mt19937_64& rng, std::size_t maxCount) {
  std::vector<std::pair<std::vector<double>, double>> rows;
  for (const auto& o : observed)
    if (o.timeUs > 0) rows.emplace_back(features(space, positionOf(space, o.point)), std::log(o.timeUs));
  const std::size_t n = 1 + 2 * space.size();
  // Too few points to fit a quadratic per parameter: explore locally first.
  if (rows.size() < space.size() + 2) return greedyUnseen(space, base, observed, seen, rng, maxCount);

  std::vector<double> ata(n * n, 0.0), atb(n, 0.0);
  for (const auto& [f, y] : rows) {
    for (std::size_t i = 0; i < n; ++i) {
      atb[i] += f[i] * y;
      for (std::size_t j = 0; j < n; ++j) ata[i * n + j] += f[i] * f[j];
    }
  }
  const double ridge = 1e-2;  // keeps the fit defined with few points; the intercept is not shrunk
  for (std::size_t i = 1; i < n; ++i) ata[i * n + i] += ridge;
  std::vector<double> w;
  if (!solve(ata, atb, n, w)) return greedyUnseen(space, base, observed, seen, rng, maxCount);

  // Candidate pool: the whole space when small, else random points plus the
  // neighbourhood of the best measured point.
  std::vector<Position> pool;
  std::size_t total = spaceSize(space);
  if (total <= 4096) {
    for (std::size_t flat = 0; flat < total; ++flat) {
      Position p(space.size());
      std::size_t rest = flat;
      for (std::size_t d = space.size(); d-- > 0;) {
        p[d] = rest % space[d].values.size();
        rest /= space[d].values.size();
      }
      if (!seen.contains(p)) pool.push_back(p);
    }
  } else {
    Seen poolSeen = seen;
    pool = randomUnseen(space, poolSeen, rng, 1024);
    auto local = greedyUnseen(space, base, observed, poolSeen, rng, 64);
    pool.insert(pool.end(), local.begin(), local.end());
  }
  std::vector<std::pair<double, std::size_t>> scored;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    auto f = features(space, pool[i]);
    double y = 0;
    for (std::size_t k = 0; k < n; ++k) y += w[k] * f[k];
    scored.emplace_back(y, i);
  }
  std::stable_sort(scored.begin(), scored.end());  // ties keep enumeration order: deterministic
  std::vector<Position> out;
  for (const auto& [y, i] : scored) {
    if (out.size() >= maxCount) break;
    seen.add(pool[i]);
    out.push_back(pool[i]);
  }
  return out;
}

}  // namespace

std::size_t spaceSize(const std::vector<TunableParameter>& space) {
  std::size_t total = 1;
  for (const auto& t : space) {
    if (t.values.empty()) return 0;
    if (total > std::numeric_limits<std::size_t>::max() / t.values.size())
      return std::numeric_limits<std::size_t>::max();
    total *= t.values.size();
  }
  return total;
}

std::vector<ParameterPoint> rankTuningPoints(TuningStrategy strategy, const std::vector<TunableParameter>& space,
                                             const ParameterPoint& base,
                                             const std::vector<TuningObservation>& observed,
                                             const std::set<ParameterPoint>& excluded, std::mt19937_64& rng,
                                             std::size_t maxCount) {
  if (space.empty() || spaceSize(space) == 0 || maxCount == 0) return {};
  Seen seen(space, observed, excluded);
  std::vector<Position> positions;
  switch (strategy) {
    case TuningStrategy::Random: positions = randomUnseen(space, seen, rng, maxCount); break;
    case TuningStrategy::GreedyLocal: positions = greedyUnseen(space, base, observed, seen, rng, maxCount); break;
    case TuningStrategy::ModelBased: positions = modelUnseen(space, base, observed, seen, rng, maxCount); break;
  }
  std::vector<ParameterPoint> out;
  for (const auto& p : positions) out.push_back(pointOf(space, p));
  return out;
}

}  // namespace crucible
