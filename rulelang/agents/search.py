"""Search agents: one-ply greedy and information-set MCTS, generic for every rules file.

Both see only their observation and the legal actions; to look ahead they ask the
:class:`~rulelang.engine.determinize.World` they are given for determinizations (full
states built from what their seat knows) and play on copies of those.
"""

from __future__ import annotations

import math
import weakref
from fractions import Fraction
from functools import partial
from typing import Any

from rulelang.check.model import rank_payoff_spec
from rulelang.compile.program import CHOOSE
from rulelang.compile.runtime import IdsOnly
from rulelang.engine.determinize import World, counting_picker, random_playout
from rulelang.engine.engine import Engine
from rulelang.engine.payoffs import normalised, rank_payoffs_of
from rulelang.engine.state import Picking, State
from rulelang.rng import Rng


def _advance_chance(engine: Engine, st: State, rng: Rng) -> None:
    """Sample chance outcomes until a player must decide or the game is over."""
    while not st.over and engine.is_chance(st):
        engine.apply_random(st, rng, events=False)


def _legal_for(engine: Engine, st: State, player: int, by_spec: dict | None = None) \
        -> tuple[list[str], dict[str, int] | None]:
    """``engine.legal_actions(st, player)``, and each label's position when :func:`_choice_labels` knows it."""
    known = _choice_labels(engine, st, by_spec)
    if known is not None:
        return (known[1], known[2]) if known[0] == player else ([], None)
    answers = engine.answers_of(st, player)
    if answers is not None:  # an ask: what legal_actions gives, without the Decision
        return answers, None
    return engine.legal_actions(st, player), None


# Per engine, per ``choose`` spec (by id, the spec kept alive beside it): which options' labels are a
# function of their values alone, and the labels rendered so far by (option, values).
_LABELS: weakref.WeakKeyDictionary[Engine, dict[int, tuple[Any, tuple[bool, ...], dict]]] = \
    weakref.WeakKeyDictionary()
_LABELS_KEPT = 50_000  # labels kept per choice at most


def _pure_labels(spec: Any) -> tuple[bool, ...]:
    """Per option of a ``choose`` spec: whether its label is a function of its ``for`` values alone.

    So when its label parser (``compile.labels.label_parser``) reads every hole back as one of the
    option's ``for`` values (a player, a number, a kind, a component or a text, each shown by a table:
    no hole shows anything else of the state), or when the compiler's membership tests say it has no
    holes or shows only kinds and components (``ChooseSpec.member``)."""
    out = []
    for j, opt in enumerate(spec.options):
        parser = opt[5]
        pure = parser is not None and all(pos is not None for pos, _convert in parser[1])
        if not pure and spec.member is not None:
            _prefix, whole, _test, _values, _exact, read_back, _opt = spec.member[1][j]
            pure = whole is not None or bool(read_back)
        out.append(pure)
    return tuple(out)


def _label_tables(engine: Engine) -> dict[int, tuple[Any, tuple[bool, ...], dict]]:
    """The labels kept for ``engine``'s choices (see ``_LABELS``)."""
    by_spec = _LABELS.get(engine)
    if by_spec is None:
        by_spec = _LABELS[engine] = {}
    return by_spec


def _choice_labels(engine: Engine, st: State, by_spec: dict | None = None) \
        -> tuple[int, list[str], dict[str, int]] | None:
    """(chooser, labels, label -> position) of a pending ``choose`` whose options' labels depend only on
    their values (:func:`_pure_labels`): those are rendered once per (option, values) and kept, instead
    of once per determinization; the same labels in the same order. None for any other decision (the
    labels are then rendered as before), and where two options read alike (the engine's own listing then reports it)."""
    if st.over:
        return None
    fr = st.stack[-1]
    ins = engine.code[fr[0]][fr[1]]
    if ins[0] != CHOOSE:
        return None
    spec = ins[1]
    if by_spec is None:
        by_spec = _label_tables(engine)
    entry = by_spec.get(id(spec))
    if entry is None or entry[0] is not spec:
        entry = by_spec[id(spec)] = (spec, _pure_labels(spec), {})
    _spec, pure, table = entry
    if not any(pure):
        return None
    options = st.choice_cache
    if options is None or type(options) is IdsOnly:
        engine.choice_size(st)
        options = st.choice_cache
        assert options is not None
    seat = spec.player(st, fr[2]) if spec.player is not None else st.current  # (as choice_size says)
    labels: list[str] = []
    render = None
    for i, option in enumerate(options):
        try:
            label = table.get(option) if pure[option[0]] else None
        except TypeError:  # a value that is no key (none of the shipped games has one)
            return None
        if label is None:
            if render is None:
                render = engine.option_label
            label = render(st, i)
            if pure[option[0]] and len(table) < _LABELS_KEPT:
                table[option] = label
        labels.append(label)
    where = {label: i for i, label in enumerate(labels)}
    if len(where) != len(labels):
        return None  # two options read alike: an error the engine's own listing words
    return seat, labels, where


