#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The search ablation's table (issue 19, experiment 2), from the runs search_ablation.sh recorded:
per task and search, the median and min-max over seeds of the final best speedup over the task's
baseline, the median best at half the budget, and whether MAP-Elites is ahead of hill climbing and
of random sampling; a conclusion computed from those numbers. Optionally every run's best-so-far
curve as CSV (task, search, seed, evaluation, best).

  python3 search_table.py --results OUT [--out table.md] [--curves curves.csv] [--tie 0.01]
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import exp_common as ec  # noqa: E402

MAP_ELITES, HILL_CLIMB, RANDOM = "map-elites", "hill-climb", "random"


def verdict(ours, theirs, tie):
    """'ahead' / 'behind' / 'tie' of two medians, relative difference above tie; None without data."""
    if ours is None or theirs is None or theirs <= 0:
        return None, None
    diff = ours / theirs - 1.0
    if diff > tie:
        return "ahead", diff
    if diff < -tie:
        return "behind", diff
    return "tie", diff


def verdict_text(v):
    word, diff = v
    return "—" if word is None else f"{word} ({ec.percent(diff)})"


def summarise(runs, tie):
    """{task: {search: {...}}} and the per-task verdicts, from the runs that finished cleanly."""
    tasks = {}
    for r in runs:
        tasks.setdefault(r.task, {}).setdefault(r.arm, []).append(r)
    summary = {}
    for task, by_search in sorted(tasks.items()):
        row = {}
        for search, rs in by_search.items():
            good = [r for r in rs if r.ok]
            # A run that ended before half its budget keeps its last best (it cannot improve after).
            half = [r.curve[min(len(r.curve), max(1, r.budget // 2)) - 1] if r.curve else None for r in good]
            row[search] = {
                "final": ec.spread([r.final_best for r in good]),
                "half": ec.spread(half),
                "evaluations": ec.spread([r.evaluations for r in good]),
                "seeds": sorted(r.seed for r in good),
                "failed": sorted(r.seed for r in rs if not r.ok),
            }
        median = lambda s: row.get(s, {}).get("final")[0] if row.get(s, {}).get("final") else None  # noqa: E731
        summary[task] = {"searches": row,
                         "vs_hill_climb": verdict(median(MAP_ELITES), median(HILL_CLIMB), tie),
                         "vs_random": verdict(median(MAP_ELITES), median(RANDOM), tie)}
    return summary


def conclusion(summary, tie):
    compared = [t for t, s in summary.items() if s["vs_hill_climb"][0] is not None]
    if not compared:
        return "No task has finished runs of both MAP-Elites and hill climbing: nothing to compare."
    ahead = [t for t in compared if summary[t]["vs_hill_climb"][0] == "ahead"]
    behind = [t for t in compared if summary[t]["vs_hill_climb"][0] == "behind"]
    with_random = [t for t, s in summary.items() if s["vs_random"][0] is not None]
    ahead_random = [t for t in with_random if summary[t]["vs_random"][0] == "ahead"]
    diffs = [summary[t]["vs_hill_climb"][1] for t in compared]
    most = len(ahead) > len(compared) / 2
    text = (f"MAP-Elites is ahead of hill climbing on {len(ahead)} of {len(compared)} tasks "
            f"(behind on {len(behind)}, within {tie:.0%} on {len(compared) - len(ahead) - len(behind)}; median "
            f"difference of the medians {ec.percent(statistics.median(diffs))})")
    if with_random:
        text += f" and ahead of random sampling on {len(ahead_random)} of {len(with_random)}"
    text += ": the target (ahead of hill climbing on most tasks) is " + (
        "met." if most else f"missed by {len(compared) // 2 + 1 - len(ahead)} task(s).")
    return text


def render(runs, results, tie):
    summary = summarise(runs, tie)
    searches = [s for s in (MAP_ELITES, HILL_CLIMB, RANDOM) if any(r.arm == s for r in runs)]
    searches += sorted({r.arm for r in runs} - set(searches))
    lines = ec.header_lines(
        "Search ablation: MAP-Elites, hill climbing, random sampling (issue 19)", results, runs,
        ["- each run: a fresh project, `crucible-cli run --search S --seed N --budget B` with the template "
         "proposer; the same seeds' starting kernels for every search",
         "- final best: the run's best speedup over the task's baseline after its budget; median [min–max] over "
         "seeds; half budget: the best-so-far after half the budget's evaluations",
         f"- ahead / behind: MAP-Elites' median final best against the other's, a difference within "
         f"{tie:.0%} is a tie"])
    head = "| task | " + " | ".join(f"{s}: final best | {s}: at half budget | {s}: evaluations" for s in searches)
    head += " | MAP-Elites vs hill climbing | MAP-Elites vs random |"
    lines += [head, "|---|" + "--:|--:|--:|" * len(searches) + "---|---|"]
    for task, s in summary.items():
        cells = [task]
        for search in searches:
            entry = s["searches"].get(search)
            if not entry:
                cells += ["no run", "", ""]
                continue
            failed = f" ({len(entry['failed'])} failed)" if entry["failed"] else ""
            cells += [ec.fmt_spread(entry["final"], 3, "x") + failed, ec.fmt_spread(entry["half"], 3, "x"),
                      ec.fmt_spread(entry["evaluations"], 0)]
        cells += [verdict_text(s["vs_hill_climb"]), verdict_text(s["vs_random"])]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "**" + conclusion(summary, tie) + "**", ""]
    lines += ec.failed_run_lines(runs, "Runs that did not finish cleanly (left out of the medians):")
    short = [r for r in runs if r.ok and r.evaluations < r.budget]
    if short:
        lines += ["Runs that ended before their budget (counted with what they reached):", ""]
        lines += [f"- {r.key}: {r.evaluations} of {r.budget} evaluations: {r.finish_reason or '?'}" for r in short]
        lines.append("")
    return "\n".join(lines), summary




def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--results", required=True, help="the driver's OUT folder (runs/*/meta.json)")
    p.add_argument("--out", help="write the markdown table here as well")
    p.add_argument("--curves", help="write every run's best-so-far curve here (CSV)")
    p.add_argument("--tie", type=float, default=0.01, help="relative difference counted as a tie (default 0.01)")
    args = p.parse_args(argv)
    runs = ec.load_runs(args.results)
    if not runs:
        print(f"search_table: no runs recorded under {args.results}/runs", file=sys.stderr)
        return 2
    text, _ = render(runs, args.results, args.tie)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    if args.curves:
        ec.write_curves(runs, args.curves, "search")
    return 0


if __name__ == "__main__":
    sys.exit(main())
