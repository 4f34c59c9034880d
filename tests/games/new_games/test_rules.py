"""The games of examples/new-games/, written from the documentation alone: each one's rules
played through scripted scenarios (positions, chosen actions and chance outcomes) and
through replay of hand-written traces."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.engine.engine import Engine
from rulelang.engine.state import State

ROOT = Path(__file__).resolve().parents[3]
NEW = ROOT / "examples" / "new-games"
WHIST = NEW / "whist.rules"


def labels(engine: Engine, st: State) -> list[str]:
    """The legal actions (or chance outcomes) of the pending decision."""
    d = engine.pending(st)
    assert d is not None, "the game is over"
    return list(d.labels or [])


def play(engine: Engine, st: State, *actions: str) -> None:
    """Apply each action in turn, asserting it is legal when it is applied."""
    for a in actions:
        assert a in labels(engine, st), f"{a!r} is not legal; legal: {labels(engine, st)}"
        engine.apply(st, a)


def counter(engine: Engine, st: State, name: str) -> Any:
    """A counter's value (a list, one per seat, for a per-player counter)."""
    for c in engine.model.counters:
        if c.name == name:
            return st.counters[c.index]
    raise KeyError(name)


def replay(tmp_path: Path, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Replay a hand-written trace with the CLI and return its JSON verdict."""
    trace = tmp_path / "t.jsonl"
    trace.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rulelang", "replay", str(trace), "--json"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    return json.loads(out.stdout or out.stderr)


# --------------------------------------------------------------------------- whist

WHIST_HANDS = {"hand of P1": ["Spade7", "Heart14"], "hand of P2": ["Spade9", "Club7"],
               "hand of P3": ["Heart8", "Diamond14"], "hand of P4": ["Spade8", "Heart9"]}
WHIST_POSITION = {"current": "P1", "zones": WHIST_HANDS, "counters": {"trump": "Clubs", "dealer": "P4"}}


@pytest.fixture(scope="module")
def whist() -> Engine:
    return rulelang.load_game(WHIST, options={"hands": "1"})


def zone(engine: Engine, st: State, name: str, player: int | None = None) -> list[str]:
    """The labels of the components in a zone (of ``player`` for a per-player zone)."""
    z = next(z for z in engine.model.zones if z.name == name)
    ids = st.zones[z.index] if player is None else st.zones[z.index][player]
    return [engine.program.component_labels[c] for c in ids]


def test_whist_deal_turns_up_the_dealers_last_card_for_trump() -> None:
    engine = rulelang.load_game(WHIST)
    st = engine.new_state(4)
    engine.apply(st, [k.name for k in engine.model.kinds])  # the shuffle: unchanged, Club14 on top
    assert [len(zone(engine, st, "hand", p)) for p in range(4)] == [8, 8, 8, 8]
    assert counter(engine, st, "trump") == "Spades"  # the 7 of Spades, last card dealt, is turned up
    assert "Spade7" in zone(engine, st, "hand", 3) and counter(engine, st, "dealer") == 3
    assert "Club14" in zone(engine, st, "hand", 0)  # dealing starts left of the dealer
    assert st.current == 0 and zone(engine, st, "deck") == []
    st3 = engine.new_state(3)
    engine.apply(st3, [k.name for k in engine.model.kinds])
    assert [len(zone(engine, st3, "hand", p)) for p in range(3)] == [10, 10, 10]
    assert len(zone(engine, st3, "won")) == 2  # the two cards left over stay out of play


def test_whist_must_follow_suit_and_may_discard_when_void(whist: Engine) -> None:
    st = whist.new_state(4, position=WHIST_POSITION)
    assert labels(whist, st) == ["play 7 of Spades", "play 14 of Hearts"]  # the leader plays anything
    play(whist, st, "play 7 of Spades")
    assert labels(whist, st) == ["play 9 of Spades"]  # P2 holds a trump but must follow
    play(whist, st, "play 9 of Spades")
    assert labels(whist, st) == ["play 8 of Hearts", "play 14 of Diamonds"]  # P3 has no spade
    play(whist, st, "play 14 of Diamonds", "play 8 of Spades")
    assert counter(whist, st, "tricks") == [0, 1, 0, 0]  # the 9 of the suit led beats the off-suit Ace
    assert st.current == 1  # the winner leads the next trick


def test_whist_lowest_trump_beats_the_ace_of_the_suit_led(whist: Engine) -> None:
    st = whist.new_state(4, position=WHIST_POSITION)
    play(whist, st, "play 7 of Spades", "play 9 of Spades", "play 8 of Hearts", "play 8 of Spades")
    play(whist, st, "play 7 of Clubs", "play 14 of Diamonds", "play 9 of Hearts", "play 14 of Hearts")
    assert st.over
    assert whist.standings(st)["winners"] == ["P2"]
    assert counter(whist, st, "score") == [0, 2, 0, 0]


def whist_trace(*actions: tuple[str, str]) -> list[dict[str, Any]]:
    head = {"type": "header", "format": "rulelang-trace/1", "file": str(WHIST), "players": 4,
            "options": {"hands": 1}, "position": WHIST_POSITION}
    return [head] + [{"type": "action", "player": p, "action": a} for p, a in actions]


def test_whist_replay_accepts_a_hand_and_rejects_a_revoke(tmp_path: Path) -> None:
    good = whist_trace(("P1", "play 7 of Spades"), ("P2", "play 9 of Spades"), ("P3", "play 8 of Hearts"),
                       ("P4", "play 8 of Spades"), ("P2", "play 7 of Clubs"), ("P3", "play 14 of Diamonds"),
                       ("P4", "play 9 of Hearts"), ("P1", "play 14 of Hearts"))
    verdict = replay(tmp_path, good + [{"type": "result", "winners": ["P2"]}])
    assert verdict["status"] == "compliant", verdict
    revoke = whist_trace(("P1", "play 7 of Spades"), ("P2", "play 7 of Clubs"))
    verdict = replay(tmp_path, revoke)
    assert verdict["status"] == "violation" and verdict["step"] == 2, verdict
    assert verdict["legal"] == ["play 9 of Spades"]


# --------------------------------------------------------------------------- liar's dice

LIARS = NEW / "liars-dice.rules"


def roll_cups(engine: Engine, st: State, faces: dict[str, str]) -> None:
    """Answer every pending roll with the face given for that die."""
    while (d := engine.pending(st)) is not None and d.kind == "chance":
        engine.apply(st, faces[d.event["roll"]])


CUPS = {"Die#26": "One", "Die#27": "Three", "Die#28": "Three", "Die#29": "Five", "Die#30": "Six",  # P1
        "Die#21": "Three", "Die#22": "Two", "Die#23": "Two", "Die#24": "Four", "Die#25": "One"}  # P2


@pytest.mark.parametrize(("wild", "loser"), [("true", 1), ("false", 0)])
def test_liars_dice_a_called_bid_costs_the_wrong_player_a_die(wild: str, loser: int) -> None:
    engine = rulelang.load_game(LIARS, options={"wild_ones": wild})
    st = engine.new_state(2)
    roll_cups(engine, st, CUPS)
    assert ("bid 1 x 1" in labels(engine, st)) == (wild == "false")  # wild Ones cannot be bid
    play(engine, st, "bid 5 x 3")
    assert "bid 5 x 2" not in labels(engine, st) and "bid 5 x 4" in labels(engine, st)
    play(engine, st, "call P1 a liar")  # five Threes with the Ones, three without
    assert counter(engine, st, "dice") == ([5, 4] if loser == 1 else [4, 5])
    assert len(zone(engine, st, "cup", loser)) == 4
    roll_cups(engine, st, CUPS)  # a new round: every cup re-rolled
    assert st.current == loser and counter(engine, st, "bid_count") == 0  # the loser starts it


def test_liars_dice_showdown_shows_every_die_with_its_face_and_bids_range_over_faces() -> None:
    engine = rulelang.load_game(LIARS)
    st = engine.new_state(2)
    roll_cups(engine, st, CUPS)
    assert labels(engine, st)[:5] == ["bid 1 x 2", "bid 1 x 3", "bid 1 x 4", "bid 1 x 5", "bid 1 x 6"]
    play(engine, st, "bid 5 x 3", "call P1 a liar")
    seen = [look["components"] for look in engine.observe(st, 1)["seen"]]  # what P2 saw of both cups
    assert seen == [["Die#26=One", "Die#27=Three", "Die#28=Three", "Die#29=Five", "Die#30=Six"],
                    ["Die#21=Three", "Die#22=Two", "Die#23=Two", "Die#24=Four", "Die#25=One"]]


def test_liars_dice_losing_the_last_die_puts_a_player_out_and_ends_a_duel() -> None:
    engine = rulelang.load_game(LIARS)
    position = {"current": "P1", "zones": {"cup of P1": ["Die#26"], "cup of P2": ["Die#21"]},
                "faces": {"Die#26": "Two", "Die#21": "Five"},
                "counters": {"dice": {"P1": 1, "P2": 1}}}
    st = engine.new_state(2, position=position)
    play(engine, st, "bid 2 x 5", "call P1 a liar")
    assert st.over
    assert engine.standings(st)["winners"] == ["P2"]
    assert [(r["player"], r["rank"]) for r in engine.standings(st)["standings"]] == [("P2", 1), ("P1", 2)]


def test_liars_dice_replay_catches_a_bid_that_does_not_raise(tmp_path: Path) -> None:
    trace = tmp_path / "liar.jsonl"
    subprocess.run([sys.executable, "-m", "rulelang", "run", str(LIARS), "-s", "9", "-q", "--trace", str(trace)],
                   cwd=ROOT, check=True, capture_output=True)
    events = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    assert replay(tmp_path, events)["status"] == "compliant"
    actions = [i for i, e in enumerate(events) if e["type"] == "action"]
    second = next(i for i, j in zip(actions, actions[1:], strict=False)
                  if events[i]["action"].startswith("bid") and events[j]["action"].startswith("bid"))
    second = actions[actions.index(second) + 1]
    events[second]["action"] = "bid 1 x 2"
    verdict = replay(tmp_path, events)
    assert verdict["status"] == "violation" and verdict["step"] == events[second]["step"], verdict


# --------------------------------------------------------------------------- sushi draft

SUSHI = NEW / "sushi-draft.rules"


def answer(engine: Engine, st: State, picks: dict[int, str]) -> None:
    """Every asked player answers the pending ask (0-based seat -> answer), in the order given."""
    for seat, label in picks.items():
        d = engine.pending(st)
        assert d is not None and seat in d.players, f"P{seat + 1} is not asked"
        assert label in engine.legal_actions(st, seat), f"P{seat + 1} may not answer {label!r}"
        engine.apply(st, label, player=seat)


def test_sushi_everyone_picks_at_once_then_hands_pass_left() -> None:
    engine = rulelang.load_game(SUSHI)
    hands = {"hand of P1": ["Tempura", "Egg"], "hand of P2": ["Squid", "Squid"], "hand of P3": ["Maki1", "Dumpling"]}
    st = engine.new_state(3, position={"current": "P1", "zones": hands})
    assert sorted(engine.pending(st).players) == [0, 1, 2]  # the whole table is asked together
    assert engine.legal_actions(st, 0) == ["Tempura", "Egg Nigiri"]
    answer(engine, st, {2: "Dumpling", 0: "Egg Nigiri", 1: "Squid Nigiri"})  # in any order
    assert [[c.split("#")[0] for c in zone(engine, st, "tableau", p)] for p in range(3)] == [
        ["Egg"], ["Squid"], ["Dumpling"]]
    # what is left of each hand goes to the player on the left
    assert [sorted(engine.legal_actions(st, p)) for p in range(3)] == [["Maki (1 roll)"], ["Tempura"], ["Squid Nigiri"]]


def test_sushi_last_pick_scores_the_round_and_ends_the_game() -> None:
    engine = rulelang.load_game(SUSHI)
    zones = {"tableau of P1": ["2 Tempura", "2 Sashimi", "3 Dumpling"], "hand of P1": ["Sashimi"],
             "tableau of P2": ["Maki3", "Egg", "Squid"], "hand of P2": ["Maki2"],
             "tableau of P3": ["Tempura"], "hand of P3": ["Maki2"]}
    st = engine.new_state(3, position={"current": "P1", "zones": zones, "counters": {"round": 2}})
    answer(engine, st, {0: "Sashimi", 1: "Maki (2 rolls)", 2: "Maki (2 rolls)"})
    assert st.over
    sheets = {s["player"]: s["sheets"]["final"] for s in engine.standings(st)["standings"]}
    assert sheets["P1"] == {"Tempura": 5, "Sashimi": 10, "Dumplings": 6, "Nigiri": 0, "Maki": 0}
    assert sheets["P2"] == {"Tempura": 0, "Sashimi": 0, "Dumplings": 0, "Nigiri": 4, "Maki": 6}  # 5 rolls: most
    assert sheets["P3"] == {"Tempura": 0, "Sashimi": 0, "Dumplings": 0, "Nigiri": 0, "Maki": 3}  # 2 rolls: second
    assert engine.standings(st)["winners"] == ["P1"]


def test_sushi_replay_rejects_a_pick_from_someone_elses_hand(tmp_path: Path) -> None:
    head = {"type": "header", "format": "rulelang-trace/1", "file": str(SUSHI), "players": 2,
            "position": {"current": "P1",
                         "zones": {"hand of P1": ["Tempura", "Egg"], "hand of P2": ["Squid", "Maki1"]}}}
    good = [head, {"type": "action", "player": "P2", "action": "Maki (1 roll)"},
            {"type": "action", "player": "P1", "action": "Egg Nigiri"},
            {"type": "action", "player": "P1", "action": "Squid Nigiri"},
            {"type": "action", "player": "P2", "action": "Tempura"}]
    verdict = replay(tmp_path, good)
    assert verdict["status"] == "incomplete", verdict  # round 1 of 2 is over; the next deal is pending
    bad = good[:2] + [{"type": "action", "player": "P1", "action": "Squid Nigiri"}]
    verdict = replay(tmp_path, bad)
    assert verdict["status"] == "violation" and verdict["step"] == 2, verdict


def test_whist_the_deal_passes_left_and_the_dealers_left_hand_leads() -> None:
    engine = rulelang.load_game(WHIST, options={"hands": "2"})
    st = engine.new_state(4)
    ordered = [k.name for k in engine.model.kinds]
    engine.apply(st, ordered)
    for _ in range(32):  # the first hand, each player playing their first legal card
        engine.apply(st, labels(engine, st)[0])
    assert sum(counter(engine, st, "score")) == 8 and counter(engine, st, "hands_played") == 1
    engine.apply(st, ordered)  # the second deal
    assert counter(engine, st, "dealer") == 0 and st.current == 1  # P1 deals, P2 leads
    assert "Club14" in zone(engine, st, "hand", 1) and "Spade7" in zone(engine, st, "hand", 0)
    for _ in range(32):
        engine.apply(st, labels(engine, st)[0])
    assert st.over and sum(counter(engine, st, "score")) == 16
