"""The acceptance of issue 20: an independent checker of EVENTS.md.

It knows EVENTS.md, LIVE.md and the HTTP API, nothing of the referee's code: its bots are
its own (they find their matches only on ``GET /v1/bot/stream``, and play them through
the live API at random), and so is everything it recomputes. Against a real gunicorn
(two workers) it runs a Swiss of five, a mirrored round robin of four, a knockout of five
and a double elimination of four (checked by tests/events/bracket_checker.py) between
bots, then a records event (a club night of people: a bot's name is no records event's
entrant, issue 33) with a dispute and an award, one after the other; then (issue 30) a
double elimination of six, a knockout of eight with consolation and last chance at
lengths 3, 1 and 1, and a Swiss of nine ranked by ``tiebreaks: ["head_to_head",
"median_buchholz", "progressive"]`` (tests/multihost plays the same three on PostgreSQL,
two instances behind the balancer). From
the stored records (``GET /v1/matches/ID`` as text) and the dice proofs it recomputes every
result, every pairing and bye (the Berger table, the Swiss rules, the bracket), the seeds,
every standing and tie-break, and every rating with its history (FIBS, EVENTS.md §8), and
must agree with what the server says.

Reference data written here from the contract: the Berger table for four (FIDE), the
bracket order for eight (1 8 4 5 2 7 3 6). The Swiss is paired as docs/architecture.md's
decision words it (EVENTS.md §5 leaves the order of trials open): the bye to the lowest
ranked with the fewest byes that leaves the rest pairable; bracket by bracket, as many
pairs as can be made, top half against bottom half in the first arrangement of the bottom
half without a rematch, else each in rank order with the first partner that leaves the
others pairable; the lowest ranked float down; every choice only if what it leaves below
can still be paired.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import itertools
import json
import math
import random
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.api.support import BACKEND, archive_at
from tests.bot_choice import quiet_play
from tests.events import bracket_checker
from tests.reliability.test_crash import kill_9
from tests.server import Server, start, stop, write_token

BOTS = ("b1", "b2", "b3", "b4", "b5")
NINE = tuple(f"b{n}" for n in range(1, 10))
LIVE_ENV = {
    "GUNICORN_CMD_ARGS": "--worker-class gthread --threads 32",
    "NARDY_REFEREE_LIVE_POLL": "0.02",
    "NARDY_REFEREE_BOT_POLL": "0.05",
    "NARDY_REFEREE_EVENTS_POLL": "0.05",
}
LOST = (OSError, ValueError, http.client.HTTPException)
"""What a client meets when its server goes away: refused, reset, or cut off mid-answer."""
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
BRACKET_8 = [1, 8, 4, 5, 2, 7, 3, 6]


# -- talking to the server ---------------------------------------------------------------


@dataclass
class Api:
    base: str

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def failed(self) -> None:
        """A connection to the server failed (another instance may take over)."""

    def get(self, path: str) -> Any:
        status, body = self.call("GET", path)
        assert status == 200, body
        return body

    def text(self, path: str) -> str:
        request = urllib.request.Request(self.base + path, headers={"Accept": "text/plain"})
        with urllib.request.urlopen(request, timeout=60) as response:
            text: str = response.read().decode()
            return text


class CheckerBot:
    """A bot of the checker's own: it learns of its matches on the bot stream only and
    plays each (in a thread) at random (``quiet_play``), taking every double. Some go wrong
    on purpose: ``absent`` never joins, ``last_round`` joins no match of a later round,
    ``idle`` joins and then never acts (it sleeps past any clock)."""

    def __init__(
        self,
        api: Api,
        name: str,
        token: str,
        seed: int,
        absent: bool = False,
        last_round: int | None = None,
        idle: bool = False,
    ) -> None:
        self.api, self.name, self.token = api, name, token
        self.absent, self.last_round, self.idle = absent, last_round, idle
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.seen: set[int] = set()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.follow, daemon=True)
        self.thread.start()

    def follow(self) -> None:
        while not self.stopped.is_set():
            try:
                for line in self.lines(f"{self.api.base}/v1/bot/stream"):
                    assert line["type"] == "match" and line["side"] in ("w", "b")
                    late = self.last_round is not None and line["round"] > self.last_round
                    with self.lock:
                        if line["live_id"] in self.seen or self.absent or late:
                            continue
                        self.seen.add(line["live_id"])
                    threading.Thread(target=self.play, args=(line,), daemon=True).start()
            except LOST:
                self.api.failed()
                time.sleep(0.2)

    def lines(self, url: str) -> Iterator[dict[str, Any]]:
        headers = {"Authorization": f"Bearer {self.token}"}
        request = urllib.request.Request(url, headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            for raw in response:
                if self.stopped.is_set():
                    return
                if raw.strip():
                    yield json.loads(raw)

    def play(self, line: dict[str, Any]) -> None:
        live = f"/v1/live/{line['live_id']}"
        status, state = self.api.call("POST", f"{live}/join", {"seed": "checker"}, self.token)
        assert status == 200, state
        while state["status"] in ("waiting", "playing"):
            try:
                for state in self.lines(f"{self.api.base}{live}/stream"):
                    mine = state["status"] == "playing" and state["to_act"] == line["side"]
                    if mine and not self.idle:
                        self.act(live, state)
            except LOST:  # the instance went away: read the state again
                self.api.failed()
                time.sleep(0.1)
                state = self.api.get(live)

    def act(self, live: str, state: dict[str, Any]) -> None:
        with self.lock:
            expect = state["expect"]
            if "play" in expect:
                body = {"action": "play", "play": quiet_play(self.rng, state["legal_plays"])}
            elif "take" in expect:
                body = {"action": "take"}
            else:
                body = {"action": "roll"}
        status, answer = self.api.call(
            "POST", f"{live}/actions", {"ply": state["ply"], **body}, self.token
        )
        assert status in (200, 409), answer


# -- what the records say ----------------------------------------------------------------

HEADER = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s{2,}(\S.*?)\s*:\s*(\d+)\s*$")
WINS = re.compile(r"Wins (\d+) points?")


@dataclass(frozen=True)
class Read:
    """A record as the checker reads it: its players (left column White), its length and
    the points each scored (from its ``Wins`` lines)."""

    white: str
    black: str
    length: int
    points: tuple[int, int]

    @property
    def winner(self) -> str | None:
        if max(self.points) < self.length:
            return None
        return self.white if self.points[0] > self.points[1] else self.black


def read_record(text: str) -> Read:
    length = int(re.search(r"(\d+) point match", text)[1])  # type: ignore[index]
    white = black = ""
    points = [0, 0]
    lines = text.splitlines()
    for at, line in enumerate(lines):
        if line.strip().startswith("Game ") and at + 1 < len(lines):
            found = HEADER.match(lines[at + 1])
            assert found, lines[at + 1]
            white, black = found[1], found[3]
        for won in WINS.finditer(line):
            points[0 if won.start() < 30 else 1] += int(won[1])
    return Read(white, black, length, (points[0], points[1]))


def hmac_throw(seed: str, dice_id: int, k: int, seed_w: str, seed_b: str) -> list[int]:
    """LIVE.md §5, written again."""
    dice: list[int] = []
    for j in itertools.count():
        message = f"{dice_id}:{k}:{seed_w}:{seed_b}:{j}".encode()
        for byte in hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest():
            if byte < 252:
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    return dice
    raise AssertionError


# -- the contract's arithmetic, written again --------------------------------------------


@dataclass
class Line:
    name: str
    seed: int
    mp: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    pf: int = 0
    pa: int = 0
    met: list[tuple[str, float]] = field(default_factory=list)


def most(event: dict[str, Any]) -> int:
    """The most points a pairing counts for a side: the length (a mirrored pair's two
    matches: twice it)."""
    return int(event["length"]) * (2 if event["mirrored"] else 1)


DEFAULT_ORDER = ("buchholz", "sonneborn_berger", "points_difference")
"""EVENTS.md §5's tie-breaks, when an event names none (§13)."""


