#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the text seeds of the fuzz corpus (task_spec, expression,
kernel_abi, operator_task, tunable_kernel, model_reply, knowledge_import): a few built-in task specs and
kernels, the hostile inputs of issue 13 (20,000 nested parentheses, a long run
of unary minus, a 30,000+ character name, 50 KB of '[', "format": 1e999, a
2^32 + 8 box, keyword names, a mean of 1.8e308), and issue 16's user tasks,
tunable kernel and their extremes (single and enormous rows, batches past the
grid's z limit, expressions at the nesting and length limits, tune spaces with
no legal point), and the recorded model replies of tests/backends/llm with
hostile bodies and replies, and knowledge files for `kb import` (knowledge_import: an export
with every field, and the numbers, strings and duplicates a hostile file may hold). Seeds the
fuzzers found are added by hand as crash-<what>.* (or slow_<what>.* for a timeout) files and are
not touched here. Deterministic.

    python3 tests/fuzz/make_text_corpus.py   # from the repository root
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TASKS = os.path.join(ROOT, "resources", "tasks")
USER_TASKS = os.path.join(ROOT, "tests", "tasks", "any-operator")
GEMV = os.path.join(ROOT, "resources", "kernels", "gemv")
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
BUILTINS = ["softmax_f32_1024x1024", "cross_entropy_f32_1024x32000", "matmul_bf16_1024x1024x1024",
            "layernorm_f32_1024x1024", "transpose_f32_2048x1024"]


def builtin(name, folder=TASKS):
    with open(os.path.join(folder, name + ".json")) as f:
        return json.load(f)


def changed(name, change, folder=TASKS):
    spec = builtin(name, folder)
    change(spec)
    return json.dumps(spec, indent=1)


