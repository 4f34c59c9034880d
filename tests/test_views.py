"""Player views: `replay --view P --redacted OUT`, `run --view P` and `Engine.observe` leak nothing.

For every chance event a player could not see (``Engine.chance_seen_by`` is false, checked
here by stepping the engine through the trace), the redacted trace says ``"outcome":
"hidden"``; every other event is as recorded; the header has no seed. In the two Chicken!
games every outcome lands in a public zone (only draws from the hidden Seed Bag into a
hidden place could be hidden, and there are none), so nothing is hidden there. A tiny
card game (PEEK) with a hidden, shuffled deck, a hidden face-down mix to draw from at
random, and hands only their owner sees shows that another player's cards, the deck order
and what lies in the mix never reach P1's redacted trace or printed view, while P1's own
cards do. A player is shown a card by its kind ("Cow"), never by its copy number ("Cow#2"):
the numbers follow the shuffled deck, so they would tell where the other copies are.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_replay import CHICKEN, EGGSPANSION, engine_for, make_trace, write_trace

from rulelang import ErrorList, load_game
from rulelang.cli import main
from rulelang.compile.runtime import player_label
from rulelang.engine.engine import Engine

BARNYARD = "games/barnyard.rules"

PEEK = """\
game "Peek"
players 2 to 4 default 3

attribute points = 0
3 Cow cards "Cow": points 2
3 Pig cards "Pig": points 1
2 Joker cards "Joker": points 5

zone deck "the deck": ordered, hidden
zone hand "hand": per player, owner
zone table "the table"
zone pile "a face-down mix": hidden

setup:
  move all from box to deck
  shuffle deck
  move 3 from deck to pile

turn:
  choose:
    "draw the top card":
      move 1 from deck to hand of current
    "draw a random card":
      move 1 random from pile to hand of current
  if not any(all in deck):
    end game

rank p by highest sum(points of all in hand of p)
"""


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def invoke(*args: Any):
    return CliRunner().invoke(main, [str(a) for a in args])


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The lines of a trace, without its turn digests (a redacted trace has none: they hash hidden cards)."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [e for e in lines if e["type"] != "digest"]


def expected_redaction(engine: Engine, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events (after the header, without the result line) as ``seat`` may see them."""
    st = engine.new_state(events[0]["players"])
    out = []
    for e in events[1:]:
        if e["type"] == "result":
            continue
        if e["type"] == "chance":
            seen = engine.chance_seen_by(st, seat)
            out.append(e if seen else {**e, "outcome": "hidden"})
            engine.apply(st, e["outcome"])
        else:
            out.append(e)
            engine.apply(st, e["action"])
    assert st.over
    return out


def replay_view(trace: Path, view: str, out: Path, *extra: str) -> tuple[str, list[dict[str, Any]]]:
    result = invoke("replay", trace, "--view", view, "--redacted", out, *extra)
    assert result.exit_code == 0, result.output
    return result.stdout, read_jsonl(out)


def check_redacted(engine: Engine, events: list[dict[str, Any]], view: str, redacted: list[dict[str, Any]]) -> int:
    """Check a redacted trace against the original; return how many outcomes were hidden."""
    seat = None if view == "spectator" else int(view[1:]) - 1
    head = redacted[0]
    assert "seed" not in head and "seed" not in json.dumps(head)
    assert head["view"] == view
    assert {k: v for k, v in head.items() if k != "view"} == {k: v for k, v in events[0].items()
                                                              if k not in ("seed", "chance")}
    want = expected_redaction(engine, events, seat)
    assert redacted[1:-1] == want
    result = events[-1]
    assert redacted[-1] == {"type": "result", "steps": result["steps"], "turns": result["turns"],
                            "winners": result["winners"], "standings": result["standings"]}
    return sum(1 for e in want if e.get("outcome") == "hidden")


# ------------------------------------------------------------------ the two Chicken! games


