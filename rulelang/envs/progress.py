"""The OpenSpiel adapter's positions (``rulelang.envs.openspiel``): what a loaded game keeps (``Loaded``),
a game's engine state with the steps that led there, the positions kept by history below those played
on again, and the moves between them: a decision's legal action ids, a chance node's outcomes by id, an
action applied by id with the forced steps after it (``play``), and the forced steps ``skip_forced``
applies itself."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pyspiel

from rulelang.compile.program import ASK, CHOOSE, DRAW, ROLL, SHUFFLE
from rulelang.compile.runtime import IdsOnly
from rulelang.engine.state import State
from rulelang.envs.actions import ActionSpace
from rulelang.envs.common import GameSpec, chance_outcomes, seat_label
from rulelang.envs.encoding import ObservationEncoder
from rulelang.errors import RulelangError

KEPT_POSITIONS = 20_000  # positions kept by history per loaded game (see Progress): a small game's whole tree
TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
CHANCE_ID = int(pyspiel.PlayerId.CHANCE)


@attrs.define
class Loaded:
    """What a game needs at run time, kept by its parameters (pyspiel may hand back a
    game object without the Python attributes it was built with)."""

    spec: GameSpec
    encoder: ObservationEncoder
    start: State  # the game as new_state leaves it (information states are replayed from here)
    initial: Progress
    max_game_length: int
    info: Any
    game_type: Any
    params: dict[str, Any]
    skip_forced: bool
    history_length: int  # 0: not sized yet
    # die kind -> its roll's outcomes, their probabilities and each outcome's label by id
    rolls: dict[int, tuple[list, list, dict[int, str]]] = attrs.field(factory=dict)
    keep: int = KEPT_POSITIONS  # how many more positions may be kept as children (see Progress)

    @property
    def space(self) -> ActionSpace:
        """The game's fixed action space."""
        return self.spec.actions


# The steps applied to the engine are a linked list of tuples (the steps before, what), shared by copies and
# never changed. ``what`` is ("chance", outcome as the engine takes it) or ("choose" | "ask", seat, position
# among the legal options, action id (None for a forced one: never handed out), forced).
Steps = tuple | None


def steps_list(steps: Steps) -> list[tuple]:
    """Every step of ``steps``, in order."""
    out = []
    while steps is not None:
        out.append(steps[1])
        steps = steps[0]
    out.reverse()
    return out


class Progress:
    """The part of a game in progress that a clone copies: the engine state and the record.

    Everything here is a function of the history (the OpenSpiel actions applied, chance included):
    a progress that another game state may also hold (``shared``: a clone's, the game's initial
    one, or one kept as a child) is never changed again. Applying an action to a shared progress
    works on a copy, which is kept in ``children`` by action while the game's budget of kept
    positions lasts (``Loaded.keep``) and the shared progress was played on before (``visits``: a
    position revisited, as the root of every game of a random or search algorithm and the tree a
    search walks down again; not one that a single game or simulation passes through, which would
    cost a copy per step and memory): a history seen again is then a dictionary look-up, with the
    same engine state, legal actions, outcomes and returns as computed the first time. A progress
    nobody else holds is changed in place.

    What is known of the next node is cached until the engine moves on: ``node``; at a decision
    ``legal``; at a chance ``outcomes`` (with ``chance``, ``labels`` and ``probabilities``, valid while
    ``outcomes`` is set), or, while a shuffle is dealt position by position, ``deal``.
    """

    __slots__ = ("st", "shuffled", "deal", "length", "cut", "steps", "legal", "views", "node", "outcomes",
                 "chance", "labels", "probabilities", "payoffs", "shared", "children", "visits")

    def __init__(self, st: State) -> None:
        self.st = st
        self.shuffled: list[str] = []  # a shuffle is dealt position by position: the kinds so far
        self.deal: list | None = None  # the shuffle being dealt: [kind ids left, how many of each, positions left]
        self.length = 0  # OpenSpiel actions applied, chance included
        self.cut = False  # stopped at max_game_length
        self.steps: Steps = None
        self.legal: tuple | None = None  # (kind, seat, ids, listed, ids sorted) of the pending decision
        # per player: (the steps then, her views, her observation then or None) for information states
        self.views: dict[int, tuple[Steps, list, Any]] = {}
        self.node: int | None = None  # the current player (a seat, CHANCE or TERMINAL) once known
        self.outcomes: list | None = None  # the pending chance's (id, label, weight), once listed (not a deal's)
        self.chance = 0  # ... the op of that chance (ROLL, DRAW, ...)
        self.labels: dict[int, str] | None = None  # ... its labels by id, when known at once (a roll's)
        self.probabilities: list | None = None  # ... its (id, probability), once asked for
        self.payoffs: list[float] | None = None  # the returns, once the game is over and they were asked for
        self.shared = False  # another game state may hold this progress: never change it
        self.children: dict[int, Progress] | None = None  # kept: the progress after each action applied
        self.visits = 0  # actions applied to it while shared (a count, not part of the position)

    def __deepcopy__(self, memo: dict) -> Progress:
        """A clone's progress: this one, shared from now on (nothing changes a shared progress)."""
        self.shared = True
        return self

    def copy(self) -> Progress:
        """A copy that nobody else holds (the engine state copied; the pending choice's options kept)."""
        new = Progress.__new__(Progress)
        new.st = self.st.copy()
        new.st.choice_cache = self.st.choice_cache  # (the same state lists the same options)
        new.shared = False
        new.children = None
        new.visits = 0
        new.shuffled = list(self.shuffled)
        deal = self.deal
        new.deal = None if deal is None else [list(deal[0]), list(deal[1]), deal[2]]
        new.length = self.length
        new.cut = self.cut
        new.steps = self.steps
        new.legal = self.legal
        new.views = self.views
        new.node = self.node
        new.outcomes = self.outcomes
        new.chance = self.chance
        new.labels = self.labels
        new.probabilities = self.probabilities
        new.payoffs = self.payoffs
        return new

    def __reduce__(self) -> tuple:
        return (progress_from, (self.st.to_json(), self.shuffled, self.length, self.cut, steps_list(self.steps)))


