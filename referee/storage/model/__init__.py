"""What the stores take and give: frozen values with typed fields, the same for every
backend, so no caller ever reads a column name or a driver's row. One module per store
(``matches``, ``live``, ``events``, ``ratings``, ``challenges``, ``tokens``,
``rechecks``) and the change feed's topics (``feed``); here what several share."""

from __future__ import annotations

from typing import Any, TypeAlias

Json: TypeAlias = Any
"""A JSON document as ``json.loads`` gives it (kept results: replays, verdicts)."""

MAX_PAGE = 500
"""The most match summaries (or events) one search answers."""
