"""What one anonymous client can cost the service: the worst inputs found (issue 13), each
sent once to a fresh process, with its status, wall time, answer size and peak RSS.

Run ``.venv/bin/python benchmarks/worst_inputs.py`` (this tree), or with ``--tree DIR`` to
measure another checkout of the project (e.g. an export of an older commit) the same way.
Each case runs in its own Python process with the Flask test client (no gunicorn: the
figures are those of one worker thread's work); ``--timeout`` stops a case that runs on.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 2**20

# One case runs in a child process: the inputs are built there (so that the building is
# before the baseline), from the standard library and this tree's tests/costly.py passed
# by source, so that any tree is measured with the same inputs.
CASE = r"""
import contextlib, io, json, resource, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
sys.setrecursionlimit(10_000)
from referee.app import create_app
from referee.cli import main as command
exec(sys.argv[3])  # the costly-record generators
name = sys.argv[2]
database = tempfile.mkdtemp() + "/bench.sqlite3"
app = create_app({"DATABASE": database, "RATE_LIMITS": {}})
client = app.test_client()
secret = io.StringIO()  # through the command, which every tree has
with contextlib.redirect_stdout(secret), contextlib.redirect_stderr(io.StringIO()):
    command(["tokens", "--database", database, "create", "--scope", "archive:write"])
token = secret.getvalue().strip()
auth = {"Authorization": "Bearer " + token}
MB16 = 16 * 2**20 - 4096

def rows(row, size):
    return HEADER + game(1, row * ((size - 200) // len(row)))

def fill(text, size):
    return text * ((size - 200) // len(text))

CHECK = "/v1/records/check"
TEXT = "text/plain"
cases = {
    "350 KB, one game, an edit before every row (condone)": lambda: (
        CHECK, {"json": {"record": one_long_game(350_000), "mode": "condone"}}),
    "350 KB of 9-edit games (condone)": lambda: (
        CHECK, {"json": {"record": many_games(350_000), "mode": "condone"}}),
    "16 MiB of empty cells": lambda: (
        CHECK, {"data": rows("  1)                             \n", MB16), "content_type": TEXT}),
    "16 MiB of plays in one game": lambda: (
        CHECK, {"data": rows("  1) 21: 24/23 13/11     21: 24/23 13/11\n", MB16),
                "content_type": TEXT}),
    "16 MiB of bare rolls, 2,000 a game": lambda: (
        CHECK, {"data": HEADER + fill(game(1, "  1) 21: 21: 21: 21: 21: 21: 21: 21: 21: 21:\n"
                                                 * 200), MB16), "content_type": TEXT}),
    "16 MiB of unreadable cells": lambda: (
        CHECK, {"data": rows("  1) ?? ?? ?? ?? ?? ?? ?? ?? ??\n", MB16), "content_type": TEXT}),
    "16 MiB of one-line games": lambda: (
        CHECK, {"data": HEADER + fill(" Game 1\n A : 0   B : 0\n  1) 21: 24/23 13/11\n", MB16),
                "content_type": TEXT}),
    "import: 2 MiB JSON list of {}": lambda: (
        "/v1/matches/import", {"data": "[" + ",".join(["{}"] * (2**20 // 3)) + "]",
                               "content_type": "application/json", "headers": auth}),
}
path, kwargs = cases[name]()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
started = time.perf_counter()
response = client.post(path, **kwargs)
seconds = time.perf_counter() - started
answer = response.get_data()
code = None
if response.is_json:
    body = json.loads(answer)
    code = body.get("code") if isinstance(body, dict) else None
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"status": response.status_code, "code": code, "seconds": seconds,
                  "answer": len(answer), "peak_mib": peak, "base_mib": base}))
"""

CASES = (
    "350 KB, one game, an edit before every row (condone)",
    "350 KB of 9-edit games (condone)",
    "16 MiB of empty cells",
    "16 MiB of plays in one game",
    "16 MiB of bare rolls, 2,000 a game",
    "16 MiB of unreadable cells",
    "16 MiB of one-line games",
    "import: 2 MiB JSON list of {}",
)


def run(tree: Path, name: str, timeout: float) -> dict[str, object]:
    generators = (ROOT / "tests" / "costly.py").read_text()
    command = [sys.executable, "-c", CASE, str(tree), name, generators]
    env = {**os.environ, "NARDY_REFEREE_RATE_LIMITS": "off"}
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return {"status": None, "seconds": timeout}
    if done.returncode != 0:
        return {"status": "crashed", "error": done.stderr.strip().splitlines()[-1:]}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--only", default="", help="the cases whose name contains this")
    args = parser.parse_args()
    print(f"tree: {args.tree}")
    print(
        f"{'input':55} {'status':>6} {'code':>18} {'seconds':>8} {'answer':>12}"
        f" {'peak RSS':>9} {'before':>9}"
    )
    for name in (case for case in CASES if args.only in case):
        result = run(args.tree, name, args.timeout)
        if result["status"] is None:
            print(f"{name:55} {'-':>6} {'(stopped)':>18} {'>' + str(int(args.timeout)):>8}")
            continue
        if result["status"] == "crashed":
            print(f"{name:55} crashed: {result['error']}")
            continue
        print(
            f"{name:55} {result['status']:>6} {result['code'] or '':>18}"
            f" {result['seconds']:8.1f} {result['answer']:>12,}"
            f" {result['peak_mib']:5.0f} MiB {result['base_mib']:5.0f} MiB"
        )


if __name__ == "__main__":
    main()
