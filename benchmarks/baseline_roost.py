"""Hand-written plain-Python Rule the Roost: the benchmark baseline.

Rules follow /work/shared/rulebooks/rule-the-roost.txt as read by games/rule-the-roost.rules
and every ASSUMPTION written there:

- 2 to 4 players; seat p plays the roosters of colour p (red, blue, green, yellow), 3
  each; the unused colours stay out of the game. Three barns. The draw pile: 20
  chickens, 8 foxes, 8 eggs, 15 farmers with pitchfork, 1 farmer with key, 1 padlock,
  shuffled; each player draws 2 cards; the first player is random.
- A turn (nothing happens if the hand is empty): one uniform choice among placing a
  card kind (her roosters, chicken, fox, egg) under an unlocked barn (option
  place_under_locked off), a pitchfork or key farmer looking under any barn, and the
  padlock onto an unlocked barn. Eggs do not answer a farmer (option eggs_against_farmers off).
- Placing a card and the padlock ask every opponent at once about eggs: "throw an egg"
  (holders only) or "let it be". One egg blocks: the card and the egg are discarded,
  the placer then the thrower draw, and the thrower's turn comes next. Two or more
  cancel: the card is placed, the placer draws, then the throwers clockwise from her,
  and she takes another turn. No egg: the card is placed and she draws. The padlock is
  egg-proof: it locks the barn, the player draws, then the throwers (clockwise).
- A farmer is discarded, then the player chooses among moving one card kind from under
  that barn to another barn (neither of them locked, unless it is the key farmer) and
  moving nothing; then she draws.
- The game ends at the end of the turn after which the draw pile and every hand are
  empty, as in the rules file: the last card is still placed, answered or used.
- Per barn, the colour(s) with the most roosters (at least one) share the chickens
  minus the foxes (0 if the foxes are at least as many) by integer division. Most
  points wins; players level share the win, listed in seat order.

The code is what a competent engineer would write: ints and per-kind count lists, no
classes, no micro-optimisation. ``chance`` drives the shuffle and the first player;
``agent`` drives the random policy, which picks uniformly among the legal options at
each decision -- the same options games/rule-the-roost.rules offers a RandomAgent (one
entry per action label; every opponent is asked about eggs, with one option when she
has none), so both sides play the same game.

Random numbers are drawn with the same calls as the generated code (``Rng.pick`` for every
decision and chance pick, ``Rng.shuffle``), which give the same draws as ``Rng.below``
with one call instead of two: a baseline on slower calls would flatter rulelang.

Run from the repository root: ``PYTHONPATH=. python benchmarks/baseline_roost.py``.
"""

from __future__ import annotations

import time
from typing import Any

from rulelang.rng import Rng

# Card kinds (index into the per-kind count lists). Rooster kind p is the colour of seat p.
RED, BLUE, GREEN, YELLOW, CHICKEN, FOX, EGG, PITCHFORK, KEY, PADLOCK = range(10)
KINDS = 10
NAMES = ("red rooster", "blue rooster", "green rooster", "yellow rooster", "chicken", "fox", "egg",
         "Farmer with pitchfork", "Farmer with key", "Padlock")
ROOSTERS_EACH = 3
DECK = {CHICKEN: 20, FOX: 8, EGG: 8, PITCHFORK: 15, KEY: 1, PADLOCK: 1}
BARNS = 3
HAND_START = 2  # cards drawn from the pile, besides the roosters


