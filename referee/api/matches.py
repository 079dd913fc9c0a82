"""The archive endpoints: store, import, search, fetch, replay and re-check matches."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, request, stream_with_context, url_for
from marshmallow import ValidationError
from werkzeug.exceptions import NotAcceptable, RequestEntityTooLarge

from notation.records.formats import MatchPart, format_of_suffix
from referee.adjudication.budget import WorkLimitError, WorkLimits
from referee.adjudication.formats import RecordTexts, record_texts
from referee.api.schemas import (
    MatchDetailQuery,
    MatchSubmitRequest,
    ReasonRequest,
    RecheckRequest,
)
from referee.archive.derived import check_stored, replay
from referee.archive.sgf import SGF_MEDIA_TYPE, match_sgf
from referee.archive.stored import stored_match, summary_json, withdraw_match
from referee.archive.submit import Submission, submit
from referee.errors import ArchiveBusyError, InvalidEncodingError, RefereeError
from referee.http.auth import requires, token_holder
from referee.http.bodies import (
    has_body,
    json_body,
    json_object,
    json_record,
    record_body,
    record_of_bytes,
)
from referee.http.engine import engine
from referee.http.limits import check_slot, rate_limited, work_limits
from referee.http.loading import loaded
from referee.http.problems import problem_body
from referee.http.queries import match_query
from referee.http.storage import storage
from referee.http.streams import NDJSON
from referee.scopes import Scope
from referee.storage.model.matches import MatchQuery

blueprint = Blueprint("matches", __name__)

MAX_IMPORT_ITEMS = 1_000
"""Records in one import: the answer has one short result per record."""


def _created(result: Submission) -> tuple[dict[str, Any], int, dict[str, str]]:
    body = {
        "id": result.stored.id,
        "sha256": result.sha256,
        "duplicate": result.stored.duplicate,
        "verdict": result.verdict,
    }
    location = url_for("matches.get_match", match_id=result.stored.id)
    return body, 200 if result.stored.duplicate else 201, {"Location": location}


@blueprint.post("/v1/matches")
@requires(Scope.ARCHIVE_WRITE)
@check_slot
def create_match() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Check a record and store it with its verdict.
    ---
    post:
      summary: Store a checked record
      description: >
        201 with Location for a new record; 200 with duplicate true when the same canonical
        record (SHA-256) is stored already; 422 invalid_record with the verdict when the
        record has errors, unless allow_invalid is true. Needs a bearer token with scope
        archive:write. The record is a .mat or gnubg's SGF, its format detected or named
        by format (of a .mat holding several matches the first is stored, with a
        several_matches warning: POST /v1/matches/import stores each). It may also be
        sent as text/plain (or application/x-go-sgf), with allow_invalid, variant,
        format and options (JSON or k=v,k=v) as query parameters. eXtreme Gammon's
        binary .xg is sent as its bytes (application/octet-stream or application/x-xg)
        or in JSON as record_base64 (base64, in place of record); what is stored is the
        .mat text it holds, not the file. 413 work_limit when
        checking goes past a work limit; 503 archive_busy with Retry-After when the archive
        stays locked by another writer, or overloaded when the worker checks as many
        records at once as it may.
      security: [{bearer: []}]
      parameters:
        - {in: query, schema: MatchSubmitQuery}
      requestBody:
        required: true
        content:
          application/json:
            schema: MatchSubmitRequest
          text/plain:
            schema: {type: string}
          application/x-go-sgf:
            schema: {type: string}
          application/octet-stream:
            schema: {type: string, format: binary}
          application/x-xg:
            schema: {type: string, format: binary}
      responses:
        200:
          description: Already stored
          content: {application/json: {schema: MatchSubmitResponse}}
        201:
          description: Stored
          content: {application/json: {schema: MatchSubmitResponse}}
        401: Problem
        403: Problem
        413: Problem
        415: Problem
        422: Problem
        503: Problem
    """
    body = record_body(MatchSubmitRequest)
    result = submit(
        storage(),
        body["record"],
        body["options"],
        body["allow_invalid"],
        body["variant"],
        work_limits(),
        engine(),
        body["format"],
    )
    return _created(result)


