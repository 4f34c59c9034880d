"""The report in a real browser: headless Chromium driven by Playwright (the `viewer` extra), at 1280 px.

Each page (simulate, compare, sweep) is written by the command line, opened from a file:// URL
and measured as it is drawn: no horizontal overflow, every figure as wide as the page's
column and every label inside its figure, no legend on a bar or a mark (bounding boxes), no
console error and no request but the page itself. Screenshots of each page are saved (in the
test's folder, or in $RULELANG_REPORT_SHOTS if set) for a person to look at. Debian's chromium
(/usr/bin/chromium) is the browser; without Playwright or Chromium, the tests skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main

sync_api = pytest.importorskip("playwright.sync_api", reason="needs the viewer extra: pip install 'rulelang[viewer]'")

CHROMIUM = os.environ.get("RULELANG_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists():
    pytest.skip(f"needs Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.usefixtures("at_root")

PAGES = {
    "simulate": ["simulate", "games/barnyard.rules", "-n", "30", "-m"],
    "compare": ["compare", "games/barnyard.rules", "-O", "scarecrow_split=false", "-o", "scarecrow_split=true",
                "-n", "30"],
    "sweep": ["sweep", "games/chicken.rules", "-o", "random_first_player=true,false", "-p", "2..4", "-n", "20"],
    "sweep-values": ["sweep", "tests/sim/data/seesaw.rules", "-o", "gain=1..9", "-n", "10"],
    "simulate-counts": ["simulate", "games/chicken.rules", "-p", "2", "-p", "5", "-n", "20"],
    "compare-counts": ["compare", "games/chicken.rules", "-o", "random_first_player=false", "-p", "2", "-p", "3",
                       "-n", "20", "--no-coverage"],
}

MEASURE = """() => {
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const doc = document.documentElement;
  const main = document.querySelector('main');
  return {scroll: doc.scrollWidth, client: doc.clientWidth, main: box(main),
          charts: [...document.querySelectorAll('svg.chart')].map(s => ({
            title: s.querySelector('title').textContent, box: box(s),
            legend: [...s.querySelectorAll('.legend > *')].map(box),
            marks: [...s.querySelectorAll('.bar, .mark, .whisker, .ref')].map(box),
            texts: [...s.querySelectorAll('text')].map(t => [t.textContent, ...box(t)])}))};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The report of each command, written by the command line."""
    tmp = tmp_path_factory.mktemp("report")
    out = {}
    for name, args in PAGES.items():
        out[name] = tmp / f"{name}.html"
        result = CliRunner().invoke(main, [*args, "-j", "1", "-q", "--report", str(out[name])],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return out


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share more than a hairline."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def shots_dir(page: Path) -> Path:
    where = os.environ.get("RULELANG_REPORT_SHOTS")
    return Path(where) if where else page.parent


@pytest.mark.parametrize("name", list(PAGES))
def test_report_at_1280_px(browser: Any, pages: dict[str, Path], name: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(pages[name].as_uri())
    m = page.evaluate(MEASURE)
    assert m["scroll"] <= m["client"], "the page scrolls sideways"
    main_left, _, main_right, _ = m["main"]
    width = main_right - main_left
    assert m["charts"], "no figure"
    for chart in m["charts"]:
        left, top, right, bottom = chart["box"]
        assert left >= main_left - 1 and right <= main_right + 1, chart["title"]  # no figure overflows
        assert right - left >= 0.98 * width, chart["title"]  # every figure has the page's full width
        for text, *b in chart["texts"]:
            assert b[0] >= left - 1 and b[2] <= right + 1 and b[1] >= top - 1 and b[3] <= bottom + 1, (chart["title"],
                                                                                                       text)
        for item in chart["legend"]:
            hits = [mark for mark in chart["marks"] if overlap(item, mark)]
            assert not hits, f"{chart['title']}: a legend sits on {len(hits)} marks"
    shots = shots_dir(pages[name])
    shots.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("document.documentElement.scrollHeight")
    for k, y in enumerate(range(0, height, 1300)):
        page.screenshot(path=str(shots / f"{name}-{k}.png"), full_page=True,
                        clip={"x": 0, "y": y, "width": 1280, "height": min(1300, height - y)})
    assert (shots / f"{name}-0.png").stat().st_size > 10_000
    assert errors == [] and requests == [pages[name].as_uri()]
    page.close()


def test_the_overlap_check_sees_a_legend_on_a_bar(browser: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><main><svg class="chart" viewBox="0 0 100 50" width="100%">'
                   '<title>t</title><rect class="bar" x="0" y="0" width="50" height="50"/>'
                   '<g class="legend"><rect x="10" y="10" width="10" height="10"/></g></svg></main></body></html>')
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(bad.as_uri())
    chart = page.evaluate(MEASURE)["charts"][0]
    assert any(overlap(item, mark) for item in chart["legend"] for mark in chart["marks"])
    page.close()


def test_printed_page_keeps_figures_whole(browser: Any, pages: dict[str, Path], tmp_path: Path) -> None:
    page = browser.new_page()
    page.goto(pages["simulate"].as_uri())
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('section')).breakInside") == "avoid"
    pdf = page.pdf(path=str(tmp_path / "report.pdf"), format="A4")
    assert pdf[:4] == b"%PDF"
    page.close()
