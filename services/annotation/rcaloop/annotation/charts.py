"""Server-rendered SVG charts for the lead's pages (pure: figures in, SVG text out).

No script and no library: each chart is plain SVG the page embeds, readable without colour —
every series has its own fill pattern (bars) or dash and marker shape (lines), a legend that
shows the pattern with the series' name, and the counts written on the chart. Every text is
escaped. The numbers come with a table beside the chart on the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from markupsafe import Markup

WIDTH, HEIGHT = 760, 300
LEFT, RIGHT, TOP, BOTTOM = 44, 170, 16, 46
COLOURS = ("#2e7d4f", "#b07d00", "#b3261e", "#2456c8", "#6b3fa0", "#00707a")
PATTERNS = ("solid", "hatch", "dots", "cross", "rows", "grid")
"""One fill per series: the legend names each one, so a series is told apart without its colour."""
DASHES = ("", "6 3", "2 3", "10 3 2 3", "1 5", "12 4")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "bar")


def _t(text: object) -> str:
    return escape(str(text), quote=True)


def _defs(chart_id: str, n: int) -> str:
    parts = []
    for i in range(n):
        colour, pattern, pid = COLOURS[i % len(COLOURS)], PATTERNS[i % len(PATTERNS)], f"{chart_id}-p{i}"
        inner = {
            "solid": f'<rect width="8" height="8" fill="{colour}"/>',
            "hatch": f'<rect width="8" height="8" fill="#fff"/><path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" '
                     f'stroke="{colour}" stroke-width="2.2"/>',
            "dots": f'<rect width="8" height="8" fill="#fff"/><circle cx="4" cy="4" r="2.1" fill="{colour}"/>',
            "cross": f'<rect width="8" height="8" fill="#fff"/><path d="M0,0 l8,8 M8,0 l-8,8" stroke="{colour}" '
                     f'stroke-width="1.6"/>',
            "rows": f'<rect width="8" height="8" fill="#fff"/><path d="M0,2 h8 M0,6 h8" stroke="{colour}" '
                    f'stroke-width="1.8"/>',
            "grid": f'<rect width="8" height="8" fill="#fff"/><path d="M0,4 h8 M4,0 v8" stroke="{colour}" '
                    f'stroke-width="1.6"/>',
        }[pattern]
        parts.append(f'<pattern id="{pid}" width="8" height="8" patternUnits="userSpaceOnUse">{inner}</pattern>')
    return "<defs>" + "".join(parts) + "</defs>"


def _frame(chart_id: str, title: str, desc: str, body: str, n_series: int) -> Markup:
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{_t(chart_id)}" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'aria-labelledby="{_t(chart_id)}-title {_t(chart_id)}-desc">'
        f'<title id="{_t(chart_id)}-title">{_t(title)}</title><desc id="{_t(chart_id)}-desc">{_t(desc)}</desc>'
        f'{_defs(chart_id, n_series)}<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>{body}</svg>'
    )


TICKS = (1, 2, 3, 5, 10, 15, 20, 25, 50, 75, 100, 150, 200, 250, 500, 750, 1000, 2500, 5000, 10000)


def _nice_max(value: float) -> float:
    """The y axis's top: four whole, round ticks that reach ``value``."""
    tick = next((t for t in TICKS if t * 4 >= value), None)
    return tick * 4 if tick else value


