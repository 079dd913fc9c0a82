"""HAProxy with the shipped configuration (deploy/haproxy.cfg) in front of given ports:
its BIND and SERVER lines replaced by a free port and those servers, its errorfiles read
from deploy/ (the copy is written elsewhere), any other line kept unless ``replace`` says
(a test's shorter timeout)."""

from __future__ import annotations

import http.client
import subprocess
import time
from pathlib import Path

from tests.programs import required_program
from tests.server import free_port

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def balancer_config(port: int, ports: list[int], replace: dict[str, str] | None = None) -> str:
    """deploy/haproxy.cfg listening on ``port`` in front of ``ports``."""
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
    return "\n".join(lines) + "\n"


def balancer(
    ports: list[int], folder: Path, replace: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """HAProxy running deploy/haproxy.cfg in front of ``ports``, up once every server
    passed its check: the process and its port."""
    binary = required_program("haproxy", "REQUIRE_HAPROXY", "make haproxy")
    port = free_port()
    config = folder / f"haproxy-{len(ports)}.cfg"
    config.write_text(balancer_config(port, ports, replace))
    log = (folder / "haproxy.log").open("ab")
    process = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # up once every instance passes its check
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                time.sleep(2.5)  # rise 2 at inter 1s: every server in
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("haproxy did not start")