def progress_from(st: dict[str, Any], shuffled: list[str], length: int, cut: bool, steps: list) -> Progress:
    """Unpickle a game in progress."""
    progress = Progress(State.from_json(st))
    progress.shuffled, progress.length, progress.cut = list(shuffled), length, cut
    for what in steps:
        progress.steps = (progress.steps, tuple(what))
    return progress


def legal_of(loaded: Loaded, progress: Progress, options: tuple | None = None) -> tuple:
    """(kind, seat, ids, listed, ids sorted) of the pending decision, cached until the next step (no label written);
    ``options``: what ``Engine.decision_options`` just said of it, if known."""
    legal = progress.legal
    if legal is None:
        kind, seat, spec, listed = options or loaded.spec.engine.decision_options(progress.st)
        space = loaded.spec.actions
        if kind == "choose":
            ids, ordered = space.choose_legal(spec, listed)
        else:
            ids = space.ask_ids(spec, listed, None)
            ordered = sorted(ids)
        legal = progress.legal = (kind, seat, ids, listed, ordered)
    return legal


def outcomes_of(loaded: Loaded, progress: Progress) -> list:
    """The pending chance's outcomes with a weight above 0, as (id, label, weight) by id, cached until the next
    step: those of ``chance_outcomes``, a roll's cached per die kind, a draw's counted by kind number (no
    Decision built), a shuffle's listed from its deal (``deal_of``)."""
    if progress.deal is not None:
        return deal_outcomes(loaded, progress.deal)
    outcomes = progress.outcomes
    if outcomes is not None:
        return outcomes
    engine = loaded.spec.engine
    st = progress.st
    fr = st.stack[-1]
    ins = engine.code[fr[0]][fr[1]]
    op = ins[0]
    if op == SHUFFLE:
        return deal_outcomes(loaded, deal_of(loaded, progress))
    progress.chance = op
    progress.labels = progress.probabilities = None
    if op == ROLL:
        loc = fr[2]
        kind = engine.program.kind_of[loc[ins[1]][loc[ins[2]]]]
        known = loaded.rolls.get(kind)
        if known is not None:  # a roll's outcomes depend only on the die's kind
            progress.outcomes, progress.probabilities, progress.labels = known
            return known[0]
    if op == DRAW:
        names = loaded.spec.actions.kind_names
        outcomes = [(k, names[k], n) for k, n in engine.draw_counts(st)]
    else:
        outcomes = [o for o in chance_outcomes(engine, st) if o[2] > 0]
        if op == ROLL:
            total = sum(w for _i, _label, w in outcomes)
            known = (outcomes, [(i, w / total) for i, _label, w in outcomes], {i: text for i, text, _w in outcomes})
            loaded.rolls[kind] = known
            progress.probabilities, progress.labels = known[1], known[2]
    progress.outcomes = outcomes
    return outcomes


def deal_of(loaded: Loaded, progress: Progress) -> list:
    """The pending shuffle's deal: [the kind ids still to deal, by id; how many of each; positions left]."""
    deal = progress.deal
    if deal is None:
        engine = loaded.spec.engine
        st = progress.st
        if progress.shuffled:  # (a game unpickled while dealing)
            counts = [(i, w) for i, _label, w in chance_outcomes(engine, st, progress.shuffled) if w > 0]
        else:
            counts = sorted(Counter(engine.shuffle_kinds(st)).items())
        deal = progress.deal = [[k for k, _n in counts], [n for _k, n in counts], sum(n for _k, n in counts)]
    return deal