def key_signs(engine: Engine) -> list[int]:
    """+1 for a ranking key where higher is better, -1 where lower is."""
    return [1 if direction == "highest" else -1 for direction, _ in engine.model.ranking.keys]


def own_values(engine: Engine, st: State, player: int) -> list[float]:
    """What the greedy agent maximises: its declared payoff (as if the game ended now), then its ranking keys."""
    keys = own_keys(engine, st, player)
    if engine.model.payoff is None:
        return keys
    return [payoff_rewards(engine, st)[player]] + keys


def own_keys(engine: Engine, st: State, player: int) -> list[float]:
    """The player's ranking keys, signed so that bigger is always better."""
    label = f"P{player + 1}"
    result = st.result if st.over and st.result is not None else engine.standings(st)
    row = next(r for r in result["standings"] if r["player"] == label)
    return [s * v for s, v in zip(key_signs(engine), row["keys"])]


_REWARDS: weakref.WeakKeyDictionary[Engine, dict[tuple, list[float]]] = weakref.WeakKeyDictionary()


def payoff_rewards(engine: Engine, st: State, result: dict[str, Any] | None = None) -> list[float]:
    """Each player's reward in [0, 1]: the game's payoff (``Engine.payoffs``) mapped onto [0, 1] by its bounds.

    Without a payoff declaration that is the share of the others a player ranks above (ties half);
    a one-player game without one gives 1. Before the end, a declared payoff is taken as if the game
    ended now (held within its bounds); ``result`` (the standings now) then stands for the ranking.
    """
    n = st.players
    spec = engine.payoff_spec_for(n)
    if not spec.declared and n == 1:
        return [1.0]
    values: tuple[Fraction, ...] | None = None
    if st.over and st.result is not None and result is None:
        # The rewards of a finished game follow from its payoffs, else its ranks: kept by those.
        done = st.result
        try:
            key = (n, tuple(done.get("payoffs") or ()), tuple((r["player"], r["rank"]) for r in done["standings"]))
        except (KeyError, TypeError):
            key = None
        by_engine = _REWARDS.get(engine)
        if by_engine is None:
            by_engine = _REWARDS[engine] = {}
        known = by_engine.get(key) if key is not None else None
        if known is not None:
            return list(known)
        values = engine.payoffs(st)
        if key is not None and len(by_engine) < 10_000:
            by_engine[key] = [normalised(v, spec) for v in values]
    elif spec.declared:
        values = engine.payoffs_now(st)
    if values is None:  # before the end, or a declared payoff that cannot be computed here: the ranking
        spec = rank_payoff_spec(n)
        values = rank_payoffs_of((result or engine.standings(st))["standings"], n)
    return [normalised(v, spec) for v in values]


_LEAN: weakref.WeakKeyDictionary[Engine, dict[tuple, list[float]]] = weakref.WeakKeyDictionary()


