"""The board endpoint: any position drawn as SVG."""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, request

from referee.api.schemas import BoardQuery
from referee.board_svg import DRAWING, Roll, board_svg, changed_points
from referee.bridge import read_position, write_position
from referee.http.loading import loaded
from vocabulary import Side

blueprint = Blueprint("boards", __name__)

SVG = "image/svg+xml"


@blueprint.get("/v1/positions/svg")
def position_svg() -> Response:
    """A position drawn as an SVG board.
    ---
    get:
      summary: Draw a position
      description: >
        The board of a position string (docs/notation.md#1) as image/svg+xml: points, checkers,
        bar, borne-off trays, cube, dice, pip counts and the side on turn, from White's
        side (orientation w) or Black's (b). The root element carries data-position and
        every checker data-side, data-point (White's numbering, bar, off) and data-count.
        The string fixes the image: the strong ETag answers If-None-Match with 304. With
        before (the position before a play) the points the play changed are marked, and
        the dice before holds are drawn as the roll just played.
        Every parameter has a maximum length, so that the URL fits gunicorn's request
        line whatever the characters: 200 for a position (every position string, its fields
        separated by single spaces, is shorter).
      parameters:
        - {in: query, schema: BoardQuery}
      responses:
        200:
          description: The board
          content: {image/svg+xml: {schema: {type: string}}}
        304: {description: Not modified (If-None-Match)}
        422: Problem
    """
    args = loaded(BoardQuery, request.args.to_dict())
    position = read_position(args["position"])
    canonical = write_position(position)
    before = args.get("before")
    marked = changed_points(before, canonical) if before else frozenset()
    players = (args["white"], args["black"])
    options = (args["orientation"], str(args.get("size")), args.get("before", ""), *players)
    key = "\n".join((DRAWING, canonical, *options))
    response = Response(
        board_svg(
            position,
            orientation=Side(args["orientation"]),
            size=args.get("size"),
            last_play=marked,
            players=players,
            rolled=Roll.of(before) if before else None,
        ),
        mimetype=SVG,
    )
    response.set_etag(hashlib.sha256(key.encode()).hexdigest())
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.make_conditional(request)
    return response
