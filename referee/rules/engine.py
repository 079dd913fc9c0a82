"""Which engine enumerates and judges plays: the pure-Python reference or the native core.

An ``Engine`` is a value handed to what needs it (the move generator, the judge, the record
checker, the plays service, a live table): nothing reads a global to find it. ``CHOSEN`` is
the one ``NARDY_REFEREE_ENGINE`` names for this process, decided once at start: ``python``,
``native`` (an error when the ``nardy_native`` module is not built) or ``auto`` (the
default: native when importable); it is what entry points pass and what callers that pass
nothing get. The Python engine is the reference: the native core answers the same questions
step for step, and whatever it declines (every illegal play, every warning) is judged and
worded by Python.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from enum import StrEnum
from types import ModuleType

ENGINE_VARIABLE = "NARDY_REFEREE_ENGINE"
NATIVE_MODULE = "nardy_native"


class EngineKind(StrEnum):
    """The two engines."""

    PYTHON = "python"
    NATIVE = "native"


class Choice(StrEnum):
    """What ``NARDY_REFEREE_ENGINE`` may say."""

    PYTHON = "python"
    NATIVE = "native"
    AUTO = "auto"


class EngineUnavailableError(RuntimeError):
    """The native engine was asked for but is not built: a set-up error, not a domain one."""


@dataclass(frozen=True, slots=True)
class Engine:
    """An engine: the Python reference, or the native core with its module."""

    kind: EngineKind
    native: ModuleType | None = None

    def description(self) -> str:
        """The engine with its version, as ``/healthz`` and ``--version`` show it."""
        if self.native is None:
            return str(self.kind)
        return f"{self.kind} {self.native.__version__}"


PYTHON = Engine(EngineKind.PYTHON)


def choose(choice: str) -> Engine:
    """The engine ``choice`` (a value of ``NARDY_REFEREE_ENGINE``) names."""
    try:
        wanted = Choice(choice.strip().lower() or Choice.AUTO)
    except ValueError:
        known = ", ".join(Choice)
        raise EngineUnavailableError(
            f"{ENGINE_VARIABLE}={choice!r} is not one of {known}"
        ) from None
    if wanted is Choice.PYTHON:
        return PYTHON
    module = _import_native(required=wanted is Choice.NATIVE)
    return PYTHON if module is None else Engine(EngineKind.NATIVE, module)


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


CHOSEN = choose(os.environ.get(ENGINE_VARIABLE, Choice.AUTO))
"""This process's engine, as ``NARDY_REFEREE_ENGINE`` chose it at start."""
