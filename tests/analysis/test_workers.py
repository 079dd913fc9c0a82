"""Workers as programs sharing one archive's analyses (ANALYSIS.md §4), against Debian's
gnubg at 0-ply: a worker killed with -9 while its gnubg works leaves the analysis to
another once its lease runs out, made once; two workers (two processes, as two hosts
would run them) over one PostgreSQL archive share a queue of 40 analyses, none made
twice; a server's own workers (``NARDY_REFEREE_ANALYSIS_WORKERS``) make what its API
queued."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from referee.storage import open_storage, prepare_storage
from tests.analysis.jobs import Archive, archive, lines_of, start_worker
from tests.analysis.standins import program
from tests.events.support import until
from tests.played import match_record
from tests.players.gnubg import require_gnubg
from tests.server import ROOT, start, stop, write_token
from tests.storage.postgresql import required_server

__all__ = ["archive"]

BACKGAMMON = (ROOT / "examples" / "backgammon_match.mat").read_text()


def test_a_worker_killed_mid_analysis_leaves_it_to_another_made_once(
    archive: Archive, tmp_path: Path
) -> None:
    gnubg = require_gnubg()
    pid_file = tmp_path / "pid"
    stuck = program(tmp_path, f"echo $$ > {pid_file}\nexec sleep 600", "stuck-gnubg")
    analysis_id = archive.queue(archive.store(BACKGAMMON))
    killed = start_worker(archive.location, stuck, "--lease", "2", log=tmp_path / "killed.log")
    try:
        until(lambda: pid_file.exists() and pid_file.read_text().strip(), 60)
        held = archive.get(analysis_id)
        assert (held.status, held.attempts) == ("running", 1)  # its gnubg is working
        killed.send_signal(signal.SIGKILL)
        assert lines_of(killed) == []
    finally:
        os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the orphan of the kill
    other = start_worker(archive.location, gnubg, "--lease", "2", "--poll", "0.2")
    try:
        until(lambda: archive.get(analysis_id).status == "done", 120)
    finally:
        other.send_signal(signal.SIGTERM)
    (made,) = lines_of(other)
    assert (made["id"], made["status"], made["stored"], made["attempts"]) == (
        analysis_id,
        "done",
        True,
        2,
    )
    done = archive.get(analysis_id)
    assert done.attempts == 2 and done.result is not None and done.problem is None
    assert done.result["names"] == {"w": "Alice", "b": "Bob"}


def test_two_workers_over_postgresql_share_40_analyses_none_made_twice(tmp_path: Path) -> None:
    gnubg = require_gnubg()
    location = required_server().fresh()
    prepare_storage(location)
    storage = open_storage(location)
    shared = Archive(location, storage)
    try:
        queued = [
            shared.queue(shared.store(match_record("backgammon", 1, {}, seed)))
            for seed in range(40)
        ]
        workers = [
            start_worker(location, gnubg, "--until-idle", log=tmp_path / f"worker-{n}.log")
            for n in range(2)
        ]
        said = [lines_of(worker, timeout=600) for worker in workers]
        assert [worker.returncode for worker in workers] == [0, 0]
        by_worker = [{line["id"] for line in lines} for lines in said]
        assert sorted(line["id"] for lines in said for line in lines) == sorted(queued)
        assert all(by_worker), by_worker  # both worked
        for analysis_id in queued:
            made = shared.get(analysis_id)
            assert (made.status, made.attempts) == ("done", 1), made.problem
    finally:
        storage.close()


def test_a_servers_own_worker_makes_what_its_api_queued(tmp_path: Path) -> None:
    require_gnubg()
    database = tmp_path / "served.sqlite3"
    runner = write_token(database, "runner", "analysis:run")
    writer = write_token(database, "writer", "archive:write")
    server = start(database, workers=1, env={"NARDY_REFEREE_ANALYSIS_WORKERS": "1"})
    try:
        stored: Any = server.json("POST", "/v1/matches", {"record": BACKGAMMON}, writer)
        path = f"/v1/matches/{stored['id']}/analyses"
        status, headers, _ = server.request(
            "POST", path, {"chequer_plies": 0, "cube_plies": 0}, runner
        )
        assert status == 202
        location = headers["Location"]
        done = until(lambda: _done(server.json("GET", location)), 120)
        assert done["players"]["w"]["pr"] is not None and done["attempts"] == 1
    finally:
        stop(server)


def _done(found: dict[str, Any]) -> dict[str, Any] | None:
    assert found["status"] != "failed", found["problem"]
    return found if found["status"] == "done" else None