def set_path(spec, path, value):
    node = spec
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def task_spec_seeds():
    seeds = {f"builtin_{n}.json": json.dumps(builtin(n), indent=1) for n in BUILTINS}
    sm = "softmax_f32_1024x1024"
    parens = "(" * 20000 + "M" + ")" * 20000
    seeds["issue13_20000_parens.json"] = changed(sm, lambda s: set_path(s, ["inputs", 0, "shape", 0], parens))
    seeds["issue13_unary_minus.json"] = changed(sm, lambda s: set_path(s, ["flops"], "-" * 20000 + "M"))
    seeds["issue13_long_tensor_name.json"] = changed(sm, lambda s: set_path(s, ["inputs", 0, "name"], "x" * 30001))
    seeds["issue13_long_task_name.json"] = changed(sm, lambda s: set_path(s, ["name"], "n" * 30001))
    seeds["issue13_long_axis_name.json"] = changed(sm, lambda s: s["axes"].update({"A" * 30001: 4}))
    seeds["issue13_50k_brackets.json"] = "[" * (50 * 1024)
    seeds["issue13_format_1e999.json"] = '{"format": 1e999, "name": "x"}'
    seeds["issue13_format_1e999_full.json"] = changed(sm, lambda s: None).replace('"format": 1', '"format": 1e999', 1)
    tma = [{"tensor": "A", "boxRows": 4294967304, "boxCols": 64, "swizzle": "128B"}]
    seeds["issue13_box_2p32_plus_8.json"] = changed(
        "matmul_bf16_1024x1024x1024", lambda s: set_path(s, ["baseline", "launch", "tensorMaps"], tma))
    for keyword in ["int", "return", "const", "__restrict__", "threadIdx"]:
        seeds[f"issue13_keyword_{keyword}.json"] = changed(sm, lambda s, k=keyword: set_path(s, ["outputs", 0, "name"], k))
    # 1.8e308 is past double: Python would write it as Infinity, so the text is put in by hand.
    seeds["issue13_mean_1.8e308.json"] = changed(
        sm, lambda s: set_path(s, ["inputs", 0, "distribution"], {"kind": "normal", "mean": 12345.5, "stddev": 1})
    ).replace("12345.5", "1.8e308", 1)
    seeds["mean_3.4e38_f32.json"] = changed(
        sm, lambda s: set_path(s, ["inputs", 0, "distribution"], {"kind": "normal", "mean": 3.4e38, "stddev": 1e37}))
    seeds["uniform_past_f32.json"] = changed(
        sm, lambda s: set_path(s, ["inputs", 0, "distribution"], {"kind": "uniform", "low": -1e39, "high": 1e39}))
    seeds["randint_past_2p53.json"] = changed(
        "cross_entropy_f32_1024x32000",
        lambda s: set_path(s, ["inputs", 1, "distribution"], {"kind": "randint", "low": 0, "high": 2**60}))
    seeds["deep_objects.json"] = '{"a":' * 100 + "1" + "}" * 100
    seeds["huge_integer.json"] = changed(sm, lambda s: s["axes"].update({"M": 2**64 - 1}))
    # Stress cases (resources/tasks/README.md): too many, unknown names, repeated or multi-line names,
    # distributions past the input's dtype, tolerances for no output.
    big = {"kind": "normal", "mean": 50, "stddev": 20}
    seeds["stress_nine_cases.json"] = changed(
        sm, lambda s: set_path(s, ["stress"], [{"name": f"case {i}", "inputs": {"x": big}} for i in range(9)]))
    seeds["stress_unknown_input.json"] = changed(sm, lambda s: set_path(s, ["stress"], [{"name": "a", "inputs": {"w": big}}]))
    seeds["stress_same_name_twice.json"] = changed(
        sm, lambda s: set_path(s, ["stress"], [{"name": "a", "inputs": {"x": big}}, {"name": "a", "inputs": {"x": big}}]))
    seeds["stress_name_two_lines.json"] = changed(
        sm, lambda s: set_path(s, ["stress"], [{"name": "a\nb", "inputs": {"x": big}}]))
    seeds["stress_mean_past_f32.json"] = changed(
        sm, lambda s: set_path(s, ["stress"], [{"name": "a", "inputs": {"x": {"kind": "normal", "mean": 3.4e38,
                                                                                 "stddev": 1e37}}}]))
    seeds["stress_tolerance_for_no_output.json"] = changed(
        sm, lambda s: set_path(s, ["stress"], [{"name": "a", "inputs": {"x": big},
                                                "tolerances": {"z": {"rtol": 1e-3, "atol": 1e-3}}}]))
    seeds["stress_randint_wide.json"] = changed(
        "cross_entropy_f32_1024x32000",
        lambda s: set_path(s, ["stress"], [{"name": "a", "inputs": {"targets": {"kind": "randint", "low": 0,
                                                                                 "high": 2**40}}}]))
    return seeds


def expression_seeds():
    seeds = {
        "ceil_div.txt": "ceil_div(M, 128)",
        "flops.txt": "2*M*N*K",
        "nested_calls.txt": "min(max(M, N), ceil_div(V, 7)) % 5",
        "precedence.txt": "-(3 + 5) * --4 / +2 - 17 % 5",
        "overflow.txt": "BIG * BIG",
        "min_int.txt": "-9223372036854775807 - 1",
        "min_int_div.txt": "(-9223372036854775807 - 1) / -1",
        "division_by_zero.txt": "M / (N - N)",
        "literal_too_large.txt": "99999999999999999999",
        "unknown_name.txt": "M * Q",
        "issue13_20000_parens.txt": "(" * 20000 + "M" + ")" * 20000,
        "issue13_unary_minus.txt": "-" * 20000 + "1",
        "unary_plus_minus.txt": "+-" * 5000 + "1",
        "deep_calls.txt": "min(" * 2000 + "M" + ", N)" * 2000,
        "long_flat_sum.txt": "+".join(["M"] * 2000),
    }
    return seeds


