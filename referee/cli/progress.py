"""Progress bars for the long commands (``check`` of many files, ``recheck``,
``copy-archive``, ``ratings --recompute``), drawn by tqdm on stderr only when stderr is a
terminal: a pipe, a file or a log gets nothing but what the command says anyway."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, TypeVar

T = TypeVar("T")


class Progress:
    """What a command tells its bar: work done, and lines to print without tearing it.
    This one draws nothing: lines go straight to stdout."""

    def advance(self, amount: int = 1) -> None:
        pass

    def echo(self, line: str, stream: TextIO | None = None) -> None:
        """Print ``line`` on ``stream`` (default stdout)."""
        print(line, file=stream or sys.stdout, flush=True)

    def over(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, one unit of work each."""
        for item in items:
            yield item
            self.advance()


class _Bar(Progress):
    """A tqdm bar on stderr; a line is printed above it (``tqdm.write``)."""

    def __init__(self, total: int, initial: int, what: str, unit: str) -> None:
        from tqdm import tqdm  # only when a terminal watches

        self.tqdm = tqdm
        self.bar = tqdm(
            total=total, initial=initial, desc=what, unit=unit, file=sys.stderr, leave=False
        )

    def advance(self, amount: int = 1) -> None:
        self.bar.update(amount)

    def echo(self, line: str, stream: TextIO | None = None) -> None:
        self.tqdm.write(line, file=stream or sys.stdout)

    def close(self) -> None:
        self.bar.close()


@contextmanager
def progress(
    total: int, what: str, unit: str, initial: int = 0, least: int = 0
) -> Iterator[Progress]:
    """A bar for ``total`` units of work (of ``unit``), ``initial`` of them done already;
    quiet when stderr is not a terminal or there are fewer than ``least`` units."""
    if not sys.stderr.isatty() or total < least:
        yield Progress()
        return
    bar = _Bar(total, initial, what, unit)
    try:
        yield bar
    finally:
        bar.close()
