"""GNU Backgammon run as a separate program (Debian's ``gnubg``, text mode; GPL, never
imported), kept running between analyses in a directory of its own (``Gnubg``), fed each
analysis's commands on stdin and killed when its time is up.

The commands load the record (the referee's own SGF export), set the plies, run
``analyse match``, print ``show statistics match`` and ``show statistics game`` for each
game, then run ``in_gnubg.py`` in gnubg's Python to write every record's figures as JSON.
Between the steps an unknown word (``nardy-referee-step-`` with a token of the run's, which
no player's name in the record can foresee) makes gnubg answer with a line that names it,
so its output is cut into the steps that printed it. gnubg reads no
settings of its user (``-r``, ``HOME`` the working directory) and speaks C's English."""

from __future__ import annotations

import json
import os
import re
import secrets
import selectors
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.analysis.errors import EngineFailedError, EngineMissingError, EngineTimeoutError
from referee.analysis.settings import Settings
from referee.errors import shortened

PROGRAM_VARIABLE = "NARDY_REFEREE_GNUBG"
"""Where gnubg is, when it is neither on the PATH nor in /usr/games (Debian's place)."""
DEBIAN_PROGRAM = "/usr/games/gnubg"
THRESHOLDS = {
    "doubtful": "0.03",
    "bad": "0.06",
    "verybad": "0.12",
    "lucky": "0.3",
    "verylucky": "0.6",
    "unlucky": "0.3",
    "veryunlucky": "0.6",
}
"""gnubg's default analysis thresholds (ANALYSIS.md §1), set again in case they differ."""
SCRIPT = Path(__file__).with_name("in_gnubg.py")
RECORD_FILE, FIGURES_FILE = "record.sgf", "analysis.json"
STEP = "nardy-referee-step-"
_VERSION = re.compile(r"GNU Backgammon (\d[\w.]*)")
_BOARD_LINE = re.compile(r"^(?:[ v^][|+]|\s*GNU Backgammon +Position ID|\s*Match ID +:)")
WORDS_SHOWN = 6
"""Lines of gnubg's own words a failure repeats, at most."""


@dataclass(frozen=True, slots=True)
class GnubgOutput:
    """What one gnubg run printed and wrote: its version, ``show statistics`` of the match
    and of each game, and each game's records with their figures (``in_gnubg.py``)."""

    version: str
    match_statistics: str
    game_statistics: tuple[str, ...]
    games: tuple[tuple[Mapping[str, Any], ...], ...]


def find_gnubg(program: str | None = None) -> str:
    """gnubg's executable: ``program`` when given, else ``$NARDY_REFEREE_GNUBG``, else
    ``gnubg`` on the PATH, else Debian's /usr/games/gnubg; EngineMissingError when none."""
    wanted = program or os.environ.get(PROGRAM_VARIABLE)
    found = (
        shutil.which(wanted) if wanted else shutil.which("gnubg") or shutil.which(DEBIAN_PROGRAM)
    )
    if found is None:
        where = wanted or f"the PATH nor {DEBIAN_PROGRAM}"
        raise EngineMissingError(
            f"gnubg is not installed: not found in {where} (Debian: apt-get install gnubg;"
            f" ${PROGRAM_VARIABLE} names another place)"
        )
    return found


def commands(settings: Settings, games: int, step: str) -> str:
    """The commands of one analysis, ``step`` and a step's name before each step."""
    lines = [
        f"set analysis chequerplay evaluation plies {settings.chequer_plies}",
        f"set analysis cubedecision evaluation plies {settings.cube_plies}",
        *(f"set analysis threshold {name} {value}" for name, value in THRESHOLDS.items()),
        f"{step}load",
        f'load match "{RECORD_FILE}"',
        f"{step}analyse",
        "analyse match",
        f"{step}match",
        "show statistics match",
    ]
    for number in range(1, games + 1):
        lines += [f"{step}game-{number}", "first game" if number == 1 else "next game"]
        lines.append("show statistics game")
    lines += [f"{step}figures", f'load python "{SCRIPT.name}"', f"{step}end"]
    return "\n".join(lines) + "\n"


def run_gnubg(
    sgf: str, settings: Settings, games: int, program: str, timeout: float
) -> GnubgOutput:
    """Analyse the ``games`` games of the SGF record ``sgf`` with a gnubg of its own at
    ``program``, stopped after it (``Gnubg.analyse`` says what is refused)."""
    with Gnubg(program, kept=False) as gnubg:
        return gnubg.analyse(sgf, settings, games, timeout)


