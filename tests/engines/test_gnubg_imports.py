"""Formats gnubg imports or writes, against gnubg itself (Debian's; REQUIRE_GNUBG=1 in CI
makes these fail, not skip, without it), in one gnubg batch for the module:

* Snowie text: every corpus record imported by gnubg and exported as Snowie text
  (``export match snowietxt``) reads to the verdict of the original (games, winners,
  points, cube, Crawford);
* TrueMoneyGames ``.tmg``: every corpus record written as ``.tmg`` (tests/records/tmg_text.py)
  and imported by gnubg reads, as gnubg exports it to ``.mat``, to the verdict the referee
  reads from the ``.tmg`` itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.adjudication import check_record
from tests.engines.gnubg import run_batch
from tests.engines.test_sgf_reading import GNUBG_LOSES, corpus, outcome
from tests.records.tmg_text import tmg_of


def backgammon_corpus() -> list[Path]:
    return [
        path
        for path in corpus()
        if check_record(path.read_text(encoding="utf-8-sig")).variant == "backgammon"
        and path.stem not in GNUBG_LOSES
    ]


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``NAME.snowie.txt`` (gnubg's Snowie text of each corpus record) and ``NAME.tmg.mat``
    (gnubg's ``.mat`` of our ``NAME.tmg``), written in one gnubg batch."""
    folder = tmp_path_factory.mktemp("gnubg_imports")
    commands = []
    for path in backgammon_corpus():
        (folder / f"{path.stem}.tmg").write_text(tmg_of(path.read_text(encoding="utf-8-sig")))
        commands += [f'import mat "{path}"', f'export match snowietxt "{path.stem}.snowie.txt"']
        commands += [f'import tmg "{path.stem}.tmg"', f'export match mat "{path.stem}.tmg.mat"']
    output = run_batch(commands, folder, timeout=600)
    assert "rror" not in output, output[-2000:]
    yield folder


def test_gnubgs_snowie_text_of_every_corpus_record_reads_to_the_same_verdict(
    converted: Path,
) -> None:
    compared = 0
    for path in backgammon_corpus():
        original = check_record(path.read_text(encoding="utf-8-sig")).to_json()
        snowie = (converted / f"{path.stem}.snowie.txt").read_text()
        assert outcome(check_record(snowie).to_json()) == outcome(original), path.name
        compared += 1
    assert compared >= 40


def test_a_tmg_record_reads_as_gnubg_imports_it(converted: Path) -> None:
    compared = 0
    for path in backgammon_corpus():
        ours = check_record((converted / f"{path.stem}.tmg").read_text()).to_json()
        assert ours["valid"], path.name
        gnubgs = check_record((converted / f"{path.stem}.tmg.mat").read_text()).to_json()
        assert outcome(gnubgs) == outcome(ours), path.name
        assert gnubgs["match"]["players"] == ours["match"]["players"], path.name
        compared += 1
    assert compared >= 40