def table(
    seeds: list[str],
    rounds: list[dict[str, Any]],
    knockout: bool,
    total: int,
    most: int,
    order: tuple[str, ...] = DEFAULT_ORDER,
) -> list[dict[str, Any]]:
    """EVENTS.md §5's standings from the rounds (decided pairings only); a pairing's
    points count at most ``most`` for either side, and ``order`` is the event's tie-breaks
    (§13)."""
    lines = {name: Line(name, at) for at, name in enumerate(seeds, start=1)}
    reached = dict.fromkeys(seeds, 0)
    progressive = dict.fromkeys(seeds, 0.0)
    for played in rounds:
        for name in played["byes"]:
            lines[name].byes += 1
            lines[name].mp += 1
            reached[name] = played["number"]
        for pairing in played["pairings"]:
            white, black = pairing["w"], pairing["b"]
            reached[white] = reached[black] = played["number"]
            if pairing["status"] != "finished":
                continue
            winner = None if pairing["draw"] else pairing["winner"]
            both_lost = winner is None and not pairing["draw"]  # neither came (§12)
            for name, other, mine, theirs in (
                (white, black, *pairing["points"]),
                (black, white, *reversed(pairing["points"])),
            ):
                line = lines[name]
                line.pf, line.pa = line.pf + min(mine, most), line.pa + min(theirs, most)
                gained = 0.0 if both_lost else 0.5 if winner is None else float(winner == name)
                line.draws += winner is None and not both_lost
                line.wins += winner == name
                line.losses += both_lost or winner not in (None, name)
                line.mp += gained
                line.met.append((other, gained))
            if knockout and winner is not None and played["number"] == total:
                reached[winner] = total + 1
        for name, line in lines.items():  # the running score after the round
            progressive[name] += line.mp

    def breaks(line: Line) -> dict[str, float]:
        if knockout:
            return {"round_reached": reached[line.name]}
        faced = sorted(lines[o].mp for o, _ in line.met)  # a bye is no opponent
        values = {
            "buchholz": sum(faced),
            "buchholz_cut1": sum(faced[1:]),
            "median_buchholz": sum(faced[1:-1]),
            "sonneborn_berger": sum(lines[o].mp * g for o, g in line.met),
            "points_difference": line.pf - line.pa,
            "progressive": progressive[line.name],
            "head_to_head": 0.0,  # known once the tied entrants are: ``ranked`` sets it
        }
        return {name: values[name] for name in order}

    found = {name: breaks(line) for name, line in lines.items()}
    if knockout:
        ordered = sorted(lines.values(), key=lambda line: (-reached[line.name], line.seed))
    else:
        ordered = ranked(lines, found, order)
    return [
        {
            "rank": rank,
            "name": line.name,
            "seed": line.seed,
            "match_points": line.mp,
            "wins": line.wins,
            "draws": line.draws,
            "losses": line.losses,
            "byes": line.byes,
            "points_for": line.pf,
            "points_against": line.pa,
            "tiebreaks": found[line.name],
            "pr": None,  # no event here analyses its matches (ANALYSIS.md §5)
            "analysed": 0,
        }
        for rank, line in enumerate(ordered, start=1)
    ]


def tiebreaks(event: dict[str, Any]) -> tuple[str, ...]:
    """The event's tie-breaks (a knockout has none)."""
    return tuple(event["tiebreaks"] or DEFAULT_ORDER)


