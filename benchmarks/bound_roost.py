"""How fast Rule the Roost can play on rulelang's own state layout: a bound for the code generator.

    python benchmarks/bound_roost.py [--games N] [--rounds R] [--players P]

``bound_game`` below is Rule the Roost (default options) written by hand, as tight as a careful
Python programmer would write it, on the table the engine keeps: every zone a sorted list of
component ids (the box, the barns, the cards under each barn, the padlock on each barn, each hand,
the discard pile), the draw pile an ordered list with its top last, the engine's step count, and the
same draws from the same streams as ``play()``: the chance stream of the seed shuffles the draw pile
(``Rng.shuffle``, then each kind's ids put in its places smallest first, as ``shuffle_zone`` does)
and picks the first player; each seat's ``RandomAgent`` stream takes its choices, over the options
in the engine's listing order (placing: each placeable kind in the hand, in kind order, under each
unlocked barn; a pitchfork farmer at each barn; the key farmer at each barn; the padlock on each
unlocked barn; a farmer's move: each kind under the barn, to each other barn it may go to, then
"move nothing"), and answers the eggs' question (two answers with an egg in hand, else one, which
draws nothing). It gives the same games as the engine: the script first checks, on 50 seeds, that
every game ends on the same turn and step with the same zones, and stops with exit status 1 if one
does not.

What it leaves out, and the generated code must do: the step budget (a rules loop that never ends
is an error, not a hang), the narration checks, the pickers' hand-over (a search or replay takes
decisions there), the triggers' general test, the frames that let play pause at any decision, the
answers kept in the state (``st.answers``: here a local list of the throwers), the card on its way
through the ``placing`` zone (here it goes straight to the barn or the discard pile), the farmer's
private look (``st.seen``), and the final standings. So ``bound ÷ baseline`` is more than any code
generated on this layout can reach; ``engine ÷ bound`` is how close the generated code is to that.

The tables (the kinds' id ranges, which kinds are placeable, each seat's roosters, the farmers'
and the padlock's kinds, the zones' indices) are read from the checked model of
``games/rule-the-roost.rules``, not copied from it.

It prints games/s for the three, interleaved in R rounds (median of the rounds), and as its last
line ``ratio: X``: the bound's games/s ÷ the hand-written baseline's (``baseline_roost.py``, the
figure ``playouts.py rule-the-roost`` compares rulelang with).
"""

from __future__ import annotations

import argparse
import sys
from bisect import bisect_right, insort
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import baseline_roost  # noqa: E402
from benchmarks.bound_support import checked_and_timed  # noqa: E402
from rulelang import load_game  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.engine.engine import Engine  # noqa: E402
from rulelang.rng import Rng  # noqa: E402

PLAYERS = 4


def _tables(engine: Engine) -> dict[str, object]:
    """The game's tables on the engine's layout, from its checked model."""
    model, kind_of = engine.model, engine.program.kind_of
    kinds = {k.name: k.index for k in model.kinds}
    lo = [kind_of.index(k.index) for k in model.kinds]  # components are numbered kind by kind
    hi = [len(kind_of) - 1 - kind_of[::-1].index(k.index) for k in model.kinds]

    def ids(kind: str) -> list[int]:
        return list(range(lo[kinds[kind]], hi[kinds[kind]] + 1))

    roosters = {k.values["colour"]: ids(k.name) for k in model.kinds if k.values.get("rooster")}
    placeable = [k.index for k in model.kinds if k.values.get("placeable")]
    last_placeable = max(placeable)
    if placeable != list(range(min(placeable), last_placeable + 1)) or max(placeable) >= kinds["Pitchfork"]:
        raise ValueError("the bound expects the placeable kinds side by side, before the farmers")
    if lo[kinds["Barn"]] != 0:
        raise ValueError("the bound indexes the zones per barn by the barn's id: the barns must come first")
    # the kinds of the draw pile: every kind but the barns and the roosters, as `setup` moves them
    out_of_deck = {kinds["Barn"]} | {kind_of[r[0]] for r in roosters.values()}
    return {
        "kind_of": kind_of, "lo": lo, "hi": hi,
        "barns": ids("Barn"), "roosters": [roosters[p + 1] for p in range(len(roosters))],
        "deck": [c for c, k in enumerate(kind_of) if k not in out_of_deck],
        "last_placeable": last_placeable,
        "egg": kinds["Egg"], "key": kinds["Key"], "padlock": kinds["Padlock"],
        "zones": [z.name for z in sorted(model.zones, key=lambda z: z.index)],
    }