@pytest.mark.parametrize("game", [CHICKEN, EGGSPANSION])
def test_chicken_views_hide_nothing_that_was_public(game: str, tmp_path: Path) -> None:
    engine = engine_for(game)
    for seed, players in [(1, 2), (4, 3), (7, 5)]:
        events = make_trace(game, players, seed)
        trace = write_trace(tmp_path / "t.jsonl", events)
        for view in [player_label(p) for p in range(players)] + ["spectator"]:
            out = tmp_path / f"r-{view}.jsonl"
            printed, redacted = replay_view(trace, view, out)
            assert check_redacted(engine, events, view, redacted) == 0
            assert printed.startswith(f"{engine.model.title} as {view.upper()} saw it:\n")
            assert "hidden" not in printed
            assert f"\ncompliant: {events[-1]['steps']} steps, every event keeps the rules\n" in printed


@pytest.mark.parametrize("game", [CHICKEN, EGGSPANSION])
def test_chicken_view_shows_every_roll(game: str, tmp_path: Path) -> None:
    events = make_trace(game, 3, 2)
    trace = write_trace(tmp_path / "t.jsonl", events)
    printed, _ = replay_view(trace, "P2", tmp_path / "r.jsonl")
    rolls = re.findall(r"^  rolls: (.*)$", printed, flags=re.M)
    display = {f.name: f.display for f in engine_for(game).model.faces}
    assert ", ".join(rolls) == ", ".join(f"{e['roll']} {display[e['outcome']]}" for e in events if "roll" in e)


def test_eggspansion_seed_bag_is_hidden_in_observations() -> None:
    engine = engine_for(EGGSPANSION)
    st = engine.new_state(3)
    while engine.is_chance(st):
        d = engine.pending(st)
        engine.apply(st, d.labels[0])
    for seat in (0, 1, 2, None):
        seen = engine.observe(st, seat)
        bag = seen["zones"]["bag"]
        assert bag == {"hidden": len(st.zones[[z.name for z in engine.model.zones].index("bag")])}
        assert isinstance(seen["zones"]["coop"], list) and len(seen["zones"]["coop"]) == 5
        assert all(isinstance(seen["zones"][f"held of P{p + 1}"], list) for p in range(3))


# ------------------------------------------------------------------ a game with hidden cards


@pytest.fixture
def peek(tmp_path: Path) -> Path:
    path = tmp_path / "peek.rules"
    path.write_text(PEEK, encoding="utf-8")
    return path


def _peek_trace(peek: Path, seed: int, players: int = 3) -> tuple[Path, list[dict[str, Any]]]:
    out = peek.parent / f"peek-{seed}.jsonl"
    result = invoke("run", peek, "-s", seed, "-p", players, "--trace", out, "-q")
    assert result.exit_code == 0, result.output
    return out, read_jsonl(out)


DRAWN_FROM = {"draw the top card": "the deck", "draw a random card": "a face-down mix"}
PEEK_COPY = re.compile(r"\b(?:Cow|Pig|Joker)#\d+")  # a numbered copy of a Peek card


def kind(label: str) -> str:
    """``"Cow#2"`` -> ``"Cow"``: what a player is shown of a card."""
    return label.split("#")[0]


def _hands(engine: Engine, events: list[dict[str, Any]]) -> tuple[list[list[tuple[str, str]]], list[str]]:
    """The cards each player drew, in order, each with the zone it came from ("the deck" or
    "a face-down mix"), and the deck order after setup (bottom first)."""
    st = engine.new_state(events[0]["players"])
    labels = engine.program.component_labels
    hand = next(z for z in engine.model.zones if z.name == "hand").index
    deck = next(z for z in engine.model.zones if z.name == "deck").index
    drawn: list[list[tuple[str, str]]] = [[] for _ in range(st.players)]
    deck_order: list[str] = []
    source = ""
    for e in events[1:-1]:
        if e["type"] == "action":
            source = DRAWN_FROM[e["action"]]
        held = [set(h) for h in st.zones[hand]]
        engine.apply(st, e["outcome"] if e["type"] == "chance" else e["action"])
        for p in range(st.players):
            drawn[p] += [(labels[c], source) for c in st.zones[hand][p] if c not in held[p]]
        if "shuffle" in e:
            deck_order = [labels[c] for c in st.zones[deck]]
    assert [sorted(label for label, _ in d) for d in drawn] == [sorted(labels[c] for c in h) for h in st.zones[hand]]
    assert {source for d in drawn for _, source in d} == set(DRAWN_FROM.values())  # both kinds of draw
    return drawn, deck_order


