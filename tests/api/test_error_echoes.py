"""Huge bad inputs sent to every endpoint: whatever an answer repeats of them is cut to a few
hundred characters, with a visible ellipsis where it was cut (issue 18).

Every text field, query parameter, option name and value gets a 60,000-character run of
one letter; every record line, cell and header tag one of 4,000 (a longer line is skipped
unread); a position field, a play, a Snowie cell ... is built around it where the text must
first be read that far, and long plays that read (``8/5(15)`` repeated) are judged. Every
operation of openapi.yaml has cases (a test says so), so a new endpoint cannot be left out.

What is asserted of each answer (any status, JSON or not): every text in it (keys too), but
``instance``, the request's path, is at most twice ``MAX_MESSAGE`` characters (a message
around a cut echo); every run of the letter sent is at most ``MAX_MESSAGE`` long and, when
longer than ``SHORT_ECHO``, followed at once by ``…``; no answer is a 5xx.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient

from referee.app import create_app
from referee.errors import MAX_MESSAGE
from tests.api.support import archive_at
from tests.server import write_token

ROOT = Path(__file__).resolve().parents[2]
LETTER = "q"
HUGE = LETTER * 60_000
SHORT_ECHO = 40
"""A run of the letter this long or shorter may be an echo that needs no cut."""
LN = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 66 - 0:0-0 -"
BG = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -"
RECORD = (ROOT / "examples" / "backgammon_match.mat").read_text()
LONG = LETTER * 4_000
"""A record line past 4,096 characters is skipped unread (``line_too_long``): within it."""
GAME = "\n 1 point match\n\n Game 1\n A : 0                         B : 0\n"
BAD_RECORDS = {
    "no structure": LONG,
    "a line before the first game": LONG + "\n" + RECORD,
    "an unreadable cell": GAME + "  1) 31: 8/5 6/5 " + LONG + "\n",
    "a long play": GAME + "  1) 31: 8/5 6/5" + " 8/5" * 900 + "\n",
    "repeat counts": GAME + "  1) 31: 8/5 6/5" + " 8/5(15)" * 400 + "\n",
    "an unreadable Set Pos": GAME + "; Set Pos=" + LONG + "\n  1) 31: 8/5 6/5\n",
    "an unreadable Snowie cell": GAME + "  1) 31: Illegal play (" + LONG + ")\n",
    "a Snowie field": GAME + "  1) 31: Illegal play (" + ";".join(["0"] * 4 + [LONG]) + ")\n",
    "a Variation tag": f'; [Variation "{LONG}"]\n' + RECORD,
    "a StartPosition tag": f'; [StartPosition "{LONG}"]\n' + RECORD,
    "a StartPosition field": f'; [StartPosition "{LN.replace(" - 0:", f" {LONG} 0:")}"]\n' + RECORD,
    "a Rules tag": f'; [Rules "{LONG}=1"]\n' + RECORD,
    "a Rules value": f'; [Rules "crawford={LONG}"]\n' + RECORD,
    "a Crawford tag": f'; [Crawford "{LONG}"]\n' + RECORD,
    "a CubeLimit tag": f'; [CubeLimit "{LONG}"]\n' + RECORD,
}
POSITIONS = {
    "the whole string": HUGE,
    "field 1": f"{HUGE} ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 66 - 0:0-0 -",
    "field 2": f"long-nardy {HUGE} w0b0 w0b0 w 66 - 0:0-0 -",
    "field 6": LN.replace(" 66 ", f" {HUGE} "),
    "field 7": LN.replace(" 66 -", f" 66 {HUGE}"),
    "field 9": LN[:-1] + HUGE,
}
OPTIONS = {"an option name": {HUGE: True}, "an option value": {"block_rule": HUGE}}


@dataclass
class Case:
    method: str
    path: str
    """The path as openapi.yaml writes it (``{match_id}``...)."""
    what: str
    url: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    token: str = "none"


def body_cases(method: str, path: str, url: str, base: dict[str, Any], token: str) -> list[Case]:
    """A JSON body ``base`` spoiled in every way: each text field huge, a huge unknown
    field, and huge option names and values where the body takes options."""
    cases = [Case(method, path, "an unknown field", url, {"json": {**base, HUGE: 1}}, token)]
    for name, value in base.items():
        if isinstance(value, str):
            spoiled = {**base, name: HUGE}
            cases.append(Case(method, path, f"field {name}", url, {"json": spoiled}, token))
    if "options" in base:
        for what, options in OPTIONS.items():
            spoiled = {**base, "options": options}
            cases.append(Case(method, path, what, url, {"json": spoiled}, token))
    return cases


def query_cases(method: str, path: str, url: str, names: list[str], **kwargs: Any) -> list[Case]:
    """Each query parameter huge, and a huge unknown one (the test client has no request
    line limit: these are what the app answers past its documented maxima)."""
    token = kwargs.pop("token", "none")
    cases = [Case(method, path, "an unknown parameter", f"{url}?{HUGE}=1", kwargs, token)]
    for name in names:
        cases.append(Case(method, path, f"parameter {name}", f"{url}?{name}={HUGE}", kwargs, token))
    return cases


def record_cases(method: str, path: str, url: str, token: str, base: dict[str, Any]) -> list[Case]:
    cases = body_cases(method, path, url, {"record": RECORD, **base}, token)
    for what, record in BAD_RECORDS.items():
        body = {**base, "record": record}
        cases.append(Case(method, path, f"a record with {what}", url, {"json": body}, token))
    text = {"data": RECORD, "content_type": "text/plain"}
    names = [name for name in ("variant", "mode", "options", "allow_invalid") if name in base]
    cases += query_cases(method, path, url, names, token=token, **text)
    json_options = "options=" + json.dumps({HUGE: 1})
    cases.append(Case(method, path, "query options JSON", f"{url}?{json_options}", text, token))
    return cases


def all_cases() -> list[Case]:
    cases: list[Case] = []
    for path in ("/v1/plays/legal", "/v1/plays/check"):
        base: dict[str, Any] = {"position": LN, "options": {}}
        if path.endswith("check"):
            base["play"] = "24/18 18/12"
        cases += body_cases("post", path, path, base, "none")
        for what, position in POSITIONS.items():
            body = {**base, "position": position}
            cases.append(Case("post", path, f"a position with {what}", path, {"json": body}))
    for what, play in {
        "a play": "24/18 " + HUGE,
        "a dice prefix": "31: " + HUGE,
        "a long readable play": "8/5 " * 15_000,
        "repeat counts": "8/5(15) 6/5(15) " * 2_000,
    }.items():
        body = {"position": BG, "play": play}
        cases.append(Case("post", "/v1/plays/check", what, "/v1/plays/check", {"json": body}))
    for what, position in {
        **POSITIONS,
        "an XGID": "XGID=" + HUGE[:4000],
        "XGID fields": ":".join(["-" * 26] + [HUGE[:400]] * 9),
        "a GNUbg id": HUGE[:14] + ":" + HUGE[:12],
    }.items():
        body = {"position": position[:4096], "to": "xgid"}
        url = "/v1/positions/convert"
        cases.append(Case("post", url, f"a position with {what}", url, {"json": body}))
    cases += body_cases("post", "/v1/positions/convert", "/v1/positions/convert",
                        {"position": BG, "to": "xgid"}, "none")  # fmt: skip
    svg = "/v1/positions/svg"
    names = ["position", "orientation", "before", "white", "black", "size"]
    cases += query_cases("get", svg, f"{svg}?position={LN}&", names[1:])
    for what, position in POSITIONS.items():
        cases.append(Case("get", svg, f"a position with {what}", f"{svg}?position={position}"))
    cases += record_cases("post", "/v1/records/check", "/v1/records/check", "none",
                          {"variant": "backgammon", "mode": "strict", "options": {}})  # fmt: skip
    submit = {"variant": "backgammon", "allow_invalid": False, "options": {}}
    cases += record_cases("post", "/v1/matches", "/v1/matches", "writer", submit)
    imports = "/v1/matches/import"
    for what, items in {
        "an unknown field": [{"record": RECORD, HUGE: 1}],
        "a huge variant": [{"record": RECORD, "variant": HUGE}],
        "a huge option": [{"record": RECORD, "options": {HUGE: 1}}],
        "a huge record": [HUGE],
        "a bad record": [BAD_RECORDS["an unreadable cell"]],
    }.items():
        cases.append(Case("post", imports, what, imports, {"json": items}, "writer"))
    names = ["player", "event", "variant", "valid", "from", "to", "q", "limit", "cursor"]
    cases += query_cases("get", "/v1/matches", "/v1/matches", names)
    one = "/v1/matches/{match_id}"
    cases += query_cases("get", one, "/v1/matches/1", ["format"])
    cases.append(Case("get", one, "a huge id", "/v1/matches/" + "9" * 4000))
    cases += body_cases("delete", one, "/v1/matches/1", {"reason": "r"}, "writer")
    cases.append(Case("delete", one, "a huge id", "/v1/matches/" + "9" * 4000, {}, "writer"))
    recheck = "/v1/matches/{match_id}/check"
    cases += body_cases("post", recheck, "/v1/matches/1/check", {"mode": "strict", "options": {}},
                        "none")  # fmt: skip
    replay = "/v1/matches/{match_id}/games/{index}/replay"
    cases.append(
        Case("get", replay, "a huge game", "/v1/matches/1/games/" + "9" * 4000 + "/replay")
    )
    cases.append(
        Case("get", replay, "a huge match", "/v1/matches/" + "9" * 4000 + "/games/1/replay")
    )
    cases += analysis_cases()
    live = {"variant": "backgammon", "length": 1, "players": {"w": "alice", "b": "bob"}}
    cases += body_cases("post", "/v1/live", "/v1/live", live, "host")
    for side in ("w", "b"):
        body = {**live, "players": {**live["players"], side: HUGE}}
        cases.append(Case("post", "/v1/live", f"player {side}", "/v1/live", {"json": body}, "host"))
    cases += body_cases("post", "/v1/live/{live_id}/join", "/v1/live/1/join", {"seed": ""}, "bob")
    actions = "/v1/live/{live_id}/actions"
    for what, body in {
        "an unknown field": {"ply": 0, "action": "play", "play": "", HUGE: 1},
        "an action": {"ply": 0, "action": HUGE},
        "a play": {"ply": 0, "action": "play", "play": "24/18 " + HUGE},
        "an unreadable play": {"ply": 0, "action": "play", "play": HUGE},
    }.items():
        cases.append(Case("post", actions, what, "/v1/live/1/actions", {"json": body}, "to act"))
    for path in ("/v1/live/{live_id}", "/v1/live/{live_id}/dice", "/v1/live/{live_id}/abort",
                 "/v1/live/{live_id}/stream"):  # fmt: skip
        method = "post" if path.endswith("abort") else "get"
        url = path.replace("{live_id}", "9" * 4000)
        cases.append(Case(method, path, "a huge id", url, {}, "host"))
    for path in ("/healthz", "/readyz", "/v1/variants", "/v1/records/formats", "/openapi.yaml"):
        cases.append(Case("get", path, "an unknown parameter", f"{path}?{HUGE}=1"))
    return cases + event_cases()


def analysis_cases() -> list[Case]:
    """The analyses of ANALYSIS.md §2: their settings, and the ids of matches and analyses."""
    huge = "9" * 4000
    queue = "/v1/matches/{match_id}/analyses"
    plies = {"chequer_plies": 0, "cube_plies": 0}
    cases = body_cases("post", queue, "/v1/matches/1/analyses", plies, "writer")
    for name in plies:
        body = {**plies, name: HUGE}
        cases.append(Case("post", queue, f"{name} huge", "/v1/matches/1/analyses",
                          {"json": body}, "writer"))  # fmt: skip
    url = queue.replace("{match_id}", huge)
    cases.append(Case("post", queue, "a huge id", url, {"json": plies}, "writer"))
    cases += query_cases("get", queue, "/v1/matches/1/analyses", [])
    cases.append(Case("get", queue, "a huge id", url))
    one = "/v1/analyses/{analysis_id}"
    cases += query_cases("get", one, "/v1/analyses/1", [])
    cases.append(Case("get", one, "a huge id", one.replace("{analysis_id}", huge)))
    return cases


def event_cases() -> list[Case]:
    """The events of EVENTS.md: their bodies, queries and ids."""
    event = {"name": "n", "variant": "backgammon", "length": 1, "format": "swiss", "rounds": 1,
             "kind": "records", "entrants": ["a", "b"], "options": {}}  # fmt: skip
    cases = body_cases("post", "/v1/events", "/v1/events", event, "host")
    body = {**event, "entrants": [HUGE, "b"]}
    cases.append(Case("post", "/v1/events", "an entrant", "/v1/events", {"json": body}, "host"))
    cases += query_cases("get", "/v1/events", "/v1/events", ["status", "limit", "cursor"])
    huge = "9" * 4000
    for export in ("", "/standings.json", "/standings.csv", "/records.zip", "/stream", "/ledger"):
        path = "/v1/events/{event_id}" + export
        cases.append(Case("get", path, "a huge id", path.replace("{event_id}", huge)))
    start = "/v1/events/{event_id}/start"
    cases.append(Case("post", start, "a huge id", start.replace("{event_id}", huge), {}, "host"))
    pairing = "/v1/events/{event_id}/rounds/{number}/pairings/{table}"
    url = "/v1/events/1/rounds/1/pairings/1"
    cases += body_cases("post", pairing + "/record", url + "/record", {"record": RECORD}, "host")
    result = {"winner": "w", "reason": "r"}
    cases += body_cases("post", pairing + "/result", url + "/result", result, "host")
    cases += body_cases("post", pairing + "/void", url + "/void", {"reason": "r"}, "host")
    withdraw = "/v1/events/{event_id}/entrants/{name}/withdraw"
    cases += body_cases(
        "post", withdraw, "/v1/events/1/entrants/a/withdraw", {"reason": "r"}, "host"
    )
    cases.append(
        Case("post", withdraw, "a huge name", f"/v1/events/1/entrants/{HUGE}/withdraw",
             {"json": {"reason": "r"}}, "host")
    )  # fmt: skip
    cases.append(Case("get", "/v1/bot/stream", "an unknown parameter", f"/v1/bot/stream?{HUGE}=1"))
    cases += query_cases("get", "/v1/ratings", "/v1/ratings", ["variant"])
    one = "/v1/ratings/{name}"
    cases += query_cases("get", one, "/v1/ratings/ann", ["variant"])
    cases.append(Case("get", one, "a huge name", f"/v1/ratings/{HUGE}?variant=backgammon"))
    return cases + challenge_cases()


def challenge_cases() -> list[Case]:
    """The challenges of EVENTS.md §14: their bodies, ids, policies and the bots online."""
    body = {"opponent": "bob", "variant": "backgammon", "length": 1, "options": {}}
    cases = body_cases("post", "/v1/challenges", "/v1/challenges", body, "alice")
    call = {**body, "variant": "x" * 40, "opponent": None}
    cases.append(
        Case("post", "/v1/challenges", "a variant", "/v1/challenges", {"json": call}, "alice")
    )
    one = "/v1/challenges/{challenge_id}"
    cases.append(Case("get", one, "a huge id", one.replace("{challenge_id}", "9" * 4000)))
    for answer in ("accept", "cancel"):
        cases.append(Case("post", f"{one}/{answer}", "a huge id",
                          f"/v1/challenges/{'9' * 4000}/{answer}", {}, "bob"))  # fmt: skip
    decline = one + "/decline"
    cases += body_cases("post", decline, "/v1/challenges/1/decline", {"reason": "r"}, "bob")
    policy = "/v1/bots/{name}/policy"
    base = {"accept": ["carol"], "block": [], "variants": ["backgammon"]}
    cases += body_cases("put", policy, "/v1/bots/alice/policy", base, "alice")
    for field_name in ("accept", "block", "variants"):
        spoiled = {**base, field_name: [HUGE]}
        cases.append(Case("put", policy, f"a name in {field_name}", "/v1/bots/alice/policy",
                          {"json": spoiled}, "alice"))  # fmt: skip
    cases.append(Case("put", policy, "a huge name", f"/v1/bots/{HUGE}/policy",
                      {"json": base}, "alice"))  # fmt: skip
    cases.append(
        Case("get", "/v1/bots/online", "an unknown parameter", f"/v1/bots/online?{HUGE}=1")
    )
    return cases


CASES = all_cases()


def test_every_operation_of_the_contract_gets_huge_inputs() -> None:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    operations = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert operations == {(case.method, case.path) for case in CASES}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FlaskClient, dict[str, str]]]:
    """An app with a stored match (1) and a live match in play (1), and the tokens."""
    database = archive_at(tmp_path_factory.mktemp("echoes"))
    tokens = {
        "writer": write_token(database, "writer"),
        "host": write_token(database, "host", "live:host"),
        "alice": write_token(database, "alice", "play"),
        "bob": write_token(database, "bob", "play"),
    }
    client = create_app({"DATABASE": str(database)}).test_client()
    stored = client.post("/v1/matches", json={"record": RECORD}, headers=bearer(tokens["writer"]))
    assert stored.status_code == 201, stored.get_data(as_text=True)
    body = {"variant": "backgammon", "length": 1, "players": {"w": "alice", "b": "bob"}}
    created = client.post("/v1/live", json=body, headers=bearer(tokens["host"]))
    assert created.status_code == 201, created.get_data(as_text=True)
    for bot in ("alice", "bob"):
        client.post("/v1/live/1/join", json={}, headers=bearer(tokens[bot]))
    state = client.get("/v1/live/1").get_json()
    assert state["status"] == "playing" and state["ply"] == 0
    tokens["to act"] = tokens["alice" if state["to_act"] == "w" else "bob"]
    yield client, tokens


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def texts(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, text) of every text in a JSON value, keys included (as ``key``)."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield "key", name
            yield from texts(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item, key)


RUN = re.compile(f"{LETTER}{{{SHORT_ECHO + 1},}}")


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=lambda case: f"{case.method} {case.path}: {case.what}",
)
def test_an_answer_repeats_a_few_hundred_characters_of_a_huge_input_at_most(
    env: tuple[FlaskClient, dict[str, str]], case: Case
) -> None:
    client, tokens = env
    headers = bearer(tokens[case.token]) if case.token in tokens else {}
    response = client.open(case.url, method=case.method.upper(), headers=headers, **case.kwargs)
    raw = response.get_data(as_text=True)
    assert response.status_code < 500, raw[:2000]
    if "json" in response.mimetype:  # JSON, problem+json, NDJSON
        answers = [json.loads(line) for line in raw.splitlines()]
        found = [(key, text) for answer in answers for key, text in texts(answer)]
    else:  # an SVG board, the YAML contract
        found = [("", raw)]
    for key, text in found:
        if key == "instance":
            continue
        assert not key or len(text) <= 2 * MAX_MESSAGE, (key, text[:300])
        for run in RUN.finditer(text):
            assert len(run[0]) <= MAX_MESSAGE, (key, text[:300])
            assert text[run.end() : run.end() + 1] == "…", (key, text[max(0, run.start() - 80) :])
