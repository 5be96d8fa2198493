// SPDX-License-Identifier: GPL-3.0-or-later
// What every child Crucible spawns (workers, compute-sanitizer) starts with:
// default signal handling and nothing blocked, whatever the engine ignores or
// blocks (a GUI or a CLI that traps Ctrl-C must not pass that on).
#pragma once
#include <signal.h>
#include <spawn.h>

namespace crucible {

// Sets the defaults on `attr`; returns the posix_spawnattr_setflags flags that
// make them apply (a caller adds its own before setting them).
inline short defaultSignalsOnSpawn(posix_spawnattr_t& attr) {
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  return POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
}

}  // namespace crucible