def deal_outcomes(loaded: Loaded, deal: list) -> list:
    """A deal's next position's outcomes as (id, label, weight)."""
    names = loaded.spec.actions.kind_names
    return [(k, names[k], n) for k, n in zip(deal[0], deal[1])]


def chance_probabilities(loaded: Loaded, progress: Progress) -> list[tuple[int, float]]:
    """(outcome id, probability) of the pending chance's outcomes, a new list."""
    deal = progress.deal
    if deal is None:
        outcomes = progress.outcomes
        if outcomes is None:
            outcomes = outcomes_of(loaded, progress)  # (a roll's come with their probabilities)
            deal = progress.deal
        if deal is None:
            probabilities = progress.probabilities
            if probabilities is None:
                total = sum(w for _i, _label, w in outcomes)
                probabilities = progress.probabilities = [(i, w / total) for i, _label, w in outcomes]
            return list(probabilities)
    left = deal[2]
    return [(k, n / left) for k, n in zip(deal[0], deal[1])]


def node_of(loaded: Loaded, progress: Progress) -> int:
    """The current player: a seat, CHANCE or TERMINAL (cached until the next step)."""
    node = progress.node
    if node is None:
        st = progress.st
        if st.over or progress.cut:
            node = TERMINAL_ID
        elif loaded.spec.engine.is_chance(st):
            node = CHANCE_ID
        else:
            node = legal_of(loaded, progress)[1]
        progress.node = node
    return node


def _deal_one(loaded: Loaded, progress: Progress, deal: list, k: int) -> bool:
    """Deal the shuffle's next position as the kind at ``k`` in the deal; at the last position order the zone
    as dealt (True: the engine moved on)."""
    ids = deal[0]
    progress.shuffled.append(loaded.spec.actions.kind_names[ids[k]])
    left = deal[2] - 1
    if left:
        counts = deal[1]
        if counts[k] == 1:
            del ids[k]
            del counts[k]
        else:
            counts[k] -= 1
        deal[2] = left
        return False
    outcome = progress.shuffled
    progress.shuffled = []
    progress.deal = None
    engine = loaded.spec.engine
    by_name = engine.kind_by_name
    engine.apply_shuffle(progress.st, [by_name[name] for name in outcome])
    progress.steps = (progress.steps, ("chance", outcome))
    return True


def play(loaded: Loaded, progress: Progress, action: int) -> None:
    """Apply OpenSpiel action ``action`` (a legal action id or a chance outcome id) to a progress that nobody
    else holds, then, with ``skip_forced``, the forced steps after it; a RulelangError (nothing changed) when
    it cannot be applied here."""
    node = progress.node
    st = progress.st
    if node == CHANCE_ID and progress.outcomes is not None and progress.chance == ROLL:  # a die's face
        label = progress.labels.get(action)  # type: ignore[union-attr]
        if label is None:
            raise _no_outcome(action, progress.outcomes)
        loaded.spec.engine.apply_face(st, action)
        progress.steps = (progress.steps, ("chance", label))
    elif node is not None and node >= 0:
        legal = progress.legal or legal_of(loaded, progress)
        try:
            position = legal[2].index(action)
        except ValueError:
            raise RulelangError(
                f"{seat_label(legal[1])} has no legal action {action}",
                hint="legal: " + ", ".join(f"{a}: {loaded.spec.actions.string(a)}" for a in legal[4][:12])) from None
        kind = legal[0]
        if kind == "choose":
            listed = legal[3]
            engine = loaded.spec.engine
            if type(listed) is IdsOnly:  # the ids alone were listed: the option bound from its id
                fr = st.stack[-1]
                engine.apply_option(st, loaded.spec.actions.option_of(engine.code[fr[0]][fr[1]][1], action),
                                    len(listed) == 1)
            else:
                engine.apply_index(st, position)
        else:
            loaded.spec.engine.answer(st, (legal[1], legal[3]), position)
        progress.steps = (progress.steps, (kind, legal[1], position, action, False))
    elif node is None and not (st.over or progress.cut):
        node_of(loaded, progress)
        play(loaded, progress, action)
        return
    elif node == CHANCE_ID:
        if progress.deal is None and progress.outcomes is None:
            outcomes_of(loaded, progress)
        deal = progress.deal
        if deal is not None:
            try:
                k = deal[0].index(action)
            except ValueError:
                raise _no_outcome(action, deal_outcomes(loaded, deal)) from None
            if not _deal_one(loaded, progress, deal, k):  # positions left: chance again
                progress.length += 1
                if progress.length >= loaded.max_game_length:
                    progress.cut = True
                    progress.node = None
                elif len(deal[0]) == 1 and loaded.skip_forced:
                    settle_forced(loaded, progress)
                return
        else:
            labels = progress.labels
            if labels is not None:
                label = labels.get(action)
            else:
                label = None
                for entry in progress.outcomes:  # type: ignore[union-attr]
                    if entry[0] == action:
                        label = entry[1]
                        break
            if label is None:
                raise _no_outcome(action, progress.outcomes)  # type: ignore[arg-type]
            _apply_outcome(loaded.spec.engine, st, progress.chance, action, label)
            progress.steps = (progress.steps, ("chance", label))
    else:
        raise RulelangError("the game is over: no action can be applied")
    progress.legal = progress.node = progress.outcomes = None
    progress.length += 1
    if progress.length >= loaded.max_game_length and not st.over:
        progress.cut = True
    elif loaded.skip_forced:
        settle_forced(loaded, progress)