def kernel_abi_seeds():
    seeds = {}
    for name in BUILTINS:
        spec = builtin(name)
        source = spec["baseline"]["source"]
        source = "\n".join(source) if isinstance(source, list) else source
        seeds[f"builtin_{name}.cu"] = source
        seeds[f"builtin_{name}_with_spec.txt"] = json.dumps(spec) + "\n====\n" + source
    signature = ('extern "C" __global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, '
                 'long long M, long long N, const __grid_constant__ CUtensorMap tmap_x)')
    seeds["signature_with_attributes.cu"] = signature.replace(
        "void copy_kernel", "void __launch_bounds__(256, 2) __cluster_dims__(2, 1, 1) copy_kernel") + " {}"
    seeds["open_parens_before_calls.cu"] = "(" * 10000 + (") copy_kernel(const float* __restrict__ x, " * 200)
    seeds["attribute_chain.cu"] = "__a__() " * 2000 + "copy_kernel(const float* __restrict__ x, float* __restrict__ y"
    seeds["repeated_prefix.cu"] = (signature[:-10] + "\n") * 80
    return seeds


def user_task(name):
    return builtin(name, USER_TASKS)


def user_changed(name, change):
    return changed(name, change, USER_TASKS)


def operator_task_seeds():
    seeds = {f"user_{n[:-5]}.json": json.dumps(user_task(n[:-5]), indent=1)
             for n in sorted(os.listdir(USER_TASKS)) if n.endswith(".json")}
    for n in ["softmax_f32_1024x1024", "matmul_bf16_1024x1024x1024", "transpose_f32_2048x1024"]:
        seeds[f"builtin_{n}.json"] = json.dumps(builtin(n), indent=1)
    lse, gelu, bmm = "row_logsumexp_f32_16384x1000", "add_gelu_f32_8192x4096", "bmm_bf16_16x2048x2048x2048"
    seeds["rows_of_one.json"] = user_changed(lse, lambda s: s["axes"].update({"M": 1, "N": 1}))
    seeds["rows_of_2p27.json"] = user_changed(lse, lambda s: s["axes"].update({"M": 2, "N": 2**27 + 3}))
    seeds["rows_3e9.json"] = user_changed(lse, lambda s: s["axes"].update({"M": 3 * 10**9, "N": 3}))
    seeds["elements_2p40.json"] = user_changed(gelu, lambda s: s["axes"].update({"M": 2**20, "N": 2**20}))
    seeds["elements_odd_7.json"] = user_changed(gelu, lambda s: s["axes"].update({"M": 1, "N": 7}))
    seeds["batch_70000.json"] = user_changed(bmm, lambda s: s["axes"].update({"Bt": 70000, "M": 16, "N": 16, "K": 16}))
    seeds["batch_ragged_k1.json"] = user_changed(bmm, lambda s: s["axes"].update({"Bt": 3, "M": 129, "N": 65, "K": 1}))
    seeds["nesting_64.json"] = user_changed(
        gelu, lambda s: set_path(s, ["operator", "expression"], "exp(" * 63 + "x" + ")" * 63))
    seeds["flat_4096.json"] = user_changed(
        gelu, lambda s: set_path(s, ["operator", "expression"], "+".join(["x"] * 2048)[:4095]))
    chain = [{"name": "r0", "op": "max", "of": "x"}] + [
        {"name": f"r{i}", "op": "sum", "of": f"exp(x - r{i - 1}) * r{i - 1}"} for i in range(1, 16)]
    seeds["reductions_16.json"] = user_changed(lse, lambda s: s["operator"].update({"reductions": chain}))
    seeds["rowwise_reads_no_reduction.json"] = user_changed(
        lse, lambda s: set_path(s, ["operator", "expression"], "1.5"))
    seeds["rank3_rows.json"] = user_changed(lse, lambda s: (
        s["axes"].update({"B": 3}), set_path(s, ["inputs", 0, "shape"], ["B", "M", "N"]),
        set_path(s, ["outputs", 0, "shape"], ["B", "M"]), s["scalars"].append("B")))
    return seeds


