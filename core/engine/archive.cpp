// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/archive.h"

#include <stdexcept>

namespace crucible {

Archive::Archive(RunId run, int islands) : run_(run) {
  if (islands < 1) throw std::invalid_argument("archive: islands must be at least 1");
  islands_.resize(static_cast<std::size_t>(islands));
}

void Archive::checkIsland(int island) const {
  if (island < 0 || island >= islands())
    throw std::invalid_argument("archive: island " + std::to_string(island) + " out of range (the run has " +
                                std::to_string(islands()) + ")");
}

void Archive::load(const std::vector<ArchiveCell>& cells) {
  for (const auto& c : cells) {
    checkIsland(c.island);
    islands_[static_cast<std::size_t>(c.island)][c.key] = c;
  }
}

Placement Archive::insert(int island, const std::string& key, CandidateId candidate, double fitness) {
  checkIsland(island);
  auto& cells = islands_[static_cast<std::size_t>(island)];
  auto it = cells.find(key);
  if (it == cells.end()) {
    ArchiveCell c;
    c.runId = run_;
    c.island = island;
    c.key = key;
    c.elite = candidate;
    c.fitness = fitness;
    cells.emplace(key, c);
    return Placement::NewCell;
  }
  if (fitness > it->second.fitness) {
    it->second.elite = candidate;
    it->second.fitness = fitness;
    return Placement::Replaced;
  }
  return Placement::Rejected;
}

const ArchiveCell* Archive::cell(int island, const std::string& key) const {
  checkIsland(island);
  const auto& cells = islands_[static_cast<std::size_t>(island)];
  auto it = cells.find(key);
  return it == cells.end() ? nullptr : &it->second;
}

ArchiveCell* Archive::cell(int island, const std::string& key) {
  return const_cast<ArchiveCell*>(static_cast<const Archive*>(this)->cell(island, key));
}

ArchiveCell* Archive::cellOf(CandidateId candidate) {
  for (auto& cells : islands_)
    for (auto& [key, c] : cells)
      if (c.elite == candidate) return &c;
  return nullptr;
}

void Archive::erase(int island, const std::string& key) {
  checkIsland(island);
  islands_[static_cast<std::size_t>(island)].erase(key);
}

std::vector<const ArchiveCell*> Archive::cells(int island) const {
  checkIsland(island);
  std::vector<const ArchiveCell*> out;
  for (const auto& [key, c] : islands_[static_cast<std::size_t>(island)]) out.push_back(&c);
  return out;
}

const ArchiveCell* Archive::best(int island) const {
  const ArchiveCell* b = nullptr;
  for (const ArchiveCell* c : cells(island))
    if (!b || c->fitness > b->fitness) b = c;
  return b;
}

const ArchiveCell* Archive::best() const {
  const ArchiveCell* b = nullptr;
  for (int i = 0; i < islands(); ++i)
    if (const ArchiveCell* c = best(i); c && (!b || c->fitness > b->fitness)) b = c;
  return b;
}

std::size_t Archive::size() const {
  std::size_t n = 0;
  for (const auto& cells : islands_) n += cells.size();
  return n;
}

}  // namespace crucible
