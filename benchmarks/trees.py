"""The trees a benchmark measures side by side: this checkout, and with ``--peer TREE``
another one with its own ``.venv`` (the tree before a change, say), taking turns in one run
so that both meet the same load on a shared machine.

Every process of a tree runs that tree's code: its own ``.venv``, its checkout first on the
path (not whatever ``PYTHONPATH`` the caller has), and the bytecode of what it imports
written once and then read, as an installed program's is, but under a folder of its own
(``PYTHONPYCACHEPREFIX``, whatever ``PYTHONDONTWRITEBYTECODE`` says: the checkouts are only
read, and a process that compiles every module it imports measures the compiler).
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(tempfile.gettempdir()) / "nardy-bench-bytecode"
START_SECONDS = 60.0


@dataclass(frozen=True)
class Tree:
    """A checkout with its own ``.venv``."""

    root: Path
    label: str

    def program(self, name: str) -> str:
        """A program of the tree's ``.venv`` (``python``, ``nardy-referee``, ``gunicorn``)."""
        return str(self.root / ".venv" / "bin" / name)

    def environment(self, **more: str) -> dict[str, str]:
        """The environment its processes run in: its checkout first on the path."""
        cache = CACHE / self.root.as_posix().strip("/").replace("/", "_")
        inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        return {
            **inherited,
            "PYTHONPATH": str(self.root),
            "PYTHONPYCACHEPREFIX": str(cache),
            "NARDY_SHARED": os.environ.get("NARDY_SHARED", str(ROOT.parent / "shared")),
            **more,
        }


def add_peer_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--peer", type=Path, help="another checkout with its own .venv, measured in turns"
    )


def trees(peer: Path | None) -> list[Tree]:
    """This tree, then the peer (if any)."""
    found = [Tree(ROOT, "this tree")]
    if peer is not None:
        found.append(Tree(peer.resolve(), "peer"))
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False


@dataclass(frozen=True)
class Served:
    """A tree's gunicorn: its master process and port."""

    tree: Tree
    process: subprocess.Popen[bytes]
    port: int

    def worker_cpu_seconds(self) -> float:
        """User + system time of the master's children (the workers) so far, from /proc."""
        pid = self.process.pid
        total = 0
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")


@contextmanager
def serving(tree: Tree, database: Path, workers: int, **env: str) -> Iterator[Served]:
    """The tree's gunicorn with the shipped config (its access log too, written beside
    ``database``) on a free loopback port, stopped on leaving."""
    port = _free_port()
    environment = tree.environment(NARDY_REFEREE_DATABASE=str(database), **env)
    command = [tree.program("python"), "-m", "gunicorn", "--config", "gunicorn.conf.py"]
    command += ["--workers", str(workers), "--bind", f"127.0.0.1:{port}"]
    command.append("wsgi:app")
    with database.with_suffix(".log").open("ab") as log:
        process = subprocess.Popen(command, cwd=tree.root, env=environment, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{tree.root}: gunicorn did not start")
            time.sleep(0.1)
        yield Served(tree, process, port)
    finally:
        process.terminate()
        process.wait(timeout=60)
