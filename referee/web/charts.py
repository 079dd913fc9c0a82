"""A small line chart drawn on the server as inline SVG: a player's rating after each
rated match (the first point is the rating before the first). Accessible as an image
with a title and a description, both axes labelled; each point has its own title, which
a browser shows on hover. A pure function of its values, as the board is."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 20, 48
"""The plot's margins: room for the tick labels and the axis labels."""
NICE_STEPS = (1, 2, 2.5, 5)


@dataclass(frozen=True, slots=True)
class Scale:
    """A linear map of ``low``…``high`` onto ``start``…``end`` (pixels)."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = self.high - self.low
        share = 0.5 if span == 0 else (value - self.low) / span
        return self.start + share * (self.end - self.start)


def nice_step(span: float, most: int) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that cuts ``span`` into at most
    ``most`` steps."""
    if span <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(span / most))
    for base in (*NICE_STEPS, 10):
        if span / (base * power) <= most:
            return base * power
    return 10 * power  # pragma: no cover - the loop always ends at 10


def ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values from a multiple of the step at or below ``low`` to one at or above
    ``high``."""
    step = nice_step(high - low, most)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    count = round((last - first) / step)
    return [first + index * step for index in range(count + 1)]


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


def rating_chart(
    values: Sequence[float],
    labels: Sequence[str],
    *,
    title: str,
    description: str,
    chart_id: str = "rating-chart",
    x_label: str = "Rated matches",
    y_label: str = "Rating",
) -> str:
    """The chart of ``values`` (the value before the first match, then after each), each
    point titled by its ``labels`` entry."""
    if not values or len(labels) != len(values):
        raise ValueError("a chart needs at least one value, and a label for each")
    y_ticks = ticks(min(values), max(values))
    x_ticks = [int(tick) for tick in ticks(0, max(len(values) - 1, 1), 8)]
    x = Scale(0, x_ticks[-1], LEFT, WIDTH - RIGHT)
    y = Scale(y_ticks[0], y_ticks[-1], HEIGHT - BOTTOM, TOP)
    bottom, label_id, desc_id = HEIGHT - BOTTOM, f"{chart_id}-title", f"{chart_id}-desc"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img"'
        f' aria-labelledby="{escape(label_id)} {escape(desc_id)}">',
        f'<title id="{escape(label_id)}">{escape(title)}</title>',
        f'<desc id="{escape(desc_id)}">{escape(description)}</desc>',
        '<g class="grid">',
        *(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}"/>'
            for t in y_ticks
        ),
        "</g>",
        f'<g class="axis y-axis"><line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{bottom}"/>',
        *(
            f'<text x="{LEFT - 6}" y="{y(t):.1f}" text-anchor="end" dominant-baseline="middle">'
            f"{_number(t)}</text>"
            for t in y_ticks
        ),
        f'<text class="label" transform="translate(16 {(TOP + bottom) / 2:.1f}) rotate(-90)"'
        f' text-anchor="middle">{escape(y_label)}</text></g>',
        f'<g class="axis x-axis"><line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{bottom}"'
        f' y2="{bottom}"/>',
        *(
            f'<text x="{x(t):.1f}" y="{bottom + 18}" text-anchor="middle">{t}</text>'
            for t in x_ticks
        ),
        f'<text class="label" x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 6}"'
        f' text-anchor="middle">{escape(x_label)}</text></g>',
        *_line(values, labels, x, y),
        "</svg>",
    ]
    return "".join(parts)


def _line(values: Sequence[float], labels: Sequence[str], x: Scale, y: Scale) -> list[str]:
    points = [(x(index), y(value)) for index, value in enumerate(values)]
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    marks = [
        f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5"><title>{escape(label)}</title></circle>'
        for (px, py), label in zip(points, labels, strict=True)
    ]
    return [f'<polyline class="line" points="{path}"/>', '<g class="points">', *marks, "</g>"]
