"""Charts as plain inline SVG for the HTML report (rulelang/sim/report.py): no library, no script.

Five kinds: grouped bars with 95% intervals (:func:`bars`), small-multiple histograms that share
their bins and scale (:func:`histograms`), stacked shares (:func:`stacked`), dot plots with
intervals (:func:`dots`) and line plots with intervals (:func:`lines`). Each chart is one
``<svg>`` drawn in a ``viewBox`` :data:`WIDTH` wide, which the page stretches to its full
width. A chart's legend has a strip of its own above the plot area, so it never sits on a bar;
marks carry the classes the browser tests read (``bar``, ``legend``, ``mark``), and every chart
has a ``<title>`` and a ``<desc>`` for screen readers (the page puts the numbers in a table under it).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

WIDTH = 960
FONT = 13
CHAR = 7.2  # the mean advance of a glyph at FONT px, to lay labels out without measuring them
# Okabe and Ito's palette (told apart with the common colour blindnesses), then grey and black.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7f7f7f", "#000000")
LEGEND_ROW = 20
PANEL_GAP = 28

Interval = tuple[float, float, float] | None  # (value, low, high) of a 95% interval, None: no value there


def colour(i: int) -> str:
    """The colour of series ``i`` (cycles through :data:`PALETTE`)."""
    return PALETTE[i % len(PALETTE)]


def ramp(i: int, n: int) -> str:
    """Colour ``i`` of ``n`` ordered ones, dark blue (first) to pale (last): for ranks 1st, 2nd, ..."""
    t = i / (n - 1) if n > 1 else 0.0
    dark, pale = (8, 48, 107), (198, 219, 239)
    r, g, b = (round(d + (p - d) * t) for d, p in zip(dark, pale))
    return f"#{r:02x}{g:02x}{b:02x}"


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def esc(text: object) -> str:
    """Text made safe inside SVG and HTML (quotes too)."""
    return html.escape(str(text), quote=True)


def text_width(text: str, size: float = FONT) -> float:
    """About how wide ``text`` is drawn at ``size`` px."""
    return len(text) * CHAR * size / FONT


def fmt_tick(v: float) -> str:
    """A tick label: 12, 2.5, 0.25 (no trailing zeros)."""
    return f"{v:.4g}" if abs(v) < 1e5 else f"{v:.3g}"


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About ``n`` round ticks from at most ``lo`` to at least ``hi`` (steps of 1, 2, 2.5 or 5 times a power of 10)."""
    if not math.isfinite(lo) or not math.isfinite(hi):
        lo, hi = 0.0, 1.0
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw * (1 - 1e-9))
    first = math.floor(lo / step + 1e-9) * step
    ticks = [first]
    while ticks[-1] < hi - step * 1e-9:
        ticks.append(first + len(ticks) * step)
    return [round(t, 10) for t in ticks]


def scale(lo: float, hi: float, a: float, b: float) -> tuple[float, float]:
    """(offset, factor) mapping data ``lo..hi`` onto pixels ``a..b``: pixel = offset + factor * value."""
    f = (b - a) / (hi - lo) if hi != lo else 0.0
    return (a - f * lo, f)


def _svg(width: float, height: float, title: str, desc: str, body: Sequence[str]) -> str:
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'role="img" font-size="{FONT}" font-family="system-ui, sans-serif">'
            f"<title>{esc(title)}</title><desc>{esc(desc)}</desc>" + "".join(body) + "</svg>")


