#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Slurm dispatcher tests (ctest label `slurm`) against a private one-node
# cluster that packaging/slurm-test-cluster.sh starts here and stops after,
# whatever the tests do. Needs slurmctld, slurmd, slurm-client and munge
# (packaging/debian-packages.txt) and a build in build/default.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
exec bash packaging/slurm-test-cluster.sh run ctest --test-dir build/default -L slurm --output-on-failure "$@"
