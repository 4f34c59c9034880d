"""Rule the Roost: a seeded trace pinned by a syrupy snapshot, and what each player may see.

`rulelang run games/rule-the-roost.rules --seed 7 --trace FILE` runs from the repository
root with the game's path relative to it, so the trace header does not depend on where
the checkout lives; the header's sha256 fields are left out of the snapshot (a comment
changed in the rules file changes them, not the game). The snapshots live in
tests/games/rule_the_roost/__snapshots__/test_snapshots.ambr; after a deliberate change to
games/rule-the-roost.rules or to the engine, review the new traces and update them with
`python -m pytest tests/games/rule_the_roost/test_snapshots.py --snapshot-update`.

The leak tests check that no observation, no `run --view` play-by-play and no
`replay --view --redacted` trace shows the identity of a face-down card (in a hand, the
deck, under a barn, being placed) to a player who has not seen it: "With each turn, a
player places one of the five cards in her hands face down under one of the three barn
cards" and "Her opponents are not allowed to see the cards she chooses to look through."
The placer knows her own card, and a farmer's player knows what she looked at.

What a player is shown of a card is its kind ("Fox"), never its copy number ("Fox#6"):
copies of a kind are alike, and the numbers follow the shuffled deck, so a number would
tell her where the other copies lie. Only the full trace and the omniscient narration
(`run` without --view) name copies.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from example_support import game_engine, random_action, without_sha

from rulelang.cli import main
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.rng import Rng
from rulelang.trace.replay import replay_file

GAME = "games/rule-the-roost.rules"
SEED = 7
# a copy of a card that can lie face down (in a hand, the deck, under a barn), named with its number
FACE_DOWN_LABEL = re.compile(r"\b(?:Red|Blue|Green|Yellow)Rooster#\d+|\b(?:Chicken|Fox|Egg|Pitchfork)#\d+")
# such a card named at all, by kind or by copy (the barns, public, keep their numbers)
FACE_DOWN_KIND = re.compile(r"\b(?:Red|Blue|Green|Yellow)Rooster\b|\b(?:Chicken|Fox|Egg|Pitchfork|Key|Padlock)\b")
HIDDEN_COUNT = re.compile(r"^\d+ hidden components?$")


def kinds_of(names: list[str]) -> list[str]:
    """``["Chicken#3", "Fox#1"]`` -> ``["Chicken", "Fox"]``: copies of a kind are alike.

    The barns keep their numbers: each has its own pile under it, so players tell them apart.
    """
    return [name if name.startswith("Barn#") else re.sub(r"#\d+$", "", name) for name in names]


def without_copy_numbers(line: str) -> str:
    """A line of the omniscient narration as a player is shown it: cards named by kind."""
    return FACE_DOWN_LABEL.sub(lambda m: m.group(0).split("#")[0], line)


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def engine() -> Engine:
    return game_engine(GAME)


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def run_trace(out: Path, seed: int = SEED, players: int = 4) -> str:
    code, output = invoke("run", GAME, "--seed", str(seed), "--players", str(players), "--trace", str(out), "--quiet")
    assert code == 0, output
    return out.read_text(encoding="utf-8")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---------------------------------------------------------------------- snapshots
@pytest.mark.parametrize("players", [2, 4])
def test_seeded_trace_matches_snapshot_and_replays_compliant(players: int, tmp_path: Path, snapshot) -> None:
    path = tmp_path / "trace.jsonl"
    text = run_trace(path, players=players)
    lines = [json.loads(line) for line in text.splitlines()]
    header, events, result = lines[0], lines[1:-1], lines[-1]
    assert header["file"] == GAME and header["seed"] == SEED and header["players"] == players
    assert result["type"] == "result" and result["winners"]
    steps = [e for e in events if e["type"] not in ("private", "digest")]  # looks and digests are not steps
    assert [e["step"] for e in steps] == list(range(1, result["steps"] + 1))
    assert any(e["type"] == "private" for e in events) or players == 2
    assert events[0]["shuffle"] == "deck" and events[1]["first_player"] is True
    assert header["chance"] == "seed" and any(e["type"] == "digest" for e in events)
    verdict = replay_file(path)
    assert verdict.status == "compliant", verdict.message
    assert verdict.result is not None and verdict.result["standings"] == result["standings"]
    code, output = invoke("replay", str(path))
    assert code == 0 and output.startswith("compliant"), output
    assert without_sha(text) == snapshot


def test_same_seed_same_trace(tmp_path: Path) -> None:
    first = run_trace(tmp_path / "a.jsonl")
    second = run_trace(tmp_path / "b.jsonl")
    other = run_trace(tmp_path / "c.jsonl", seed=SEED + 1)
    assert first == second
    assert first.splitlines()[1:] != other.splitlines()[1:]


# ---------------------------------------------------------------------- observations
def _public(zone_key: str) -> bool:
    return zone_key in ("barns", "discard") or zone_key.startswith("lock of ")


def _play_and_observe(seed: int, players: int) -> int:
    """Play a random game; after every step check every player's (and a spectator's) observation."""
    eng = engine()
    labels = eng.program.component_labels
    zones = {z.name: z for z in eng.model.zones}
    under = zones["under"].index
    rng = Rng(seed, stream=11)
    st = eng.new_state(players)
    looks: list[list[list[str]]] = [[] for _ in range(players)]  # what each player looked at, look by look
    checked = 0
    while True:
        _check_observations(eng, st, players, looks)
        checked += 1
        if st.over:
            return checked
        d = eng.pending(st)
        assert d is not None
        action, who = random_action(eng, st, rng)
        if d.kind == "choice" and d.players is None:
            m = re.fullmatch(r"play (?:a|the) Farmer with (?:pitchfork|key) and look under Barn#(\d)", action)
            if m:
                looks[d.player or 0].append([labels[c] for c in st.zones[under][int(m.group(1)) - 1]])
        eng.apply(st, action, who)


def _check_observations(eng: Engine, st: State, players: int, looks: list[list[list[str]]]) -> None:
    labels = eng.program.component_labels
    truth: dict[str, list[str]] = {}
    for z in eng.model.zones:
        content = st.zones[z.index]
        if z.per_player:
            for p in range(players):
                truth[f"{z.name} of P{p + 1}"] = [labels[c] for c in content[p]]
        elif z.per_kind is not None:
            for b, ids in enumerate(content):
                truth[f"{z.name} of Barn#{b + 1}"] = [labels[c] for c in ids]
        else:
            truth[z.name] = [labels[c] for c in content]
    for viewer in [*range(players), None]:
        obs = eng.observe(st, viewer)
        assert set(obs["zones"]) == set(truth)
        for key, shown in obs["zones"].items():
            if _public(key) or (viewer is not None and key == f"hand of P{viewer + 1}"):
                # by kind, in order, as many as there are: never a copy number
                assert shown == kinds_of(truth[key]), (key, viewer, shown)
            else:
                assert shown == {"hidden": len(truth[key])}, (key, viewer, shown)
        seen = obs.get("seen", [])
        mine = looks[viewer] if viewer is not None else []
        assert [entry["components"] for entry in seen] == [kinds_of(look) for look in mine], (viewer, seen)
        assert not FACE_DOWN_LABEL.search(json.dumps(obs)), (viewer, obs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_never_show_an_unseen_face_down_card(players: int) -> None:
    """"Her opponents are not allowed to see the cards she chooses to look through." Every
    observation shows public zones and the player's own hand (by kind, never a copy number),
    only counts of the others, and in "seen" exactly the looks of her own farmers (by kind)."""
    steps = sum(_play_and_observe(seed, players) for seed in range(12))
    assert steps > 12 * 20


# ---------------------------------------------------------------------- printed views
def _hidden_places(viewer: str | None, players: int) -> set[str]:
    places = {"the box", "the draw pile", "the card being placed"} | {f"the cards under Barn#{b}" for b in (1, 2, 3)}
    return places | {f"P{p}'s hand" for p in range(1, players + 1) if f"P{p}" != viewer}


def _check_view_lines(lines: list[str], viewer: str | None, players: int, truth: list[str]) -> dict[str, int]:
    """Check a --view play-by-play (printed with -v); ``truth`` is the same game printed in full
    (naming copies: the viewer is shown the same lines with cards named by kind)."""
    hidden = _hidden_places(viewer, players)
    counts = {"own": 0, "hidden": 0, "looks": 0, "moves": 0}
    own = re.compile(rf"^  {viewer} (chooses|looks at)")
    own_full = [without_copy_numbers(line) for line in truth if own.match(line or "")]
    own_view = []
    for line in lines:
        assert not FACE_DOWN_LABEL.search(line), f"a copy number in a player's view: {line}"
        if m := re.match(r"^  (P\d) chooses: (.*)$", line):
            who, action = m.groups()
            if who == viewer:
                own_view.append(line)
                counts["own"] += 1
            elif action.startswith("place "):
                assert re.fullmatch(r"place \(hidden\) face down under Barn#\d", action), line
                counts["hidden"] += 1
            elif action.startswith("move ") and action != "move nothing":
                assert re.fullmatch(r"move \(hidden\) from under Barn#\d to under Barn#\d", action), line
                counts["hidden"] += 1
        elif m := re.match(r"^  (P\d) looks at (.*?): (.*)$", line):
            who, _where, what = m.groups()
            if who == viewer:
                own_view.append(line)
            else:
                assert re.fullmatch(rf"\d+ components? \(seen by {who} only\)", what), line
                counts["looks"] += 1
        elif m := re.match(r"^    (.*): (.*) -> (.*?)( at random)?$", line):
            what, src, dst = m.group(1), m.group(2), m.group(3)
            if src in hidden and dst in hidden:
                assert HIDDEN_COUNT.match(what), line
                counts["moves"] += 1
        else:
            assert not FACE_DOWN_KIND.search(line), line
    assert own_view == own_full, "the viewer's own choices and looks are shown in full"
    return counts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_run_view_never_shows_an_unseen_face_down_card(seed: int) -> None:
    """"With each turn, a player places one of the five cards in her hands face down under
    one of the three barn cards" and "Her opponents are not allowed to see the cards she
    chooses to look through." `run --view P -v` names another player's card only where it
    is face up (the discard pile, the padlock); the viewer's own placements and looks are
    shown in full, by kind; no card is named by its copy number."""
    players = 4
    code, full = invoke("run", GAME, "--seed", str(seed), "-v")
    assert code == 0, full
    truth = full.splitlines()
    totals = {"own": 0, "hidden": 0, "looks": 0, "moves": 0}
    for viewer in ["P1", "P2", "P3", "P4", "spectator"]:
        code, out = invoke("run", GAME, "--seed", str(seed), "-v", "--view", viewer)
        assert code == 0, out
        lines = out.splitlines()
        assert len(lines) == len(truth)
        who = None if viewer == "spectator" else viewer
        for k, v in _check_view_lines(lines, who, players, truth).items():
            totals[k] += v
    assert totals["own"] and totals["hidden"] and totals["moves"]


def test_replay_view_hides_what_the_run_view_hides(tmp_path: Path) -> None:
    """"Her opponents are not allowed to see the cards she chooses to look through." The
    view of a replayed trace hides what the view of the run hid."""
    trace = tmp_path / "t.jsonl"
    run_trace(trace)
    code, full = invoke("run", GAME, "--seed", str(SEED), "-v")
    assert code == 0, full
    for viewer in ["P1", "P3"]:
        code, out = invoke("replay", str(trace), "--view", viewer, "-v")
        assert code == 0, out
        code, ran = invoke("run", GAME, "--seed", str(SEED), "-v", "--view", viewer)
        assert code == 0, ran
        lines = out.splitlines()[1:]  # after "Rule the Roost as P1 saw it:"
        _check_view_lines(lines, viewer, 4, full.splitlines())
        play = re.compile(r"^(Turn \d+: P\d|  P\d [a-z])")  # turns, choices, looks, throws
        plays = [line for line in lines if play.match(line)]
        assert plays and plays == [line for line in ran.splitlines() if play.match(line)]


# ---------------------------------------------------------------------- redacted traces
@pytest.mark.parametrize("viewer", ["P1", "P2", "P3", "P4"])
def test_redacted_trace_never_shows_an_unseen_face_down_card(viewer: str, tmp_path: Path) -> None:
    """"With each turn, a player places one of the five cards in her hands face down under
    one of the three barn cards [...]" A redacted trace hides the deck's order and the cards
    the others placed or moved, and keeps the viewer's own actions as she made them."""
    trace = tmp_path / "t.jsonl"
    run_trace(trace, seed=SEED + 2)
    out = tmp_path / "r.jsonl"
    code, output = invoke("replay", str(trace), "--view", viewer, "--redacted", str(out))
    assert code == 0, output
    full, redacted = [e for e in read_jsonl(trace) if e["type"] != "digest"], read_jsonl(out)  # (no digests)
    header = redacted[0]
    assert "seed" not in header and header["view"] == viewer
    assert len(redacted) == len(full)
    hidden = 0
    for orig, red in zip(full[1:], redacted[1:]):
        assert orig["type"] == red["type"]
        if red["type"] == "chance":
            if "shuffle" in red:
                assert red["outcome"] == "hidden"
            else:
                assert red == orig
        elif red["type"] == "action":
            assert red["player"] == orig["player"]
            action = red["action"]
            if red["player"] == viewer or orig["action"] in ("throw an egg", "let it be", "move nothing"):
                assert red == orig, "the viewer's own actions, and the egg answers, are shown as made"
            elif orig["action"].startswith("place "):
                assert re.fullmatch(r"place \(hidden\) face down under Barn#\d", action), red
                hidden += 1
            elif orig["action"].startswith("move "):
                assert re.fullmatch(r"move \(hidden\) from under Barn#\d to under Barn#\d", action), red
                hidden += 1
            else:  # farmers and the padlock are played face up
                assert red == orig
    assert hidden > 0
    assert not FACE_DOWN_LABEL.search(out.read_text(encoding="utf-8"))


