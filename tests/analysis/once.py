"""A module's costly results made once per test run, whichever pytest-xdist worker asks
first: the others wait for it and read them. (Under pytest 9, pytest-xdist 3.8's
``--dist loadgroup`` no longer keeps a module's tests on one worker: it renames nodes
through an attribute pytest 9 does not read; so each worker would make them again.)"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from typing import Any

import pytest


def once(factory: pytest.TempPathFactory, name: str, make: Callable[[], Any]) -> Any:
    """``make()`` (JSON values), made by the first worker of this run to ask for ``name``
    and read back by the others; made right away without pytest-xdist."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return make()
    shared = factory.getbasetemp().parent  # this run's folder, the workers' folders in it
    done = shared / f"{name}.json"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            done.write_text(json.dumps(make()))
    return json.loads(done.read_text())
