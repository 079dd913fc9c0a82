"""An analysis that cannot be made is a clear refusal with a stable code, never a Python
traceback: a nardy match given to gnubg (no engine), a record with errors, settings out of
range, gnubg missing, gnubg refusing the record (its own words said), gnubg stopping, gnubg hanging
past its time (stopped, its process gone). Stand-ins for gnubg are small shell scripts;
the refusal by the real gnubg needs Debian's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.analysis import (
    EngineFailedError,
    EngineMissingError,
    EngineTimeoutError,
    InvalidSettingsError,
    NoEngineError,
    Settings,
    analyse,
    prepare,
)
from referee.analysis.gnubg import find_gnubg, run_gnubg
from referee.errors import InvalidRecordError, RefereeError
from tests.analysis.standins import program
from tests.players.gnubg import require_gnubg
from tests.server import ROOT

EXAMPLES = ROOT / "examples"
BACKGAMMON = (EXAMPLES / "backgammon_match.mat").read_text()


@pytest.mark.parametrize("name", ["long_nardy_match.mat", "khachapuri_match.mat"])
def test_gnubg_is_given_no_nardy_match(name: str) -> None:
    """gnubg's steps refuse a nardy match (the project's own engine analyses it)."""
    with pytest.raises(NoEngineError) as refused:
        prepare((EXAMPLES / name).read_text())
    assert (refused.value.code, refused.value.status) == ("no_engine", 422)
    assert "gnubg analyses backgammon only" in refused.value.message


def test_a_record_with_errors_is_not_analysed() -> None:
    broken = BACKGAMMON.replace("31: 8/5 6/5", "31: 8/4 6/5", 1)
    assert broken != BACKGAMMON
    with pytest.raises(InvalidRecordError) as refused:
        analyse(broken, program="/nonexistent/gnubg")
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if "8/4 6/5" in text)
    assert refused.value.code == "invalid_record"
    assert f"line {line}: 8/4 6/5 cannot be played" in refused.value.message


def test_a_match_longer_than_gnubgs_tables_is_refused() -> None:
    longer = BACKGAMMON.replace(" 5 point match", " 99 point match")
    with pytest.raises(EngineFailedError) as refused:
        analyse(longer, program="/nonexistent/gnubg")
    assert refused.value.code == "engine_failed" and "64 points" in refused.value.message


@pytest.mark.parametrize(
    "given",
    [{"chequer_plies": 4}, {"cube_plies": -1}, {"chequer_plies": "2"}, {"plies": 2}],
)
def test_settings_out_of_range_are_refused(given: dict[str, object]) -> None:
    with pytest.raises(InvalidSettingsError) as refused:
        Settings.of(given)
    assert refused.value.code == "invalid_settings"


def test_settings_default_to_two_plies_each() -> None:
    assert Settings.of(None).to_json() == {"chequer_plies": 2, "cube_plies": 2}
    assert Settings.of({"cube_plies": 0}) == Settings(2, 0)


def test_gnubg_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EngineMissingError) as missing:
        analyse(BACKGAMMON, program=str(tmp_path / "gnubg"))
    assert (missing.value.code, missing.value.status) == ("engine_missing", 503)
    monkeypatch.setenv("NARDY_REFEREE_GNUBG", str(tmp_path / "elsewhere"))
    with pytest.raises(EngineMissingError):
        find_gnubg()
    not_a_program = tmp_path / "gnubg.txt"
    not_a_program.write_text("no program\n")
    with pytest.raises(EngineMissingError):
        find_gnubg(str(not_a_program))


def test_gnubg_hanging_past_its_time_is_stopped(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    hanging = program(tmp_path, f"echo $$ > {pid_file}\nexec sleep 600")
    with pytest.raises(EngineTimeoutError) as late:
        analyse(BACKGAMMON, program=hanging, timeout=3)
    assert late.value.code == "engine_timeout" and "3 s" in late.value.message
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):  # killed and reaped: no such process
        os.kill(pid, 0)


def test_gnubg_stopping_says_so_in_its_words(tmp_path: Path) -> None:
    crashing = program(tmp_path, "echo 'Segmentation fault in the neural net' >&2\nexit 3")
    with pytest.raises(EngineFailedError) as failed:
        analyse(BACKGAMMON, program=crashing)
    assert "status 3" in failed.value.message
    assert "Segmentation fault in the neural net" in failed.value.message


def test_gnubg_writing_nothing_is_a_failure(tmp_path: Path) -> None:
    silent = program(tmp_path, "cat > /dev/null")
    with pytest.raises(EngineFailedError) as failed:
        analyse(BACKGAMMON, program=silent)
    assert "gnubg read no figures of the record" in failed.value.message


def test_a_record_gnubg_refuses_is_a_failure_in_gnubgs_words() -> None:
    with pytest.raises(EngineFailedError) as refused:
        run_gnubg("(;FF[4]GM[6]CA[UTF-8", Settings(0, 0), 1, require_gnubg(), 120)
    assert refused.value.code == "engine_failed"
    assert "record.sgf: syntax error" in refused.value.message  # gnubg's own words
    assert "Traceback" not in refused.value.message
    assert isinstance(refused.value, RefereeError)