SEEDS = [1, 2, 3, 5, 8]


def test_peek_redacted_traces_hide_other_hands_and_the_deck(peek: Path) -> None:
    engine = load_game(peek)
    own_random_draws = 0
    for seed in SEEDS:
        trace, events = _peek_trace(peek, seed)
        shuffle = next(e for e in events if "shuffle" in e)
        for view in ("P1", "P2", "P3", "spectator"):
            out = trace.parent / f"r-{view}.jsonl"
            _, redacted = replay_view(trace, view, out)
            hidden = check_redacted(engine, events, view, redacted)
            text = out.read_text(encoding="utf-8")
            # the deck order is nobody's to see
            assert {"type": "chance", "step": shuffle["step"], "shuffle": "deck", "outcome": "hidden"} in redacted
            assert json.dumps(shuffle["outcome"]) not in text
            assert hidden >= 1
            # a random draw is seen by the player it went to, and by nobody else
            drawer = None
            for e, r in zip(events[1:-1], redacted[1:-1]):
                if e["type"] == "action":
                    drawer = e["player"]
                elif "draw" in e:
                    assert e["draw"] == "pile"
                    if drawer == view:
                        assert r == e
                        own_random_draws += 1
                    else:
                        assert r == {**e, "outcome": "hidden"}
    assert own_random_draws >= 3


def test_peek_printed_view_never_names_another_players_cards(peek: Path) -> None:
    engine = load_game(peek)
    for seed in SEEDS:
        trace, events = _peek_trace(peek, seed)
        hands, deck = _hands(engine, events)
        for p, view in enumerate(("P1", "P2", "P3")):
            printed, _ = replay_view(trace, view, trace.parent / "r.jsonl", "-v")
            played = invoke("run", peek, "-s", seed, "-p", 3, "--view", view, "-v").stdout
            others = [(label, source, player_label(q)) for q, hand in enumerate(hands) if q != p
                      for label, source in hand]
            for text in (printed, played):
                # no copy is ever named: not another player's (it would tell where the others lie), not her own
                for label, _, _ in others:
                    assert not re.search(rf"\b{re.escape(label)}(?!\d)", text), (seed, view, label)
                assert not PEEK_COPY.search(text), (seed, view, PEEK_COPY.search(text))
                assert ", ".join(kind(label) for label in deck) not in text  # nor the deck's order by kind
                # in the verbose play-by-play of `run --view` and `replay --view`, each own card is
                # named by its kind, each other card hidden; every draw into a hand is one of these
                draws = re.findall(r"^    (.+): (the deck|a face-down mix) -> (P\d)'s hand", text, flags=re.M)
                assert sorted(draws) == sorted([(kind(label), source, view) for label, source in hands[p]]
                                               + [("1 hidden component", source, q) for _, source, q in others]), (
                    seed, view, draws)


def test_replay_view_shows_the_players_own_draws(peek: Path) -> None:
    """`replay --view P1 -v` is "the game as P1 saw it", move by move (like `run -v`): P1 saw
    the cards P1 drew, and "1 hidden component" for each card another player drew (as
    docs/traces.md describes). Without -v, like `run`, it prints no moves."""
    engine = load_game(peek)
    trace, events = _peek_trace(peek, 2)
    hands, _ = _hands(engine, events)
    assert hands[0]
    printed, _ = replay_view(trace, "P1", trace.parent / "r.jsonl", "-v")
    for label, source in hands[0]:  # by kind: "Cow", not "Cow#2"
        assert re.search(rf"^    {kind(label)}: {source} -> P1's hand", printed, flags=re.M), printed
    assert not PEEK_COPY.search(printed)
    assert "1 hidden component" in printed
    quiet, _ = replay_view(trace, "P1", trace.parent / "r.jsonl")
    assert quiet.startswith("Peek as P1 saw it:\nTurn 1: ")
    assert "P1 chooses: draw the top card" in quiet
    assert not re.search(r"\b(?:Cow|Pig|Joker)\b", quiet), quiet  # no card named: no move printed
    assert "-> P1's hand" not in quiet
    assert "hidden component" not in quiet


