"""eXtreme Gammon's text export (``.txt``): a .mat record with a BOM, ``; [Tag "..."]``
headers, ``Cannot Move`` for a dance and ``???`` for a roll before a resignation
(FORMATS.md part 1 §2, §4), written here from that description: the .mat reader reads it
(detected as ``mat``) to the verdict of the same record without XG's spellings."""

from __future__ import annotations

from notation.records.formats import MAT, detect
from referee.adjudication import check_record
from tests.players.test_sgf_reading import outcome

XG = """\ufeff; [Site "eXtreme Gammon"]
; [Player 1 "Alice"]
; [Player 2 "Bob"]
; [EventDate "2025.11.08"]
; [EventTime "16:15"]
; [Variation "Backgammon"]
; [Crawford "On"]
; [CubeLimit "1024"]

5 point match

 Game 1
 Alice : 0                              Bob : 0
  1) 31: 8/5 6/5                        64: 24/18 13/9
  2) 62: 13/7* 13/11                    65: Cannot Move
  3)  Doubles => 2                       Drops
      Wins 1 point

 Game 2
 Alice : 1                              Bob : 0
  1) 42: 8/4 6/4                        31: ???
      Wins 1 point
"""
PLAIN = (
    XG.replace("\ufeff", "")
    .replace("Cannot Move", "")
    .replace("31: ???", "31:")
    .replace('; [CubeLimit "1024"]\n', "")
)


def test_xgs_text_export_reads_as_the_plain_record() -> None:
    assert detect(XG.encode()) is MAT
    verdict = check_record(XG).to_json()
    assert verdict["valid"], verdict
    games = [(game["winner"], game["termination"], game["points"]) for game in verdict["games"]]
    assert games == [("w", "drop", 1), ("w", "resign", 1)]
    assert outcome(verdict) == outcome(check_record(PLAIN).to_json())
