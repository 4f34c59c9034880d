"""`rulelang replay TRACE --html FILE`: the replay viewer's page, read without a browser.

The page's data is the JSON blob in its ``<script type="application/json">``: these tests parse
it back and check the frames (one per step, the table as the engine left it), the verdict,
the escaping of untrusted text, and that a page seen by one player (``--view P2``) holds no
hidden component of another seat anywhere in the file. tests/trace/test_viewer_browser.py opens
the pages in Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.trace.viewer import embed_json, page_html

pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root

KUHN = "examples/kuhn-poker/kuhn-poker.rules"
DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def run(*args: str) -> Any:
    """The CLI's result for these arguments."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def record(tmp_path: Path, game: str, seed: int, players: int | None = None) -> Path:
    """A trace of one seeded game, as ``rulelang run --trace`` writes it."""
    path = tmp_path / f"{Path(game).stem}-{seed}.jsonl"
    extra = ["--players", str(players)] if players else []
    res = run("run", game, "--seed", str(seed), "--trace", str(path), *extra)
    assert res.exit_code == 0, res.output
    return path


def page(tmp_path: Path, trace: Path, *args: str, name: str = "page.html") -> tuple[Any, str, dict[str, Any]]:
    """Replay ``trace`` with ``--html``: the CLI's result, the page and its data."""
    out = tmp_path / name
    res = run("replay", str(trace), "--html", str(out), *args)
    html = out.read_text(encoding="utf-8")
    return res, html, json.loads(DATA.search(html).group(1))


