"""HAProxy with the shipped configuration (deploy/haproxy.cfg) in front of given ports:
its BIND and SERVER lines replaced by a free port and those servers, its errorfiles read
from deploy/ (the copy is written elsewhere), any other line kept unless ``replace`` says
(a test's shorter timeout), and HAProxy's statistics page on a port of its own, to ask
whether every server is up."""

from __future__ import annotations

import csv
import http.client
import io
import subprocess
import time
from pathlib import Path

from tests.programs import required_program
from tests.server import free_port

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


STATS = "/stats;csv"
"""HAProxy's statistics as CSV: a row per frontend, backend and server, ``status`` UP once a
server passed ``rise`` checks in a row."""


def balancer_config(
    port: int, ports: list[int], replace: dict[str, str] | None = None, stats: int | None = None
) -> str:
    """deploy/haproxy.cfg listening on ``port`` in front of ``ports``; with ``stats``, its
    statistics page (``/stats``) on that port."""
    lines: list[str] = []
    for line in CONFIG.read_text().splitlines():
        stripped = line.strip()
        if line.rstrip().endswith("# BIND"):
            lines.append(f"    bind 127.0.0.1:{port}")
        elif line.rstrip().endswith("# SERVER"):
            if not any(each.startswith("    server i") for each in lines):
                lines += [f"    server i{n} 127.0.0.1:{p}" for n, p in enumerate(ports)]
        elif stripped.startswith("errorfile "):
            status, path = stripped.split()[1:3]
            lines.append(f"    errorfile {status} {CONFIG.parent / path}")
        else:
            key = next((key for key in replace or {} if stripped.startswith(key)), None)
            lines.append(line if key is None else f"    {(replace or {})[key]}")
    if stats is not None:
        lines += ["", "listen stats", f"    bind 127.0.0.1:{stats}", "    stats enable"]
        lines.append("    stats uri /stats")
    return "\n".join(lines) + "\n"


def servers_up(stats: int) -> bool:
    """Every server of the backend is UP with a check passed (HAProxy's statistics page on
    port ``stats``); False while the page cannot be read."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", stats, timeout=2)
        connection.request("GET", STATS)
        answer = connection.getresponse()
        text = answer.read().decode()
        connection.close()
    except OSError:
        return False
    if answer.status != 200:
        return False
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("# "))))
    servers = [row for row in rows if row["pxname"] == "instances"]
    servers = [row for row in servers if row["svname"] not in ("FRONTEND", "BACKEND")]
    return bool(servers) and all(
        row["status"] == "UP" and row["check_status"] == "L7OK" for row in servers
    )


def balancer(
    ports: list[int], folder: Path, replace: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """HAProxy running deploy/haproxy.cfg in front of ``ports``, up once every server
    passed its check: the process and its port."""
    binary = required_program("haproxy", "REQUIRE_HAPROXY", "make haproxy")
    port, stats = free_port(), free_port()
    config = folder / f"haproxy-{len(ports)}.cfg"
    config.write_text(balancer_config(port, ports, replace, stats))
    log = (folder / "haproxy.log").open("ab")
    process = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # up once every instance passed its checks (rise)
        if servers_up(stats):
            return process, port
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    process.wait()
    raise RuntimeError("haproxy did not start, or not every server passed its check")