def test_redacted_position_header_hides_face_down_cards(tmp_path: Path) -> None:
    """"Her opponents are not allowed to see the cards she chooses to look through." The
    position a redacted trace starts from hides the cards under the barns, the deck and the
    other hands."""
    out = tmp_path / "r.jsonl"
    invoke("replay", "examples/roost/farmer-look.jsonl", "--view", "P2", "--redacted", str(out))
    header = read_jsonl(out)[0]
    zones = header["position"]["zones"]
    assert zones["under of Barn#1"] == {"hidden": 4}
    assert zones["hand of P1"] == {"hidden": 1} and zones["hand of P3"] == {"hidden": 1}
    assert zones["hand of P2"] == ["Chicken#2"]
    assert zones["deck"] == {"hidden": 0}
    for label in ("BlueRooster#1", "GreenRooster#1", "Chicken#1", "Fox#1", "Pitchfork#1", "Fox#2"):
        assert label not in out.read_text(encoding="utf-8")


def test_farmer_looks_are_shown_to_their_player_only(tmp_path: Path) -> None:
    """"With the farmer card, a player is allowed to look through the cards placed under one
    of the three barns [...] Her opponents are not allowed to see the cards she chooses to
    look through." In a seeded game, each look is printed in full (by kind, as the cards read:
    "fox") in the full play-by-play and in its player's view only; the others are told how many
    cards she saw."""
    code, full = invoke("run", GAME, "--seed", str(SEED))
    assert code == 0, full
    looks = [m.groups() for m in re.finditer(r"^  (P\d) looks at the cards under (Barn#\d): (.*)$", full, re.M)]
    assert any(what != "nothing" for _, _, what in looks), "the seeded game has a look at some cards"
    assert not FACE_DOWN_LABEL.search(full), "the play-by-play names cards, not numbered copies"
    views = {}
    for viewer in ["P1", "P2", "P3", "P4"]:
        code, views[viewer] = invoke("run", GAME, "--seed", str(SEED), "--view", viewer)
        assert code == 0
    for who, barn, what in looks:
        shown = f"  {who} looks at the cards under {barn}: {what}"
        n = 0 if what == "nothing" else len(what.split(", "))
        counted = f"  {who} looks at the cards under {barn}: {n} component{'s' if n != 1 else ''} (seen by {who} only)"
        assert shown in views[who].splitlines()
        for viewer, text in views.items():
            if viewer != who:
                assert shown not in text.splitlines()
                assert counted in text.splitlines()