def test_a_redacted_trace_is_for_reading(peek: Path) -> None:
    """A redacted trace lacks what its player could not see, so it cannot be checked:
    replaying it is refused at its header (malformed), never called compliant."""
    trace, events = _peek_trace(peek, 3)
    out = trace.parent / "r.jsonl"
    _, redacted = replay_view(trace, "P1", out)
    assert redacted[1]["outcome"] == "hidden"
    result = invoke("replay", out, "--json")
    verdict = json.loads(result.stdout)
    assert result.exit_code == 1
    assert verdict["status"] == "malformed" and verdict["line"] == 1
    assert "redacted for P1" in verdict["message"]
    assert invoke("replay", out, "--allow-incomplete").exit_code == 1


def test_redacted_trace_to_a_missing_directory_is_an_error_not_a_traceback(peek: Path, tmp_path: Path) -> None:
    trace, _ = _peek_trace(peek, 3)
    result = invoke("replay", trace, "--view", "P1", "--redacted", tmp_path / "no-such-dir" / "r.jsonl")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1
    assert "no-such-dir" in result.stderr


def test_peek_position_in_the_redacted_header_hides_other_hands(peek: Path, tmp_path: Path) -> None:
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"current": "P2", "zones": {
        "hand of P1": ["Cow#1"], "hand of P2": ["Joker#1", "Joker#2"], "deck": ["Pig", "Cow", "Pig"]}}),
        encoding="utf-8")
    trace = tmp_path / "t.jsonl"
    result = invoke("run", peek, "--from", position, "-p", 3, "-s", 4, "--trace", trace, "-q")
    assert result.exit_code == 0, result.output
    assert invoke("replay", trace).exit_code == 0
    _, p1 = replay_view(trace, "P1", tmp_path / "r1.jsonl")
    zones = p1[0]["position"]["zones"]
    assert zones == {"hand of P1": ["Cow#1"], "hand of P2": {"hidden": 2}, "deck": {"hidden": 3}}
    assert "Joker" not in json.dumps(p1[0])
    _, p2 = replay_view(trace, "P2", tmp_path / "r2.jsonl")
    assert p2[0]["position"]["zones"] == {"hand of P1": {"hidden": 1}, "hand of P2": ["Joker#1", "Joker#2"],
                                          "deck": {"hidden": 3}}
    _, spectator = replay_view(trace, "spectator", tmp_path / "r0.jsonl")
    assert spectator[0]["position"]["zones"] == {"hand of P1": {"hidden": 1}, "hand of P2": {"hidden": 2},
                                                 "deck": {"hidden": 3}}


def test_observe_hides_other_hands_and_the_deck(peek: Path) -> None:
    engine = load_game(peek)
    st = engine.new_state(3)
    # bottom to top; setup then moves the top three (Cow#2, Joker#2, Cow#3) to the face-down mix
    engine.apply(st, ["Pig", "Cow", "Pig", "Pig", "Joker", "Cow", "Joker", "Cow"])
    engine.apply(st, "draw the top card")  # P1 draws the top card, Joker#1
    engine.apply(st, "draw a random card")  # P2 draws at random from the mix
    d = engine.pending(st)
    assert dict(zip(d.labels, d.weights)) == {"Cow": 2, "Joker": 1}
    engine.apply(st, "Joker")  # the mix's only Joker, Joker#2
    engine.apply(st, "draw the top card")  # P3 draws the top card, Pig#3
    labels = engine.program.component_labels
    hand = next(z for z in engine.model.zones if z.name == "hand").index
    held = [[labels[c] for c in st.zones[hand][p]] for p in range(3)]
    assert held == [["Joker#1"], ["Joker#2"], ["Pig#3"]]
    unseen = ["Pig#1", "Cow#1", "Pig#2", "Cow#2", "Cow#3"]  # still in the deck and in the mix
    for seat in (0, 1, 2):
        seen = engine.observe(st, seat)
        assert seen["you"] == f"P{seat + 1}"
        assert seen["zones"]["deck"] == {"hidden": 3}
        assert seen["zones"]["pile"] == {"hidden": 2}
        assert seen["zones"]["table"] == []
        for p in range(3):
            zone = seen["zones"][f"hand of P{p + 1}"]
            # her own card by kind ("Joker", not "Joker#1": the number would tell her that
            # Joker#2 lay above it in the deck), the others' by count only
            assert zone == ([kind(c) for c in held[p]] if p == seat else {"hidden": 1}), (seat, p, zone)
        text = json.dumps(seen)
        assert not PEEK_COPY.search(text), text
        for p in range(3):
            if p != seat:
                assert held[p][0] not in text
        for label in unseen:
            assert label not in text
        # no kind shows that is not in her own hand (every other card is hidden)
        for other in {"Cow", "Pig", "Joker"} - {kind(c) for c in held[seat]}:
            assert not re.search(rf"\b{other}\b", text), (seat, other)
    spectator = engine.observe(st, None)
    assert all(spectator["zones"][f"hand of P{p + 1}"] == {"hidden": 1} for p in range(3))
    assert "legal_actions" not in spectator
    assert engine.observe(st, 0)["legal_actions"] == ["draw the top card", "draw a random card"]
    assert "legal_actions" not in engine.observe(st, 1)


