"""XG's ``; Set Pos=`` line inside a .mat game (FORMATS.md part 1 §5): a board edit."""

from __future__ import annotations

import re

from notation.errors import NotationError, echoed
from notation.ids import from_xgid
from notation.positions import PositionData

_SET_POS = re.compile(r"Set Pos=\s*([-A-Pa-p]{26})\s*/\s*(-?\d{1,2})\s*$")


def parse_set_pos(text: str) -> PositionData:
    """The board and cube a ``Set Pos=`` edit sets: a 26-character XG board, ``/``, then
    the cube (0 = centred 1-cube, -k = White (player 0) owns 2^k, k = Black owns 2^k)."""
    match = _SET_POS.search(text)
    if match is None:
        raise NotationError(
            "invalid_set_pos", f"cannot read {echoed(text, 60)} as 'Set Pos=<board>/<cube>'"
        )
    exponent = int(match[2])
    owner = 0 if exponent == 0 else (-1 if exponent < 0 else 1)
    return from_xgid(f"XGID={match[1]}:{abs(exponent)}:{owner}:1:00:0:0:0:0:10")
