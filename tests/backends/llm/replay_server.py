#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A loopback OpenAI-compatible chat server that replays the recorded replies of
tests/backends/llm/replies/, for a whole `crucible-cli run --proposer llm` with
real evaluation on a GPU (tests/backends/llm/run-replay-on-device.sh). No model
is reachable from the device, so the replies are the recorded ones, chosen by
what the proposer asks, as llm_engine_run_test.cpp does with its C++ server:

- a plan turn ("WITHOUT code")          -> plan_warp_per_row.md
- a meta-prompt rewrite                 -> strategy_rewrite.md
- a repair turn ("compile-failed: ")    -> a distinct, correct kernel
- implementation 0, 1, 2, 3             -> a compile error, no code, a SEARCH/REPLACE
                                           edit, a wrong signature
- implementation k >= 4                 -> distinct correct kernels (the warp-per-row
                                           kernel or the baseline, an unroll pragma apart)

Usage: replay_server.py PORT_FILE [LOG_FILE]   (binds 127.0.0.1 on a free port and writes it
to PORT_FILE; every request and its choice is appended to LOG_FILE as one JSON line).
"""
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPLIES = HERE / "replies"
HEADER = (HERE / "llm_test_task.h").read_text()


def raw_string(name, delimiter):
    match = re.search(name + r'\s*=\s*R"' + delimiter + r"\((.*?)\)" + delimiter + '"', HEADER, re.S)
    if match is None:
        raise SystemExit(f"replay_server: {name} not found in llm_test_task.h")
    return match.group(1)


TASK = json.loads(raw_string("kRowAbsMaxSpec", "JSON"))
WARP_KERNEL = raw_string("kWarpPerRowKernel", "CUDA")
WARP_LAUNCH = raw_string("kWarpPerRowLaunch", "J")
BASELINE_LAUNCH = ('{"entry": "rowabsmax_kernel", "grid": ["M", "1", "1"], "block": ["256", "1", "1"], '
                   '"dynamicSmemBytes": "0"}')


def recorded(name):
    return (REPLIES / name).read_text()


def distinct_kernel(variant):
    """Two designs, made distinct by an unroll pragma (the archive sees two cells)."""
    warp = variant % 2 == 0
    kernel = WARP_KERNEL if warp else TASK["baseline"]["source"]
    at = kernel.index("  for (long long j")
    kernel = kernel[:at] + f"#pragma unroll {variant}\n" + kernel[at:]
    launch = WARP_LAUNCH if warp else BASELINE_LAUNCH
    return f"Here it is.\n\n```cuda\n{kernel}```\n\n```json\n{launch}\n```\n"


def text_of(content):
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


class Script:
    def __init__(self, log_path):
        self.lock = threading.Lock()
        self.implementations = 0
        self.repairs = 0
        self.log_path = log_path

    def choose(self, request):
        last = text_of(request["messages"][-1]["content"])
        with self.lock:
            if "You are improving the instructions" in last:
                return "strategy_rewrite.md", recorded("strategy_rewrite.md")
            if "WITHOUT code" in last:
                return "plan_warp_per_row.md", recorded("plan_warp_per_row.md")
            if "compile-failed: " in last:
                self.repairs += 1
                return f"repair {self.repairs}", distinct_kernel(100 + self.repairs)
            k = self.implementations
            self.implementations += 1
        fixed = {0: "kernel_compile_error.md", 1: "no_code.md", 2: "edit_unroll_shuffle.md",
                 3: "kernel_wrong_signature.md"}
        if k in fixed:
            return fixed[k], recorded(fixed[k])
        return f"distinct kernel {k}", distinct_kernel(k)

    def log(self, entry):
        if self.log_path:
            with self.lock, open(self.log_path, "a") as f:
                f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    script = None

    def do_POST(self):  # noqa: N802 - the http.server name
        if not self.path.endswith("/chat/completions"):
            self.send_error(404, "only /chat/completions is served")
            return
        length = int(self.headers.get("Content-Length", "0"))
        request = json.loads(self.rfile.read(length))
        choice, reply = self.script.choose(request)
        prompt_chars = sum(len(text_of(m["content"])) for m in request["messages"])
        usage = {"prompt_tokens": prompt_chars // 4, "completion_tokens": len(reply) // 4}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        self.script.log({"model": request.get("model"), "choice": choice, "usage": usage,
                         "authorization_sent": "Authorization" in self.headers})
        body = json.dumps({"id": "replay", "object": "chat.completion", "model": request.get("model"),
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                        "finish_reason": "stop"}],
                           "usage": usage}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # quiet: the JSON log says what was served
        pass


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    Handler.script = Script(sys.argv[2] if len(sys.argv) > 2 else None)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Path(sys.argv[1]).write_text(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