def zones_at(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame's zones, rebuilt from the changes the page is given (as its script rebuilds them)."""
    out: list[dict[str, Any]] = []
    for f in data["frames"]:
        t = f["table"]
        if not t.get("delta"):
            out.append(dict(t["zones"]))
            continue
        zones = {k: t["zones"].get(k, v) for k, v in out[-1].items() if k not in t.get("gone", [])}
        zones.update({k: v for k, v in t["zones"].items() if k not in zones})
        out.append(zones)
    return out


def test_a_frame_per_step_with_the_table_the_engine_left(tmp_path: Path) -> None:
    trace = record(tmp_path, "games/chicken.rules", 3)
    res, html, data = page(tmp_path, trace)
    assert res.exit_code == 0
    assert "compliant: 400 steps" in res.output
    steps = [f["step"] for f in data["frames"]]
    assert steps == list(range(0, 401))  # the start, then every step of the game
    assert data["verdict"]["status"] == "compliant"
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    # step 3 rolls White#1 (trace line 5): frame 3 shows its face, still in the middle; once the last die is
    # rolled (step 6), the rules set the Chickens aside to the right and the Fox to the left
    assert lines[4] == {"type": "chance", "step": 3, "roll": "White#1", "outcome": "Chicken"}
    zones = zones_at(data)
    assert zones[2]["middle"] == ["White#1", "White#2", "White#3", "White#4"]
    assert zones[3]["middle"] == ["White#1=Chicken", "White#2", "White#3", "White#4"]
    assert zones[6]["right"] == ["White#1=Chicken", "White#2=Chicken"]
    assert zones[6]["left"] == ["White#3=Fox"]
    assert data["frames"][3]["line"] == 5
    assert data["frames"][3]["lines"] == ["  rolls: White#1 Chicken"]  # each step tells its own roll
    assert data["frames"][6]["lines"] == ["  rolls: White#4 Blank"]
    # the last frame is the end: the final scores as the result line says
    result = lines[-1]
    scores = data["frames"][-1]["table"]["counters"]["score"]
    assert {r["player"]: r["keys"][0] for r in result["standings"]} == scores
    assert data["frames"][-1]["table"]["over"] is True
    assert "Winner: P1" in data["standings"]
    assert "http" not in html.replace("http-equiv", "")  # nothing loaded from the network


def test_zones_and_counters_are_shown_by_the_names_players_read(tmp_path: Path) -> None:
    trace = record(tmp_path, "games/barnyard.rules", 2)
    _res, html, data = page(tmp_path, trace)
    names = data["names"]
    # barnyard.rules: zone held "Action Tokens" (per player), pool "the Action Tokens in the middle",
    # counter crow_tokens "multiples of 3 Crows rewarded"; a counter without a description keeps its name
    assert names["held of P1"] == "P1's Action Tokens"
    assert names["pool"] == "the Action Tokens in the middle"
    assert names["crow_tokens"] == "multiples of 3 Crows rewarded"
    assert "hand_limit" not in names
    assert set(names) - {c for f in data["frames"] for c in f["table"].get("counters", {})} <= {
        k for z in zones_at(data) for k in z}  # every name is of a zone or counter the page shows
    assert "named(name)" in html  # the page heads each zone with its name for players


def test_a_violation_marks_its_step_with_the_rule_and_the_legal_options(tmp_path: Path) -> None:
    trace = record(tmp_path, "games/chicken.rules", 3)
    text = trace.read_text().splitlines()
    text[4] = text[4].replace('"outcome": "Chicken"', '"outcome": "DoubleChicken"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(text) + "\n")
    res, _html, data = page(tmp_path, bad)
    assert res.exit_code == 1
    v = data["verdict"]
    assert (v["status"], v["step"], v["line"]) == ("violation", 3, 5)
    assert v["rule"].startswith("games/chicken.rules:")
    assert v["rule_text"].startswith('4 White dice "White die"')
    assert v["legal"] == ["Chicken", "Egg", "Fox", "Blank"]
    assert "no face 'DoubleChicken'" in v["reason"]
    assert [f["step"] for f in data["frames"]] == [0, 1, 2]  # the page adds the failing step after these


def test_untrusted_text_cannot_end_the_script_or_become_markup() -> None:
    evil = 'x</script><script>alert(1)</script><!-- \u2028\u2029 & "q"'
    text = embed_json({"title": evil})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"title": evil}
    html = page_html({"title": evil + " /*RULELANG_DATA*/", "frames": []})
    assert html.count("</script>") == 2  # the data's and the code's, no third
    assert "<title>x&lt;/script&gt;&lt;script&gt;" in html
    assert json.loads(DATA.search(html).group(1))["title"] == evil + " /*RULELANG_DATA*/"
    assert "innerHTML" not in html and "insertAdjacentHTML" not in html and "document.write" not in html


def _hidden_names(data_full: dict[str, Any], data_seen: dict[str, Any], names: dict[str, list[str]]) -> set[str]:
    """The names of components that the seat whose page is ``data_seen`` never saw: in no zone its page
    shows, in no private look of its own (``names``: each shown name and the other names it is read by)."""
    full, seen = zones_at(data_full), zones_at(data_seen)
    assert len(full) == len(seen)
    hidden: set[str] = set()
    visible: set[str] = set()
    for f, s in zip(full, seen):
        for zone, items in f.items():
            into = visible if isinstance(s.get(zone), list) else hidden
            into.update(item.split("=")[0] for item in items)
    for frame in data_seen["frames"]:
        for look in frame["table"].get("seen", []):
            visible.update(look.get("components", []))
    never = hidden - visible
    return {alias for name in never for alias in names.get(name, [name])}


def _words(html: str, data: dict[str, Any]) -> set[str]:
    """The words of the page: its text outside the data, and every text in the data but the names of zones and
    their display names (every component's own pile is named after it, whoever holds it: the rules say it has one)."""
    texts = [DATA.sub("", html)]

    def walk(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for k, v in value.items():
                if k not in ("gone", "names"):
                    walk(v)

    walk(data)
    return {w for text in texts for w in re.findall(r"[\w#]+", text)}


def _reading(game: str) -> dict[str, list[str]]:
    from rulelang import load_game
    from rulelang.narrate import reading_names

    engine = load_game(game)
    reading = reading_names(engine)
    return {engine.shown_name[label]: [engine.shown_name[label], label, reading.get(label, label)]
            for label in engine.program.component_labels}


@pytest.mark.parametrize(("game", "seed", "players"), [(KUHN, 2, None), ("games/hippe-kippen.rules", 3, 3),
                                                       ("games/rule-the-roost.rules", 2, 3)])
def test_a_page_seen_by_p2_holds_no_hidden_component_of_another_seat(tmp_path: Path, game: str, seed: int,
                                                                     players: int | None) -> None:
    trace = record(tmp_path, game, seed, players)
    _res, full_html, full = page(tmp_path, trace, name="full.html")
    res, html, seen = page(tmp_path, trace, "--view", "P2", name="p2.html")
    assert res.exit_code == 0, res.output
    assert seen["view"] == "P2"
    hidden = _hidden_names(full, seen, _reading(game))
    assert hidden  # the game keeps something from P2: the test can fail
    words = _words(full_html, full)
    assert any(name in words for name in hidden)  # the referee's page names them
    seen_words = _words(html, seen)
    assert not {name for name in hidden if name in seen_words}
    assert '"seed"' not in html


def test_kuhn_fold_page_as_p2_shows_p2s_card_and_not_p1s(tmp_path: Path) -> None:
    trace = record(tmp_path, KUHN, 2)
    full = zones_at(page(tmp_path, trace, name="full.html")[2])
    _res, html, seen = page(tmp_path, trace, "--view", "P2", name="p2.html")
    p1, p2 = full[-1]["hand of P1"], full[-1]["hand of P2"]
    assert len(p1) == len(p2) == 1 and p1 != p2
    last = zones_at(seen)[-1]
    assert last["hand of P2"] == p2
    assert last["hand of P1"] == {"hidden": 1}
    assert p1[0] not in html


def test_bad_uses_of_html_are_usage_errors(tmp_path: Path) -> None:
    trace = record(tmp_path, KUHN, 1)
    res = run("replay", str(trace), "--html", str(trace))
    assert res.exit_code == 2 and "--html" in res.output
    res = run("replay", str(trace), "--html", str(tmp_path / "missing" / "p.html"))
    assert res.exit_code == 1 and "cannot write" in res.output and "Traceback" not in res.output
    res = run("replay", str(trace), "--html", str(tmp_path / "p.html"), "--view", "P9")
    assert res.exit_code == 2 and "P9" in res.output
    assert not (tmp_path / "p.html").exists()


def test_a_malformed_trace_still_gets_a_page_where_it_has_steps(tmp_path: Path) -> None:
    trace = record(tmp_path, "games/chicken.rules", 3)
    text = trace.read_text().splitlines()
    text[4] = text[4].replace('"outcome": "Chicken"', '"outcome": "Chickn"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(text) + "\n")
    res, _html, data = page(tmp_path, bad)
    assert res.exit_code == 1
    assert data["verdict"]["status"] == "malformed"
    assert "'Chickn' is not a face" in data["verdict"]["message"]
    _res, html, seen = page(tmp_path, bad, "--view", "P3", name="p3.html")
    assert "Chickn" not in html  # the trace's text is not P3's to read
    assert seen["verdict"]["status"] == "malformed"


def test_a_trace_that_cannot_be_read_writes_no_page_and_says_so(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    out = tmp_path / "junk.html"
    res = run("replay", str(junk), "--html", str(out))
    assert res.exit_code == 1
    assert f"no page written to {out}: the trace cannot be read" in res.output
    assert "line 1 is not valid JSON" in res.output
    assert not out.exists()


def test_html_with_json_writes_the_page_and_prints_the_verdict(tmp_path: Path) -> None:
    trace = record(tmp_path, KUHN, 5)
    res, _html, data = page(tmp_path, trace, "--json")
    assert res.exit_code == 0
    assert json.loads(res.output)["status"] == "compliant"
    assert data["verdict"]["status"] == "compliant" and data["frames"][-1]["table"]["over"] is True


def test_another_players_secret_label_parts_are_hidden_on_p3s_page(tmp_path: Path) -> None:
    trace = record(tmp_path, "games/barnyard.rules", 2)
    lays = re.compile(r"P[124] chooses: lay \d+ (\S+)")
    full = [m.group(1) for f in page(tmp_path, trace, name="full.html")[2]["frames"] for line in f["lines"]
            if (m := lays.search(line))]
    _res, html, seen = page(tmp_path, trace, "--view", "P3", name="p3.html")
    shown = [m.group(1) for f in seen["frames"] for line in f["lines"] if (m := lays.search(line))]
    assert len(full) == len(shown) > 5
    assert "(hidden)" not in full  # the referee's page names the cards laid
    assert set(shown) == {"(hidden)"}