def _text(x: float, y: float, s: str, anchor: str = "start", cls: str = "", extra: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{c}{extra}>{esc(s)}</text>'


def legend(items: Sequence[tuple[str, str, str]], x: float, y: float, width: float) -> tuple[str, float]:
    """A legend strip from ``(x, y)``, wrapping at ``width``: items are (label, colour, kind: box, dot or dash).

    Returns the SVG and the strip's height.
    """
    out = ['<g class="legend">']
    cx, cy = x, y
    for label, col, kind in items:
        w = 22 + text_width(label) + 20
        if cx > x and cx + w > x + width:
            cx, cy = x, cy + LEGEND_ROW
        mid = cy + LEGEND_ROW / 2
        if kind == "box":
            out.append(f'<rect x="{cx:.1f}" y="{mid - 6:.1f}" width="16" height="12" fill="{col}"/>')
        elif kind == "dot":
            out.append(f'<line x1="{cx:.1f}" x2="{cx + 16:.1f}" y1="{mid:.1f}" y2="{mid:.1f}" stroke="{col}" '
                       f'stroke-width="2"/><circle cx="{cx + 8:.1f}" cy="{mid:.1f}" r="4" fill="{col}"/>')
        else:
            out.append(f'<line x1="{cx:.1f}" x2="{cx + 16:.1f}" y1="{mid:.1f}" y2="{mid:.1f}" stroke="{col}" '
                       f'stroke-width="1.5" stroke-dasharray="4 3"/>')
        out.append(_text(cx + 22, mid + 4.5, label))
        cx += w
    out.append("</g>")
    return "".join(out), cy - y + LEGEND_ROW


def _y_axis(ticks: Sequence[float], off: float, f: float, left: float, right: float, label: str,
            suffix: str = "") -> list[str]:
    out = []
    for t in ticks:
        y = off + f * t
        out.append(f'<line x1="{left:.1f}" x2="{right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(_text(left - 6, y + 4.5, fmt_tick(t) + suffix, "end", "tick"))
    if label:
        top, bottom = off + f * ticks[-1], off + f * ticks[0]
        mid = (top + bottom) / 2
        out.append(_text(14, mid, label, "middle", "axis", f' transform="rotate(-90 14 {mid:.1f})"'))
    return out


def _whisker(x: float, y1: float, y2: float, cap: float = 5) -> str:
    return (f'<path class="whisker" d="M{x:.1f} {y1:.1f}V{y2:.1f}M{x - cap:.1f} {y1:.1f}h{2 * cap:.1f}'
            f'M{x - cap:.1f} {y2:.1f}h{2 * cap:.1f}" stroke="#222" stroke-width="1.3" fill="none"/>')


def bars(categories: Sequence[str], series: Sequence[tuple[str, Sequence[Interval]]], y_label: str, title: str,
         desc: str, ref: tuple[str, float] | None = None, suffix: str = "") -> str:
    """Grouped vertical bars (one group per category, one bar per series) with their intervals as whiskers,
    and an optional dashed reference line ``ref`` (label, value) across the plot."""
    items = [(name, colour(j), "box") for j, (name, _) in enumerate(series)]
    if ref is not None:
        items.append((ref[0], "#555", "dash"))
    left, right = 70, WIDTH - 16
    leg, lh = legend(items, left, 6, right - left)
    top, bottom = 6 + lh + 12, 6 + lh + 12 + 260
    highs = [c[2] for _, cells in series for c in cells if c is not None] + ([ref[1]] if ref else [])
    ticks = nice_ticks(0.0, max(highs, default=1.0) or 1.0)
    off, f = scale(ticks[0], ticks[-1], bottom, top)
    body = [leg, *_y_axis(ticks, off, f, left, right, y_label, suffix)]
    group = (right - left) / max(1, len(categories))
    width = group * 0.8 / max(1, len(series))
    for i, cat in enumerate(categories):
        gx = left + i * group + group * 0.1
        for j, (name, cells) in enumerate(series):
            c = cells[i]
            if c is None:
                continue
            x = gx + j * width
            y = off + f * c[0]
            body.append(f'<rect class="bar" x="{x + 1:.1f}" y="{min(y, bottom):.1f}" width="{width - 2:.1f}" '
                        f'height="{abs(bottom - y):.1f}" fill="{colour(j)}"><title>{esc(name)} {esc(cat)}: '
                        f'{c[0]:.1f}{esc(suffix)} [{c[1]:.1f}, {c[2]:.1f}]</title></rect>')
            body.append(_whisker(x + width / 2, off + f * c[1], off + f * c[2]))
        body.append(_text(left + i * group + group / 2, bottom + 20, cat, "middle"))
    if ref is not None:
        y = off + f * ref[1]
        body.append(f'<line class="ref" x1="{left:.1f}" x2="{right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#555" '
                    'stroke-width="1.5" stroke-dasharray="4 3"/>')
    body.append(f'<line x1="{left}" x2="{right}" y1="{bottom:.1f}" y2="{bottom:.1f}" stroke="#222"/>')
    return _svg(WIDTH, bottom + 32, title, desc, body)


def _bins(values: Sequence[float]) -> tuple[float, float, int]:
    """Shared bins for the values: (low, width, count). Values on a grid of at most 40 steps (whole numbers, or
    payoffs such as -1, -1/3, 1/3, 1) get a bin centred on each step; others 20 equal bins."""
    if not values:
        return (0.0, 1.0, 1)
    lo, hi = min(values), max(values)
    if hi == lo:
        return (lo - 0.5, 1.0, 1)
    if all(float(v).is_integer() for v in values) and hi - lo <= 40:
        return (lo - 0.5, 1.0, int(hi - lo) + 1)
    distinct = sorted(set(values))
    if len(distinct) <= 40:
        gap = min(b - a for a, b in zip(distinct, distinct[1:]))
        steps = (hi - lo) / gap
        if steps <= 40 and all(abs((v - lo) / gap - round((v - lo) / gap)) < 1e-6 for v in distinct):
            return (lo - gap / 2, gap, round(steps) + 1)
    n = 20
    return (lo, (hi - lo) / n, n)


def histograms(panels: Sequence[tuple[str, Sequence[float]]], x_label: str, title: str, desc: str,
               cols: int = 4, colours: Sequence[str] | None = None) -> str:
    """Small multiples: one histogram per panel (title, values), side by side in rows of ``cols``, every panel
    with the same bins and the same scale, so that heights compare across panels (never overlaid)."""
    values = [v for _, vs in panels for v in vs]
    lo, width, n = _bins(values)
    counts = []
    for _, vs in panels:
        c = [0] * n
        for v in vs:
            c[min(n - 1, max(0, int((v - lo) / width)))] += 1
        counts.append(c)
    ticks = nice_ticks(0.0, max((max(c) for c in counts), default=1) or 1, 4)
    cols = max(1, min(cols, len(panels)))
    rows = math.ceil(len(panels) / cols)
    pw = (WIDTH - 10) / cols
    ph = 190
    body = []
    for k, (name, _vs) in enumerate(panels):
        r, q = divmod(k, cols)
        x0, y0 = 10 + q * pw, 8 + r * (ph + PANEL_GAP)
        left, right, top, bottom = x0 + 46, x0 + pw - 12, y0 + 24, y0 + ph - 36
        body.append(_text(left, y0 + 14, name, "start", "panel"))
        off, f = scale(ticks[0], ticks[-1], bottom, top)
        for t in ticks:
            y = off + f * t
            body.append(f'<line x1="{left:.1f}" x2="{right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e4e4"/>')
            body.append(_text(left - 5, y + 4.5, fmt_tick(t), "end", "tick"))
        xo, xf = scale(lo, lo + n * width, left, right)
        col = colours[k] if colours else colour(0)
        for i, c in enumerate(counts[k]):
            if c:
                x1, x2 = xo + xf * (lo + i * width), xo + xf * (lo + (i + 1) * width)
                y = off + f * c
                body.append(f'<rect class="bar" x="{x1 + 0.5:.1f}" y="{y:.1f}" width="{max(0.5, x2 - x1 - 1):.1f}" '
                            f'height="{bottom - y:.1f}" fill="{col}"><title>{esc(name)}: {c} games at '
                            f'{fmt_tick(lo + (i + 0.5) * width)}</title></rect>')
        body.append(f'<line x1="{left:.1f}" x2="{right:.1f}" y1="{bottom:.1f}" y2="{bottom:.1f}" stroke="#222"/>')
        xt = [t for t in nice_ticks(lo + width / 2 if width == 1 else lo, lo + n * width - (width / 2 if width == 1
                                                                                        else 0), 5)
              if lo <= t <= lo + n * width]
        for t in xt:
            x = xo + xf * t
            body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{bottom:.1f}" y2="{bottom + 4:.1f}" stroke="#222"/>')
            body.append(_text(x, bottom + 17, fmt_tick(t), "middle", "tick"))
        body.append(_text((left + right) / 2, bottom + 32, x_label, "middle", "axis"))
    return _svg(WIDTH, 8 + rows * (ph + PANEL_GAP) - PANEL_GAP + 8, title, desc, body)


def stacked(rows: Sequence[str], parts: Sequence[str], shares: Sequence[Sequence[float]], title: str,
            desc: str) -> str:
    """Horizontal bars of shares that add up to 1 (one bar per row, one segment per part, in order), a legend
    strip above them, each segment's percentage written in it where it fits."""
    label_w = max((text_width(r) for r in rows), default=0) + 16
    left, right = 10 + label_w, WIDTH - 24
    items = [(p, ramp(i, len(parts)), "box") for i, p in enumerate(parts)]
    leg, lh = legend(items, left, 6, right - left)
    top = 6 + lh + 10
    bh, gap = 24, 8
    body = [leg]
    for i, (row, sh) in enumerate(zip(rows, shares)):
        y = top + i * (bh + gap)
        body.append(_text(left - 8, y + bh / 2 + 4.5, row, "end"))
        x = left
        for k, s in enumerate(sh):
            w = (right - left) * s
            if w <= 0:
                continue
            fill = ramp(k, len(parts))
            body.append(f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{bh}" fill="{fill}">'
                        f'<title>{esc(row)}, {esc(parts[k])}: {100 * s:.1f}%</title></rect>')
            label = f"{100 * s:.0f}%"
            if w >= text_width(label) + 8:
                body.append(_text(x + w / 2, y + bh / 2 + 4.5, label, "middle", "seg", f' fill="{ink_on(fill)}"'))
            x += w
    bottom = top + len(rows) * (bh + gap) - gap
    for t in (0, 25, 50, 75, 100):
        x = left + (right - left) * t / 100
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{bottom + 2:.1f}" y2="{bottom + 6:.1f}" stroke="#222"/>')
        body.append(_text(x, bottom + 19, f"{t}%", "middle", "tick"))
    return _svg(WIDTH, bottom + 28, title, desc, body)


def dots(panels: Sequence[tuple[str, Sequence[tuple[str, Sequence[Interval]]]]], row_labels: Sequence[str],
         x_label: str, title: str, desc: str, cols: int = 4) -> str:
    """Dot plots with intervals: one panel per (title, series), the rows ``row_labels`` down each panel, each
    series a coloured dot with its 95% interval as a horizontal whisker; every panel on the same scale."""
    names: list[str] = []
    for _, series in panels:
        names += [n for n, _ in series if n not in names]
    values = [v for _, series in panels for _, cells in series for c in cells if c is not None for v in c]
    ticks = nice_ticks(min(values, default=0.0), max(values, default=1.0), 5)
    label_w = max((text_width(r) for r in row_labels), default=0) + 14
    cols = max(1, min(cols, len(panels)))
    grid = math.ceil(len(panels) / cols)
    leg, lh = legend([(n, colour(i), "dot") for i, n in enumerate(names)], 10 + label_w, 6, WIDTH - 26 - label_w)
    band = max(22, 10 * len(names) + 10)
    ph = 26 + band * len(row_labels) + 40
    pw = (WIDTH - 10 - label_w) / cols
    body = [leg]
    y_base = 6 + lh + 10
    for k, (name, series) in enumerate(panels):
        r, q = divmod(k, cols)
        x0, y0 = 10 + label_w + q * pw, y_base + r * (ph + PANEL_GAP)
        left, right, top = x0 + 16, x0 + pw - 22, y0 + 26
        bottom = top + band * len(row_labels)
        body.append(_text(left, y0 + 14, name, "start", "panel"))
        off, f = scale(ticks[0], ticks[-1], left, right)
        for t in ticks:
            x = off + f * t
            body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top:.1f}" y2="{bottom:.1f}" stroke="#e4e4e4"/>')
            body.append(_text(x, bottom + 16, fmt_tick(t), "middle", "tick"))
        body.append(_text((left + right) / 2, bottom + 32, x_label, "middle", "axis"))
        for i, row in enumerate(row_labels):
            yb = top + i * band
            if q == 0:
                body.append(_text(x0 - 6, yb + band / 2 + 4.5, row, "end"))
            if i % 2 == 0:
                body.append(f'<rect x="{left:.1f}" y="{yb:.1f}" width="{right - left:.1f}" height="{band}" '
                            'fill="#000" fill-opacity="0.035"/>')
            for sname, cells in series:
                c = cells[i] if i < len(cells) else None
                if c is None:
                    continue
                y = yb + band / 2 + (names.index(sname) - (len(names) - 1) / 2) * 10
                col = colour(names.index(sname))
                body.append(f'<g class="mark"><line x1="{off + f * c[1]:.1f}" x2="{off + f * c[2]:.1f}" '
                            f'y1="{y:.1f}" y2="{y:.1f}" stroke="{col}" stroke-width="2"/>'
                            f'<circle cx="{off + f * c[0]:.1f}" cy="{y:.1f}" r="4" fill="{col}">'
                            f'<title>{esc(name)}, {esc(row)}, {esc(sname)}: '
                            f'{c[0]:.2f} [{c[1]:.2f}, {c[2]:.2f}]</title></circle></g>')
        body.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" height="{bottom - top:.1f}" '
                    'fill="none" stroke="#bbb"/>')
    return _svg(WIDTH, y_base + grid * (ph + PANEL_GAP) - PANEL_GAP + 4, title, desc, body)


