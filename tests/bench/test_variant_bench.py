#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""variant_bench.py without a GPU: how it reads a folder of variants (tests/bench/template_variants
writes them) and refuses an empty one."""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import variant_bench as vb  # noqa: E402

TASKS_DIR = HERE.parent.parent / "resources" / "tasks"


def write_variant(directory, spec, label, params, tensor_maps=None):
    meta = {"task": spec["name"], "spec": spec, "entry": spec["entry"], "grid": ["ceil_div(N, 256) * ceil_div(M, 128)", "1", "1"],
            "block": ["384", "1", "1"], "smem": "197696", "candidate": label, "run": "variants",
            "architecture": "template:matmul:pipeline=tma", "genome": {"family": "matmul", "genes": {}, "params": params},
            "launch": {"entry": spec["entry"], "grid": ["ceil_div(N, 256) * ceil_div(M, 128)", "1", "1"],
                       "block": ["384", "1", "1"], "dynamicSmemBytes": "197696", "tensorMaps": tensor_maps or []}}
    (Path(directory) / f"{spec['name']}@{label}.json").write_text(json.dumps(meta))
    (Path(directory) / f"{spec['name']}@{label}.cu").write_text(f"extern \"C\" __global__ void {spec['entry']}() {{}}")


class LoadVariantsTest(unittest.TestCase):
    def test_groups_by_task_with_parameters_and_tensor_maps(self):
        gemm = json.loads((TASKS_DIR / "matmul_bf16_1024x1024x1024.json").read_text())
        gelu = json.loads((TASKS_DIR / "gelu_f32_1048576.json").read_text())
        maps = [{"tensor": "A", "boxRows": 128, "boxCols": 64, "swizzle": "128B"},
                {"tensor": "B", "boxRows": 64, "boxCols": 64, "swizzle": "128B"}]
        with tempfile.TemporaryDirectory() as d:
            write_variant(d, gemm, "v0", {"BLOCK_N": 256, "STAGES": 4}, maps)
            write_variant(d, gemm, "v1", {"BLOCK_N": 192, "STAGES": 5})
            write_variant(d, gelu, "v0", {"THREADS": 128})
            groups = vb.load_variants(d)
        self.assertEqual(sorted(groups), [gelu["name"], gemm["name"]])
        (first, arch, params), (second, _, _) = groups[gemm["name"]]
        self.assertEqual((first.origin, second.origin), ("v0", "v1"))
        self.assertEqual(arch, "template:matmul:pipeline=tma")
        self.assertEqual(params, "BLOCK_N=256 STAGES=4")
        self.assertEqual([(m.tensor, m.box_rows, m.box_cols, m.swizzle) for m in first.tensor_maps],
                         [("A", 128, 64, "128B"), ("B", 64, 64, "128B")])
        self.assertEqual(second.tensor_maps, [])

    def test_both_builds_adds_each_kernel_built_the_other_way(self):
        gelu = json.loads((TASKS_DIR / "gelu_f32_1048576.json").read_text())
        gemm = json.loads((TASKS_DIR / "matmul_bf16_1024x1024x1024.json").read_text())
        with tempfile.TemporaryDirectory() as d:
            write_variant(d, gelu, "v0", {"THREADS": 128})
            write_variant(d, gemm, "v0", {})
            (Path(d) / f"{gemm['name']}@v0.cu").write_text('asm("wgmma.fence.sync.aligned;");')
            plain = vb.load_variants(d)
            both = vb.load_variants(d, both_builds=True)
        self.assertEqual([c.origin for c, _, _ in plain[gelu["name"]]], ["v0"])
        self.assertEqual([(c.origin, c.other_build) for c, _, _ in both[gelu["name"]]],
                         [("v0", False), ("v0 (PTX + nvJitLink)", True)])
        # sm_90a kernels: the worker links with nvJitLink, the other build is whole-program.
        self.assertEqual([(c.origin, c.other_build) for c, _, _ in both[gemm["name"]]],
                         [("v0", False), ("v0 (whole-program)", True)])
        self.assertEqual(both[gelu["name"]][1][0].source, both[gelu["name"]][0][0].source)

    def test_a_map_the_task_cannot_take_is_an_error_naming_it(self):
        gemm = json.loads((TASKS_DIR / "matmul_bf16_1024x1024x1024.json").read_text())
        with tempfile.TemporaryDirectory() as d:
            write_variant(d, gemm, "v0", {}, [{"tensor": "Q", "boxRows": 8, "boxCols": 8, "swizzle": "none"}])
            with self.assertRaises(ValueError) as caught:
                vb.load_variants(d)
        self.assertIn("unknown tensor 'Q'", str(caught.exception))

    def test_an_empty_folder_is_refused(self):
        with tempfile.TemporaryDirectory() as d, contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(vb.main(["--kernels", d]), 2)
        self.assertIn("no kernels to time", err.getvalue())


if __name__ == "__main__":
    unittest.main()