def test_a_random_draw_from_an_ordered_deck_is_refused(tmp_path: Path) -> None:
    """A random draw from an ordered pile would have to say which copy it took; the language
    asks for an unordered zone (a bag, a face-down mix) or a draw from the top instead."""
    bad = tmp_path / "bad.rules"
    bad.write_text(PEEK.replace("move 1 random from pile", "move 1 random from deck"))
    with pytest.raises(ErrorList) as info:
        load_game(bad)
    assert "a random draw needs an unordered zone" in info.value.format()


# ------------------------------------------------------------------ Barnyard Roundup: laid cards and tokens


def _barnyard_trace(tmp_path: Path, seed: int, players: int = 4) -> tuple[Path, list[dict[str, Any]]]:
    out = tmp_path / f"barnyard-{seed}.jsonl"
    result = invoke("run", BARNYARD, "-s", seed, "-p", players, "--trace", out, "-q")
    assert result.exit_code == 0, result.output
    return out, read_jsonl(out)


def _walk(engine: Engine, events: list[dict[str, Any]], seat: int | None):
    """Yield (event, seen, public label or None, is an ask answer) along the trace."""
    st = engine.new_state(events[0]["players"])
    labels = [player_label(p) for p in range(st.players)]
    for e in events[1:-1]:
        if e["type"] == "chance":
            yield e, engine.chance_seen_by(st, seat), None, False
            engine.apply(st, e["outcome"])
            continue
        d = engine.pending(st)
        who = labels.index(e["player"])
        if d.players is not None and who in d.players:
            yield e, True, None, True
            engine.apply(st, e["action"], player=who)
        else:
            yield e, True, engine.public_label(st, e["action"]), False
            engine.apply(st, e["action"])
    assert st.over


def test_barnyard_redacted_traces_hide_hands_tokens_and_secret_labels(tmp_path: Path) -> None:
    engine = engine_for(BARNYARD)
    hidden_labels = 0
    for seed in (1, 2):
        trace, events = _barnyard_trace(tmp_path, seed)
        for seat, view in [(0, "P1"), (2, "P3"), (None, "spectator")]:
            _, redacted = replay_view(trace, view, tmp_path / "r.jsonl")
            head = redacted[0]
            assert "seed" not in head and head["view"] == view
            assert len(redacted) == len(events)
            for (e, seen, public, ask), r in zip(_walk(engine, events, seat), redacted[1:-1]):
                if e["type"] == "chance":
                    assert r == (e if seen else {**e, "outcome": "hidden"}), (seed, view, e, r)
                    if "shuffle" in e:
                        assert r["outcome"] == "hidden"
                elif ask:
                    continue  # see test_barnyard_declining_does_not_reveal_hidden_tokens
                elif e["player"] == view or public is None:
                    assert r == e
                else:
                    assert r == {**e, "action": public} and "(hidden)" in public, (e, r)
                    hidden_labels += 1
    assert hidden_labels > 10


def test_barnyard_printed_view_never_names_another_players_laid_cards(tmp_path: Path) -> None:
    trace, events = _barnyard_trace(tmp_path, 2)
    printed, _ = replay_view(trace, "P1", tmp_path / "r.jsonl")
    for e in events:
        if e["type"] == "action" and e["action"].startswith("lay ") and e["player"] != "P1":
            n = e["action"].split()[1]
            assert f"{e['player']} chooses: lay {n} (hidden) face down" in printed
            assert f"{e['player']} chooses: {e['action']}\n" not in printed
        elif e["type"] == "action" and e["action"].startswith("lay "):
            assert f"P1 chooses: {e['action']}\n" in printed


