#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the project_open seeds of the fuzz corpus: one small valid project
cut from resources/sample/sample.crucible, and damaged copies of it (the kinds
of damage issue 13 tried: truncation, a wrong application_id, a newer schema,
random bytes, hostile strings in stored JSON). Deterministic: run it again
and the files come out the same.

    python3 tests/fuzz/make_project_corpus.py   # from the repository root
"""
import json
import os
import random
import shutil
import sqlite3
import struct
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "resources", "sample", "sample.crucible")
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus", "project_open")

KEEP_TASK, KEEP_RUN, KEEP_CANDIDATES = 1, 1, (1, 2, 3)


def small_valid_project(path):
    """One task, one run, three candidates; 512-byte pages so the file stays small."""
    shutil.copy(SAMPLE, path)
    db = sqlite3.connect(path)
    keep = "(%s)" % ",".join(str(c) for c in KEEP_CANDIDATES)
    for sql in [
        f"DELETE FROM lineage WHERE child_id NOT IN {keep} OR parent_id NOT IN {keep}",
        f"DELETE FROM candidate_sources WHERE candidate_id NOT IN {keep}",
        f"DELETE FROM archive_cells WHERE run_id != {KEEP_RUN} OR elite_id NOT IN {keep}",
        f"DELETE FROM knowledge_evidence WHERE candidate_id NOT IN {keep}",
        f"DELETE FROM knowledge WHERE id NOT IN (SELECT knowledge_id FROM knowledge_evidence) AND id > 3",
        f"DELETE FROM seals WHERE candidate_id NOT IN {keep}",
        f"DELETE FROM tuning_cache WHERE candidate_id NOT IN {keep}",
        f"DELETE FROM review_verdicts WHERE run_id != {KEEP_RUN}",
        f"DELETE FROM candidates WHERE id NOT IN {keep}",
        f"DELETE FROM engine_log WHERE run_id IS NOT NULL AND run_id != {KEEP_RUN} OR id > 12",
        f"DELETE FROM meta_prompts WHERE run_id IS NOT NULL AND run_id != {KEEP_RUN}",
        f"DELETE FROM run_candidate_counts WHERE run_id != {KEEP_RUN}",
        f"UPDATE runs SET reference_candidate = NULL WHERE reference_candidate NOT IN {keep}",
        f"DELETE FROM runs WHERE id != {KEEP_RUN}",
        f"DELETE FROM tasks WHERE id != {KEEP_TASK}",
        "DELETE FROM sqlite_stat1",
    ]:
        db.execute(sql)
    # Timing keeps every raw sample (~60 KB a candidate): a few keep the shape.
    for cid, timing in db.execute("SELECT id, timing_json FROM candidates WHERE timing_json IS NOT NULL").fetchall():
        db.execute("UPDATE candidates SET timing_json = ? WHERE id = ?", (json.dumps(shortened(json.loads(timing))), cid))
    db.commit()
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("PRAGMA page_size = 512")
    db.execute("VACUUM")
    db.close()
    with open(path, "rb") as f:
        return f.read()


def shortened(value, longest=8):
    """The JSON value with every array cut to its first `longest` elements."""
    if isinstance(value, list):
        return [shortened(v, longest) for v in value[:longest]]
    if isinstance(value, dict):
        return {k: shortened(v, longest) for k, v in value.items()}
    return value


def patched(data, offset, raw):
    return data[:offset] + raw + data[offset + len(raw):]


def with_sql(valid, statements):
    """The valid project changed by SQL statements (hostile content in a well-formed file)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.crucible")
        with open(path, "wb") as f:
            f.write(valid)
        db = sqlite3.connect(path)
        for sql, args in statements:
            db.execute(sql, args)
        db.commit()
        db.execute("VACUUM")
        db.close()
        with open(path, "rb") as f:
            return f.read()


def hostile_spec(**changes):
    with open(os.path.join(ROOT, "resources", "tasks", "softmax_f32_1024x1024.json")) as f:
        spec = json.load(f)
    for key, value in changes.items():
        spec[key] = value
    return json.dumps(spec)