def tunable_kernel_seeds():
    def read(name):
        with open(os.path.join(GEMV, name)) as f:
            return f.read()
    sep = "\n====\n"
    scale = {"format": 1, "parameters": {"BLOCK": [64, 128, 256, 512, 1024]},
             "launch": {"grid": ["ceil_div(N, BLOCK)"], "block": ["BLOCK"]}}
    seeds = {
        "gemv_triple.txt": read("gemv.tune.json") + sep + read("gemv.cu") + sep + read("gemv_f32_8192x8192.json"),
        "scale.json": json.dumps(scale),
        "scale_persistent.json": json.dumps(dict(scale, launch={"grid": ["min(ceil_div(N, BLOCK), 4 * sm_count)"],
                                                                "block": ["BLOCK"]})),
        "scale_no_parameters.json": json.dumps({"format": 1, "parameters": {"BLOCK": [256]},
                                                "launch": {"grid": ["ceil_div(N, BLOCK)"], "block": ["BLOCK"]}}),
        "scale_illegal_default.json": json.dumps(dict(scale, default={"BLOCK": 2048})),
        "scale_grid_past_limit.json": json.dumps(dict(scale, launch={"grid": ["N * 1000000 / BLOCK"],
                                                                     "block": ["BLOCK"]})),
        "scale_smem_past_limit.json": json.dumps(dict(scale, launch={"grid": ["ceil_div(N, BLOCK)"], "block": ["BLOCK"],
                                                                     "dynamicSmemBytes": "BLOCK * 1024"})),
        "scale_restriction_sm_count.json": json.dumps(dict(scale, restrictions=["BLOCK <= sm_count"])),
        "scale_embedded.txt": json.dumps({"format": 1, "parameters": {}, "launch": {"grid": [16], "block": [256]}})
        + sep + "/* crucible-tune " + json.dumps(scale) + " */\n" + "#define BLOCK 256\n",
    }
    # Ten million points, none legal: the search for a starting point must stop in bounded time.
    wide = {chr(ord("A") + i): list(range(1, 11)) for i in range(7)}
    seeds["space_1e7_none_legal.json"] = json.dumps({
        "format": 1, "parameters": dict(wide, BLOCK=[256]),
        "restrictions": ["A + B + C + D + E + F + G == 71"] * 8,
        "launch": {"grid": ["ceil_div(N, BLOCK)"], "block": ["BLOCK"]}})
    # Fifteen restrictions of 4000 characters, all but one holding: each point costs 60 KB of
    # parsing, so the search's bound counts characters, not checks (under libFuzzer's 64 KiB -max_len).
    long_sum = "A + B" + " + 0" * 999
    seeds["long_restrictions_none_legal.json"] = json.dumps({
        "format": 1, "parameters": {"A": list(range(1, 257)), "B": list(range(1, 257)), "BLOCK": [256]},
        "restrictions": [long_sum + " > 0"] * 14 + [long_sum + " < 0"],
        "launch": {"grid": ["ceil_div(N, BLOCK)"], "block": ["BLOCK"]}})
    return seeds


REPLIES = os.path.join(ROOT, "tests", "backends", "llm", "replies")


def recorded_reply(name):
    with open(os.path.join(REPLIES, name + ".md")) as f:
        return f.read()


def openai_body(text, finish="stop"):
    return json.dumps({"id": "r1", "object": "chat.completion", "model": "m",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                    "finish_reason": finish}],
                       "usage": {"prompt_tokens": 900, "completion_tokens": 400}})


def anthropic_body(text, stop="end_turn"):
    return json.dumps({"id": "r1", "type": "message", "role": "assistant", "model": "m",
                       "content": [{"type": "text", "text": text}], "stop_reason": stop,
                       "usage": {"input_tokens": 900, "output_tokens": 400}})