def barn_shares(under: list[int], players: int) -> list[int]:
    """Each player's points from one barn (per-kind counts of the cards under it)."""
    most = max(under[:players])
    if most == 0:
        return [0] * players
    holders = [p for p in range(players) if under[p] == most]
    points = 0 if under[FOX] >= under[CHICKEN] else under[CHICKEN] - under[FOX]
    return [points // len(holders) if p in holders else 0 for p in range(players)]


def final_scores(unders: list[list[int]], players: int) -> list[int]:
    """Each player's points: the sum of her shares of the barns."""
    scores = [0] * players
    for under in unders:
        for p, share in enumerate(barn_shares(under, players)):
            scores[p] += share
    return scores


def rank(scores: list[int]) -> list[int]:
    """Seats from first to last; players level share the place, listed in seat order."""
    return sorted(range(len(scores)), key=lambda p: (-scores[p], p))


def play_game(players: int, chance: Rng, agent: Rng) -> dict[str, Any]:
    """Play one random game; return the table at the end.

    The table: ``under`` (per barn, per-kind counts), ``padlocked`` (the locked barn or
    None), ``hands``, ``deck`` (kinds, top last), ``discard`` (per-kind counts),
    ``placing`` (per-kind counts of a card left half-placed when the game ended),
    ``turns``.
    """
    if not 2 <= players <= 4:
        raise ValueError("Rule the Roost is for 2 to 4 players")

    # --- Set up.
    deck = [kind for kind, n in DECK.items() for _ in range(n)]
    chance.shuffle(deck)
    hands = [[0] * KINDS for _ in range(players)]
    for p in range(players):
        hands[p][p] = ROOSTERS_EACH
    for p in range(players):
        for _ in range(HAND_START):
            hands[p][deck.pop()] += 1
    under = [[0] * KINDS for _ in range(BARNS)]
    discard = [0] * KINDS
    placing = [0] * KINDS
    padlocked: int | None = None
    current = chance.pick(players)

    def game_over() -> bool:
        """Checked at the end of every turn."""
        return not deck and not any(any(hand) for hand in hands)

    def draw(p: int) -> None:
        if deck:
            hands[p][deck.pop()] += 1

    # --- Eggs.
    def ask_eggs() -> list[int]:
        """Every opponent answers at once; the throwers, clockwise from the current player."""
        throwers = []
        for q in ((current + i) % players for i in range(1, players)):
            has_egg = hands[q][EGG] > 0
            # "throw an egg" (only with an egg in hand), "let it be"
            if agent.pick(2 if has_egg else 1) == 0 and has_egg:
                throwers.append(q)
        for q in throwers:
            hands[q][EGG] -= 1
            discard[EGG] += 1
        return throwers

    # --- The three kinds of play. Each returns the next player.
    def place(k: int, b: int) -> int:
        hands[current][k] -= 1
        placing[k] += 1
        throwers = ask_eggs()
        placing[k] -= 1
        if len(throwers) == 1:  # blocked
            discard[k] += 1
            draw(current)
            draw(throwers[0])
            return throwers[0]
        under[b][k] += 1
        draw(current)
        if not throwers:
            return (current + 1) % players
        for q in throwers:  # the eggs cancel out: another turn
            draw(q)
        return current

    def farmer(b: int, f: int) -> int:
        hands[current][f] -= 1
        discard[f] += 1
        moves: list[tuple[int, int] | None] = [
            (k, c) for k in range(KINDS) if under[b][k] for c in range(BARNS)
            if c != b and (f == KEY or padlocked not in (b, c))
        ]
        moves.append(None)  # move nothing
        move = moves[agent.pick(len(moves))]
        if move is not None:
            k, c = move
            under[b][k] -= 1
            under[c][k] += 1
        draw(current)
        return (current + 1) % players

    def padlock(b: int) -> int:
        nonlocal padlocked
        hands[current][PADLOCK] -= 1
        padlocked = b
        throwers = ask_eggs()  # egg-proof: the eggs are wasted
        draw(current)  # the player they sought to block draws first
        for q in throwers:
            draw(q)
        return (current + 1) % players

    # --- Turns.
    turns = 0
    while True:
        turns += 1
        hand = hands[current]
        if not any(hand):
            if game_over():
                break
            current = (current + 1) % players
            continue
        open_barns = [b for b in range(BARNS) if b != padlocked]
        options: list[tuple[Any, ...]] = [
            (place, k, b) for k in (current, CHICKEN, FOX, EGG) if hand[k] for b in open_barns
        ]
        for f in (PITCHFORK, KEY):
            if hand[f]:
                options.extend((farmer, b, f) for b in range(BARNS))
        if hand[PADLOCK]:
            options.extend((padlock, b) for b in open_barns)
        play, *args = options[agent.pick(len(options))]
        nxt = play(*args)
        if game_over():
            break
        current = nxt

    return {"under": under, "padlocked": padlocked, "hands": hands, "deck": deck, "discard": discard,
            "placing": placing, "turns": turns}


def playout_scores(players: int, chance: Rng, agent: Rng) -> tuple[int, int, list[int]]:
    """Play one random game; return (winner seat, turns played, final scores)."""
    table = play_game(players, chance, agent)
    scores = final_scores(table["under"], players)
    return rank(scores)[0], table["turns"], scores


def playout(players: int, chance: Rng, agent: Rng) -> tuple[int, int]:
    """Play one random game; return (winner seat, turns played)."""
    winner, turns, _ = playout_scores(players, chance, agent)
    return winner, turns


def _bench(games: int = 2000) -> None:
    for players in (2, 3, 4):
        turns = 0
        start = time.perf_counter()
        for game in range(games):
            turns += playout(players, Rng(game, 0), Rng(game, 1))[1]
        elapsed = time.perf_counter() - start
        print(f"rule-the-roost: {games} games ({players} players) in {elapsed:.3f}s = "
              f"{games / elapsed:.0f} games/s, {turns / games:.1f} turns/game")


if __name__ == "__main__":
    _bench()