def _at_most_import_items(count: int) -> None:
    if count > MAX_IMPORT_ITEMS:
        raise RequestEntityTooLarge(
            f"an import holds at most {MAX_IMPORT_ITEMS} records (each match of a .mat of"
            f" several is one), this one {count} or more"
        )


def _import_items() -> list[_Item]:
    """``(label, request)`` for each record of an import (a JSON list or uploaded files);
    for a file that cannot be read (not UTF-8 text, a corrupt ``.xg``), the reason."""
    if request.mimetype == "multipart/form-data":
        uploads = [upload for name in request.files for upload in request.files.getlist(name)]
        if not uploads:
            raise ValidationError({"files": ["upload at least one record file"]})
        _at_most_import_items(len(uploads))
        return [
            (upload.filename or f"file {index}", _upload_entry(upload.read(), upload.filename))
            for index, upload in enumerate(uploads)
        ]
    data = json_body()
    if not isinstance(data, list) or not data:
        raise ValidationError({"body": ["must be a non-empty JSON list of records"]})
    _at_most_import_items(len(data))
    items: list[_Item] = []
    for index, item in enumerate(data):
        entry = {"record": item} if isinstance(item, str) else item
        if not isinstance(entry, dict):
            raise ValidationError({str(index): ["a record text or an object with 'record'"]})
        items.append((str(index), entry))
    return items


@blueprint.post("/v1/matches/import")
@requires(Scope.ARCHIVE_WRITE)
@check_slot
def import_matches() -> dict[str, Any]:
    """Store many records in one request.
    ---
    post:
      summary: Import many records
      description: >
        A JSON list (record texts, or objects like the body of POST /v1/matches, an .xg
        as record_base64), or a multipart upload of record files (.mat, gnubg's SGF, the
        other formats read, eXtreme Gammon's .xg; each file's format detected from its
        content or its .xg suffix, or named by format in a JSON object). A .mat holding several
        matches is stored as one record per match, its results labelled item#1,
        item#2... Each record is stored, found to be a duplicate, or refused with the
        reason; one bad record does not stop the others. Results
        carry ids and hashes, never the records or their verdicts. At most 1,000 records,
        each match of a .mat counted (413); the work deadline is shared by the whole
        import: records past it are refused with work_limit, unread, to be sent again.
        503 archive_busy with Retry-After when the archive stays locked by another
        writer, or overloaded when the worker checks as many records at once as it may.
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: array, items: {}}
          multipart/form-data:
            schema:
              type: object
              properties:
                files: {type: array, items: {type: string, format: binary}}
      responses:
        200:
          description: One result per record
          content: {application/json: {schema: ImportResponse}}
        401: Problem
        403: Problem
        413: Problem
        415: Problem
        422: Problem
        503: Problem
    """
    limits = work_limits()
    deadline = time.monotonic() + limits.seconds
    planned = _planned(_import_items())
    results = []
    for label, body, texts in planned:
        if texts is None:
            results.append(_refused(label, body))
            continue
        for number, part in enumerate(texts.parts, start=1):
            item = label if texts.count == 1 else f"{label}#{number}"
            left = deadline - time.monotonic()
            if left <= 0:  # refused unread: reading it is work past the deadline too
                what = f"the import took more than {limits.seconds:g} s"
                error = WorkLimitError.naming("seconds", limits, what)
                results.append(_refused(item, {"code": error.code, "detail": error.message}))
                continue
            remaining = replace(limits, seconds=left)
            results.append(_imported(item, body, part, texts.format.name, remaining))
    return {"results": results}


_Item = tuple[str, dict[str, Any] | RefereeError]
"""An import's record as sent: its label, and its request or why it cannot be read."""
_Planned = tuple[str, dict[str, Any], RecordTexts | None]
"""An import's record: its label, and its request and matches, or the reason it is refused."""


def _planned(items: list[_Item]) -> list[_Planned]:
    """Each record of an import with its matches (none read yet), every match counted
    against MAX_IMPORT_ITEMS: a .mat of several matches is that many records (413)."""
    planned: list[_Planned] = []
    count = 0
    for label, entry in items:
        if isinstance(entry, RefereeError):
            planned.append((label, {"code": entry.code, "detail": entry.message}, None))
            count += 1
            continue
        try:
            body = loaded(MatchSubmitRequest, json_record(entry))
            texts = record_texts(body["record"], body["format"], MAX_IMPORT_ITEMS + 1)
        except ValidationError as error:
            planned.append((label, {"code": "validation_failed", "errors": error.messages}, None))
            count += 1
        except RefereeError as error:
            planned.append((label, {"code": error.code, "detail": error.message}, None))
            count += 1
        else:
            planned.append((label, body, texts))
            count += texts.count
        _at_most_import_items(count)
    return planned


