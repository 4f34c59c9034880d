"""The replay viewer in a real browser: headless Chromium driven by Playwright (the `viewer` extra).

Each test writes a page with `rulelang replay TRACE --html`, opens it from a file:// URL and
steps it as a person would (arrow keys, buttons, the slider, the #step=N fragment), reading
what the page shows: a zone's contents at a step, the violation banner, the play-by-play
line; and no console errors. Debian's chromium (/usr/bin/chromium) is the browser: Playwright's
own download is not used. Without Playwright or Chromium, the tests skip.
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The pages the tests open: a Chicken! game, the same with a broken step, a Kuhn poker game as P2 saw it."""
    tmp = tmp_path_factory.mktemp("viewer")
    runner = CliRunner()

    def cli(*args: str) -> Any:
        return runner.invoke(main, list(args), catch_exceptions=False)

    trace = tmp / "chicken.jsonl"
    assert cli("run", "games/chicken.rules", "--seed", "3", "--trace", str(trace)).exit_code == 0
    lines = trace.read_text().splitlines()
    assert lines[4] == '{"type": "chance", "step": 3, "roll": "White#1", "outcome": "Chicken"}'
    lines[4] = lines[4].replace("Chicken", "DoubleChicken")
    bad = tmp / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    kuhn = tmp / "kuhn.jsonl"
    assert cli("run", "examples/kuhn-poker/kuhn-poker.rules", "--seed", "2", "--trace", str(kuhn)).exit_code == 0
    out = {"chicken": tmp / "chicken.html", "bad": tmp / "bad.html", "kuhn": tmp / "kuhn-p2.html"}
    assert cli("replay", str(trace), "--html", str(out["chicken"])).exit_code == 0
    assert cli("replay", str(bad), "--html", str(out["bad"])).exit_code == 1
    assert cli("replay", str(kuhn), "--html", str(out["kuhn"]), "--view", "P2").exit_code == 0
    return out


class Page:
    """A page open in the browser, with the errors it logged."""

    def __init__(self, browser: Any, path: Path, fragment: str = "", width: int = 1280, height: int = 900) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri() + fragment)

    def text(self, selector: str) -> str:
        """The text a person reads in the element."""
        return self.page.inner_text(selector)

    def zone(self, name: str) -> list[str]:
        """The chips shown in zone ``name``."""
        return self.page.locator(f'.zone[data-zone="{name}"] .chip').all_inner_texts()

    def where(self) -> str:
        return self.text("#where")

    def close(self) -> None:
        self.page.close()


def test_step_forward_and_back_with_keys_buttons_and_slider(browser: Any, pages: dict[str, Path]) -> None:
    p = Page(browser, pages["chicken"])
    assert p.text("h1") == "Chicken!"
    assert p.where().startswith("start")
    assert p.text("#banner").startswith("Compliant")
    p.page.keyboard.press("ArrowRight")
    p.page.keyboard.press("ArrowRight")
    assert p.where().startswith("step 2 of 400")
    assert p.page.url.endswith("#step=2")
    assert p.zone("middle") == ["White#1", "White#2", "White#3", "White#4"]
    assert "P2 chooses: Chicken Out!" in p.text("#nowlines")
    p.page.click("#next")
    assert p.where().startswith("step 3")
    assert p.zone("middle")[0] == "White#1=Chicken"
    assert p.text("#nowlines").strip() == "rolls: White#1 Chicken"
    p.page.click("#prev")
    p.page.keyboard.press("ArrowLeft")
    assert p.where().startswith("step 1")
    p.page.click("#last")
    assert p.where().startswith("step 400 of 400")
    assert "Winner: P1" in p.text("#standings")
    assert p.page.is_disabled("#next")
    p.page.locator("#slider").fill("6")  # as a drag of the slider to 6 does
    assert p.where().startswith("step 6")
    assert p.zone("right") == ["White#1=Chicken", "White#2=Chicken"]
    assert p.zone("left") == ["White#3=Fox"]
    p.page.click("#first")
    assert p.where().startswith("start")
    assert p.errors == []
    assert all(u.startswith("file://") for u in p.requests)
    p.close()


def test_the_step_in_the_fragment_is_read_on_load_and_followed(browser: Any, pages: dict[str, Path]) -> None:
    p = Page(browser, pages["chicken"], "#step=12")
    assert p.where().startswith("step 12")
    assert p.zone("left") == ["White#3=Fox", "White#4=Fox"]
    p.page.evaluate("location.hash = '#step=3'")
    p.page.wait_for_function("document.getElementById('where').textContent.startsWith('step 3')")
    assert p.zone("middle")[0] == "White#1=Chicken"
    p.page.evaluate("location.hash = '#step=1'")  # the first player drawn: P2's turn begins
    p.page.wait_for_function("document.getElementById('where').textContent.startsWith('step 1')")
    assert p.text("#options").startswith("P2 may choose:")
    assert p.page.locator("#options .chip").all_inner_texts() == ["Go For It!", "Chicken Out!"]
    q = Page(browser, pages["chicken"], "#step=nonsense")
    assert q.where().startswith("start")
    assert p.errors == [] and q.errors == []
    p.close()
    q.close()


def test_a_broken_trace_opens_at_the_violation(browser: Any, pages: dict[str, Path]) -> None:
    p = Page(browser, pages["bad"])
    banner = p.text("#banner")
    assert banner.startswith("Violation at step 3 (trace line 5)")
    assert "games/chicken.rules:" in banner
    assert p.where().startswith("step 3 of 3")
    assert p.page.get_attribute("#now", "class") == "failing"
    failure = p.text("#failure")
    assert 'chance gives "DoubleChicken"' in failure
    assert "no face 'DoubleChicken'" in failure
    assert p.page.locator("#legal .chip").all_inner_texts() == ["Chicken", "Egg", "Fox", "Blank"]
    assert p.zone("middle") == ["White#1", "White#2", "White#3", "White#4"]  # the table the step was played on
    p.page.keyboard.press("Home")
    assert p.where().startswith("start") and p.page.is_hidden("#failure")
    p.page.click("#gofail")
    assert p.where().startswith("step 3")
    assert p.errors == []
    p.close()


def test_p2s_page_shows_p2s_card_and_a_count_for_p1s(browser: Any, pages: dict[str, Path]) -> None:
    p = Page(browser, pages["kuhn"])
    assert "as P2 saw it" in p.text("#sub")
    p.page.keyboard.press("End")
    assert p.zone("hand of P1") == ["1 hidden"]
    assert len(p.zone("hand of P2")) == 1 and p.zone("hand of P2")[0] in ("Jack", "Queen", "King")
    assert "P1 folds." in p.text("#log")
    assert p.errors == []
    p.close()


@pytest.mark.parametrize(("width", "height"), [(1366, 900), (390, 844)])
def test_the_page_fits_desktop_and_phone_widths(browser: Any, pages: dict[str, Path], tmp_path: Path,
                                                width: int, height: int) -> None:
    p = Page(browser, pages["bad"], width=width, height=height)
    scroll = p.page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width  # nothing wider than the screen: no sideways scrolling
    for selector in ("#banner", "#slider", "#next", "#now"):
        box = p.page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    p.page.screenshot(path=str(tmp_path / f"viewer-{width}.png"), full_page=True)
    assert p.errors == []
    p.close()
