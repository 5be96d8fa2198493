#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A task spec at other axes, as a new task: `reshape_task.py SPEC M=4096,N=8192 OUTDIR` writes
OUTDIR/<name>.json, the name's shape suffix replaced by the new axes ("softmax_f32_4096x8192"), and
prints its path. Only axes the spec has may be set; every other field is kept (the launch rules and
formulas are expressions over the axes)."""
import json
import re
import sys
from pathlib import Path


def parse_axes(text):
    axes = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, _, value = item.partition("=")
        if not name or not value.isdigit() or int(value) <= 0:
            raise ValueError(f"axes '{text}': expected NAME=POSITIVE_INTEGER,... (got '{item}')")
        axes[name] = int(value)
    if not axes:
        raise ValueError("no axes given")
    return axes


def reshape(spec, axes):
    unknown = sorted(set(axes) - set(spec["axes"]))
    if unknown:
        raise ValueError(f"task {spec['name']} has no axis {', '.join(unknown)} (its axes: "
                         f"{', '.join(spec['axes'])})")
    out = dict(spec)
    out["axes"] = {k: axes.get(k, v) for k, v in spec["axes"].items()}
    shape = "x".join(str(v) for v in out["axes"].values())
    base = re.sub(r"_[0-9x]+$", "", spec["name"])
    out["name"] = f"{base}_{shape}"
    if out["name"] == spec["name"]:
        raise ValueError(f"axes {axes} give {spec['name']} its own shape again")
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        spec = reshape(json.loads(Path(argv[0]).read_text()), parse_axes(argv[1]))
    except (OSError, ValueError, KeyError) as e:
        print(f"reshape_task: {e}", file=sys.stderr)
        return 2
    path = Path(argv[2], spec["name"] + ".json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(spec, indent=2) + "\n")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
