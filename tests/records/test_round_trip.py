"""Round trips: read → write → read keeps the games, and gnubg imports what we write."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.records.mat_reader import read_mat
from notation.records.mat_writer import write_mat
from notation.records.model import ActionKind, MatchText
from referee.adjudication import adjudicate
from tests.corpus import MAT

FILES = sorted(MAT.glob("*.mat")) if MAT.exists() else []
IDS = [path.stem for path in FILES]


def games_of(record: MatchText) -> list[tuple[object, ...]]:
    """What a game is, independent of layout: players, score, and every scored action."""
    return [
        (
            game.number,
            game.players,
            game.score,
            [
                (a.kind, a.side, a.dice, a.play, a.value, a.and_the_match)
                for a in game.actions
                if a.kind is not ActionKind.LOSS
            ],
        )
        for game in record.games
    ]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_read_write_read_keeps_the_games(path: Path) -> None:
    record = read_mat(path.read_text())
    again = read_mat(write_mat(record))
    assert again.match_length == record.match_length
    assert again.tags == record.tags
    assert games_of(again) == games_of(record)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_canonical_record_checks_to_the_same_verdict(path: Path) -> None:
    first = adjudicate(path.read_text())
    text = write_mat(first.canonical)
    second = adjudicate(text)
    assert second.verdict.valid
    summary = [(g.result, g.recorded_points) for g in first.verdict.games]
    assert [(g.result, g.recorded_points) for g in second.verdict.games] == summary
    assert write_mat(second.canonical) == text, "canonical form is a fixed point"


gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")


def gnubg_games(path: Path) -> list[dict[str, object]]:
    gnubg.command(f'import mat "{path}"')
    games: list[dict[str, object]] = gnubg.match()["games"]
    return games


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_gnubg_imports_our_canonical_record_with_the_same_plays_and_results(
    path: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    adjudication = adjudicate(path.read_text())
    written = tmp_path / "canonical.mat"
    written.write_text(write_mat(adjudication.canonical))
    original = gnubg_games(path)
    capfd.readouterr()
    imported = gnubg_games(written)
    output = capfd.readouterr()
    assert "warning" not in (output.out + output.err).lower()
    assert len(imported) == len(original) == len(adjudication.verdict.games)
    sides = {"X": "w", "O": "b", None: None}
    for game, before, verdict, canonical in zip(
        imported, original, adjudication.verdict.games, adjudication.canonical.games, strict=True
    ):
        info = game["info"]  # type: ignore[index]
        assert info == before["info"]  # type: ignore[index]
        if info["winner"] is not None:
            assert sides[info["winner"]] == str(verdict.result.winner)
        ours = [
            (a.side, sorted(a.dice or ()), sorted((m.from_point, m.to_point) for m in a.play.moves))
            for a in canonical.actions
            if a.kind is ActionKind.ROLL and a.play is not None and a.play.moves
        ]
        theirs = [
            (sides[step["player"]], sorted(step["dice"]), sorted(step["move"]))
            for step in game["game"]  # type: ignore[index]
            if step["action"] == "move" and step["move"]
        ]
        assert theirs == ours
