"""Choosing the engine: NARDY_REFEREE_ENGINE's three values, a bad value, a missing module."""

from __future__ import annotations

import pytest

from referee.rules import engine


def test_python_is_always_available_and_named_plainly() -> None:
    chosen = engine.choose("python")
    assert chosen is engine.PYTHON and chosen.native is None
    assert chosen.description() == "python"


def test_a_value_that_is_no_engine_is_refused_naming_the_choices() -> None:
    with pytest.raises(engine.EngineUnavailableError, match="python, native, auto"):
        engine.choose("fast")


def test_without_the_module_auto_falls_back_and_native_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "NATIVE_MODULE", "nardy_native_not_built")
    assert engine.choose("auto") is engine.PYTHON
    assert engine.choose("") is engine.PYTHON
    with pytest.raises(engine.EngineUnavailableError, match="not built"):
        engine.choose("native")


def test_native_is_used_and_named_with_its_version_when_built() -> None:
    pytest.importorskip(engine.NATIVE_MODULE)
    chosen = engine.choose(" Native ")
    assert chosen.kind is engine.EngineKind.NATIVE and chosen.native is not None
    assert chosen.description() == f"native {chosen.native.__version__}"
