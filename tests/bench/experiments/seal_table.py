#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The seal-and-continue table (issue 19, experiment 3), from the runs seal_and_continue.sh recorded:
per task, what it took to seal (runs, evaluations, the seal's speedup over the baseline), and whether
the run that started from the seal beat it within its budget and by how much, sealed again, or why
not; a conclusion computed from those numbers.

  python3 seal_table.py --results OUT [--out table.md]
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import exp_common as ec  # noqa: E402


def seal_list(path):
    seals = ec.load_json(path, None)
    return seals if isinstance(seals, list) else None


def task_rows(runs, results):
    rows = {}
    for r in runs:
        rows.setdefault(r.task, {"evolve": [], "continue": None})
        if r.arm == "evolve":
            rows[r.task]["evolve"].append(r)
        elif r.arm == "continue":
            rows[r.task]["continue"] = r
    out = []
    for task, row in sorted(rows.items()):
        evolve = sorted(row["evolve"], key=lambda r: r.key)
        cont = row["continue"]
        # The seals the continuing run started from; without one, what phase 1 left (seals-<task>.json).
        before = seal_list(Path(results, "runs", cont.key, "seals-before.json")) if cont else None
        if before is None:
            before = seal_list(Path(results, f"seals-{task}.json"))
        after = seal_list(Path(results, "runs", cont.key, "seals-after.json")) if cont else None
        entry = {"task": task, "evolve_runs": len(evolve), "evolve_evaluations": sum(r.evaluations for r in evolve),
                 "evolve_best": max((r.final_best for r in evolve), default=0.0),
                 "evolve_failed": next((r for r in evolve if not r.ok), None),
                 "seal": max(before, key=lambda s: s.get("speedup", 0)) if before else None,
                 "continue": cont, "new_seals": (len(after) - len(before)) if (after is not None and before) else None,
                 "after": after}
        if cont is None and evolve and not any(r.ok for r in evolve):
            entry["outcome"] = "phase 1 failed"
        elif cont is None:
            entry["outcome"] = "not sealed" if not before else "no continuing run"
        elif not cont.ok:
            entry["outcome"] = "failed"
        else:
            entry["gain"] = cont.final_best - 1.0   # the continuing run's reference is the seal
            entry["outcome"] = "beat" if cont.final_best > 1.0 else "did not beat"
        out.append(entry)
    return out


def why_not(entry):
    cont = entry["continue"]
    valid = sum(1 for c in ec.evaluated(cont.candidates) if c.get("status") == "valid")
    reason = cont.finish_reason or "no finish reason recorded"
    return (f"best {cont.final_best:.3f}x the seal after {cont.evaluations} of {cont.budget} evaluations "
            f"({valid} valid); the run ended: {reason}")


def outcome_text(entry):
    cont = entry["continue"]
    if entry["outcome"] == "not sealed":
        return (f"no seal after {entry['evolve_runs']} run(s), {entry['evolve_evaluations']} evaluations "
                f"(best {entry['evolve_best']:.3f}x the baseline): nothing to continue from")
    if entry["outcome"] == "phase 1 failed":
        failed = entry["evolve_failed"]
        return f"every phase 1 run failed ({failed.key}: exit {failed.rc}, {failed.run_status}): nothing sealed"
    if entry["outcome"] == "no continuing run":
        return "sealed, but no continuing run was recorded (deadline?)"
    if entry["outcome"] == "failed":
        return f"the continuing run did not finish cleanly (exit {cont.rc}, {cont.run_status}): {cont.finish_reason}"
    if entry["outcome"] == "beat":
        sealed = entry["new_seals"]
        again = (f"; sealed again ({sealed} new seal(s))" if sealed else
                 "; not sealed again (a seal needs the seal margin and clean sanitizers)" if sealed == 0 else "")
        return f"beat the seal by {ec.percent(entry['gain'])} in {cont.evaluations} evaluations{again}"
    return "did not beat the seal: " + why_not(entry)


def conclusion(entries):
    tried = [e for e in entries if e["outcome"] in ("beat", "did not beat")]
    if not tried:
        return "No task got as far as a finished run from its seal: nothing to conclude."
    beat = [e for e in tried if e["outcome"] == "beat"]
    text = f"The run from the seal beat it on {len(beat)} of {len(tried)} task(s)"
    if beat:
        text += f" (median gain {ec.percent(statistics.median(e['gain'] for e in beat))})"
    unsealed = [e for e in entries if e["outcome"] == "not sealed"]
    if unsealed:
        text += f"; {len(unsealed)} task(s) were never sealed"
    return text + "."


def render(runs, results):
    entries = task_rows(runs, results)
    lines = ec.header_lines(
        "Seal and continue (issue 19)", results, runs,
        ["- phase 1: runs of the task in one project until it has a seal; phase 2: one run from the seal "
         "(sealStart from-seal: the seal is the reference, its kernel enters the archive)",
         "- speedups of phase 2 are over the seal (re-timed as the run's reference); > 1.000x beats it"])
    lines += ["| task | phase 1: runs / evaluations | seal: speedup over baseline | from the seal: best | outcome |",
              "|---|--:|--:|--:|---|"]
    for e in entries:
        seal = f"{e['seal']['speedup']:.3f}x (seal {e['seal'].get('seal')})" if e["seal"] else "—"
        cont = e["continue"]
        best = f"{cont.final_best:.3f}x the seal" if cont and cont.ok else "—"
        lines.append(f"| {e['task']} | {e['evolve_runs']} / {e['evolve_evaluations']} | {seal} | {best} | "
                     f"{outcome_text(e)} |")
    lines += ["", "**" + conclusion(entries) + "**", ""]
    return "\n".join(lines), entries


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--results", required=True, help="the driver's OUT folder")
    p.add_argument("--out", help="write the markdown table here as well")
    args = p.parse_args(argv)
    runs = ec.load_runs(args.results)
    if not runs:
        print(f"seal_table: no runs recorded under {args.results}/runs", file=sys.stderr)
        return 2
    text, _ = render(runs, args.results)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