def model_reply_seeds():
    # The first character is the mode byte (tests/fuzz/model_reply_entry.cpp): '0' an
    # OpenAI-compatible body, '1' an Anthropic body, '2' the reply's text; '4' and '5' the
    # bodies and '6' the text with a parent kernel to edit; ':' the text cut at the token limit.
    seeds = {}
    for name in ["kernel_warp_per_row", "kernel_compile_error", "kernel_wrong_signature", "no_code",
                 "plan_warp_per_row", "strategy_rewrite"]:
        seeds[f"text_{name}.txt"] = "2" + recorded_reply(name)
    seeds["text_kernel_truncated_at_length.txt"] = ":" + recorded_reply("kernel_truncated")
    seeds["text_edit_with_parent.txt"] = "6" + recorded_reply("edit_unroll_shuffle")
    seeds["text_edit_without_parent.txt"] = "2" + recorded_reply("edit_unroll_shuffle")
    warp = recorded_reply("kernel_warp_per_row")
    seeds["openai_kernel.json"] = "0" + openai_body(warp)
    seeds["openai_kernel_length.json"] = "0" + openai_body(warp, "length")
    seeds["openai_edit_with_parent.json"] = "4" + openai_body(recorded_reply("edit_unroll_shuffle"))
    seeds["anthropic_kernel.json"] = "1" + anthropic_body(warp)
    seeds["anthropic_kernel_max_tokens.json"] = "1" + anthropic_body(warp, "max_tokens")
    seeds["anthropic_plan_with_parent.json"] = "5" + anthropic_body(recorded_reply("plan_warp_per_row"))
    # Bodies a server or a proxy could send instead.
    seeds["openai_content_null.json"] = '0{"choices": [{"message": {"content": null}, "finish_reason": "stop"}]}'
    seeds["openai_no_choices.json"] = '0{"choices": []}'
    seeds["openai_deep_arrays.json"] = "0" + '{"choices": ' + "[" * 5000 + "]" * 5000 + "}"
    seeds["anthropic_tool_use_only.json"] = '1{"content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}], "stop_reason": "tool_use"}'
    seeds["anthropic_text_number.json"] = '1{"content": [{"type": "text", "text": 42}], "stop_reason": "end_turn"}'
    seeds["html_error_page.txt"] = "0<html><body>502 Bad Gateway</body></html>"
    # Replies a model could write.
    seeds["text_unbalanced_braces.txt"] = "2```cuda\n" + "{" * 5000 + "\n```\n"
    seeds["text_10000_backticks.txt"] = "2" + "`" * 10000
    seeds["text_2000_search_markers.txt"] = "6" + "<<<<<<< SEARCH\n" * 2000
    seeds["text_empty_search.txt"] = "6<<<<<<< SEARCH\n=======\nint x;\n>>>>>>> REPLACE\n"
    seeds["text_plan_oversized.txt"] = "2" + json.dumps({"name": "n" * 200, "plan": "p" * 5000})
    seeds["text_plan_headings.txt"] = "2Architecture: warp per row\nPlan:\n"
    # Names and plans cut at their limits inside a character (an arrow is three bytes).
    seeds["text_plan_arrows.txt"] = "2" + json.dumps({"name": "\u2192" * 40, "plan": "\u2192" * 2000}, ensure_ascii=False)
    seeds["text_heading_arrows.txt"] = "2Architecture: " + "ab \u2192 " * 20 + "\nPlan: " + "\u00e9" * 2999 + "\u2192" * 10
    launch = '{"entry": "rowabsmax_kernel", "grid": ["1", "sm_count * 70000", "1"], "block": ["128", "1", "1"]}'
    seeds["text_grid_y_past_limit_at_sm_count.txt"] = "2" + warp.split("```json")[0] + "```json\n" + launch + "\n```\n"
    return seeds


def knowledge_file(entries, **fields):
    doc = {"kind": "crucible-knowledge", "format": 1, "source": "a.crucible", "exportedAt": 1764633600,
           "entries": entries}
    doc.update(fields)
    return json.dumps(doc, indent=2, ensure_ascii=False)


def knowledge_claim(decision, **fields):
    claim = {"arch": "sm_90", "family": "softmax", "shape": "M~2^10 N~2^10", "decision": decision,
             "claim": decision + " helps softmax on sm_90", "effect": 1.31, "observations": 9,
             "status": "validated", "probe": ""}
    claim.update(fields)
    return claim


