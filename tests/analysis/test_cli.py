"""``nardy-referee analyse``: record files analysed without a server, a table for people
(a column per player, named as the record names them, a row per figure, what PR is) or
each analysis's JSON; exit 2, with the code and the words, for a file not analysed.
``analyse --worker``: record files or a worker, not both; a line for each analysis made."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.analysis.jobs import Archive, archive
from tests.analysis.standins import program
from tests.players.gnubg import require_gnubg
from tests.server import ROOT

__all__ = ["archive"]

EXAMPLES = ROOT / "examples"


def command(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", "analyse", *argv],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_table_and_the_json_say_the_same(tmp_path: Path) -> None:
    gnubg = require_gnubg()
    record = str(EXAMPLES / "backgammon_match.mat")
    table = command("--plies", "0", "--gnubg", gnubg, record)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].startswith(f"{record}: analysed by gnubg ")
    assert "chequer play 0-ply, cube 0-ply, 3 games" in lines[0]
    assert lines[1].split() == ["Alice", "Bob"]
    rows = {line[:36].strip(): line[36:].split() for line in lines[2:-1]}
    assert "gnubg's judgement on eXtreme Gammon's scale" in lines[-1]
    done = command("--plies", "0", "--json", "--gnubg", gnubg, record)
    assert done.returncode == 0, done.stderr
    analysis = json.loads(done.stdout)
    assert (analysis["file"], analysis["status"]) == (record, "done")
    assert analysis["settings"] == {"chequer_plies": 0, "cube_plies": 0}
    for column, side in enumerate("wb"):
        stats = analysis["players"][side]
        assert float(rows["PR"][column]) == stats["pr"]
        assert int(rows["Moves"][column]) == stats["chequer"]["total_moves"]
        assert float(rows["Cube error total (EMG)"][column]) == stats["cube"]["error_total_emg"]


def test_a_file_not_analysed_is_said_and_the_others_are_done(tmp_path: Path) -> None:
    gnubg = require_gnubg()
    backgammon = EXAMPLES / "backgammon_match.mat"
    broken = tmp_path / "broken.mat"
    broken.write_text(backgammon.read_text().replace("31: 8/5 6/5", "31: 8/4 6/5", 1))
    done = command("--plies", "0", "--json", "--gnubg", gnubg, str(broken), str(backgammon))
    assert done.returncode == 2
    assert f"{broken}: error (invalid_record): the record has errors" in done.stderr
    assert "Traceback" not in done.stderr
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(backgammon)]


def test_one_gnubg_analyses_every_file(tmp_path: Path) -> None:
    """The command keeps one gnubg for all its records, each analysed as alone."""
    starts = tmp_path / "starts"
    gnubg = program(tmp_path, f'echo started >> {starts}\nexec {require_gnubg()} "$@"')
    other = tmp_path / "other.mat"
    other.write_text((EXAMPLES / "backgammon_match.mat").read_text().replace("Alice", "Carol"))
    files = [str(EXAMPLES / "backgammon_match.mat"), str(other)]
    done = command("--plies", "0", "--json", "--gnubg", gnubg, *files)
    assert done.returncode == 0, done.stderr
    assert starts.read_text().count("started") == 1
    together = [json.loads(line) for line in done.stdout.splitlines()]
    alone = [
        json.loads(command("--plies", "0", "--json", "--gnubg", gnubg, f).stdout) for f in files
    ]
    assert together == alone
    assert [analysis["names"]["w"] for analysis in together] == ["Alice", "Carol"]


def test_a_nardy_match_is_analysed_by_the_projects_own_engine() -> None:
    """No gnubg needed: the builtin engine judges long nardy and khachapuri."""
    for name in ("long_nardy_match.mat", "khachapuri_match.mat"):
        record = str(EXAMPLES / name)
        done = command("--plies", "1", "--json", "--gnubg", "/nonexistent/gnubg", record)
        assert done.returncode == 0, done.stderr
        analysis = json.loads(done.stdout)
        assert analysis["engine"]["name"] == "nardy-referee"
        assert "1-ply" in analysis["engine"]["version"]
        assert analysis["players"]["w"]["chequer"]["total_moves"] > 0
        assert analysis["players"]["w"]["cube"] is None


def test_gnubg_missing_is_said(tmp_path: Path) -> None:
    done = command("--gnubg", str(tmp_path / "gnubg"), str(EXAMPLES / "backgammon_match.mat"))
    assert done.returncode == 2
    assert "error (engine_missing): gnubg is not installed" in done.stderr
    assert done.stdout == ""


def test_record_files_or_a_worker_neither_both_nor_a_lease_of_none() -> None:
    record = str(EXAMPLES / "backgammon_match.mat")
    for argv in ((), ("--worker", record)):
        refused = command(*argv)
        assert refused.returncode == 2
        assert "analyse takes record files, or --worker alone" in refused.stderr
    zero = command("--worker", "--lease", "0")
    assert zero.returncode == 2 and "not a number of seconds up to 3600: '0'" in zero.stderr


def test_a_worker_says_a_line_for_each_analysis_made_or_failed(
    archive: Archive, tmp_path: Path
) -> None:
    gnubg = require_gnubg()
    match_id = archive.store((EXAMPLES / "backgammon_match.mat").read_text())
    refusing = program(tmp_path, "echo 'no such thing'\nexit 3", "refusing-gnubg")
    said = {
        "failed (engine_failed: gnubg stopped with status 3: no such thing) in ": refusing,
        "done in ": gnubg,
    }
    for outcome, given in said.items():
        made = archive.queue(match_id)  # the second time, the failed one queued again
        done = command("--worker", "--until-idle", "--database", archive.location,
                       "--gnubg", given)  # fmt: skip
        assert done.returncode == 0, done.stderr
        (line,) = done.stdout.splitlines()
        assert line.startswith(f"analysis {made} of match {match_id} (0/0-ply): {outcome}")
        assert line.endswith(" s")
        assert done.stderr.splitlines()[-1] == "nardy-referee: 1 analysis made, none waits"
    assert archive.get(made).status == "done"
