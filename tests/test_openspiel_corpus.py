"""The independent OpenSpiel corpus: legal-play sets and complete games (backgammon)."""

from __future__ import annotations

from referee.rules.judge import PlayJudge
from referee.rules.movegen import legal_plays
from referee.rules.options import Options
from referee.rules.variants import Backgammon
from tests.corpus import board_from_board26, key_of, read_jsonl, side_of
from vocabulary import Move

OPTIONS = Options()
RESULT_KINDS = {"single": "single", "gammon": "mars", "backgammon": "koks"}


def test_every_corpus_position_has_exactly_the_corpus_legal_set() -> None:
    mismatches = []
    count = 0
    for record in read_jsonl("bg_positions_seed1.jsonl.gz"):
        board = board_from_board26(record["board26"], record["off"])
        side, dice = side_of(record["to_move"]), tuple(record["dice"])
        rules = Backgammon.turn_rules(board, side, dice, OPTIONS)
        plays = legal_plays(rules, board, side, dice)
        legal = sorted(key_of(play.board) for play in plays)
        used = {len(play.steps) for play in plays}
        if legal != sorted(record["legal"]) or used != {record["max_dice"]}:
            mismatches.append(record["id"])
        count += 1
    assert count == 3000
    assert mismatches == []


def test_every_corpus_play_is_judged_legal_with_its_resulting_position() -> None:
    wrong = []
    for record in read_jsonl("bg_positions_seed1.jsonl.gz"):
        board = board_from_board26(record["board26"], record["off"])
        judge = PlayJudge(
            Backgammon, board, side_of(record["to_move"]), tuple(record["dice"]), OPTIONS
        )
        for key, play in zip(record["legal"], record["plays"], strict=True):
            verdict = judge.judge([Move(a, b) for a, b in play], canonical=False)
            if not verdict.legal or verdict.board is None or key_of(verdict.board) != key:
                wrong.append((record["id"], play))
    assert wrong == []


def test_every_corpus_game_replays_legally_to_the_recorded_result() -> None:
    failures = []
    games = 0
    for game in read_jsonl("bg_games_seed1.jsonl.gz"):
        board = Backgammon.start_board()
        for number, turn in enumerate(game["turns"]):
            moves = [Move(a, b) for a, b in turn["play"]]
            judge = PlayJudge(
                Backgammon, board, side_of(turn["player"]), tuple(turn["dice"]), OPTIONS
            )
            verdict = judge.judge(moves, canonical=False)
            if not verdict.legal or verdict.board is None:
                failures.append((game["seed"], number, verdict.reason))
                break
            board = verdict.board
        else:
            winner = side_of(game["winner"])
            win = Backgammon.classify_win(board, winner, OPTIONS)
            finished = board.borne_off(winner) == 15 and key_of(board) == game["final"]
            if not finished or str(win.kind) != RESULT_KINDS[game["result"]]:
                failures.append((game["seed"], "result", win))
            if win.points != game["points"]:
                failures.append((game["seed"], "points", win))
        games += 1
    assert games == 2000
    assert failures == []
