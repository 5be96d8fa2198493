// SPDX-License-Identifier: GPL-3.0-or-later
// Overloaded{lambda, lambda, ...}: one visitor for std::visit made of one
// lambda per alternative. A visitor without a catch-all (auto) lambda stops
// compiling when the variant gains an alternative, which is the point.
#pragma once

namespace crucible {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace crucible
