"""The native core's differential tests: each question asked of both engines in one process.

They skip, visibly, when the ``nardy_native`` module is not built; under ``REQUIRE_NATIVE=1``
(CI, which builds it) that skip is a failure instead.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar

import pytest

from referee.rules import engine
from referee.rules.engine import Engine

T = TypeVar("T")


@pytest.fixture(scope="session")
def native() -> ModuleType:
    """The native module, or a visible skip (a failure under REQUIRE_NATIVE=1)."""
    try:
        return importlib.import_module(engine.NATIVE_MODULE)
    except ImportError as error:
        message = f"native core not built ({error}); `make native` builds it"
        if os.environ.get("REQUIRE_NATIVE") == "1":
            pytest.fail(message + " (REQUIRE_NATIVE=1)")
        pytest.skip(message)


def native_engine() -> Engine:
    """The native engine (the ``native`` fixture skips a test when it is not built)."""
    return engine.choose("native")


def by_both(work: Callable[[Engine], T]) -> tuple[T, T]:
    """``work`` done by the Python engine, then by the native one."""
    return work(engine.PYTHON), work(native_engine())