def _no_outcome(action: int, outcomes: list) -> RulelangError:
    return RulelangError(f"chance outcome {action} is not possible here",
                         hint="possible: " + ", ".join(f"{i}: {t}" for i, t, _w in sorted(outcomes)))


def _apply_outcome(engine: Any, st: State, op: int, action: int, label: str) -> None:
    """Apply chance outcome ``action`` (text ``label``) of a chance that is no shuffle: a roll's face and a draw's
    kind by number (no Decision built), others by label."""
    if op == ROLL:
        engine.apply_face(st, action)
    elif op == DRAW:
        drawn = engine.apply_draw(st, action)
        assert drawn, "a kind listed among the draw's outcomes can be drawn"
    else:  # a first player or a pick
        engine.apply(st, label)


def settle_forced(loaded: Loaded, progress: Progress) -> None:
    """With skip_forced: apply decisions with one legal action and chance with one outcome; then note who moves
    (without it: who moves is worked out when asked)."""
    if not loaded.skip_forced:
        progress.node = None
        return
    st = progress.st
    engine = loaded.spec.engine
    code = engine.code
    left = loaded.max_game_length
    while left > 0:
        if st.over:
            progress.node = TERMINAL_ID
            return
        fr = st.stack[-1]
        ins = code[fr[0]][fr[1]]
        op = ins[0]
        if op == ASK:
            # the forced answers, taken without their ids (never handed out); then (who answers, her answers)
            answered, answers = engine.answer_forced(st, left)
            steps = progress.steps
            for who in answered:
                steps = (steps, ("ask", who, 0, None, True))
            progress.steps = steps
            if answers is not None:
                progress.node = legal_of(loaded, progress, ("ask", answers[0], ins[1], answers[1]))[1]
                return
            left -= len(answered)
            continue
        elif op == CHOOSE:
            options = engine.decision_options(st)  # ("choose", who chooses, the spec, the options listed)
            listed = options[3]
            if len(listed) != 1:
                progress.node = legal_of(loaded, progress, options)[1]
                return
            if type(listed) is IdsOnly:  # (its id alone: the option bound from it)
                engine.apply_option(st, loaded.spec.actions.option_of(options[2], listed[0]), True)
            else:
                engine.apply_index(st, 0)
            progress.steps = (progress.steps, ("choose", options[1], 0, None, True))
        else:
            deal = progress.deal
            if deal is None:
                outcomes = progress.outcomes
                if outcomes is None:
                    if op == ROLL:  # (what outcomes_of gives for a die kind seen before)
                        loc = fr[2]
                        known = loaded.rolls.get(engine.program.kind_of[loc[ins[1]][loc[ins[2]]]])
                        if known is not None and len(known[0]) != 1:
                            progress.outcomes, progress.probabilities, progress.labels = known
                            progress.chance = ROLL
                            progress.node = CHANCE_ID
                            return
                    outcomes = outcomes_of(loaded, progress)
                    deal = progress.deal
            if deal is not None:
                if len(deal[0]) != 1:
                    progress.node = CHANCE_ID
                    return
                if not _deal_one(loaded, progress, deal, 0):
                    left -= 1
                    continue
            else:
                if len(outcomes) != 1:
                    progress.node = CHANCE_ID
                    return
                only = outcomes[0]
                _apply_outcome(engine, st, progress.chance, only[0], only[1])
                progress.steps = (progress.steps, ("chance", only[1]))
                progress.outcomes = None
        left -= 1
    progress.cut = True  # forced steps without end: cut as at max_game_length
    progress.node = None