def _imported(
    label: str, body: dict[str, Any], part: MatchPart, record_format: str, limits: WorkLimits
) -> dict[str, Any]:
    """The result of storing one record of an import (refused with the reason, not raised)."""
    try:
        result = submit(
            storage(),
            part.text,
            body["options"],
            body["allow_invalid"],
            body["variant"],
            limits,
            engine(),
            record_format,
            part.line,
        )
    except ArchiveBusyError:
        raise
    except RefereeError as error:
        return _refused(label, {"code": error.code, "detail": error.message})
    status = "duplicate" if result.stored.duplicate else "created"
    return {
        "item": label,
        "status": status,
        "id": result.stored.id,
        "sha256": result.sha256,
        "duplicate": result.stored.duplicate,
        "reason": None,
    }


def _upload_entry(data: bytes, filename: str | None) -> dict[str, Any] | RefereeError:
    """An uploaded file as a request (an ``.xg`` as its ``.mat`` text), or why it cannot be
    read: not UTF-8 text, a binary file cut or corrupt (refused, not fatal)."""
    named = format_of_suffix(filename or "")
    try:
        return record_of_bytes(data, named.name if named is not None and named.binary else None)
    except InvalidEncodingError:
        return InvalidEncodingError("the file is not UTF-8 text")
    except RefereeError as error:
        return error


def _refused(label: str, reason: dict[str, Any]) -> dict[str, Any]:
    return {
        "item": label,
        "status": "refused",
        "id": None,
        "sha256": None,
        "duplicate": False,
        "reason": reason,
    }


@blueprint.get("/v1/matches")
@requires(Scope.ARCHIVE_READ)
def list_matches() -> Response | dict[str, Any]:
    """Search the archive.
    ---
    get:
      summary: Search stored matches
      description: >
        Newest first, one page at a time (follow next_cursor); with Accept
        application/x-ndjson every match of every page, one JSON object per line.
      parameters:
        - {in: query, schema: MatchListQuery}
      responses:
        200:
          description: A page of matches
          content:
            application/json: {schema: MatchPage}
            application/x-ndjson: {schema: {type: string}}
        401: Problem
        403: Problem
        422: Problem
    """
    query = match_query(request.args.to_dict())
    if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
        return Response(stream_with_context(_ndjson(query)), mimetype=NDJSON)
    page = storage().matches.search(query)
    next_cursor = str(page[-1].id) if len(page) == query.limit else None
    return {"matches": [summary_json(found) for found in page], "next_cursor": next_cursor}


def _ndjson(query: MatchQuery) -> Iterator[str]:
    try:
        for found in storage().matches.iterate(query):
            yield json.dumps(summary_json(found)) + "\n"
    except Exception as error:  # headers are sent: the error becomes the last line
        yield json.dumps({"error": problem_body(500, "internal_error", "Error", str(error))}) + "\n"


@blueprint.get("/v1/matches/<int:match_id>")
@requires(Scope.ARCHIVE_READ)
def get_match(match_id: int) -> Response | dict[str, Any]:
    """One stored match.
    ---
    get:
      summary: A stored match
      description: >
        Metadata, options and verdict as JSON; with Accept text/plain the record text as
        received, or with format=canonical (or mat) the canonical .mat; format=sgf: a backgammon
        match in GNU Backgammon's SGF (application/x-go-sgf; a nardy match is a 422
        not_exportable).
      parameters:
        - {in: path, name: match_id, required: true, schema: {type: integer}}
        - {in: query, schema: MatchDetailQuery}
      responses:
        200:
          description: The match
          content:
            application/json: {schema: StoredMatchDetail}
            text/plain: {schema: {type: string}}
            application/x-go-sgf: {schema: {type: string}}
        401: Problem
        403: Problem
        404: Problem
        410: Problem
        406: Problem
        422: Problem
    """
    args = loaded(MatchDetailQuery, request.args.to_dict())
    if args.get("format") == "sgf":
        return Response(match_sgf(storage(), match_id), mimetype=SGF_MEDIA_TYPE)
    stored = stored_match(storage(), match_id)
    if "format" in args:
        text = stored.original if args["format"] == "original" else stored.canonical
        return Response(text, mimetype="text/plain")
    accept = request.accept_mimetypes
    wanted = accept.best_match(["application/json", "text/plain"]) if accept else "application/json"
    if wanted is None:
        raise NotAcceptable("this resource is application/json or text/plain")
    if wanted == "text/plain":
        return Response(stored.original, mimetype="text/plain")
    return {**summary_json(stored), "options": stored.options, "verdict": stored.verdict}


