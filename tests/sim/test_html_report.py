"""The HTML report: one self-contained page, rendered by a real headless browser without console errors."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

pytest.importorskip("matplotlib", reason="needs the report extra: pip install 'rulelang[report]'")
ROOT = Path(__file__).resolve().parents[2]
BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


def render(page: Path, tmp_path: Path) -> tuple[str, list[str]]:
    """The DOM a headless browser built from ``page``, and the console messages it logged."""
    if BROWSER is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    proc = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--enable-logging=stderr", "--v=0", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
    return proc.stdout, console


def test_the_browser_check_sees_console_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>console.error('boom'); nosuch();</script></body></html>")
    dom, console = render(bad, tmp_path)
    assert "<body>" in dom
    assert any("boom" in line for line in console) and any("nosuch is not defined" in line for line in console)


def _self_contained(text: str) -> None:
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:)""", text)
    assert "<script" not in text  # plots are inline SVG: nothing to fetch, nothing to run


def test_simulate_report_renders(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["simulate", str(ROOT / "games/chicken.rules"), "-n", "30", "-p", "3", "-j", "1",
                                       "-a", "greedy", "-a", "random", "--report", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert f"report written to {out}" in result.stdout
    text = out.read_text()
    _self_contained(text)
    assert text.count("<svg") == 3  # win rates with error bars, game length, scores
    assert "Win rate by seat" in text and "Game length" in text and "score at the end, by seat" in text
    dom, console = render(out, tmp_path)
    assert console == []
    assert dom.count("<svg") == 3 and "Chicken!: simulation" in dom


def test_compare_report_renders(tmp_path: Path) -> None:
    out = tmp_path / "compare.html"
    result = CliRunner().invoke(main, ["compare", str(ROOT / "games/chicken.rules"), "-o", "random_first_player=false",
                                       "-n", "30", "-p", "2", "-j", "1", "--report", str(out), "-q"])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    _self_contained(text)
    assert text.count("<svg") == 3 and "Differences (B - A)" in text
    dom, console = render(out, tmp_path)
    assert console == []
    assert "A against B" in dom


def test_report_written_atomically_to_a_bad_place_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", str(ROOT / "games/chicken.rules"), "-n", "2", "-j", "1", "-q",
                                       "--report", str(tmp_path / "no" / "such" / "dir" / "r.html")])
    assert result.exit_code == 1
    assert "cannot write" in result.stderr and "Traceback" not in result.output
