"""gnubg kept running between analyses (``Gnubg``, what a worker holds): started once for
many records, each analysis the same as one made by a gnubg of its own, a record it fails
to load never answered with the last one's figures, and a gnubg that failed, ran out of
time, ended while it waited or made its share of analyses replaced by a new one for the
next record. Debian's gnubg, behind a stand-in that notes each start."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

import referee.analysis.gnubg
from referee.analysis import (
    EngineFailedError,
    EngineTimeoutError,
    Settings,
    analyse,
    prepare,
)
from referee.analysis.gnubg import Gnubg, run_gnubg
from referee.archive.analysis_worker import Worker
from tests.analysis.jobs import Archive, archive
from tests.analysis.standins import gone, program
from tests.events.support import until
from tests.played import match_record, money_session
from tests.players.gnubg import require_gnubg

__all__ = ["archive"]

ZERO = Settings(0, 0)
RECORDS = [match_record("backgammon", 5, {}, 5), money_session("backgammon", 2, {}, 6)]
"""A match and a money session, played at random."""


def counted(folder: Path) -> tuple[str, Path]:
    """gnubg behind a stand-in that adds a line to a file each time it starts."""
    starts = folder / "starts"
    return program(folder, f'echo started >> {starts}\nexec {require_gnubg()} "$@"'), starts


def test_one_gnubg_makes_every_analysis_as_gnubgs_of_their_own_do(tmp_path: Path) -> None:
    gnubg, starts = counted(tmp_path)
    prepared = [prepare(record) for record in RECORDS]
    with Gnubg(gnubg) as kept:
        made = [kept.analyse(p.sgf, ZERO, len(p.games), 120) for p in [*prepared, *prepared]]
    assert starts.read_text().count("started") == 1
    alone = [run_gnubg(p.sgf, ZERO, len(p.games), gnubg, 120) for p in prepared]
    assert starts.read_text().count("started") == 3
    assert made == [*alone, *alone]
    assert made[0] != made[1]


def test_a_record_gnubg_cannot_load_is_not_answered_with_the_last_ones_figures(
    tmp_path: Path,
) -> None:
    """gnubg keeps the match it had when a load fails: the same number of games asked of
    a spoiled record would have its figures, were they not marked with the record's token."""
    gnubg, starts = counted(tmp_path)
    first = prepare(RECORDS[0])
    games = len(first.games)
    with Gnubg(gnubg) as kept:
        kept.analyse(first.sgf, ZERO, games, 120)
        with pytest.raises(EngineFailedError) as refused:
            kept.analyse(first.sgf[:20], ZERO, games, 120)
        assert "record.sgf: syntax error" in refused.value.message  # gnubg's own words
        again = kept.analyse(first.sgf, ZERO, games, 120)
    assert starts.read_text().count("started") == 2  # a new gnubg after the refusal
    assert again == run_gnubg(first.sgf, ZERO, games, gnubg, 120)


def test_a_gnubg_past_its_time_is_replaced_for_the_next_record(tmp_path: Path) -> None:
    gnubg, starts = counted(tmp_path)
    record = prepare(RECORDS[1])
    with Gnubg(gnubg) as kept:
        with pytest.raises(EngineTimeoutError):
            kept.analyse(record.sgf, Settings(2, 2), len(record.games), 0.05)
        made = kept.analyse(record.sgf, ZERO, len(record.games), 120)
    assert starts.read_text().count("started") == 2
    assert made == run_gnubg(record.sgf, ZERO, len(record.games), gnubg, 120)


def test_a_worker_starts_gnubg_once_for_its_queue(archive: Archive, tmp_path: Path) -> None:
    gnubg, starts = counted(tmp_path)
    records = [
        *RECORDS,
        match_record("backgammon", 3, {}, 7),
        money_session("backgammon", 3, {}, 8),
    ]
    analyses = [archive.queue(archive.store(record)) for record in records]
    assert Worker(archive.location, gnubg).run(threading.Event(), until_idle=True) == 4
    assert starts.read_text().count("started") == 1
    made = [archive.get(analysis_id).result for analysis_id in analyses]
    assert made == [analyse(record, ZERO, program=gnubg).to_json() for record in records]


def test_a_worker_keeps_no_gnubg_while_no_analysis_waits(archive: Archive, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    gnubg = program(tmp_path, f'echo $$ > {pid_file}\nexec {require_gnubg()} "$@"')
    analysis_id = archive.queue(archive.store(RECORDS[0]))
    stop = threading.Event()
    worker = threading.Thread(
        target=Worker(archive.location, gnubg).run, args=(stop,), kwargs={"poll_seconds": 0.05}
    )
    worker.start()
    try:
        until(lambda: archive.get(analysis_id).status == "done", 60)
        until(lambda: gone(int(pid_file.read_text())), 20)
    finally:
        stop.set()
        worker.join()


def test_a_gnubg_that_ended_between_analyses_is_replaced(tmp_path: Path) -> None:
    """Killed while it waited (an administrator, the kernel short of memory): the next
    record is not failed for it."""
    replaced_after_a_kill(tmp_path, RECORDS[0], as_if_running=False)


def test_a_gnubg_is_replaced_after_so_many_analyses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee.analysis.gnubg, "ANALYSES_PER_GNUBG", 2)
    gnubg, starts = counted(tmp_path)
    record = prepare(RECORDS[1])
    with Gnubg(gnubg) as kept:
        made = [kept.analyse(record.sgf, ZERO, len(record.games), 120) for _ in range(5)]
    assert starts.read_text().count("started") == 3
    assert made == [made[0]] * 5


def test_a_gnubg_that_ends_as_it_is_given_a_record_is_replaced(tmp_path: Path) -> None:
    """It still ran when looked at and had ended when given the record (the kernel takes
    a while to let a killed gnubg's threads go): the record goes to a new gnubg."""
    replaced_after_a_kill(tmp_path, RECORDS[1], as_if_running=True)


def replaced_after_a_kill(tmp_path: Path, record_text: str, as_if_running: bool) -> None:
    """A record analysed, its gnubg killed (and, ``as_if_running``, still taken for
    running when the next record comes), the record again: the same figures, from a new
    gnubg."""
    pid_file = tmp_path / "pid"
    gnubg = program(tmp_path, f'echo $$ > {pid_file}\nexec {require_gnubg()} "$@"')
    record = prepare(record_text)
    with Gnubg(gnubg) as kept, pytest.MonkeyPatch.context() as patch:
        first = kept.analyse(record.sgf, ZERO, len(record.games), 120)
        killed = int(pid_file.read_text())
        os.kill(killed, signal.SIGKILL)
        until(lambda: gone(killed), 20)
        if as_if_running:
            patch.setattr(Gnubg, "_kept", lambda self: True)
        assert kept.analyse(record.sgf, ZERO, len(record.games), 120) == first
    assert int(pid_file.read_text()) != killed
