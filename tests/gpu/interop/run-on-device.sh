#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The device check of the PyTorch export (issue 22): exports the best kernel of
# every task of the sample project (recorded on an H200) as PyTorch extensions,
# builds them with the device's PyTorch and compares each with its task's
# baseline on fresh inputs (check_torch_extension.py).
#   tests/gpu/interop/run-on-device.sh BIN_DIR [PROJECT]
# BIN_DIR holds crucible-cli (a carried headless build). Output goes to stdout
# and, with $OUT set, to $OUT/interop.log.
set -uo pipefail
cd "$(dirname "$0")/../../.."
bin=${1:?usage: $0 BIN_DIR [PROJECT]}
project=${2:-resources/sample/sample.crucible}
work=$(mktemp -d /tmp/crucible-interop.XXXXXX)
trap 'rm -rf "$work"' EXIT
log=${OUT:-$work}/interop.log
mkdir -p "$(dirname "$log")"
{
  echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1)"
  cp "$project" "$work/project.crucible"
  CRUCIBLE_TASKS_DIR=$PWD/resources/tasks "$bin/crucible-cli" best --project "$work/project.crucible" \
    --export "$work/torch" --format torch
  # -X faulthandler: a crash inside an extension prints the Python stack that reached it.
  TORCH_EXTENSIONS_DIR=$work/build python3 -X faulthandler tests/gpu/interop/check_torch_extension.py "$work/torch"
} 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
