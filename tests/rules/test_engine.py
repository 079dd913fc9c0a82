"""Choosing the engine: NARDY_REFEREE_ENGINE's three values, a bad value, a missing module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.rules import engine


@pytest.fixture(autouse=True)
def engine_restored() -> Iterator[None]:
    before = engine.current()
    yield
    engine.select(before)


def test_python_is_always_available_and_named_plainly() -> None:
    assert engine.select("python") is engine.Engine.PYTHON
    assert engine.native is None
    assert engine.description() == "python"


def test_a_value_that_is_no_engine_is_refused_naming_the_choices() -> None:
    with pytest.raises(engine.EngineUnavailableError, match="python, native, auto"):
        engine.select("fast")


def test_without_the_module_auto_falls_back_and_native_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "NATIVE_MODULE", "nardy_native_not_built")
    assert engine.select("auto") is engine.Engine.PYTHON
    assert engine.select("") is engine.Engine.PYTHON
    with pytest.raises(engine.EngineUnavailableError, match="not built"):
        engine.select("native")


def test_native_is_used_and_named_with_its_version_when_built() -> None:
    pytest.importorskip(engine.NATIVE_MODULE)
    assert engine.select(" Native ") is engine.Engine.NATIVE
    assert engine.native is not None
    assert engine.description() == f"native {engine.native.__version__}"
