"""Where the commands find the archive, and that a command that only reads never makes
one: ``$NARDY_REFEREE_DATABASE``, else the user's own file under ``$XDG_DATA_HOME`` (or
``~/.local/share``), the same for the server and every command, wherever they are run."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app import create_app
from referee.cli import build_parser, main
from referee.storage.location import archive_location, user_archive

READING = [
    ["export", "9"],
    ["ratings"],
    ["ratings", "--recompute"],
    ["tokens", "list"],
    ["tokens", "revoke", "1"],
    ["recheck"],
]
"""Commands that read an archive (or change what is in one) and so never make one."""


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A user with nothing set: a fresh home, no $NARDY_REFEREE_DATABASE, no
    $XDG_DATA_HOME, the commands run from another folder."""
    monkeypatch.delenv("NARDY_REFEREE_DATABASE")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return tmp_path / "home"


def test_the_environment_names_the_archive() -> None:
    given = {"NARDY_REFEREE_DATABASE": "/srv/a.sqlite3", "XDG_DATA_HOME": "/data"}
    assert archive_location(given) == "/srv/a.sqlite3"
    assert archive_location({**given, "NARDY_REFEREE_DATABASE": ""}) == (
        "/data/nardy-referee/referee.sqlite3"
    )


def test_the_users_archive_is_under_xdg_data_home_or_local_share() -> None:
    assert user_archive({"XDG_DATA_HOME": "/data", "HOME": "/home/u"}) == Path(
        "/data/nardy-referee/referee.sqlite3"
    )
    # A relative XDG_DATA_HOME is ignored (XDG base directory specification).
    for environ in ({"HOME": "/home/u"}, {"XDG_DATA_HOME": "data", "HOME": "/home/u"}):
        assert user_archive(environ) == Path("/home/u/.local/share/nardy-referee/referee.sqlite3")


def test_the_server_and_the_commands_default_to_the_same_archive(home: Path) -> None:
    expected = str(home / ".local/share/nardy-referee/referee.sqlite3")
    for argv in READING:
        assert build_parser(argv[0]).parse_args(argv).database == expected, argv
    app = create_app()  # it makes and migrates its archive
    assert app.config["DATABASE"] == expected
    assert Path(expected).is_file()


@pytest.mark.parametrize("argv", READING, ids=" ".join)
def test_a_reading_command_refuses_to_make_an_archive(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    expected = home / ".local/share/nardy-referee/referee.sqlite3"
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"(no_archive): there is no archive at {expected}" in err
    assert "NARDY_REFEREE_DATABASE" in err
    assert not expected.exists() and list(Path.cwd().iterdir()) == []


def test_tokens_create_makes_the_users_archive(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tokens", "create", "--scope", "archive:write"]) == 0
    capsys.readouterr()
    assert (home / ".local/share/nardy-referee/referee.sqlite3").is_file()
    assert main(["tokens", "list"]) == 0  # now there is one to read
    assert "archive:write" in capsys.readouterr().out
    assert list(Path.cwd().iterdir()) == []


def test_a_given_archive_that_is_not_there_is_named(
    home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "typo.sqlite3"
    assert main(["export", "1", "--database", str(missing)]) == 2
    assert f"there is no archive at {missing}" in capsys.readouterr().err
    assert not missing.exists()


@pytest.mark.parametrize("after", [False, True], ids=["before the action", "after it"])
def test_tokens_take_the_archive_before_or_after_their_action(
    home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, after: bool
) -> None:
    given = str(tmp_path / "given.sqlite3")

    def tokens(action: list[str]) -> int:
        where = ["--database", given]
        return main(["tokens", *action, *where] if after else ["tokens", *where, *action])

    assert tokens(["create", "--scope", "play", "--name", "alpha"]) == 0
    assert tokens(["list"]) == 0
    assert "alpha" in capsys.readouterr().out
    assert tokens(["revoke", "1"]) == 0
    assert not (home / ".local/share/nardy-referee/referee.sqlite3").exists()


def test_an_unknown_scope_is_answered_with_the_scopes_by_name(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["tokens", "create", "--scope", "archive:writ"])
    err = capsys.readouterr().err
    assert "'archive:write'" in err and "Scope." not in err