@blueprint.delete("/v1/matches/<int:match_id>")
def delete_match(match_id: int) -> dict[str, Any]:
    """Withdraw a stored match.
    ---
    delete:
      summary: Withdraw a stored match
      description: >
        Needs a bearer token with scope archive:admin (docs/events.md#12-4). The match is
        withdrawn from reads and searches, not destroyed: it is kept for audit, and reading
        it answers 410 withdrawn with who withdrew it, when and why. 409 match_in_use while
        an event's result rests on it (void that result first).
      security: [{bearer: []}]
      parameters:
        - {in: path, name: match_id, required: true, schema: {type: integer}}
      requestBody:
        required: true
        content: {application/json: {schema: ReasonRequest}}
      responses:
        200:
          description: Withdrawn
          content: {application/json: {schema: MatchWithdrawal}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        410: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    admin = token_holder(Scope.ARCHIVE_ADMIN)
    body = json_object(ReasonRequest, 64 * 1024)
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    done = withdraw_match(storage(), match_id, admin.name or admin.prefix, body["reason"], at)
    return {
        "id": done.match_id,
        "withdrawn_by": done.by,
        "withdrawn_at": done.at,
        "reason": done.reason,
    }


@blueprint.get("/v1/matches/<int:match_id>/games/<int:index>/replay")
@requires(Scope.ARCHIVE_READ)
@rate_limited("check")
@check_slot
def replay_game(match_id: int, index: int) -> dict[str, Any]:
    """Every action of one game with the positions before and after it.
    ---
    get:
      summary: Replay one game
      description: >
        Computed once per stored record and rules revision, then kept; 404 for a game
        index the match does not have, before any work.
        Clients without a bearer token are rate limited (limit check): 429
        rate_limited, with Retry-After and ratelimit {key, seconds}. 503 overloaded with
        Retry-After when the worker checks as many records at once as it may.
      parameters:
        - {in: path, name: match_id, required: true, schema: {type: integer}}
        - {in: path, name: index, required: true, schema: {type: integer, minimum: 1}}
      responses:
        200: {description: The actions, content: {application/json: {schema: ReplayResponse}}}
        401: Problem
        403: Problem
        404: Problem
        410: Problem
        413: Problem
        429: Problem
        503: Problem
    """
    return replay(storage(), match_id, index, work_limits(), engine())


@blueprint.post("/v1/matches/<int:match_id>/check")
@requires(Scope.ARCHIVE_READ)
@rate_limited("check")
@check_slot
def recheck_match(match_id: int) -> dict[str, Any]:
    """Re-adjudicate a stored record under other options, without changing it.
    ---
    post:
      summary: Re-check a stored match
      description: >
        Computed once per stored record, mode, options and rules revision, then kept.
        Clients without a bearer token are rate limited (limit check): 429
        rate_limited, with Retry-After and ratelimit {key, seconds}. 503 overloaded with
        Retry-After when the worker checks as many records at once as it may.
      parameters:
        - {in: path, name: match_id, required: true, schema: {type: integer}}
      requestBody:
        content:
          application/json:
            schema: RecheckRequest
      responses:
        200: {description: The verdict, content: {application/json: {schema: Verdict}}}
        401: Problem
        403: Problem
        404: Problem
        410: Problem
        413: Problem
        415: Problem
        422: Problem
        429: Problem
        503: Problem
    """
    body = json_object(RecheckRequest) if has_body() else loaded(RecheckRequest, {})
    options = body["options"]
    return check_stored(storage(), match_id, body["mode"], options, work_limits(), engine())
