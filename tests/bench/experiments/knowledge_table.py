#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The knowledge ablation's table (issue 19, experiment 1), from the runs knowledge_ablation.sh
recorded: per target task, over seeds, the evaluations a cold run (fresh project) and a warm run
(fresh project + the phase 1 knowledge, imported) needed to reach 95% of the cold run's final best,
their ratio (target: at most 50%), and the final bests; a conclusion computed from those numbers.

  python3 knowledge_table.py --results OUT [--out table.md] [--curves curves.csv] [--reach 0.95]
                            [--measure final|gain]

--measure final (the issue's): the mark is reach x the cold final best. When the starting kernels
already lie within 5% of it, both arms reach that at their first evaluation and the ratio cannot
fall below 100%; --measure gain puts the mark at reach x the cold run's gain over the baseline
(1 + reach x (final - 1)), which measures the search after its start.
"""
import argparse
import collections
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import exp_common as ec  # noqa: E402

TARGET_RATIO = 0.5


def claim_counts(path):
    """{status: count} of a `kb list --json` file, None when it is missing or unreadable."""
    claims = ec.load_json(path, None)
    if not isinstance(claims, list):
        return None
    return dict(collections.Counter(str(c.get("status", "?")) for c in claims))


def counts_text(counts):
    if counts is None:
        return "not recorded"
    total = sum(counts.values())
    return f"{total} ({', '.join(f'{n} {s}' for s, n in sorted(counts.items())) or 'none'})"


def mark(final, reach, measure):
    """The best-so-far a run must reach: a share of the cold final best, or of its gain over the baseline."""
    if measure == "gain" and final > 1.0:
        return 1.0 + reach * (final - 1.0)
    return reach * final


def pairs(runs, reach, measure="final"):
    """Per target task, one entry per seed with a cold and a warm run that finished cleanly."""
    by = {}
    for r in runs:
        if r.arm in ("cold", "warm"):
            by.setdefault(r.task, {}).setdefault(r.seed, {})[r.arm] = r
    out = {}
    for task, seeds in sorted(by.items()):
        entries = []
        for seed, arms in sorted(seeds.items()):
            cold, warm = arms.get("cold"), arms.get("warm")
            if not (cold and warm and cold.ok and warm.ok and cold.curve):
                entries.append({"seed": seed, "missing": True})
                continue
            final = cold.curve[-1]
            target = mark(final, reach, measure)
            e_cold = ec.evaluations_to_reach(cold.curve, target)
            e_warm = ec.evaluations_to_reach(warm.curve, target) if final > 0 else None
            entries.append({"seed": seed, "missing": False, "cold_final": final,
                            "warm_final": warm.curve[-1] if warm.curve else 0.0, "e_cold": e_cold,
                            "e_warm": e_warm, "budget": warm.budget,
                            "ratio": (e_warm / e_cold) if (e_warm and e_cold) else math.inf,
                            "identical": cold.curve == warm.curve, "warm_key": warm.key})
        out[task] = entries
    return out


def median_or_inf(values):
    return statistics.median(values) if values else None


def fmt_evals(entries, key):
    values = [e[key] for e in entries]
    if not values:
        return "—"
    reached = [v for v in values if v is not None]
    text = ec.fmt_spread(ec.spread(reached), 0) if reached else "none"
    if len(reached) < len(values):
        text += f"; not reached in {len(values) - len(reached)} of {len(values)} (budget {entries[0]['budget']})"
    return text


def fmt_ratio(value):
    if value is None:
        return "—"
    return "not reached" if math.isinf(value) else f"{value:.0%}"


def conclusion(table, imported):
    judged = {t: v for t, v in table.items() if v["ratio"] is not None}
    if not judged:
        return "No target has a cold and a warm run that both finished: nothing to compare."
    met = [t for t, v in judged.items() if v["ratio"] <= TARGET_RATIO]
    ratios = [v["ratio"] for v in judged.values()]
    overall = statistics.median(ratios)
    text = (f"With the knowledge, the warm runs needed a median {fmt_ratio(overall)} of the cold runs' evaluations "
            f"to reach 95% of the cold final best (median over {len(judged)} target(s) of the per-target medians); "
            f"the target (at most {TARGET_RATIO:.0%}) is met on {len(met)} of {len(judged)} target(s)")
    if all(v["identical"] for v in judged.values()):
        text += "; every warm run repeated its cold run exactly: the imported knowledge changed nothing"
    if imported is not None and not imported.get("validated"):
        text += "; no validated claim was imported"
    return text + "."


def render(runs, results, reach, measure="final"):
    by_task = pairs(runs, reach, measure)
    phase1 = [r for r in runs if r.arm == "phase1"]
    exported = claim_counts(Path(results, "kb-phase1.json"))
    imported_files = sorted(Path(results, "runs").glob("*/kb-imported.json"))
    imported = claim_counts(imported_files[0]) if imported_files else None
    extra = [
        f"- phase 1 (one project, knowledge accumulating): "
        + (", ".join(f"{r.task} ({r.evaluations} evaluations, best {r.final_best:.3f}x"
                     f"{'' if r.ok else ', did not finish cleanly'})" for r in phase1) or "not recorded"),
        f"- claims after phase 1: {counts_text(exported)}; in a warm project after `kb import`: "
        f"{counts_text(imported)}",
        f"- phase 2: per target and seed a cold run (fresh project) and a warm run (fresh project + `kb import`), "
        f"same seed and budget; reach: the first evaluation whose best-so-far is at least "
        + (f"{reach:.0%} of the cold run's final best" if measure == "final" else
           f"the baseline plus {reach:.0%} of the cold run's gain over it (1 + {reach} x (final - 1))")
        + "; warm/cold: the median over seeds of the ratio of those counts",
    ]
    lines = ec.header_lines("Knowledge ablation: cold against warm runs (issue 19)", runs=runs, results=results,
                            extra=extra)
    lines += ["| target | seeds | cold final best | warm final best | cold: evaluations to reach | "
              "warm: evaluations to reach | warm / cold | at most 50%? |",
              "|---|---|--:|--:|--:|--:|--:|---|"]
    table = {}
    for task, entries in by_task.items():
        good = [e for e in entries if not e["missing"]]
        ratio = median_or_inf([e["ratio"] for e in good]) if good else None
        table[task] = {"ratio": ratio, "identical": bool(good) and all(e["identical"] for e in good)}
        missing = [str(e["seed"]) for e in entries if e["missing"]]
        seeds = ", ".join(str(e["seed"]) for e in good) + (f" (incomplete: {', '.join(missing)})" if missing else "")
        verdict = "—" if ratio is None else ("yes" if ratio <= TARGET_RATIO else "no")
        lines.append("| " + " | ".join([
            task, seeds or "none", ec.fmt_spread(ec.spread([e["cold_final"] for e in good]), 3, "x"),
            ec.fmt_spread(ec.spread([e["warm_final"] for e in good]), 3, "x"), fmt_evals(good, "e_cold"),
            fmt_evals(good, "e_warm"), fmt_ratio(ratio), verdict]) + " |")
    lines += ["", "**" + conclusion(table, imported) + "**", ""]
    at_start = [e for entries in by_task.values() for e in entries if not e["missing"] and e["e_cold"] == 1]
    judged = [e for entries in by_task.values() for e in entries if not e["missing"]]
    if at_start:
        lines += [f"Note: in {len(at_start)} of {len(judged)} seed(s) the cold run reached the mark at its first "
                  "evaluation (a starting kernel): there the knowledge cannot lower the count"
                  + (" (--measure gain measures the search after the start)." if measure == "final" else "."), ""]
    lines += ec.failed_run_lines(runs)
    return "\n".join(lines), table




def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--results", required=True, help="the driver's OUT folder")
    p.add_argument("--out", help="write the markdown table here as well")
    p.add_argument("--curves", help="write every run's best-so-far curve here (CSV)")
    p.add_argument("--reach", type=float, default=0.95, help="share of the cold final best to reach (default 0.95)")
    p.add_argument("--measure", choices=("final", "gain"), default="final",
                   help="final: reach x the cold final best (the issue's); gain: reach x its gain over the baseline")
    args = p.parse_args(argv)
    runs = ec.load_runs(args.results)
    if not runs:
        print(f"knowledge_table: no runs recorded under {args.results}/runs", file=sys.stderr)
        return 2
    text, _ = render(runs, args.results, args.reach, args.measure)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    if args.curves:
        ec.write_curves(runs, args.curves, "arm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