def test_placer_knows_her_own_card(tmp_path: Path) -> None:
    """"With each turn, a player places one of the five cards in her hands face down under
    one of the three barn cards" The placer's view names her card; the others' do not."""
    code, full = invoke("run", GAME, "--seed", str(SEED))
    assert code == 0
    placed = re.findall(r"^  (P\d) chooses: (place (.*) face down under Barn#\d)$", full, re.M)
    assert placed
    for viewer in ["P1", "P2", "P3", "P4"]:
        code, out = invoke("run", GAME, "--seed", str(SEED), "--view", viewer)
        lines = out.splitlines()
        for who, action, _kind in placed:
            if who == viewer:
                assert f"  {who} chooses: {action}" in lines
        others = [line for line in lines if re.match(rf"^  (?!{viewer})P\d chooses: place ", line)]
        assert others and all("(hidden)" in line for line in others)


# ---------------------------------------------------------------------- copy numbers
def _deal(players: int, top: list[str]) -> tuple[Engine, State]:
    """A game whose shuffled deck has ``top`` (kinds, the top card last) on top; the rest as the pool lists it."""
    eng = engine()
    st = eng.new_state(players)
    d = eng.pending(st)
    assert d is not None and d.event.get("shuffle") == "deck"
    rest = list(d.pool or [])
    for kind in top:
        rest.remove(kind)
    eng.apply(st, rest + top)
    return eng, st


