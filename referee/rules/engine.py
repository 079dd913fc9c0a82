"""Which engine enumerates and judges plays: the pure-Python reference or the native core.

``NARDY_REFEREE_ENGINE`` chooses: ``python``, ``native`` (an error when the ``nardy_native``
module is not built) or ``auto`` (the default: native when importable). The Python engine
is the reference: the native core answers the same questions step for step, and whatever
it declines (every illegal play, every warning) is judged and worded by Python.
"""

from __future__ import annotations

import importlib
import os
from enum import StrEnum
from types import ModuleType

ENGINE_VARIABLE = "NARDY_REFEREE_ENGINE"
NATIVE_MODULE = "nardy_native"


class Engine(StrEnum):
    """The engine in use."""

    PYTHON = "python"
    NATIVE = "native"


class Choice(StrEnum):
    """What ``NARDY_REFEREE_ENGINE`` may say."""

    PYTHON = "python"
    NATIVE = "native"
    AUTO = "auto"


class EngineUnavailableError(RuntimeError):
    """The native engine was asked for but is not built: a set-up error, not a domain one."""


native: ModuleType | None = None
"""The native module while the native engine is in use, else None (read at every call)."""


def select(choice: str) -> Engine:
    """Use the engine ``choice`` names from now on; the engine chosen."""
    global native
    try:
        wanted = Choice(choice.strip().lower() or Choice.AUTO)
    except ValueError:
        known = ", ".join(Choice)
        raise EngineUnavailableError(
            f"{ENGINE_VARIABLE}={choice!r} is not one of {known}"
        ) from None
    module = None if wanted is Choice.PYTHON else _import_native(required=wanted is Choice.NATIVE)
    native = module
    return current()


def current() -> Engine:
    """The engine in use."""
    return Engine.PYTHON if native is None else Engine.NATIVE


def description() -> str:
    """The engine in use with its version, as ``/healthz`` and ``--version`` show it."""
    if native is None:
        return str(Engine.PYTHON)
    return f"{Engine.NATIVE} {native.__version__}"


def _import_native(required: bool) -> ModuleType | None:
    try:
        return importlib.import_module(NATIVE_MODULE)
    except ImportError as error:
        if required:
            raise EngineUnavailableError(
                f"{ENGINE_VARIABLE}=native but the native core is not built ({error});"
                " build it with `make native` or use NARDY_REFEREE_ENGINE=auto"
            ) from None
        return None


select(os.environ.get(ENGINE_VARIABLE, Choice.AUTO))
