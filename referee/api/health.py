"""Liveness and readiness."""

from __future__ import annotations

from flask import Blueprint

from referee import __version__
from referee.http.engine import engine
from referee.http.storage import storage

blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
def healthz() -> dict[str, str]:
    """Liveness: the process answers; which engine judges plays (python or native).
    ---
    get:
      summary: Liveness
      responses:
        200:
          description: The service is up
          content:
            application/json:
              schema:
                type: object
                properties:
                  status: {type: string}
                  version: {type: string}
                  engine: {type: string}
    """
    return {"status": "ok", "version": __version__, "engine": engine().description()}


@blueprint.get("/readyz")
def readyz() -> dict[str, str]:
    """Readiness: the process answers and reads its archive.
    ---
    get:
      summary: Readiness
      description: >
        503 with Retry-After when the archive cannot serve: archive_busy or not_ready when
        it cannot be read, storage_unavailable (saying why) when it is read but cannot take
        writes (a full disk, a read-only database or a standby, a failover).
      responses:
        200:
          description: Ready to serve
          content:
            application/json:
              schema:
                type: object
                properties: {status: {type: string}, version: {type: string}}
        503: Problem
    """
    storage().ready()
    return {"status": "ready", "version": __version__}
