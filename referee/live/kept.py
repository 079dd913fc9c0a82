"""The tables of live matches this process saved or read last, one per match, each kept
with the JSON text it is stored as: a change reads its match's state as that text and,
when it is the text kept, takes a copy of the kept table instead of decoding the JSON it
wrote itself.

A table is found by its whole text (and the engine it plays on), never by a match's
version alone: a table found is the one its text loads as, whatever happened to the
archive meanwhile (another process's change, a copy restored, a failover that lost a
change another instance had kept).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from referee.live.codec import table_from_json
from referee.live.table import Table
from referee.rules.engine import Engine

KEPT_MATCHES = 1024
"""Matches whose last table a process keeps (the least recently used is dropped)."""


class KeptTables:
    """The last table of each of the ``size`` matches used last, by live id, with its
    text; the tables kept are never handed out, only copies of them."""

    def __init__(self, size: int = KEPT_MATCHES) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.kept: OrderedDict[int, tuple[str, Table]] = OrderedDict()

    def table(self, live_id: int, text: str, engine: Engine) -> Table:
        """The table ``text`` holds, playing on ``engine``, for the caller to change: a
        copy of the one kept for the match when it was kept with this very text and
        engine, else read from the text (and kept)."""
        with self.lock:
            found = self.kept.get(live_id)
            if found is not None and found[0] == text and found[1].engine == engine:
                self.kept.move_to_end(live_id)
                return found[1].copy()
        table = table_from_json(json.loads(text), engine)
        self.keep(live_id, text, table)
        return table.copy()

    def keep(self, live_id: int, text: str, table: Table) -> None:
        """Keep ``table`` as the match's, stored as ``text`` (it must be the table that
        text loads as, and nobody's to change: the caller hands it over)."""
        with self.lock:
            self.kept[live_id] = (text, table)
            self.kept.move_to_end(live_id)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)


TABLES = KeptTables()
"""This process's kept tables (the live service's)."""
