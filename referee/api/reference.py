"""Reference endpoints: the variants and their options, position conversion, the spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response

from referee.api.schemas import ConvertRequest
from referee.bridge import convert_position, write_position
from referee.http.bodies import json_object
from referee.rules.options import OPTION_SPECS
from referee.rules.position import Cube, Position
from referee.rules.variants import VARIANTS, Variant
from vocabulary import Phase

blueprint = Blueprint("reference", __name__)

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"


def variant_info(variant: type[Variant]) -> dict[str, Any]:
    start = Position(
        variant,
        variant.start_board(),
        None,
        Phase.ROLL,
        cube=Cube() if variant.has_cube else None,
    )
    options = [
        {
            "name": spec.name,
            "type": spec.type_name,
            "values": spec.values,
            "default": spec.default if spec.type_name != "enum" else str(spec.default),
            "description": spec.description,
        }
        for spec in OPTION_SPECS.values()
        if spec.name in variant.option_names
    ]
    return {
        "id": variant.id,
        "title": variant.title,
        "aliases": list(variant.aliases),
        "start": write_position(start),
        "cube": variant.has_cube,
        "options": options,
    }


@blueprint.get("/v1/variants")
def list_variants() -> dict[str, Any]:
    """The variants, their aliases and their options with types and defaults.
    ---
    get:
      summary: Variants and options
      responses:
        200: {description: Every variant, content: {application/json: {schema: VariantsResponse}}}
    """
    return {"variants": [variant_info(variant) for variant in VARIANTS]}


@blueprint.post("/v1/positions/convert")
def convert() -> dict[str, Any]:
    """Convert a position between the position string, GNU Backgammon ids and XGID.
    ---
    post:
      summary: Convert a position
      description: >
        Reads a position string, a GNU Backgammon Position ID + Match ID
        (4HPwATDgc/ABMA:cAkAAAAAAAAA) or an XGID, and writes it as asked. GNUbg ids and
        XGIDs exist for backgammon only.
      requestBody:
        required: true
        content:
          application/json:
            schema: ConvertRequest
      responses:
        200:
          description: The converted position
          content: {application/json: {schema: ConvertResponse}}
        413: Problem
        415: Problem
        422: Problem
    """
    body = json_object(ConvertRequest, 64 * 1024)
    position, result = convert_position(body["position"], body["to"])
    return {"position": position, "to": body["to"], "result": result}


@blueprint.get("/openapi.yaml")
def openapi_spec() -> Response:
    """The checked-in OpenAPI contract.
    ---
    get:
      summary: This API's OpenAPI document
      responses:
        200: {description: OpenAPI 3.1 YAML, content: {application/yaml: {schema: {type: string}}}}
    """
    return Response(SPEC_PATH.read_text(), mimetype="application/yaml")