def lean_rewards(engine: Engine, n: int, result: dict[str, Any], by_engine: dict | None = None) -> list[float]:
    """:func:`payoff_rewards` of a game that ended with the engine's lean result (``Picking.lean``:
    ``{"ranks": [...], "payoffs": [...]}``), the same values: the declared payoffs if the result has
    them, else the rank payoffs, on [0, 1]; kept by (players, payoffs, ranks) (in ``by_engine``, the
    engine's table of ``_LEAN``, when the caller has it at hand)."""
    payoffs = result.get("payoffs")
    key = (n, tuple(payoffs) if payoffs is not None else None, tuple(result["ranks"]))
    if by_engine is None:
        by_engine = _LEAN.get(engine)
        if by_engine is None:
            by_engine = _LEAN[engine] = {}
    known = by_engine.get(key)
    if known is not None:
        return list(known)
    spec = engine.payoff_spec_for(n)
    if not spec.declared and n == 1:
        return [1.0]
    if payoffs is not None:
        values = tuple(Fraction(v) for v in payoffs)
    else:
        values = rank_payoffs_of([{"player": f"P{p + 1}", "rank": r} for p, r in enumerate(result["ranks"])], n)
    rewards = [normalised(v, spec) for v in values]
    if len(by_engine) < 10_000:
        by_engine[key] = rewards
    return list(rewards)


def soft_rewards(engine: Engine, st: State, result: dict[str, Any] | None = None) -> list[float]:
    """Rewards in [0, 1] for a game cut short: against each other player, 1/2 plus half the lead
    on the first ranking key that differs, relative to the two values' size; averaged.

    A small lead counts for a little, so that a playout cut before the end still says
    which side it favours (the rank alone is a coin toss early in a game).
    """
    if result is None:
        result = engine.standings(st)
    n = st.players
    if n == 1:
        return [1.0]
    signs = key_signs(engine)
    keys: list[list[float]] = [[] for _ in range(n)]
    for r in result["standings"]:
        keys[int(r["player"][1:]) - 1] = [s * v for s, v in zip(signs, r["keys"])]
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q == p:
                continue
            share = 0.5
            for a, b in zip(keys[p], keys[q]):
                if a != b:
                    share = 0.5 + 0.5 * (a - b) / (abs(a) + abs(b) + 1)
                    break
            total += share
        out.append(total / (n - 1))
    return out


def apply_as(engine: Engine, st: State, action: str, player: int) -> bool:
    """Apply ``action`` for ``player`` if it is legal in ``st``; say whether it was."""
    if player not in _askable(engine, st):
        return False
    if action not in engine.legal_actions(st, player):
        return False
    engine.apply(st, action, player=player)
    return True


def _askable(engine: Engine, st: State) -> list[int]:
    d = engine.pending(st)
    if d is None or d.kind != "choice":
        return []
    return list(d.players) if d.players is not None else [d.player if d.player is not None else st.current]


class GreedyAgent:
    """One ply: the action after which its own payoff (if the game declares one), then its own ranking keys,
    are best (chance sampled).

    ``samples`` determinizations per action are averaged; ties go to a random one.
    """

    searches = True

    def __init__(self, seed: int, seat: int, samples: int = 1) -> None:
        self.rng = Rng(seed, stream=101 + seat)
        self.samples = max(1, samples)

    def choose(self, observation: dict[str, Any], legal: list[str], world: World | None = None) -> str:
        """The legal action with the best own payoff and ranking keys one step ahead."""
        if world is None:
            raise TypeError("the greedy agent needs a World to look ahead in (play() gives it one)")
        if len(legal) == 1:
            return legal[0]
        engine, me = world.engine, world.player
        totals: dict[str, list[float]] = {}
        counts: dict[str, int] = {}
        for _ in range(self.samples):
            base = world.sample(self.rng)
            chance_seed = self.rng.next32()
            here = set(engine.legal_actions(base, me))
            for action in legal:
                if action not in here:
                    continue
                st = base.copy()
                engine.apply(st, action, player=me)
                _advance_chance(engine, st, Rng(chance_seed, stream=5))  # the same dice for every action
                keys = own_values(engine, st, me)
                old = totals.get(action)
                totals[action] = keys if old is None else [a + b for a, b in zip(old, keys)]
                counts[action] = counts.get(action, 0) + 1
        if not totals:
            return legal[0]
        values = {a: [t / counts[a] for t in totals[a]] for a in totals}
        top = max(values.values())
        best = [a for a in legal if values.get(a) == top]
        return best[self.rng.below(len(best))]


