"""Analyses of stored matches by GNU Backgammon (ANALYSIS.md §2): queue one, list a match's,
read one. Workers make them (``nardy-referee analyse --worker``, or the server's own)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, url_for
from marshmallow import fields, validate

from referee.analysis import Settings
from referee.analysis.result import AnalysisJobSchema, AnalysisListSchema
from referee.api.schemas import RequestSchema
from referee.archive.analyses import (
    analyses_of_match,
    analysis_json,
    analysis_of,
    queue_analysis,
)
from referee.http.auth import requires, token_holder
from referee.http.bodies import has_body, json_object_data
from referee.http.engine import engine
from referee.http.limits import check_slot, work_limits
from referee.http.storage import storage
from referee.scopes import Scope
from referee.shapes import schema_of

blueprint = Blueprint("analyses", __name__)
SETTINGS_BODY = 4 * 1024

# The answers' schemas, made for openapi.yaml (referee/analysis/result.py declares them).
schema_of(AnalysisJobSchema)
schema_of(AnalysisListSchema)


class AnalysisRequest(RequestSchema):
    """The settings of an analysis (ANALYSIS.md §1); outside them: 422 invalid_settings."""

    chequer_plies = fields.Integer(
        load_default=2, strict=True, validate=validate.Range(min=0, max=3)
    )
    cube_plies = fields.Integer(load_default=2, strict=True, validate=validate.Range(min=0, max=3))


@blueprint.post("/v1/matches/<int:match_id>/analyses")
@check_slot
def queue(match_id: int) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Queue an analysis of a stored match.
    ---
    post:
      summary: Analyse a stored match
      description: >
        Needs a bearer token with scope analysis:run or archive:write (docs/analysis.md).
        The settings (default 2 and 2 plies) are checked, then the record, before anything
        is queued: 422 invalid_settings, no_engine (a nardy match on a server without the
        native core, whose engine analyses the nardy games), invalid_record (a record with
        errors), engine_failed (a match past gnubg's 64 points). Backgammon is analysed by
        gnubg, long nardy and khachapuri by the referee's own engine (engine.name
        nardy-referee, at most 1-ply: docs/analysis.md#11). 202 with the analysis, queued,
        and its Location; the same match and settings again: 200 and the analysis there (a
        failed one is queued again: 202). A worker makes it (status running, then done or
        failed with its problem: engine_failed, engine_timeout, engine_missing). 503
        overloaded with Retry-After when the token has as many analyses queued or running
        as it may (default 20).
      security: [{bearer: []}]
      parameters:
        - {in: path, name: match_id, required: true, schema: {type: integer}}
      requestBody:
        content: {application/json: {schema: AnalysisRequest}}
      responses:
        200:
          description: The analysis asked for already
          content: {application/json: {schema: AnalysisJobSchema}}
        202:
          description: Queued
          headers: {Location: {schema: {type: string}}}
          content: {application/json: {schema: AnalysisJobSchema}}
        401: Problem
        403: Problem
        404: Problem
        410: Problem
        413: Problem
        415: Problem
        422: Problem
        503: Problem
    """
    holder = token_holder(Scope.ANALYSIS_RUN, Scope.ARCHIVE_WRITE)
    settings = Settings.of(json_object_data(SETTINGS_BODY) if has_body() else None)
    made = queue_analysis(storage(), match_id, settings, holder.id, work_limits(), engine())
    analysis = made.analysis
    location = url_for("analyses.get_analysis", analysis_id=analysis.id)
    return analysis_json(analysis), 202 if made.queued else 200, {"Location": location}


@blueprint.get("/v1/matches/<int:match_id>/analyses")
@requires(Scope.ARCHIVE_READ)
def list_analyses(match_id: int) -> dict[str, Any]:
    """A stored match's analyses.
    ---
    get:
      summary: A stored match's analyses
      description: >
        Every analysis of the match (one per settings), newest first, whatever its status.
      parameters:
        - {in: path, name: match_id, required: true, schema: {type: integer}}
      responses:
        200:
          description: The analyses
          content: {application/json: {schema: AnalysisListSchema}}
        401: Problem
        403: Problem
        404: Problem
        410: Problem
    """
    return {"analyses": [analysis_json(found) for found in analyses_of_match(storage(), match_id)]}


@blueprint.get("/v1/analyses/<int:analysis_id>")
@requires(Scope.ARCHIVE_READ)
def get_analysis(analysis_id: int) -> dict[str, Any]:
    """One analysis.
    ---
    get:
      summary: An analysis
      description: >
        Where it stands (queued, running, done, failed) and, once done, gnubg's figures
        for each player over the match and each game, and each analysed action with its
        loss, mark, best play and luck (docs/analysis.md). PR is gnubg's judgement on
        eXtreme Gammon's scale, not XG's own figure.
      parameters:
        - {in: path, name: analysis_id, required: true, schema: {type: integer}}
      responses:
        200:
          description: The analysis
          content: {application/json: {schema: AnalysisJobSchema}}
        401: Problem
        403: Problem
        404: Problem
        410: Problem
    """
    return analysis_json(analysis_of(storage(), analysis_id))
