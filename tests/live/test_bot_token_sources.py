"""Where ``nardy-referee bot`` takes its token from, so that it need not stand on the
command line (where ``ps`` shows it): ``--token-file``, ``$NARDY_REFEREE_TOKEN``, or
``--token``; without any, the bot says so and exits 2 before it connects."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.cli import build_parser, main
from referee.cli.live import bot_token
from tests.live.harness import Tokens, create
from tests.server import Server

URL = "http://127.0.0.1:9/v1/live/1"  # nothing listens: a bot that connected would fail


def token_of(*argv: str) -> str:
    return bot_token(build_parser("bot").parse_args(["bot", "--url", URL, *argv]))


def test_the_flag_the_file_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NARDY_REFEREE_TOKEN", "from-the-environment")
    secret = tmp_path / "token"
    secret.write_text("from-the-file\n")
    assert token_of("--token-file", str(secret)) == "from-the-file"  # the newline dropped
    assert token_of("--token", "from-the-flag") == "from-the-flag"
    assert token_of() == "from-the-environment"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([], "no token: give --token-file FILE, set $NARDY_REFEREE_TOKEN or --token"),
        (["--token-file", "{missing}"], "cannot read the token file"),
        (["--token-file", "{empty}"], "is empty"),
    ],
)
def test_no_token_exits_2_saying_where_one_goes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    said: str,
) -> None:
    monkeypatch.delenv("NARDY_REFEREE_TOKEN", raising=False)
    (tmp_path / "empty").write_text(" \n")
    files = {"missing": tmp_path / "missing", "empty": tmp_path / "empty"}
    argv = [word.format(**files) for word in argv]
    assert main(["bot", "--url", URL, *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and said in err and "Connection refused" not in err


def test_the_flag_and_the_file_together_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["bot", "--url", URL, "--token", "a", "--token-file", str(tmp_path / "t")])
    assert exit_info.value.code == 2


def test_bots_play_with_a_token_file_and_the_environment(
    setup: tuple[Server, Tokens],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server, tokens = setup
    live_id = create(server, tokens, "long-nardy")["id"]
    url = f"{server.base}/v1/live/{live_id}"
    alice = tmp_path / "alice.token"
    alice.write_text(tokens.alice + "\n")
    monkeypatch.setenv("NARDY_REFEREE_TOKEN", tokens.bob)
    argvs = [["bot", "--url", url, "--token-file", str(alice)], ["bot", "--url", url]]
    with ThreadPoolExecutor(len(argvs)) as pool:  # the two bots play each other
        codes = list(pool.map(main, argvs, timeout=120))
    assert codes == [0, 0]
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [report["status"] for report in reports] == ["finished", "finished"]
    final = server.json("GET", f"/v1/live/{live_id}")
    assert final["status"] == "finished"