def knowledge_import_seeds():
    # Claims as `kb export` writes them: the engine's canonical decisions, a user's
    # pinned and disabled claims, a refuted one, a hypothesis, tunable and genome leaves.
    claims = [knowledge_claim("vector: 1 -> 4"),
              knowledge_claim("memory: smem -> registers", effect=0.9, status="refuted"),
              knowledge_claim("params.BLOCK_M: 64 -> 128", family="matmul", shape="M~2^11 N~2^11 K~2^11",
                              effect=1.12),
              knowledge_claim("tune.BLOCK=256", family="gemv", shape="", pinned=True, observations=0,
                              status="hypothesis", userClaim="256 threads a block, always"),
              knowledge_claim("genes.lse: pack -> row", family="", effect=1.04, disabled=True),
              knowledge_claim("tune.TILE: 16..32", family="", shape="", status="hypothesis", observations=2)]
    seeds = {"export_six_claims.json": knowledge_file(claims),
             "export_empty.json": knowledge_file([]),
             "format_2_pow_32_plus_1.json": knowledge_file(claims[:1], format=4294967297),
             "format_1_float.json": knowledge_file(claims[:1], format=1.0),
             "exported_at_past_int64.json": knowledge_file(claims[:1], exportedAt=18446744073709551615),
             "observations_past_int64.json": knowledge_file([knowledge_claim("vector: 1 -> 4",
                                                                             observations=18446744073709551615)]),
             "observations_int64_max.json": knowledge_file([knowledge_claim("vector: 1 -> 4",
                                                                            observations=9223372036854775807)]),
             "effect_huge.json": knowledge_file([knowledge_claim("vector: 1 -> 4", effect=1.7e308)]),
             "effect_tiny.json": knowledge_file([knowledge_claim("vector: 1 -> 4", effect=5e-324)]),
             "effect_1e999.json": knowledge_file(claims[:1]).replace("1.31", "1e999"),
             "duplicate_scope.json": knowledge_file([claims[0], dict(claims[0], claim="again")]),
             # json.dumps writes the control characters as \u0000-style escapes.
             "nul_and_controls.json": knowledge_file([knowledge_claim("vector:\x00 1 -> 4\x07",
                                                                      claim="\x00\x1b[2J")]),
             "fts_syntax_in_claim.json": knowledge_file([knowledge_claim("vector: 1 -> 4",
                                                                         claim='NEAR("a" "b") OR x* AND -y ^z:*')]),
             "text_at_limit.json": knowledge_file([knowledge_claim("d" * 4096, claim="\u2192" * 1365)]),
             "text_past_limit.json": knowledge_file([knowledge_claim("d" * 4097)]),
             "arrows_in_decision.json": knowledge_file([knowledge_claim("vector: 1 -> 4 -> 8 -> "),
                                                        knowledge_claim(" -> "), knowledge_claim(":"),
                                                        knowledge_claim("=")]),
             "unknown_field.json": knowledge_file([knowledge_claim("vector: 1 -> 4", evidence=[1, 2, 3])]),
             "deep_arrays.json": '{"kind": "crucible-knowledge", "format": 1, "entries": ' + "[" * 5000 + "]" * 5000 + "}",
             "not_json.txt": "crucible-knowledge\n"}
    seeds["many_claims.json"] = knowledge_file([knowledge_claim(f"params.BLOCK_{i}: {i} -> {2 * i}", effect=1 + i / 100)
                                                for i in range(1, 81)])
    return seeds


def write(target, seeds):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if not name.startswith(("crash-", "slow_")):
            os.remove(os.path.join(folder, name))
    for name, text in sorted(seeds.items()):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{target}: {len(seeds)} seeds, {sum(len(t) for t in seeds.values())} bytes")


def main():
    write("task_spec", task_spec_seeds())
    write("expression", expression_seeds())
    write("kernel_abi", kernel_abi_seeds())
    write("operator_task", operator_task_seeds())
    write("tunable_kernel", tunable_kernel_seeds())
    write("model_reply", model_reply_seeds())
    write("knowledge_import", knowledge_import_seeds())


if __name__ == "__main__":
    main()