class Gnubg:
    """One gnubg kept running between analyses, made one at a time in its directory: started
    for the first, and again after an analysis it did not finish well (refused, past its
    time, stopped, crashed: the next starts afresh); ``close`` (or a ``with``'s end) kills
    it, and one that ended between analyses or made ``ANALYSES_PER_GNUBG`` is replaced. A
    worker keeps one, so gnubg's start (about 0.1 s: its networks read) is paid once, not
    for every match. One not ``kept`` makes a single analysis: its input ends with the
    commands, so a program that stops early says so by stopping."""

    def __init__(self, program: str, kept: bool = True) -> None:
        self.program = program
        self.kept = kept
        self.version = "unknown"
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._made = 0

    def __enter__(self) -> Gnubg:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def analyse(self, sgf: str, settings: Settings, games: int, timeout: float) -> GnubgOutput:
        """Analyse the ``games`` games of the SGF record ``sgf``; EngineTimeoutError past
        ``timeout`` seconds (gnubg is killed), EngineFailedError when gnubg refuses the
        record or stops without every figure (its own words said)."""
        token = secrets.token_hex(8)
        step = f"{STEP}{token}-"
        place = self._place()
        (place / RECORD_FILE).write_text(marked(sgf, token), encoding="utf-8")
        (place / FIGURES_FILE).unlink(missing_ok=True)
        script = commands(settings, games, step)
        try:
            kept = self._kept()
            printed, status = self._exchange(script, step, timeout)
            if status != 0 and kept and step not in printed:
                # the kept gnubg ended before it read this record (killed as it was given
                # it): the record goes to a new one, not failed for it
                self._stop()
                printed, status = self._exchange(script, step, timeout)
            steps = dict(_steps(printed, step))
            found = _figures(place / FIGURES_FILE)
            output = self._output(steps, found, printed, status, games, token)
        except BaseException:
            self.close()  # whatever it is left in, the next analysis has a new one
            raise
        self._made += 1
        if self._made >= ANALYSES_PER_GNUBG:
            self._stop()  # the next analysis starts a new one
        return output

    def close(self) -> None:
        """Kill gnubg, if it runs, and wait for it; remove its directory."""
        self._stop()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def _kept(self) -> bool:
        """Whether a gnubg is kept running for the next record; one that ended between
        analyses (killed, crashed) is let go, not blamed on that record."""
        if self._process is not None and self._process.poll() is not None:
            self._stop()
        return self._process is not None

    def _stop(self) -> None:
        """Kill gnubg, if it runs, and wait for it (killed before it is forgotten, so a stop
        that comes meanwhile cannot leave it running)."""
        process = self._process
        if process is not None:
            with process:  # closes its pipes
                if process.returncode is None:
                    process.kill()
            self._process = None
        self._made = 0

    def _output(
        self,
        steps: dict[str, str],
        found: Any,
        printed: str,
        status: int,
        games: int,
        token: str,
    ) -> GnubgOutput:
        """What gnubg printed and wrote, or EngineFailedError saying why it is not all."""
        if status != 0:
            after = [text for name, text in steps.items() if name != "start"]
            said = _words("".join(after) if after else printed)
            raise EngineFailedError(f"gnubg stopped with status {status}: {said}")
        if found is not None and found.get("mark") != token:
            found = None  # gnubg kept the last match: it did not load this one
        if found is None or len(found["games"]) != games:
            said = _words(steps.get("load", "") + steps.get("analyse", ""))
            if found is None:  # gnubg's Python did not write the figures: say why
                said = _words(steps.get("load", "") + steps.get("figures", ""))
            read = f"{len(found['games'])} of the {games} games" if found else "no figures"
            raise EngineFailedError(f"gnubg read {read} of the record: {said}")
        wanted = ["match", *(f"game-{number}" for number in range(1, games + 1))]
        if any(name not in steps for name in wanted):
            raise EngineFailedError(f"gnubg did not print every statistic: {_words(printed)}")
        version = _VERSION.search(steps.get("start", ""))
        if version:
            self.version = version.group(1)
        return GnubgOutput(
            self.version,
            steps["match"],
            tuple(steps[f"game-{number}"] for number in range(1, games + 1)),
            tuple(tuple(game) for game in found["games"]),
        )

    def _place(self) -> Path:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="nardy-gnubg-")
            shutil.copyfile(SCRIPT, Path(self._folder.name) / SCRIPT.name)
        return Path(self._folder.name)

    def _exchange(self, script: str, step: str, timeout: float) -> tuple[str, int]:
        """Give gnubg ``script`` and read what it prints (stdout and stderr as one, in the
        order printed) up to the line naming ``step``'s end: that output and 0, or all it
        printed and its exit status when it stopped first."""
        process = self._process or self._start()
        assert process.stdin is not None and process.stdout is not None
        end = f"{step}end".encode()
        deadline = time.monotonic() + timeout
        pending, printed = memoryview(script.encode()), bytearray()
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if pending:
                os.set_blocking(process.stdin.fileno(), False)
                selector.register(process.stdin, selectors.EVENT_WRITE)
            while end not in printed[-len(end) - _CHUNK :]:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise EngineTimeoutError(
                        f"gnubg was still analysing after {timeout:g} s and was stopped"
                    )
                for key, _ in selector.select(left):
                    if key.fileobj is process.stdin:
                        try:
                            pending = pending[os.write(process.stdin.fileno(), pending) :]
                        except BrokenPipeError:
                            pending = pending[:0]  # it stopped: its status says so
                        if not pending:
                            selector.unregister(process.stdin)
                            if not self.kept:
                                process.stdin.close()
                        continue
                    chunk = os.read(process.stdout.fileno(), _CHUNK)
                    if not chunk:  # gnubg stopped
                        return _text(printed), _ended(process, deadline, timeout)
                    printed += chunk
        return _text(printed), 0

    def _start(self) -> subprocess.Popen[bytes]:
        environment = {
            **os.environ,
            "HOME": str(self._place()),
            "LC_ALL": "C",
            "LANG": "C",
            "LANGUAGE": "C",
        }
        try:
            _Starting.now = True
            try:
                self._process = subprocess.Popen(
                    [self.program, "-t", "-q", "-r"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    cwd=self._place(),
                    env=environment,
                )
            finally:
                _Starting.now = False
        except OSError as error:
            raise EngineMissingError(
                f"gnubg could not be started ({self.program}): {error}"
            ) from None
        if _Starting.stopped:  # a stop came while it started: now that it is known
            _Starting.stopped = False
            raise KeyboardInterrupt
        return self._process


_CHUNK = 65536
"""Bytes read from gnubg at a time."""
ANALYSES_PER_GNUBG = 200
"""Analyses a kept gnubg makes before a new one is started: its memory grows by about
100 kB an analysis (80.6 MB to 87.1 MB over 60 at 0-ply), and a start costs 0.1 s."""


def _ended(process: subprocess.Popen[bytes], deadline: float, timeout: float) -> int:
    """The exit status of gnubg, which closed its output; EngineTimeoutError past the
    deadline."""
    try:
        return process.wait(max(deadline - time.monotonic(), 0.0))
    except subprocess.TimeoutExpired:
        raise EngineTimeoutError(
            f"gnubg was still analysing after {timeout:g} s and was stopped"
        ) from None


def marked(sgf: str, token: str) -> str:
    """gnubg's copy of the record with ``token`` as White's rating (``WR``, which gnubg
    keeps in its match information and prints in no statistic; the referee writes no
    ratings): the figures say which record gnubg had loaded, since a gnubg that fails to
    load a record keeps the last one."""
    return sgf.replace("(;", f"(;WR[{token}]", 1)


def _text(printed: bytearray) -> str:
    return printed.decode(errors="replace")


class _Starting:
    """Whether this process is starting gnubg, and whether a stop came meanwhile."""

    now = False
    stopped = False


def stop_now() -> None:
    """What a worker's SIGTERM or Ctrl-C does: KeyboardInterrupt at once, or, while gnubg
    is being started, as soon as it has been. A stop between the fork and ``Popen``'s
    return would lose the child's pid (it is assigned after the fork returns) and leave
    gnubg running with nobody to stop it, as a stand-in gnubg did on a loaded machine."""
    if _Starting.now:
        _Starting.stopped = True
        return
    raise KeyboardInterrupt


def _figures(path: Path) -> Any:
    """What ``in_gnubg.py`` wrote, or None when it wrote nothing readable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _steps(printed: str, step: str) -> Iterator[tuple[str, str]]:
    """Each step's name and what gnubg printed in it (``start`` before the first)."""
    marker = re.compile(re.escape(step) + r"([a-z0-9-]+)")
    name, lines = "start", []
    for line in printed.splitlines():
        found = marker.search(line)
        if found is None:
            lines.append(line)
            continue
        yield name, "\n".join(lines) + "\n"
        name, lines = found.group(1), []
    yield name, "\n".join(lines) + "\n"


def _words(printed: str) -> str:
    """gnubg's own words in ``printed``: its lines but boards and blanks, the first few."""
    lines = (line for line in printed.splitlines() if not _BOARD_LINE.match(line))
    said = [line.strip() for line in lines if line.strip()]
    if not said:
        return "it said nothing"
    return str(shortened("; ".join(said[:WORDS_SHOWN])))