@pytest.mark.parametrize("declined,token,games", [("let it be", "ExcuseMe", [(1, 4), (2, 4)]),
                                                   ("play no more tokens now", "Robber", [(3, 3)])])
def test_barnyard_declining_does_not_reveal_hidden_tokens(declined: str, token: str, games: list[tuple[int, int]],
                                                          tmp_path: Path) -> None:
    """Action Tokens are held face down ("held": per player, owner). Every other player but
    the decider is asked about Excuse Me ("Excuse Me!" is offered to a holder only, "let it
    be" to all), and the current player is always asked about tokens ("play Robber ..." for
    a holder only, "play no more tokens now" for all). So another player's declining, shown
    in P1's redacted trace or play-by-play (e.g. "(answered at once) P2: let it be"), tells
    P1 nothing only if it looks the same whether that player holds the token or not: who is
    asked must not depend on tokens, and P1's views (the redacted trace, the play-by-play
    with and without -v) must show every other player's declining, or none of it."""
    engine = engine_for(BARNYARD)
    held = next(z for z in engine.model.zones if z.name == "held").index
    labels = engine.program.component_labels
    by_holders: set[bool] = set()
    for seed, players in games:
        trace, events = _barnyard_trace(tmp_path, seed, players)
        declines: dict[int, tuple[str, bool]] = {}  # step -> (another player declining, holds the token)
        st = engine.new_state(players)
        first_answer = True
        for e in events[1:-1]:
            if e["type"] == "chance":
                engine.apply(st, e["outcome"])
                first_answer = True
                continue
            d = engine.pending(st)
            who = int(e["player"][1:]) - 1
            if d.players is not None and first_answer:
                # who is asked follows from who bluffs and who decides, not from tokens
                assert st.current not in d.players and len(d.players) == players - 2, (seed, e)
            if e["action"] == declined and who != 0:
                declines[e["step"]] = (e["player"], any(labels[c].split("#")[0] == token for c in st.zones[held][who]))
            first_answer = d.players is None
            engine.apply(st, e["action"], player=who if d.players is not None else None)
        assert st.over
        by_holders |= {holds for _, holds in declines.values()}
        printed, redacted = replay_view(trace, "P1", tmp_path / "r.jsonl")
        shown = {r["step"]: r for r in redacted if r["type"] == "action" and r["step"] in declines}
        assert sorted(shown) in ([], sorted(declines)), (seed, len(shown), len(declines))
        assert all(r["action"] == declined for r in shown.values())
        verbose, _ = replay_view(trace, "P1", tmp_path / "r.jsonl", "-v")
        for view, text in (("replay --view P1", printed), ("replay --view P1 -v", verbose)):
            said = re.findall(rf"\bP[2-9]:? (?:chooses: )?{re.escape(declined)}$|\bP[2-9]: {re.escape(declined)},",
                              text, flags=re.M)
            holders = sum(holds for _, holds in declines.values())
            assert len(said) in (0, len(declines)), (
                f"seed {seed}, {view}: {len(said)} of the {len(declines)} declines by other players are shown; "
                f"{holders} of the {len(declines)} were by a player holding {token}")
    assert by_holders == {True, False}  # players decline with the token and without it


def test_replay_view_without_a_redacted_file_narrates_the_same_game(tmp_path: Path) -> None:
    """`replay --view P1` prints the game as P1 saw it whether or not it also writes the
    redacted trace: the same play-by-play of the game the trace records, and the same
    compliant verdict."""
    for seed, players in [(1, 4), (3, 3)]:
        trace, _ = _barnyard_trace(tmp_path, seed, players)
        assert invoke("replay", trace).exit_code == 0
        for extra in ((), ("-v",)):
            with_file, _ = replay_view(trace, "P1", tmp_path / "r.jsonl", *extra)
            alone = invoke("replay", trace, "--view", "P1", *extra)
            assert alone.exit_code == 0, (seed, extra, alone.output[-600:])
            assert alone.stdout == with_file, (seed, extra)
