"""A server refuses an address another server already answers on.

gunicorn binds with ``reuse_port`` (``gunicorn.conf.py``) so that a supervisor's new
master binds at once after a ``kill -9``. The kernel then also lets a second server bind
the same address beside a running one, and shares the connections between the two:
half the requests would go to the other server and its archive, and nothing would say
so. Before it binds, the master asks the address for ``/healthz``: when any HTTP server
answers, it does not start. A listener that does not answer (a killed master's worker
still dying) does not stop it.
"""

from __future__ import annotations

import http.client

PROBE_SECONDS = 3.0
"""How long the probe waits for an answer (a busy server may take a moment)."""

_WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


def answering(host: str, port: int) -> bool:
    """Whether an HTTP server answers on ``host:port`` now (a wildcard host: on loopback)."""
    connection = http.client.HTTPConnection(_WILDCARDS.get(host, host), port, PROBE_SECONDS)
    try:
        connection.request("GET", "/healthz")
        connection.getresponse()
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()
    return True


def refuse_taken(addresses: list[object]) -> None:
    """RuntimeError (gunicorn prints it and exits) when a server answers on one of
    gunicorn's ``addresses`` (``(host, port)`` tuples; Unix sockets are not probed)."""
    for address in addresses:
        if isinstance(address, tuple) and answering(*address):
            host, port = address
            shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            raise RuntimeError(
                f"another server already answers on {shown}: stop it, or serve on"
                " another address (NARDY_REFEREE_BIND, or make serve PORT=...); two servers"
                " on one address would share its requests (docs/operations.md, Running it)"
            )
