"""``nardy-referee train``: a tiny network trained for about a minute beats the random
player over mirrored games dealt by the referee's own dice (EVENTS.md §7), far beyond
chance; the same seed and number of games give the same weights file; checkpoints write the
file and measure it as the run goes; a run for some minutes stops by the clock; a run
resumes from its file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from referee.players.mirrored import measure
from tests.server import ROOT


def train(out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "referee.cli", "train", "--out", str(out), *more]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)


def header(path: Path) -> dict[str, str]:
    text = path.read_bytes().split(b"\n\n", 1)[0].decode()
    return dict(line.split(" ", 1) for line in text.splitlines()[1:])


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_a_tiny_network_trained_briefly_beats_the_random_player(
    native: ModuleType, tmp_path: Path, variant: str
) -> None:
    out = tmp_path / "tiny.net"
    run = train(out, "--variant", variant, "--seed", "3", "--games", "5000", "--hidden", "16")
    assert run.returncode == 0, run.stderr
    assert "5000 games" in run.stdout and "against the heuristic" in run.stdout
    assert run.stderr == ""  # no bar when nobody watches
    net = native.EngineNetwork.load(out.read_bytes())
    engine = native.EnginePlayer.network(net, 0)
    tally = measure(native, variant, engine, native.EnginePlayer.random, 100, "tiny")
    assert tally.games == 200
    low, _ = tally.interval()
    # Chance alone would win about half: the whole 95 % interval lies far above it.
    assert low > 0.8, tally.line()


def test_the_same_seed_and_games_give_the_same_weights(native: ModuleType, tmp_path: Path) -> None:
    runs = {}
    for name, seed in [("a", "11"), ("b", "11"), ("c", "12")]:
        out = tmp_path / f"{name}.net"
        common = ["--variant", "khachapuri", "--games", "40", "--hidden", "8"]
        assert train(out, *common, "--seed", seed, "--check-pairs", "2").returncode == 0
        runs[name] = out.read_bytes()
    assert runs["a"] == runs["b"]
    assert runs["a"] != runs["c"]
    assert header(tmp_path / "a.net") == {
        "variant": "khachapuri",
        "inputs": "212",
        "hidden": "8",
        "outputs": "5",
        "games": "40",
        "seed": "11",
    }


@pytest.mark.usefixtures("native")
def test_each_checkpoint_writes_the_weights_and_measures_them(tmp_path: Path) -> None:
    """With checkpoints due at once, one follows every batch of games (50 games each), and
    the run's end makes one more; the file holds the last."""
    out = tmp_path / "checked.net"
    common = ["--variant", "khachapuri", "--seed", "5", "--hidden", "8", "--check-pairs", "1"]
    run = train(out, *common, "--games", "120", "--checkpoint-minutes", "0")
    assert run.returncode == 0, run.stderr
    reports = [line for line in run.stdout.splitlines() if "against the heuristic" in line]
    assert [line.split(" games ")[0] for line in reports] == ["50", "100", "120", "120"]
    assert all("2 games" in line and str(out) in line for line in reports)
    assert header(out)["games"] == "120"


@pytest.mark.usefixtures("native")
def test_a_run_for_some_minutes_stops_by_the_clock(tmp_path: Path) -> None:
    out = tmp_path / "timed.net"
    common = ["--variant", "long-nardy", "--seed", "6", "--hidden", "8", "--check-pairs", "1"]
    run = train(out, *common, "--minutes", "0.02")
    assert run.returncode == 0, run.stderr
    assert int(header(out)["games"]) > 0
    assert run.stdout.count("against the heuristic") == 1


def test_a_run_resumes_from_its_weights(native: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "resumed.net"
    common = ["--variant", "long-nardy", "--seed", "4", "--hidden", "8", "--check-pairs", "2"]
    assert train(out, *common, "--games", "30").returncode == 0
    first = out.read_bytes()
    assert train(out, *common, "--games", "20", "--resume").returncode == 0
    assert header(out)["games"] == "50"
    assert out.read_bytes() != first


def test_what_is_no_weights_file_is_refused(native: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "not.net"
    out.write_text("hello\n\nworld")
    run = train(out, "--variant", "long-nardy", "--seed", "1", "--games", "5", "--resume")
    assert run.returncode == 2
    assert "unreadable weights" in run.stderr
    assert out.read_text() == "hello\n\nworld"