# P1 takes the top two cards, P2 the next two: P2 is dealt a chicken and a fox both times,
# P1 two foxes in one deal and two chickens in the other.
P1_FOXES = ["Chicken", "Fox", "Fox", "Fox"]
P1_CHICKENS = ["Chicken", "Fox", "Chicken", "Chicken"]


def test_own_cards_do_not_tell_what_another_hand_holds() -> None:
    """"Each player takes two cards from the top of the draw pile" and the hands are hidden:
    P2, dealt a chicken and a fox, cannot tell from her own cards whether P1 was dealt two
    foxes or two chickens. Her observation must be the same in both deals (a copy number
    such as Fox#6 would tell her that Fox#7 and Fox#8 lay above it: P1's two cards)."""
    eng, a = _deal(2, P1_FOXES)
    _, b = _deal(2, P1_CHICKENS)
    labels = eng.program.component_labels
    hand = next(z.index for z in eng.model.zones if z.name == "hand")
    assert kinds_of([labels[c] for c in a.zones[hand][0]]).count("Fox") == 2
    assert kinds_of([labels[c] for c in b.zones[hand][0]]).count("Chicken") == 2
    for st in (a, b):  # the first player is chance too: let P1 start in both
        d = eng.pending(st)
        assert d is not None and d.event.get("first_player")
        eng.apply(st, "P1")
    seen_a, seen_b = eng.observe(a, 1), eng.observe(b, 1)
    assert kinds_of(seen_a["zones"]["hand of P2"]) == kinds_of(seen_b["zones"]["hand of P2"])
    assert seen_a == seen_b, (seen_a["zones"]["hand of P2"], seen_b["zones"]["hand of P2"])


def test_own_draws_in_a_view_do_not_tell_what_another_hand_holds(tmp_path: Path) -> None:
    """"Each player takes two cards from the top of the draw pile" and the hands are hidden:
    P2's view of the deal (`replay --view P2 -v`) must read the same whether P1 was dealt
    two foxes or two chickens."""
    outputs = []
    for name, top in (("foxes", P1_FOXES), ("chickens", P1_CHICKENS)):
        pool = list(engine().pending(engine().new_state(2)).pool or [])
        for kind in top:
            pool.remove(kind)
        trace = tmp_path / f"{name}.jsonl"
        header = {"type": "header", "format": "rulelang-trace/1", "file": GAME, "players": 2}
        events = [{"type": "chance", "shuffle": "deck", "outcome": pool + top},
                  {"type": "chance", "first_player": True, "outcome": "P1"}]
        trace.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n", encoding="utf-8")
        code, out = invoke("replay", str(trace), "--view", "P2", "-v", "--allow-incomplete")
        assert code == 0, out
        assert re.search(r"-> P2's hand", out)
        outputs.append([line for line in out.splitlines() if "->" in line])
    assert outputs[0] == outputs[1]