class _Node:
    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[tuple[int, str], _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class _Walk:
    """One iteration's walk down the tree, taken by the engine's pickers (``State.picking``, options listed).

    At each decision below the root the engine's loop lists the options and asks the picker of the
    seat to decide (the first still to answer, during an ``ask``); the walk finds their labels (kept by
    :func:`_choice_labels`, else rendered), updates availability, expands an untried action (at random)
    or takes the one of the best UCB (Walk.step), and
    answers with its position. After the decision it expands, play goes on as the rollout's, in the same
    run of the engine's loop (:meth:`hand_over`): the same decisions and draws as stopping at the next
    decision, as a step by ``apply_index`` would, and starting the rollout there.
    """

    __slots__ = ("engine", "rng", "c", "by_spec", "code", "st", "node", "path", "expanded", "picking", "known",
                 "depth", "walk_picks", "roll_picks", "roll_begin", "rolled")

    _FAR = 1 << 62  # the step limit while the walk goes on

    def __init__(self, engine: Engine, rng: Rng, c: float, by_spec: dict, depth: int = 0) -> None:
        self.engine, self.rng, self.c, self.by_spec, self.code = engine, rng, c, by_spec, engine.code
        self.st: State | None = None
        self.node: _Node | None = None
        self.path: list[tuple[_Node, int]] = []
        self.expanded = False
        self.picking = Picking([], self._FAR, listed=True, lean=True)
        # The rollout of up to ``depth`` decisions the walk hands over to (see hand_over): its picker, and
        # how many decisions it took (``rolled()``)
        self.depth = depth
        picker, self.roll_begin, self.rolled = counting_picker(rng)
        self.walk_picks: list[Any] = []
        self.roll_picks: list[Any] = [picker]
        # (choose spec's id, its options listed) -> (labels, label -> position), where every option's label
        # is a function of its values alone (see _pure_labels): found once, not at every walk
        self.known: dict[tuple, tuple[list[str], dict[str, int]]] = {}

    def start(self, st: State, root: _Node) -> list[tuple[_Node, int]]:
        """Begin a walk from ``root`` in ``st``; the path of (node, seat) it will take."""
        self.st, self.node, self.path, self.expanded = st, root, [], False
        picking = self.picking
        picking.limit = self._FAR
        picking.listed = True
        picking.blind = False
        if len(self.walk_picks) != st.players:
            self.walk_picks = [partial(self.pick, p) for p in range(st.players)]
            self.roll_picks = self.roll_picks[:1] * st.players
            picking.picks = self.walk_picks[:]
        else:
            picking.picks[:] = self.walk_picks  # (in place: the engine's loop holds the list while it runs)
        return self.path

    def hand_over(self, st: State) -> None:
        """The walk has expanded a node at the decision being taken in ``st``: from the next decision on,
        play is the rollout's (``depth`` random decisions at most, drawn as :func:`random_playout` draws
        them), without stopping in between (the engine's loop reads the mode of play, the pickers' list
        and the limit where it uses them). The limit lets play stop no later than that rollout would:
        :meth:`MctsAgent._rollout` plays on from there if it stops sooner. With no rollout (``depth`` 0),
        play stops at the next decision."""
        picking = self.picking
        if self.depth <= 0:
            picking.limit = st.step + 1
            return
        self.roll_begin(st, self.depth)
        picking.listed = False
        picking.blind = True  # (the rollout's pickers: see Picking.blind)
        picking.picks[:] = self.roll_picks
        picking.limit = st.step + 1 + self.depth  # (the decision taken now, then ``depth`` at most)

    def root(self, st: State, me: int, legal: list[str]) -> tuple[list[str], dict[str, int] | None, tuple | None]:
        """The actions of ``legal`` that ``me`` may take in ``st`` (in their order), each one's position
        where :func:`_choice_labels` knows it (what ``_legal_for`` says, kept as the walk keeps labels), and
        their children's keys at a node (``(me, action)`` each, for :meth:`step`) where those are kept."""
        engine = self.engine
        size = engine.choice_size(st)  # (a choose: its options listed)
        if size is not None and size[0] == me:
            fr = st.stack[-1]
            try:
                key: tuple | None = ("root", id(self.code[fr[0]][fr[1]][1]), tuple(st.choice_cache or ()))
                found = self.known.get(key)  # type: ignore[arg-type]
            except TypeError:
                key = found = None
            if found is not None:
                return found
        else:
            key = None
        here, where = _legal_for(engine, st, me, self.by_spec)
        options = [a for a in legal if a in (where if where is not None else set(here))]
        if key is not None and where is not None and len(self.known) < _LABELS_KEPT:
            pure = self.by_spec[key[1]][1]
            if all(pure[o[0]] for o in st.choice_cache or ()):
                keys = tuple([(me, a) for a in options])
                self.known[key] = (options, where, keys)
                return options, where, keys
        return options, where, None

    def pick(self, seat: int, n: int) -> int:
        """The position of the walk's action among the ``n`` options listed now (``State.choice_cache``)."""
        st = self.st
        assert st is not None and self.node is not None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        where: dict[str, int] | None = None
        keys: tuple | None = None
        if ins[0] == CHOOSE:
            listed = st.choice_cache
            try:
                key: tuple | None = (id(ins[1]), seat, tuple(listed or ()))
                found = self.known.get(key)  # type: ignore[arg-type]
            except TypeError:  # a value that is no key (none of the shipped games has one)
                key = found = None
            if found is not None:  # labels kept, all distinct: the position of the key taken is the option's
                at = self.choose_at(self.node, seat, found[2])
                if self.expanded:
                    self.hand_over(st)
                return at
            known = _choice_labels(self.engine, st, self.by_spec)
            if known is not None:
                options, where = known[1], known[2]
                pure = self.by_spec[id(ins[1])][1]
                if key is not None and len(self.known) < _LABELS_KEPT and all(pure[o[0]] for o in listed or ()):
                    keys = tuple([(seat, a) for a in options])
                    self.known[key] = (options, where, keys)
            else:  # rendered (two that read alike: the engine's error, as before)
                d = self.engine.pending(st)
                assert d is not None
                options = list(d.labels or [])
        else:  # an ask: the answers listed for the first still to answer
            options = list(st.choice_cache or [])
        action = self.step(self.node, seat, options, keys)
        if self.expanded:
            self.hand_over(st)
        return where[action] if where is not None else options.index(action)

    def step(self, node: _Node, seat: int, options: list[str], keys: tuple | None = None) -> str:
        """At ``node``, ``seat`` to choose among ``options``: count their availability, expand an untried one
        (at random) or take the best by UCB; move down to its child. ``keys``: the children's keys,
        ``(seat, option)`` for each option in order, where the caller keeps them."""
        if keys is None:
            keys = tuple([(seat, a) for a in options])
        return keys[self.choose_at(node, seat, keys)][1]

    def choose_at(self, node: _Node, seat: int, keys: tuple) -> int:
        """:meth:`step` by the children's keys (``(seat, option)``, one per option in order): which of them
        it takes (the first of equal ones)."""
        children = node.children
        untried = None
        for j, k in enumerate(keys):
            child = children.get(k)
            if child is not None:
                child.avail += 1
            elif untried is None:
                untried = [j]
            else:
                untried.append(j)
        if untried is not None:
            at = untried[self.rng.below(len(untried))] if len(untried) > 1 else untried[0]
            child = children[keys[at]] = _Node()
            child.avail = 1
            self.expanded = True
        else:  # UCB: mean reward + c * sqrt(log(availability) / visits); every availability is 1 or more here
            c, sqrt, log = self.c, math.sqrt, math.log
            best_u = -math.inf
            for j, k in enumerate(keys):
                ch = children[k]
                visits = ch.visits
                u = ch.total / visits + c * sqrt(log(ch.avail) / visits)
                if u > best_u:
                    at, child, best_u = j, ch, u
        self.path.append((child, seat))
        self.node = child
        return at


class MctsAgent:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012) with UCT.

    Each iteration samples a determinization of the current position for this seat,
    walks the tree (nodes are the decisions taken since the root, by whoever took them;
    chance is sampled, not branched on), expands one action, plays random moves to the
    end or for ``depth`` decisions, and scores the position by the game's payoff
    (``payoff_rewards``: the declared payoff, else the ranking, on [0, 1]; for a playout cut
    short, a declared payoff as if the game ended there, else the mean of the ranking's reward
    and ``soft_rewards``). UCB uses
    availability counts, as actions legal in one determinization may not be in another.
    Picks the root action visited most (ties: the best mean reward).
    """

    searches = True

    def __init__(self, seed: int, seat: int, iters: int = 200, c: float = 0.7, depth: int = 200) -> None:
        self.rng = Rng(seed, stream=201 + seat)
        self.iters = max(1, iters)
        self.c = c
        self.depth = depth
        self.iterations = 0  # iterations run, and decisions taken in their rollouts (for benchmarks)
        self.rollout_decisions = 0
        self._lean: tuple[Engine, dict] | None = None  # the engine searched last, and its rewards kept (_LEAN)

    def choose(self, observation: dict[str, Any], legal: list[str], world: World | None = None) -> str:
        """The root action the search visited most.

        Below the root, the tree is walked by the engine's own pickers (``Walk``): the generated code
        rolls the dice and the engine's loop draws the other chance and lists each decision's options
        for the walk to pick among, as ``play()`` plays, without returning between the decisions, and the
        rollout follows in the same run (``_Walk.hand_over``); the same tree, the same picks and the same
        draws as taking each step by ``apply_index`` and then playing the rollout."""
        if world is None:
            raise TypeError("the mcts agent needs a World to search in (play() gives it one)")
        if len(legal) == 1:
            return legal[0]
        engine, me, rng = world.engine, world.player, self.rng
        by_spec = _label_tables(engine)
        root = _Node()
        walk = _Walk(engine, rng, self.c, by_spec, self.depth)
        self.iterations += self.iters
        for _ in range(self.iters):
            st = world.sample(rng)
            # The root: this seat's own decision (during an ``ask`` others may come first in the list).
            options, where, keys = walk.root(st, me, legal)
            if not options:
                continue
            path = walk.start(st, root)
            action = walk.step(root, me, options, keys)
            if walk.expanded:
                walk.hand_over(st)
            st.chance_rng = rng  # dice and draws on the way: rolled as play() rolls them
            st.picking = walk.picking
            try:
                if where is not None:  # a choose: the option's position is known
                    engine.apply_index(st, where[action])
                else:
                    engine.apply(st, action, player=me)
                while not st.over and not walk.expanded and engine.is_chance(st):
                    engine.apply_random(st, rng, events=False)  # (a chance the engine's loop left: drawn as before)
            finally:
                st.chance_rng = None
                st.picking = None
            if not st.over and not walk.expanded:
                raise RuntimeError("the tree walk stopped at a decision it did not take")  # (the limit is far)
            rewards = self._rollout(engine, st, rng, walk.rolled() if walk.expanded and self.depth > 0 else 0)
            for n, who in path:
                n.visits += 1
                n.total += rewards[who]

        def score(a: str) -> tuple[float, float]:
            ch = root.children.get((me, a))
            return (-1.0, 0.0) if ch is None or not ch.visits else (ch.visits, ch.total / ch.visits)

        return max(legal, key=score)

    def _rollout(self, engine: Engine, st: State, rng: Rng, taken: int = 0) -> list[float]:
        """Each player's reward of a rollout from ``st`` of ``depth`` decisions at most (chance outcomes do
        not count), ``taken`` of them taken already (by the walk's hand-over); the rest played here."""
        if taken < self.depth and not st.over:
            taken += random_playout(engine, st, rng, self.depth - taken, lean=True)
        self.rollout_decisions += taken
        if st.over:
            result = st.result
            if result is not None and "ranks" in result:  # the lean result of a rollout: what payoff_rewards gives
                table = self._lean
                if table is None or table[0] is not engine:
                    lean_rewards(engine, st.players, result)  # (makes the engine's table)
                    table = self._lean = (engine, _LEAN[engine])
                return lean_rewards(engine, st.players, result, table[1])
            return payoff_rewards(engine, st)
        if engine.model.payoff is not None and engine.payoffs_now(st) is not None:
            return payoff_rewards(engine, st)
        # Cut short: who is ahead, and by how much, count half each.
        result = engine.standings(st)
        return [(a + b) / 2 for a, b in zip(payoff_rewards(engine, st, result), soft_rewards(engine, st, result))]