def ranked(
    lines: dict[str, Line], found: dict[str, dict[str, float]], order: tuple[str, ...]
) -> list[Line]:
    """Best first: by match points, then each tie-break of ``order`` among those still
    tied (head-to-head: the match points each took from the others, when all of them met
    each other, else nothing), then seed."""

    def among(tied: list[Line], keys: tuple[str, ...]) -> list[Line]:
        if len(tied) < 2 or not keys:
            return sorted(tied, key=lambda line: line.seed)
        key, rest = keys[0], keys[1:]
        if key == "head_to_head":
            names = {line.name for line in tied}
            everyone_met = all(names - {line.name} <= {o for o, _ in line.met} for line in tied)
            for line in tied:
                taken = sum(g for o, g in line.met if o in names)
                found[line.name][key] = taken if everyone_met else 0.0
        value = {line.name: found[line.name][key] for line in tied}
        return [
            line
            for level in sorted(set(value.values()), reverse=True)
            for line in among([t for t in tied if value[t.name] == level], rest)
        ]

    points = sorted({line.mp for line in lines.values()}, reverse=True)
    return [
        line
        for level in points
        for line in among([t for t in lines.values() if t.mp == level], order)
    ]


def pairable(players: list[str], met: set[frozenset[str]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in met and pairable(rest[:i] + rest[i + 1 :], met)
        for i, other in enumerate(rest)
    )


def swiss_round(
    ranked: list[str], points: dict[str, float], met: set[frozenset[str]], byes: dict[str, int]
) -> tuple[list[frozenset[str]], list[str]] | None:
    """The Swiss round the checker expects: its pairs (sides aside) and its bye."""
    players, bye = list(ranked), []
    if len(players) % 2:
        order = sorted(players, key=lambda n: (byes.get(n, 0), -ranked.index(n)))
        free = [n for n in order if pairable([p for p in players if p != n], met)]
        if not free:
            return None
        bye = [free[0]]
        players.remove(free[0])
    elif not pairable(players, met):
        return None
    groups = [list(g) for _, g in itertools.groupby(players, key=lambda n: points[n])]
    pairs: list[frozenset[str]] = []
    carried: list[str] = []
    for index, group in enumerate(groups):
        bracket = carried + group
        rest = [n for g in groups[index + 1 :] for n in g]
        made, carried = pair_bracket(bracket, rest, met)
        pairs += made
    return pairs, bye


def pair_bracket(
    bracket: list[str], rest: list[str], met: set[frozenset[str]]
) -> tuple[list[frozenset[str]], list[str]]:
    for count in range(len(bracket) // 2, -1, -1):
        floating = len(bracket) - 2 * count
        if floating and not rest:
            break
        for floats in itertools.combinations(reversed(bracket), floating):
            if not pairable([*floats, *rest], met):
                continue
            kept = [n for n in bracket if n not in floats]
            top, bottom = kept[:count], kept[count:]
            for arranged in itertools.permutations(bottom):
                pairs = [frozenset(p) for p in zip(top, arranged, strict=True)]
                if not any(p in met for p in pairs):
                    return pairs, list(reversed(floats))
            if pairable(kept, met):
                return rank_order(kept, met), list(reversed(floats))
    raise AssertionError("unpairable bracket")


def rank_order(kept: list[str], met: set[frozenset[str]]) -> list[frozenset[str]]:
    pairs, left = [], list(kept)
    while left:
        first = left.pop(0)
        for i, other in enumerate(left):
            rest = left[:i] + left[i + 1 :]
            if frozenset((first, other)) not in met and pairable(rest, met):
                pairs.append(frozenset((first, other)))
                left = rest
                break
    return pairs


def fibs(ledger: list[tuple[int, int, str, str, int]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ratings and histories from (match id, event id, winner, loser, length), §8."""
    rating: dict[str, float] = {}
    experience: dict[str, int] = {}
    matches: dict[str, int] = {}
    history: dict[str, list[dict[str, Any]]] = {}
    for match_id, event_id, winner, loser, length in sorted(ledger):
        rw, rl = rating.get(winner, 1500.0), rating.get(loser, 1500.0)
        u = 1 / (10 ** (abs(rw - rl) * math.sqrt(length) / 2000) + 1)
        change = 4 * math.sqrt(length) * (u if rw >= rl else 1 - u)
        for name, sign, before in ((winner, 1, rw), (loser, -1, rl)):
            factor = max(1.0, 5 - experience.get(name, 0) / 100)
            rating[name] = before + sign * change * factor
            experience[name] = experience.get(name, 0) + length
            matches[name] = matches.get(name, 0) + 1
            history.setdefault(name, []).append(
                {
                    "match_id": match_id,
                    "event_id": event_id,
                    "before": before,
                    "after": rating[name],
                }
            )
    table = {n: (rating[n], experience[n], matches[n]) for n in rating}
    return table, history


# -- the checker -------------------------------------------------------------------------


class Checker:
    def __init__(self, api: Api, host: str) -> None:
        self.api, self.host = api, host
        self.ledger: list[tuple[int, int, str, str, int]] = []

    def run(self, body: dict[str, Any], submit: Any = None, timeout: float = 240) -> dict[str, Any]:
        """Create and start an event, wait for it to finish (records: submit them), check it."""
        before, _ = fibs(self.ledger)
        status, created = self.api.call("POST", "/v1/events", body, self.host)
        assert status == 201, created
        event_id = created["id"]
        status, event = self.api.call("POST", f"/v1/events/{event_id}/start", None, self.host)
        assert status == 200, event
        deadline = time.monotonic() + timeout
        while event["status"] != "finished":
            assert time.monotonic() < deadline, f"event {event_id} did not finish: {event}"
            if submit is not None:
                submit(event)
            time.sleep(0.1)
            event = self.api.get(f"/v1/events/{event_id}")
        self.check(event, before)
        return event

    def check(self, event: dict[str, Any], before: dict[str, Any]) -> None:
        names = [e["name"] for e in event["entrants"]]
        rated = {n: before.get(n, (1500.0,))[0] for n in names}
        seeds = sorted(names, key=lambda n: (-rated[n], n))
        assert names == seeds, "the seeds: rating before the event, then name"
        for entrant in event["entrants"]:
            assert entrant["rating"] == pytest.approx(rated[entrant["name"]], abs=1e-9)
        rounds = event["rounds_played"]
        ledger = self.api.get(f"/v1/events/{event['id']}/ledger")
        assert [entry["seq"] for entry in ledger] == sorted(entry["seq"] for entry in ledger)
        for played in rounds:
            for pairing in played["pairings"]:
                if pairing["termination"] in ("forfeit", "no_show"):
                    self.check_forfeit(event, played["number"], pairing, ledger)
                else:
                    self.check_result(event, pairing)
        if event["brackets"]:  # EVENTS.md §13: tests/events/bracket_checker.py
            bracket_checker.check(event)
            if event["consolation"] and len(seeds) == 8:  # no byes: the main bracket's draw
                main = [
                    {**r, "pairings": [p for p in r["pairings"] if p["bracket"] == "main"]}
                    for r in rounds
                ]
                self.check_bracket([r for r in main if r["pairings"]], seeds)
            return
        self.check_pairings(event, seeds)
        total = event["rounds"]
        knockout = event["format"] == "knockout"
        order = tiebreaks(event)
        assert event["standings"] == table(seeds, rounds, knockout, total, most(event), order)

    def check_result(self, event: dict[str, Any], pairing: dict[str, Any]) -> None:
        """The pairing's result, recomputed from its stored records (and dice)."""
        assert pairing["status"] == "finished"
        if pairing["termination"] == "award":
            award = pairing["award"]
            winner = pairing["w"] if award["winner"] == "w" else pairing["b"]
            assert pairing["winner"] == winner and pairing["match_ids"] == []
            return
        points = {pairing["w"]: 0, pairing["b"]: 0}
        wins = {pairing["w"]: 0, pairing["b"]: 0}
        reads = [read_record(self.api.text(f"/v1/matches/{m}")) for m in pairing["match_ids"]]
        assert len(reads) == (2 if event["mirrored"] else 1)
        length = bracket_checker.lengths(event).get(pairing["bracket"], event["length"])
        for read in reads:
            assert {read.white, read.black} == set(points) and read.length == length
            assert read.winner is not None
            points[read.white] += read.points[0]
            points[read.black] += read.points[1]
            wins[read.winner] += 1
            self.ledger.append(
                (
                    pairing["match_ids"][reads.index(read)],
                    event["id"],
                    read.winner,
                    read.black if read.winner == read.white else read.white,
                    read.length,
                )
            ) if event["rated"] else None
        white, black = pairing["w"], pairing["b"]
        if wins[white] != wins[black]:
            winner = white if wins[white] > wins[black] else black
        elif points[white] != points[black]:
            winner = white if points[white] > points[black] else black
        else:
            winner = None
        assert pairing["points"] == [points[white], points[black]]
        assert (pairing["winner"], pairing["draw"]) == (winner, winner is None)
        if event["kind"] == "bots":
            self.check_dice(event, pairing)
        if pairing["termination"] == "time":
            self.check_time(pairing)

    def check_forfeit(
        self, event: dict[str, Any], number: int, pairing: dict[str, Any], ledger: list[Any]
    ) -> None:
        """A pairing decided without its matches (EVENTS.md §11, §12): a forfeit of an
        entrant withdrawn, or a no-show (who joined: the live states say), in the ledger;
        the one who came wins, scoring the match length, the other nothing; both absent:
        both lose."""
        termination = pairing["termination"]
        white, black = pairing["w"], pairing["b"]
        where = (termination, number, pairing["table"])
        entries = [e for e in ledger if (e["action"], e["round"], e["table"]) == where]
        assert len(entries) == 1, (where, ledger)
        assert pairing["match_ids"] == [] and pairing["status"] == "finished"
        if termination == "no_show":
            absent = []
            for live_id in pairing["live_ids"]:
                state = self.api.get(f"/v1/live/{live_id}")
                assert (state["status"], state["termination"]) == ("finished", "no_show")
                assert state["match_id"] is None and state["games"] == []
                absent += [state["players"][s] for s in "wb" if not state["joined"][s]]
            assert absent and entries[0]["name"] == absent[0]
        else:
            gone = {e["name"] for e in ledger if e["action"] == "withdraw"}
            absent = [name for name in (white, black) if name in gone]
            assert absent and set(absent) <= set(event["withdrawn"])
            for live_id in pairing["live_ids"]:  # paired before the withdrawal: aborted
                assert self.api.get(f"/v1/live/{live_id}")["status"] == "aborted"
        present = [name for name in (white, black) if name not in absent]
        winner = present[0] if present else None
        full = event["length"] * (2 if event["mirrored"] else 1)
        assert (pairing["winner"], pairing["draw"]) == (winner, False)
        assert pairing["points"] == [full if name == winner else 0 for name in (white, black)]

    def check_time(self, pairing: dict[str, Any]) -> None:
        """A match lost on time (EVENTS.md §12): the loser's reserve is spent."""
        (live_id,) = pairing["live_ids"]
        state = self.api.get(f"/v1/live/{live_id}")
        loser = "b" if state["winner"] == "w" else "w"
        assert (state["termination"], state["players"][state["winner"]]) == (
            "time",
            pairing["winner"],
        )
        assert state["clock"]["reserves"][loser] == 0

    def check_dice(self, event: dict[str, Any], pairing: dict[str, Any]) -> None:
        proofs = [self.api.get(f"/v1/live/{live_id}/dice") for live_id in pairing["live_ids"]]
        first = pairing["live_ids"][0]
        for proof in proofs:
            assert (
                hashlib.sha256(bytes.fromhex(proof["server_seed"])).hexdigest()
                == (proof["commitment"])
            )
            dice_id = first if event["mirrored"] else proof["id"]
            assert proof["dice_id"] == dice_id
            seeds = proof["client_seeds"]
            if event["mirrored"]:
                assert seeds == {"w": "", "b": ""}  # the bots sent one: ignored
            for throw in proof["throws"]:
                expected = hmac_throw(
                    proof["server_seed"], dice_id, throw["k"], seeds["w"], seeds["b"]
                )
                assert throw["dice"] == expected
        if event["mirrored"]:
            one, other = proofs
            assert one["server_seed"] == other["server_seed"]
            for a, b in zip(one["throws"], other["throws"], strict=False):
                assert a["dice"] == b["dice"]

    def check_pairings(self, event: dict[str, Any], seeds: list[str]) -> None:
        rounds = event["rounds_played"]
        form = event["format"]
        if form == "round-robin":
            assert len(seeds) == 4 and len(rounds) == event["rounds"] == 3
            for played, tables in zip(rounds, BERGER_4, strict=True):
                expected = [[seeds[w - 1], seeds[b - 1]] for w, b in tables]
                assert [[p["w"], p["b"]] for p in played["pairings"]] == expected
                assert played["byes"] == []
        elif form == "knockout":
            self.check_bracket(rounds, seeds)
        else:
            self.check_swiss(event, rounds, seeds)

    def check_bracket(self, rounds: list[dict[str, Any]], seeds: list[str]) -> None:
        slots: list[str | None] = [seeds[s - 1] if s <= len(seeds) else None for s in BRACKET_8]
        for played in rounds:
            pairs, byes = [], []
            for one, other in zip(slots[::2], slots[1::2], strict=True):
                if one and other:
                    pairs.append(sorted((one, other), key=seeds.index))
                elif one or other:
                    byes.append(one or other)
            assert [[p["w"], p["b"]] for p in played["pairings"]] == pairs
            assert played["byes"] == sorted(byes)
            won = {frozenset((p["w"], p["b"])): p["winner"] for p in played["pairings"]}
            slots = [
                won[frozenset((a, b))] if a and b else a or b
                for a, b in zip(slots[::2], slots[1::2], strict=True)
            ]
        assert len(rounds) == 3 and slots[0] == rounds[-1]["pairings"][0]["winner"]

    def check_swiss(
        self, event: dict[str, Any], rounds: list[dict[str, Any]], seeds: list[str]
    ) -> None:
        met: set[frozenset[str]] = set()
        byes: dict[str, int] = {}
        order = tiebreaks(event)
        whites: dict[str, int] = {}
        for at, played in enumerate(rounds):
            lines = table(seeds, rounds[:at], False, event["rounds"], most(event), order)
            ranked = [line["name"] for line in lines]
            points = {line["name"]: line["match_points"] for line in lines}
            expected = swiss_round(ranked, points, met, byes)
            assert expected is not None
            pairs, bye = expected
            got = [frozenset((p["w"], p["b"])) for p in played["pairings"]]
            assert sorted(got, key=sorted) == sorted(pairs, key=sorted) and played["byes"] == bye
            assert got == sorted(got, key=lambda p: min(ranked.index(n) for n in p))
            for p in played["pairings"]:
                w, b = p["w"], p["b"]
                higher = min((w, b), key=ranked.index)
                lower = b if higher == w else w
                white = lower if whites.get(lower, 0) < whites.get(higher, 0) else higher
                assert w == white, (played["number"], p)
                whites[w] = whites.get(w, 0) + 1
                met.add(frozenset((w, b)))
            for name in played["byes"]:
                byes[name] = byes.get(name, 0) + 1
        assert len(rounds) == event["rounds"]

    def check_ratings(self) -> None:
        expected, history = fibs(self.ledger)
        served = self.api.get("/v1/ratings?variant=backgammon")
        assert [r["name"] for r in served] == sorted(expected, key=lambda n: (-expected[n][0], n))
        for row in served:
            rating, experience, matches = expected[row["name"]]
            assert row["rating"] == pytest.approx(rating, abs=1e-6)
            assert (row["experience"], row["matches"]) == (experience, matches)
            one = self.api.get(f"/v1/ratings/{row['name']}?variant=backgammon")
            assert [h["match_id"] for h in one["history"]] == [
                h["match_id"] for h in history[row["name"]]
            ]
            for got, want in zip(one["history"], history[row["name"]], strict=True):
                assert got["event_id"] == want["event_id"]
                assert got["after"] == pytest.approx(want["after"], abs=1e-6)


# -- the run -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("acceptance")
    database = archive_at(folder)  # a file, or a PostgreSQL database (the test backend)
    host = write_token(database, "director", "live:host")  # type: ignore[arg-type]
    bots = {name: write_token(database, name, "play") for name in NINE}  # type: ignore[arg-type]
    server = start(database, workers=2, log=folder / "server.log", env=LIVE_ENV)  # type: ignore[arg-type]
    try:
        yield server, host, bots
    finally:
        stop(server)


def club_night(api: Api, host: str, sources: list[int]) -> Any:
    """The records event's director: a record for each pending pairing, made from a stored
    length-1 record with the pairing's names; round 1, table 1 first gets a spoiled record
    (disputed), then the right one; the last round's table 2 is awarded."""
    used = iter(sources)
    disputed: set[tuple[int, int]] = set()

    def submit(event: dict[str, Any]) -> None:
        number = event["round"]
        for pairing in event["rounds_played"][-1]["pairings"]:
            if pairing["status"] == "finished":
                continue
            key = (number, pairing["table"])
            path = f"/v1/events/{event['id']}/rounds/{number}/pairings/{pairing['table']}"
            if number == event["rounds"] and pairing["table"] == 2:
                status, body = api.call(
                    "POST", f"{path}/result", {"winner": "b", "reason": "no show"}, host
                )
                assert status == 200, body
                continue
            text = renamed(api.text(f"/v1/matches/{next(used)}"), pairing["w"], pairing["b"], key)
            if key == (1, 1) and key not in disputed:
                disputed.add(key)
                spoilt = re.sub(
                    r"(\n +\d+\) +\d\d: )([^\n]*?)( {2,}|\n)", r"\g<1>24/1\3", text, count=1
                )
                status, body = api.call("POST", f"{path}/record", {"record": spoilt}, host)
                assert status == 200 and body["pairing"]["status"] == "disputed", body
                assert body["pairing"]["verdict_id"] == body["match_id"]
                assert body["verdict"]["valid"] is False
            status, body = api.call("POST", f"{path}/record", {"record": text}, host)
            assert status == 200 and body["pairing"]["status"] == "finished", body
            assert not body["duplicate"]

    return submit


def renamed(text: str, white: str, black: str, key: tuple[int, int]) -> str:
    """A stored record with its players renamed, and its event and site its own (so it is
    a new record even between the same two names)."""
    lines = [line for line in text.splitlines() if not line.startswith(("; [Event ", "; [Site "))]
    for at, line in enumerate(lines):
        found = HEADER.match(line) if at and lines[at - 1].strip().startswith("Game ") else None
        if found:
            lines[at] = f" {white} : {found[2]}".ljust(32) + f"{black} : {found[4]}"
    return f'; [Site "club night, round {key[0]}, table {key[1]}"]\n' + "\n".join(lines) + "\n"


def test_the_independent_checker_agrees_with_every_event(
    world: tuple[Server, str, dict[str, str]], checker: Checker
) -> None:
    _, host, secrets = world
    api = checker.api
    bots = [CheckerBot(api, name, secrets[name], seed) for seed, name in enumerate(BOTS)]
    try:
        common = {"variant": "backgammon", "length": 1, "kind": "bots", "move_seconds": 30}
        swiss = checker.run({"name": "Swiss of five", "format": "swiss", "rounds": 3,
                             "entrants": list(BOTS), **common})  # fmt: skip
        assert len(swiss["rounds_played"]) == 3
        mirrored = checker.run({"name": "Mirrored round robin", "format": "round-robin",
                                "mirrored": True, "entrants": [*BOTS[:4]], **common})  # fmt: skip
        assert all(
            len(p["live_ids"]) == 2 for r in mirrored["rounds_played"] for p in r["pairings"]
        )
        checker.run({"name": "Knockout of five", "format": "knockout", "entrants": list(BOTS),
                     **common})  # fmt: skip
        double = checker.run({"name": "Double elimination of four", "entrants": [*BOTS[:4]],
                              "format": "double-elimination", **common})  # fmt: skip
        assert {p["bracket"] for r in double["rounds_played"] for p in r["pairings"]} == {
            "winners", "losers", "final",
        }  # fmt: skip
    finally:
        for bot in bots:
            bot.stopped.set()
    sources = [
        m
        for e in (swiss,)
        for r in e["rounds_played"]
        for p in r["pairings"]
        for m in p["match_ids"]
    ]
    club = {"name": "Club night", "variant": "backgammon", "length": 1, "format": "round-robin",
            "kind": "records", "entrants": ["Ann", "Bob", "Cy", "Dee"]}  # fmt: skip
    night = checker.run(club, submit=club_night(api, host, sources * 2))
    awarded = [
        p for r in night["rounds_played"] for p in r["pairings"] if p["termination"] == "award"
    ]
    assert len(awarded) == 1 and awarded[0]["award"]["reason"] == "no show"
    first = night["rounds_played"][0]["pairings"][0]
    assert first["verdict_id"] is not None and first["verdict_id"] not in first["match_ids"]
    checker.check_ratings()
    listed = api.get("/v1/events")["events"]
    assert {e["status"] for e in listed} == {"finished"}


@pytest.fixture(scope="module")
def checker(world: tuple[Server, str, dict[str, str]]) -> Checker:
    """One checker for the module's server: its ledger (and so every seed and rating it
    recomputes) spans every test's events."""
    server, host, _ = world
    return Checker(Api(server.base), host)


@pytest.mark.skipif(
    BACKEND == "postgresql",
    reason="on PostgreSQL: tests/multihost/test_events_across_instances.py (two instances)",
)
def test_the_checker_agrees_with_a_double_elimination_consolations_and_a_swiss_of_nine(
    world: tuple[Server, str, dict[str, str]], checker: Checker
) -> None:
    """Issue 30: a double elimination of six, a knockout of eight with consolation and last
    chance at lengths 3, 1 and 1, and a Swiss of nine ranked by head-to-head, median
    Buchholz and progressive scores, played by the checker's bots."""
    _, _, secrets = world
    bots = [CheckerBot(checker.api, name, secrets[name], seed) for seed, name in enumerate(NINE)]
    try:
        brackets_and_tiebreaks(checker)
    finally:
        stopped(bots)
    checker.check_ratings()


def brackets_and_tiebreaks(checker: Checker, timeout: float = 240) -> None:
    """The three events of issue 30 between b1 … b9 (their bots following), each checked
    from its records and results, with what the contract says of each; ``timeout``: how
    long each may take to finish."""
    common = {"variant": "backgammon", "length": 1, "kind": "bots", "move_seconds": 30}
    double = checker.run({"name": "Double elimination of six", "entrants": [*NINE[:6]],
                          "format": "double-elimination", **common}, timeout=timeout)  # fmt: skip
    assert {p["bracket"] for r in double["rounds_played"] for p in r["pairings"]} == {
        "winners", "losers", "final",
    }  # fmt: skip
    lengths = {"main": 3, "consolation": 1, "last_chance": 1}
    knockout = checker.run({"name": "Knockout of eight, three brackets", "format": "knockout",
                            "entrants": [*NINE[:8]], **common, "length": lengths,
                            "consolation": True, "last_chance": True}, timeout=timeout)  # fmt: skip
    assert bracket_checker.lengths(knockout) == lengths
    assert all(b["champion"] is not None for b in knockout["brackets"])
    order = ["head_to_head", "median_buchholz", "progressive"]
    swiss = checker.run({"name": "Swiss of nine", "format": "swiss", "rounds": 4,
                         "entrants": list(NINE), "tiebreaks": order, **common},
                        timeout=timeout)  # fmt: skip
    assert swiss["tiebreaks"] == order and len(swiss["rounds_played"]) == 4
    assert all(set(s["tiebreaks"]) == set(order) for s in swiss["standings"])


# -- issue 27: events that survive what goes wrong ---------------------------------------

SIX = (*BOTS, "b6")


@pytest.fixture(scope="module")
def troubled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server of its own (so the seeds' ratings are this test's alone): the host, an
    archive admin and six bots."""
    folder = tmp_path_factory.mktemp("troubled")
    database = archive_at(folder)
    secrets = {name: write_token(database, name, "play") for name in SIX}  # type: ignore[arg-type]
    secrets["host"] = write_token(database, "director", "live:host")  # type: ignore[arg-type]
    secrets["admin"] = write_token(database, "auditor", "archive:admin")  # type: ignore[arg-type]
    server = start(database, workers=2, log=folder / "server.log", env=LIVE_ENV)  # type: ignore[arg-type]
    try:
        yield server, secrets
    finally:
        stop(server)


def bots_of(api: Api, secrets: dict[str, str], names: tuple[str, ...], **odd: Any) -> list[Any]:
    """A checker bot for each name; ``odd`` names the one that goes wrong, and how."""
    wrong = odd.pop("name", None)
    return [
        CheckerBot(api, name, secrets[name], seed, **(odd if name == wrong else {}))
        for seed, name in enumerate(names, start=10)
    ]


def stopped(bots: list[Any]) -> None:
    for bot in bots:
        bot.stopped.set()


def withdrawing(api: Api, host: str, name: str) -> Any:
    """Withdraw ``name`` once round 1 has every result (its bot joins no later match)."""

    def hook(event: dict[str, Any]) -> None:
        first = event["rounds_played"][0]["pairings"]
        if event["withdrawn"] or not all(p["status"] == "finished" for p in first):
            return
        path = f"/v1/events/{event['id']}/entrants/{name}/withdraw"
        status, body = api.call("POST", path, {"reason": "went home after round 1"}, host)
        assert status == 200 and body["withdrawn"] == [name], body

    return hook


def recorded(api: Api, host: str, sources: Iterator[int]) -> Any:
    """A records event's director: each pending pairing gets a record made from a stored
    match with the pairing's names."""

    def submit(event: dict[str, Any]) -> None:
        for played in event["rounds_played"]:
            for pairing in played["pairings"]:
                if pairing["status"] != "pending":
                    continue
                key = (played["number"], pairing["table"])
                text = renamed(
                    api.text(f"/v1/matches/{next(sources)}"), pairing["w"], pairing["b"], key
                )
                path = f"/v1/events/{event['id']}/rounds/{key[0]}/pairings/{key[1]}/record"
                status, body = api.call("POST", path, {"record": text}, host)
                assert status == 200 and body["pairing"]["status"] == "finished", body

    return submit


def test_the_checker_agrees_when_things_go_wrong(
    troubled: tuple[Server, dict[str, str]],
) -> None:
    server, secrets = troubled
    api = Api(server.base)
    host = secrets["host"]
    checker = Checker(api, host)
    common = {"variant": "backgammon", "length": 1, "kind": "bots", "move_seconds": 30}

    # A Swiss of six where one bot never joins: its pairings are no-shows, the event ends.
    bots = bots_of(api, secrets, SIX, name="b6", absent=True)
    try:
        swiss = checker.run({"name": "Swiss, one absent", "format": "swiss", "rounds": 3,
                             "entrants": list(SIX), "join_seconds": 2, **common})  # fmt: skip
    finally:
        stopped(bots)
    absent = [p for r in swiss["rounds_played"] for p in r["pairings"] if "b6" in (p["w"], p["b"])]
    assert len(absent) == 3 and {p["termination"] for p in absent} == {"no_show"}

    # A round robin where one entrant withdraws after round 1.
    four = BOTS[:4]
    bots = bots_of(api, secrets, four, name="b4", last_round=1)
    try:
        robin = checker.run({"name": "Round robin, one withdraws", "format": "round-robin",
                             "entrants": list(four), **common},
                            submit=withdrawing(api, host, "b4"))  # fmt: skip
    finally:
        stopped(bots)
    later = [p for r in robin["rounds_played"][1:] for p in r["pairings"]]
    assert {p["termination"] for p in later if "b4" in (p["w"], p["b"])} == {"forfeit"}

    # A knockout on a clock (20 s of reserve, 1 s of delay) where one bot sleeps past it.
    bots = bots_of(api, secrets, BOTS, name="b3", idle=True)
    try:
        knockout = checker.run({"name": "Knockout on a clock", "format": "knockout",
                                "entrants": list(BOTS), **common,
                                "clock": {"reserve_per_point": 20, "delay": 1}})  # fmt: skip
    finally:
        stopped(bots)
    (slept,) = [
        p for r in knockout["rounds_played"] for p in r["pairings"] if "b3" in (p["w"], p["b"])
    ]
    assert slept["termination"] == "time" and slept["winner"] != "b3"

    # A records event whose finished result is voided and replaced after it ended.
    events = (swiss, robin, knockout)
    sources = iter([m for e in events for r in e["rounds_played"] for p in r["pairings"]
                    for m in p["match_ids"]])  # fmt: skip
    club = {"name": "Club night, corrected", "variant": "backgammon", "length": 1,
            "format": "round-robin", "kind": "records",
            "entrants": ["Ann", "Bob", "Cy", "Dee"]}  # fmt: skip
    submit = recorded(api, host, sources)
    night = checker.run(club, submit=submit)
    path = f"/v1/events/{night['id']}/rounds/1/pairings/1"
    (old,) = night["rounds_played"][0]["pairings"][0]["match_ids"]
    status, body = api.call("DELETE", f"/v1/matches/{old}", {"reason": "x"}, secrets["admin"])
    assert (status, body["code"]) == (409, "match_in_use")
    status, body = api.call("POST", f"{path}/void", {"reason": "wrong names"}, host)
    assert status == 200 and body["pairing"]["status"] == "pending", body
    assert api.get(f"/v1/events/{night['id']}")["status"] == "running"
    status, body = api.call(
        "DELETE", f"/v1/matches/{old}", {"reason": "wrong names"}, secrets["admin"]
    )
    assert status == 200 and body["withdrawn_by"] == "auditor", body
    status, body = api.call("GET", f"/v1/matches/{old}")
    assert (status, body["code"], body["reason"]) == (410, "withdrawn", "wrong names")
    # checked again from the start: the ratings before it, its results as they are now
    checker.ledger = [entry for entry in checker.ledger if entry[1] != night["id"]]
    before, _ = fibs(checker.ledger)
    deadline = time.monotonic() + 60
    night = api.get(f"/v1/events/{night['id']}")
    while night["status"] != "finished":
        assert time.monotonic() < deadline, night
        submit(night)
        night = api.get(f"/v1/events/{night['id']}")
    checker.check(night, before)
    (new,) = night["rounds_played"][0]["pairings"][0]["match_ids"]
    assert new != old
    ledger = api.get(f"/v1/events/{night['id']}/ledger")
    assert [(e["action"], e["by"], e["reason"]) for e in ledger] == [
        ("void", "director", "wrong names")
    ]
    checker.check_ratings()


class Failover(Api):
    """Two instances on one archive: a request that cannot reach one goes to the other."""

    def __init__(self, bases: list[str]) -> None:
        self.bases, self.at = bases, 0

    @property  # type: ignore[override]
    def base(self) -> str:
        return self.bases[self.at % len(self.bases)]

    def failed(self) -> None:
        self.at += 1

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        for _ in range(20):
            try:
                return super().call(method, path, body, token)
            except (OSError, http.client.HTTPException):  # refused, or cut off mid-answer
                self.failed()
                time.sleep(0.1)
        raise AssertionError(f"no instance answers {method} {path}")


def test_an_event_goes_on_when_one_of_two_instances_is_killed_mid_round(
    tmp_path: Path,
) -> None:
    """A Swiss of six with one bot that never joins, served by two instances on one
    archive; one is killed (SIGKILL, master and workers) while round 2 plays: the event
    finishes through the other, and the checker agrees with it."""
    database = archive_at(tmp_path)
    secrets = {name: write_token(database, name, "play") for name in SIX}  # type: ignore[arg-type]
    host = write_token(database, "director", "live:host")  # type: ignore[arg-type]
    servers = [
        start(database, workers=2, log=tmp_path / f"server{n}.log", env=LIVE_ENV)  # type: ignore[arg-type]
        for n in (1, 2)
    ]
    api = Failover([server.base for server in servers])
    killed: list[int] = []

    def kill_in_round_2(event: dict[str, Any]) -> None:
        playing = [p for p in event["rounds_played"][-1]["pairings"] if p["status"] == "playing"]
        if not killed and event["round"] == 2 and playing:
            killed.extend(kill_9(servers[0]))

    bots = bots_of(api, secrets, SIX, name="b6", absent=True)
    try:
        event = Checker(api, host).run(
            {"name": "Swiss through a kill", "format": "swiss", "rounds": 3,
             "entrants": list(SIX), "join_seconds": 3, "variant": "backgammon", "length": 1,
             "kind": "bots", "move_seconds": 30},
            submit=kill_in_round_2,
        )  # fmt: skip
    finally:
        stopped(bots)
        for server in servers:
            stop(server)
    assert killed, "the first instance was not killed mid-round"
    assert api.base == servers[1].base
    absent = [p for r in event["rounds_played"] for p in r["pairings"] if "b6" in (p["w"], p["b"])]
    assert {p["termination"] for p in absent} == {"no_show"}
    ended = {p["termination"] for r in event["rounds_played"] for p in r["pairings"]}
    assert "timeout" not in ended  # every bot went on playing through the other instance