def main():
    rng = random.Random(13)
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if not name.startswith(("crash-", "slow_")):  # what the fuzzers found stays
            os.remove(os.path.join(OUT, name))
    with tempfile.TemporaryDirectory() as tmp:
        valid = small_valid_project(os.path.join(tmp, "valid.crucible"))
    page = 512
    seeds = {
        "valid.crucible": valid,
        # Header byte 18/19 = 2: WAL mode, as the store writes projects.
        "valid_wal_mode.crucible": patched(valid, 18, b"\x02\x02"),
        "truncated_half.crucible": valid[: len(valid) // 2],
        "truncated_one_page.crucible": valid[:page],
        "truncated_header.crucible": valid[:60],
        "empty.crucible": b"",
        "wrong_application_id.crucible": patched(valid, 68, struct.pack(">I", 0x12345678)),
        "no_application_id.crucible": patched(valid, 68, struct.pack(">I", 0)),
        "newer_schema.crucible": patched(valid, 60, struct.pack(">I", 999)),
        "negative_schema.crucible": patched(valid, 60, struct.pack(">i", -1)),
        "bad_page_size.crucible": patched(valid, 16, b"\x03\x00"),
        "huge_page_count.crucible": patched(valid, 28, struct.pack(">I", 0x7FFFFFFF)),
        "random_bytes.bin": bytes(rng.getrandbits(8) for _ in range(4096)),
        "sqlite_header_random_body.crucible": valid[:100] + bytes(rng.getrandbits(8) for _ in range(4 * page - 100)),
        "not_sqlite.txt": b"this is a text file named like a project\n" * 8,
    }
    # A page in the middle overwritten: the b-tree is damaged, the header is fine.
    middle = (len(valid) // page // 2) * page
    seeds["corrupt_middle_page.crucible"] = patched(valid, middle, b"\xff" * page)
    # Hostile content in a well-formed file: what a shared project could carry.
    paren_spec = hostile_spec(flops="(" * 20000 + "M" + ")" * 20000)
    seeds["task_spec_20000_parens.crucible"] = with_sql(valid, [("UPDATE tasks SET spec_json = ?", (paren_spec,))])
    seeds["task_spec_long_name.crucible"] = with_sql(
        valid, [("UPDATE tasks SET spec_json = ?", (hostile_spec(name="n" * 30000),))])
    seeds["task_spec_deep_json.crucible"] = with_sql(valid, [("UPDATE tasks SET spec_json = ?", ("[" * 5000,))])
    seeds["candidate_bad_json.crucible"] = with_sql(valid, [
        ("UPDATE candidates SET launch_json = ? WHERE id = 1", ("[" * 2000,)),
        ("UPDATE candidates SET profile_json = ? WHERE id = 2", ('{"metrics": {"x": 1e999}}',)),
        ("UPDATE candidates SET validation_json = ?, descriptor_json = ? WHERE id = 3", ("not json", "[]")),
    ])
    seeds["candidate_bad_values.crucible"] = with_sql(valid, [
        ("UPDATE candidates SET status = 'bogus', generation = -5, registers = ? WHERE id = 1", (2**62,)),
        ("UPDATE candidates SET launch_json = ? WHERE id = 2",
         ('{"entry": "k", "grid": ["1","1","1"], "block": ["1","1","1"], "dynamicSmemBytes": "0",'
          ' "tensorMaps": [{"tensor": "A", "boxRows": 4294967304, "boxCols": 8, "swizzle": "none"}]}',)),
    ])
    seeds["run_bad_settings.crucible"] = with_sql(valid, [
        ("UPDATE runs SET settings_json = ?, status = 'exploded', budget_wall_seconds = ?", ("{" * 10000, float("-inf"))),
    ])
    seeds["missing_table.crucible"] = with_sql(valid, [("DROP TABLE candidate_sources", ())])
    for name, data in sorted(seeds.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    total = sum(len(d) for d in seeds.values())
    print(f"wrote {len(seeds)} seeds ({total} bytes) to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