def _axes(y_max: float, labels: Sequence[str], *, percent: bool = False) -> tuple[str, float, float]:
    """The y grid and the x labels; returns (svg, plot width, plot height)."""
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    out = []
    for i in range(5):
        value = y_max * i / 4
        y = TOP + ph - ph * i / 4
        text = f"{value * 100:.0f}%" if percent else (f"{value:.0f}" if value == int(value) else f"{value:.1f}")
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e3e6ec"/>'
                   f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" '
                   f'fill="#4a5263">{text}</text>')
    out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{TOP + ph}" y2="{TOP + ph}" stroke="#6a7283"/>')
    step = max(1, -(-len(labels) // 14))  # at most 14 labels under the axis
    slot = pw / max(len(labels), 1)
    for i, label in enumerate(labels):
        if i % step:
            continue
        x = LEFT + slot * (i + 0.5)
        out.append(f'<text x="{x:.1f}" y="{TOP + ph + 16}" text-anchor="middle" font-size="11" '
                   f'fill="#4a5263">{_t(label)}</text>')
    return "".join(out), pw, ph


LEGEND_CHARS = 24


def _legend_name(name: str) -> str:
    """A long name keeps its end, where names that share a start differ (the full name is in a tooltip)."""
    return name if len(name) <= LEGEND_CHARS else "…" + name[-(LEGEND_CHARS - 1):]


def _legend(chart_id: str, names: Sequence[str], *, lines: bool = False) -> str:
    x0 = WIDTH - RIGHT + 14
    out = []
    for i, name in enumerate(names):
        y = TOP + 8 + i * 22
        if lines:
            out.append(_line_key(i, x0, y + 5))
        else:
            out.append(f'<rect x="{x0}" y="{y}" width="16" height="12" fill="url(#{chart_id}-p{i})" '
                       f'stroke="{COLOURS[i % len(COLOURS)]}"/>')
        out.append(f'<text x="{x0 + 22}" y="{y + 10}" font-size="12" fill="#1d2330"><title>{_t(name)}</title>'
                   f'{_t(_legend_name(name))}</text>')
    return "".join(out)


def _short(day: str) -> str:
    return day[5:] if len(day) == 10 else day


def stacked_bars(chart_id: str, title: str, days: Sequence[str], series: Sequence[tuple[str, Sequence[int]]]) -> Markup:
    """One bar per day, a patterned segment per series with its count written in it."""
    totals = [sum(values[i] for _, values in series) for i in range(len(days))]
    y_max = _nice_max(max(totals, default=0))
    axes, pw, ph = _axes(y_max, [_short(d) for d in days])
    slot = pw / max(len(days), 1)
    bar = min(46.0, slot * 0.7)
    body = [axes]
    for i, day in enumerate(days):
        x = LEFT + slot * i + (slot - bar) / 2
        y = TOP + ph
        for s, (name, values) in enumerate(series):
            v = values[i]
            if not v:
                continue
            h = ph * v / y_max
            y -= h
            body.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                        f'fill="url(#{chart_id}-p{s})" stroke="{COLOURS[s % len(COLOURS)]}">'
                        f'<title>{_t(day)} {_t(name)}: {v}</title></rect>')
            if h >= 14:
                body.append(f'<text x="{x + bar / 2:.1f}" y="{y + h / 2 + 4:.1f}" text-anchor="middle" font-size="11" '
                            f'font-weight="700" fill="#1d2330" stroke="#fff" stroke-width="3" '
                            f'paint-order="stroke">{v}</text>')
        if totals[i]:
            body.append(f'<text x="{x + bar / 2:.1f}" y="{y - 4:.1f}" text-anchor="middle" font-size="11" '
                        f'fill="#4a5263">{totals[i]}</text>')
    body.append(_legend(chart_id, [name for name, _ in series]))
    desc = "; ".join(f"{d}: " + ", ".join(f"{name} {values[i]}" for name, values in series) for i, d in enumerate(days))
    return _frame(chart_id, title, desc or "no data", "".join(body), len(series))


def _marker(kind: int, x: float, y: float, colour: str) -> str:
    shape = MARKERS[kind % len(MARKERS)]
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>'
    if shape == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    if shape == "triangle":
        return f'<path d="M{x:.1f},{y - 5:.1f} l5,9 h-10 z" fill="{colour}"/>'
    if shape == "diamond":
        return f'<path d="M{x:.1f},{y - 5:.1f} l5,5 l-5,5 l-5,-5 z" fill="{colour}"/>'
    if shape == "cross":
        return (f'<path d="M{x - 4:.1f},{y - 4:.1f} l8,8 M{x + 4:.1f},{y - 4:.1f} l-8,8" stroke="{colour}" '
                'stroke-width="2.4"/>')
    return f'<rect x="{x - 1.5:.1f}" y="{y - 5:.1f}" width="3" height="10" fill="{colour}"/>'


def _line_key(i: int, x: float, y: float) -> str:
    colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x - 2}" x2="{x + 18}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2"{dash_attr}/>'
            + _marker(i, x + 8, y, colour))