def lines(panels: Sequence[tuple[str, Sequence[tuple[str, Sequence[Interval]]], Sequence[float | None]]],
          x_labels: Sequence[str], title: str, desc: str, cols: int = 2, suffix: str = "",
          ref_label: str = "") -> str:
    """Line plots against the categories ``x_labels``: one panel per (title, series, reference values), each
    series a line of dots with 95% intervals as whiskers, the reference (one value per category, or None) dashed;
    each panel has its own vertical scale."""
    names: list[str] = []
    for _, series, _ref in panels:
        names += [n for n, _ in series if n not in names]
    items = [(n, colour(i), "dot") for i, n in enumerate(names) if n]
    if ref_label and any(v is not None for _, _, ref in panels for v in ref):
        items.append((ref_label, "#555", "dash"))
    leg, lh = legend(items, 10, 6, WIDTH - 20) if items else ("", 0.0)
    cols = max(1, min(cols, len(panels)))
    grid = math.ceil(len(panels) / cols)
    tilt = sum(text_width(x) for x in x_labels) > (WIDTH / cols - 90) * 0.9
    xh = max((text_width(x) for x in x_labels), default=0) * 0.6 + 14 if tilt else 20
    ph = 24 + 170 + xh + 8
    pw = (WIDTH - 10) / cols
    y_base = 6 + lh + 8
    body = [leg]
    for k, (name, series, ref) in enumerate(panels):
        r, q = divmod(k, cols)
        x0, y0 = 10 + q * pw, y_base + r * (ph + PANEL_GAP)
        pad = 58.0
        if tilt:  # the first label, slanted down to the left of its point, stays inside the figure
            widest = max(text_width(x) for x in x_labels) * math.cos(math.radians(35)) + 8
            pad = max(pad, widest - (pw - pad - 16) / max(1, len(x_labels)) / 2)
        left, right, top, bottom = x0 + pad, x0 + pw - 16, y0 + 24, y0 + 24 + 170
        body.append(_text(x0 + 4, y0 + 14, name, "start", "panel"))
        vals = [v for _, cells in series for c in cells if c is not None for v in c]
        vals += [v for v in ref if v is not None]
        ticks = nice_ticks(min(vals, default=0.0), max(vals, default=1.0), 4)
        off, f = scale(ticks[0], ticks[-1], bottom, top)
        for t in ticks:
            y = off + f * t
            body.append(f'<line x1="{left:.1f}" x2="{right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e4e4"/>')
            body.append(_text(left - 6, y + 4.5, fmt_tick(t) + suffix, "end", "tick"))
        n = len(x_labels)
        step = (right - left) / max(1, n)
        xs = [left + step * (i + 0.5) for i in range(n)]
        for x, label in zip(xs, x_labels):
            if tilt:
                body.append(_text(x, bottom + 14, label, "end", "tick",
                                  f' transform="rotate(-35 {x:.1f} {bottom + 14:.1f})"'))
            else:
                body.append(_text(x, bottom + 16, label, "middle", "tick"))
        if any(v is not None for v in ref):  # one dash per category: the reference may step from one to the next
            d = "".join(f"M{x - step / 2 + 2:.1f} {off + f * v:.1f}H{x + step / 2 - 2:.1f}"
                        for x, v in zip(xs, ref) if v is not None)
            body.append(f'<path class="ref" d="{d}" fill="none" stroke="#555" stroke-width="1.5" '
                        'stroke-dasharray="4 3"/>')
        for sname, cells in series:
            col = colour(names.index(sname))
            jitter = (names.index(sname) - (len(names) - 1) / 2) * min(6.0, step / (2 * max(1, len(names))))
            pts = [(xs[i] + jitter, c) for i, c in enumerate(cells) if c is not None]
            if len(pts) > 1:
                path = " ".join(f"{x:.1f},{off + f * c[0]:.1f}" for x, c in pts)
                body.append(f'<polyline points="{path}" fill="none" stroke="{col}" stroke-width="1.8"/>')
            for x, c in pts:
                body.append(f'<g class="mark"><line x1="{x:.1f}" x2="{x:.1f}" y1="{off + f * c[1]:.1f}" '
                            f'y2="{off + f * c[2]:.1f}" stroke="{col}" stroke-width="1.5"/><circle cx="{x:.1f}" '
                            f'cy="{off + f * c[0]:.1f}" r="3.8" fill="{col}"><title>{esc(name)} {esc(sname)}: '
                            f'{c[0]:.2f} [{c[1]:.2f}, {c[2]:.2f}]</title></circle></g>')
        body.append(f'<line x1="{left:.1f}" x2="{right:.1f}" y1="{bottom:.1f}" y2="{bottom:.1f}" stroke="#222"/>')
    return _svg(WIDTH, y_base + grid * (ph + PANEL_GAP) - PANEL_GAP + 4, title, desc, body)
