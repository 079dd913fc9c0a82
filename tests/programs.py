"""Programs some tests run beside the server (nginx, HAProxy): their path, or a visible
skip saying how to install them, a failure under the ``REQUIRE_*`` variable CI sets."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def required_program(name: str, variable: str, install: str) -> str:
    """The path of ``name`` (on PATH or in /usr/sbin), or the test skips (fails when the
    environment's ``variable`` is 1) saying ``install``."""
    found = shutil.which(name) or next(
        (str(path) for path in (Path("/usr/sbin") / name,) if path.exists()), None
    )
    if found is not None:
        return found
    message = f"{name} is not installed ({install})"
    if os.environ.get(variable) == "1":
        pytest.fail(f"{message} ({variable}=1)")
    pytest.skip(message)