def lines(chart_id: str, title: str, days: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
          percent: bool = False) -> Markup:
    """One line per series, each with its own dash and marker shape; the last value is written at its end."""
    values = [v for _, vs in series for v in vs if v is not None]
    y_max = 1.0 if percent else _nice_max(max(values, default=0))
    axes, pw, ph = _axes(y_max, [_short(d) for d in days], percent=percent)
    slot = pw / max(len(days), 1)
    body = [axes]
    for s, (name, vs) in enumerate(series):
        colour, dash = COLOURS[s % len(COLOURS)], DASHES[s % len(DASHES)]
        points = [(LEFT + slot * (i + 0.5), TOP + ph - ph * (v / y_max)) for i, v in enumerate(vs) if v is not None]
        if len(points) > 1:
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            path = " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(points))
            body.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr}/>')
        for (x, y), v in zip(points, [v for v in vs if v is not None], strict=True):
            body.append(f"<g><title>{_t(name)}: {v:g}</title>{_marker(s, x, y, colour)}</g>")
        if points:
            last = [v for v in vs if v is not None][-1]
            shown = f"{last * 100:.0f}%" if percent else f"{last:g}"
            body.append(f'<text x="{points[-1][0] + 7:.1f}" y="{points[-1][1] - 6:.1f}" font-size="11" '
                        f'fill="#1d2330" stroke="#fff" stroke-width="3" paint-order="stroke">{shown}</text>')
    body.append(_legend(chart_id, [name for name, _ in series], lines=True))
    desc = "; ".join(f"{name}: " + ", ".join("—" if v is None else f"{v:g}" for v in vs) for name, vs in series)
    return _frame(chart_id, title, desc or "no data", "".join(body), len(series))


def reliability(chart_id: str, title: str, levels: Sequence[dict]) -> Markup:
    """A reliability diagram for one group: per stated confidence, a patterned bar of the share the
    reviews found right (written as ``right/items``) beside a hatched bar of the nominal share."""
    axes, pw, ph = _axes(1.0, [lv["confidence"] for lv in levels], percent=True)
    slot = pw / max(len(levels), 1)
    bar = min(54.0, slot * 0.34)
    body = [axes]
    for i, lv in enumerate(levels):
        x = LEFT + slot * i + slot / 2
        for s, value, label in ((0, lv["observed"], f'{lv["correct"]}/{lv["items"]}'),
                                (1, lv["nominal"], f'{lv["nominal"] * 100:.0f}%')):
            bx = x - bar - 2 if s == 0 else x + 2
            if value is None:
                body.append(f'<text x="{bx + bar / 2:.1f}" y="{TOP + ph - 6}" text-anchor="middle" font-size="11" '
                            f'fill="#6a7283">no reviews</text>')
                continue
            h = ph * value
            body.append(f'<rect x="{bx:.1f}" y="{TOP + ph - h:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                        f'fill="url(#{chart_id}-p{s})" stroke="{COLOURS[s]}"><title>{_t(lv["confidence"])}: '
                        f'{_t(label)}</title></rect>')
            body.append(f'<text x="{bx + bar / 2:.1f}" y="{TOP + ph - h - 4:.1f}" text-anchor="middle" font-size="11" '
                        f'fill="#1d2330">{_t(label)}</text>')
    body.append(_legend(chart_id, ["found right (reviews)", "nominal (calibrated)"]))
    desc = "; ".join(f'{lv["confidence"]}: {lv["correct"]} of {lv["items"]} right, nominal {lv["nominal"]}'
                     for lv in levels)
    return _frame(chart_id, title, desc, "".join(body), 2)
