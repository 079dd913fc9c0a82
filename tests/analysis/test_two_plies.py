"""One record analysed at 2-ply (gnubg's default, "world class") through the referee
holds gnubg's own figures for the original file imported by hand at 2-ply, and its actions
add up to them (the 0-ply corpus is test_corpus.py). Debian's gnubg is needed."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from referee.analysis import Settings, analyse
from tests.analysis.by_hand import by_hand, differences
from tests.analysis.sums import side_actions, sum_problems
from tests.corpus import MAT, require
from tests.players.gnubg import require_gnubg

TWO_PLY = "galaxy_match1495872_1pt"
"""A short match (one game, 40 actions): 2-ply takes seconds, not minutes."""


def test_one_record_at_two_plies_is_gnubgs_own_at_two_plies() -> None:
    program = require_gnubg()
    path = require(MAT) / f"{TWO_PLY}.mat"
    with ThreadPoolExecutor(2) as pool:
        hand = pool.submit(by_hand, [path], 2)
        analysis = analyse(path.read_text(), Settings(), program=program).to_json()
    assert analysis["settings"] == {"chequer_plies": 2, "cube_plies": 2}
    block = hand.result()[0]
    for column, side in enumerate("wb"):
        assert differences(analysis["players"][side], block, column) == []
        actions = side_actions(analysis["games"][0]["actions"], side)
        assert sum_problems(analysis["players"][side], actions) == []