def bound_game(t: dict, players: int, seed: int) -> tuple[int, int, list]:
    """One random game of Rule the Roost (default options) on the engine's layout; returns (turns,
    steps, zones), the zones listed as ``st.zones`` lists them."""
    kind_of, lo, hi = t["kind_of"], t["lo"], t["hi"]
    egg_lo, egg_hi = lo[t["egg"]], hi[t["egg"]]
    key, padlock = t["key"], t["padlock"]
    last_placeable = t["last_placeable"]  # a kind
    barns = list(t["barns"])
    nbarns = len(barns)
    others = [[(p + i) % players for i in range(1, players)] for p in range(players)]
    chance = Rng(seed, 0)
    picks = [RandomAgent(seed, s).rng.pick for s in range(players)]

    # setup: the barns out, each seat's roosters to its hand, the rest shuffled into the draw pile
    box = [c for r in t["roosters"][players:] for c in r]
    hands = [list(r) for r in t["roosters"][:players]]
    deck = list(t["deck"])
    chance.shuffle(deck)
    at = lo[:]
    for i, c in enumerate(deck):  # each kind's ids in its kind's places, smallest first
        k = kind_of[c]
        deck[i] = at[k]
        at[k] += 1
    for hand in hands:
        hand += deck[-2:]
        del deck[-2:]
        hand.sort()
    under: list[list[int]] = [[] for _ in barns]
    lock: list[list[int]] = [[] for _ in barns]
    discard: list[int] = []
    open_barns = barns[:]  # the barns with nothing in their lock zone
    step = 2  # the shuffle and the first player
    current = chance.pick(players)
    turn = 0

    while True:
        turn += 1
        hand = hands[current]
        nxt = (current + 1) % players
        if hand:
            # the options, in the engine's order: place (placeable kinds x open barns), pitchfork
            # farmers, the key farmer, the padlock
            kinds: list[int] = []
            seen = -1
            for c in hand:
                k = kind_of[c]
                if k != seen:
                    kinds.append(k)
                    seen = k
            nplace = bisect_right(kinds, last_placeable)  # the placeable kinds come first
            nopen = len(open_barns)
            n = nplace * nopen
            for k in kinds[nplace:]:
                n += nopen if k == padlock else nbarns
            i = picks[current](n)
            step += 1
            if i < nplace * nopen:  # place a card under a barn
                k = kinds[i // nopen]
                b = open_barns[i % nopen]
                c = hand.pop(bisect_right(hand, hi[k]) - 1)
                throwers = []
                for q in others[current]:
                    h = hands[q]
                    j = bisect_right(h, egg_hi) - 1
                    if j >= 0 and h[j] >= egg_lo and not picks[q](2):
                        insort(discard, h.pop(j))
                        throwers.append(q)
                step += players - 1
                if len(throwers) == 1:
                    insort(discard, c)
                    if deck:
                        insort(hand, deck.pop())
                    q = throwers[0]
                    if deck:
                        insort(hands[q], deck.pop())
                    nxt = q
                else:
                    insort(under[b], c)
                    if deck:
                        insort(hand, deck.pop())
                    if throwers:
                        for q in throwers:
                            if deck:
                                insort(hands[q], deck.pop())
                        nxt = current
            else:
                i -= nplace * nopen
                for f in kinds[nplace:]:
                    if f == padlock:
                        b = open_barns[i]
                        hand.pop()
                        lock[b].append(lo[padlock])
                        open_barns.remove(b)
                        throwers = []
                        for q in others[current]:
                            h = hands[q]
                            j = bisect_right(h, egg_hi) - 1
                            if j >= 0 and h[j] >= egg_lo and not picks[q](2):
                                insort(discard, h.pop(j))
                                throwers.append(q)
                        step += players - 1
                        if deck:
                            insort(hand, deck.pop())
                        for q in throwers:
                            if deck:
                                insort(hands[q], deck.pop())
                        break
                    if i >= nbarns:
                        i -= nbarns
                        continue
                    # a farmer looks under barn i and may move one card kind to another barn
                    b = barns[i]
                    insort(discard, hand.pop(bisect_right(hand, hi[f]) - 1))
                    src = under[b]
                    if f == key:
                        to = [x for x in barns if x != b]
                    elif lock[b]:
                        to = []
                    else:
                        to = [x for x in open_barns if x != b]
                    if src and to:
                        moved: list[int] = []
                        seen = -1
                        for c in src:
                            k = kind_of[c]
                            if k != seen:
                                moved.append(k)
                                seen = k
                        m = len(to)
                        j = picks[current](len(moved) * m + 1)
                        if j < len(moved) * m:
                            k = moved[j // m]
                            insort(under[to[j % m]], src.pop(bisect_right(src, hi[k]) - 1))
                    step += 1
                    if deck:
                        insort(hand, deck.pop())
                    break
        if not deck and not any(hands):
            kept = {"box": box, "barns": barns, "under": under, "lock": lock, "hand": hands, "deck": deck,
                    "discard": discard, "placing": []}
            return turn, step, [kept[name] for name in t["zones"]]
        current = nxt


def main(argv: list[str] | None = None) -> int:
    """Check the bound plays the engine's games, then time it against the engine and the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=PLAYERS)
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    if not 2 <= args.players <= 4:
        parser.error("--players must be 2 to 4")
    players = args.players
    engine = load_game(ROOT / "games" / "rule-the-roost.rules")
    tables = _tables(engine)
    return checked_and_timed("Rule the Roost", engine, players, args.games, args.rounds,
                             lambda seed: bound_game(tables, players, seed),
                             lambda seed: baseline_roost.playout(players, chance=Rng(seed, 0), agent=Rng(seed, 1)),
                             lambda st: (st.turn, st.step, st.zones))


if __name__ == "__main__":
    sys.exit(main())
