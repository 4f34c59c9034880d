"""The OpenSpiel adapter's positions (``rulelang.envs.openspiel``): what a loaded game keeps (``Loaded``),
a game's engine state with the
steps that led there, the positions kept by history below those played on again, and the moves
between them: a decision's legal action ids, a chance node's outcomes by id, a step applied by id,
and the forced steps ``skip_forced`` applies itself."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pyspiel

from rulelang.compile.program import ASK, CHOOSE, DRAW, ROLL, SHUFFLE
from rulelang.engine.state import State
from rulelang.envs.actions import ActionSpace
from rulelang.envs.common import GameSpec, chance_outcomes
from rulelang.envs.encoding import ObservationEncoder

KEPT_POSITIONS = 20_000  # positions kept by history per loaded game (see Progress): a small game's whole tree


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
    rolls: dict[int, tuple[list, list]] = attrs.field(factory=dict)  # die kind -> its roll's outcomes
    # and their probabilities
    keep: int = KEPT_POSITIONS  # how many more positions may be kept as children (see Progress)

    @property
    def space(self) -> ActionSpace:
        """The game's fixed action space."""
        return self.spec.actions

class Step:
    """One step applied to the engine, linked to the steps before (shared by copies, never changed).

    ``what`` is ("chance", outcome as the engine takes it) or ("choose" | "ask", seat, position
    among the legal options, action id (None for a forced one: never handed out), forced).
    """

    __slots__ = ("earlier", "what", "count")

    def __init__(self, earlier: Step | None, what: tuple) -> None:
        self.earlier = earlier
        self.what = what
        self.count = 1 if earlier is None else earlier.count + 1

    def all(self) -> list[tuple]:
        """Every step so far, in order."""
        out = []
        node: Step | None = self
        while node is not None:
            out.append(node.what)
            node = node.earlier
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
    nobody else holds is changed in place, as before.
    """

    __slots__ = ("st", "shuffled", "length", "cut", "steps", "legal", "views", "node", "outcomes", "probabilities",
                 "payoffs", "shared", "children", "visits")

    def __init__(self, st: State) -> None:
        self.st = st
        self.shuffled: list[str] = []  # a shuffle is dealt position by position: the kinds so far
        self.length = 0  # OpenSpiel actions applied, chance included
        self.cut = False  # stopped at max_game_length
        self.steps: Step | None = None
        self.legal: tuple | None = None  # (kind, seat, ids, listed, ids sorted) of the pending decision
        # per player: (steps count, her views, her observation then or None) for information states
        self.views: dict[int, tuple[int, list, Any]] = {}
        self.node: int | None = None  # the current player (a seat, CHANCE or TERMINAL) once known
        self.outcomes: list | None = None  # the pending chance's (id, label, weight), once listed
        self.probabilities: list | None = None  # the pending chance's (id, probability), once asked for
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
        new.length = self.length
        new.cut = self.cut
        new.steps = self.steps
        new.legal = self.legal
        new.views = self.views
        new.node = self.node
        new.outcomes = self.outcomes
        new.probabilities = self.probabilities
        new.payoffs = self.payoffs
        return new

    def __reduce__(self) -> tuple:
        steps = self.steps.all() if self.steps is not None else []
        return (progress_from, (self.st.to_json(), self.shuffled, self.length, self.cut, steps))


def progress_from(st: dict[str, Any], shuffled: list[str], length: int, cut: bool, steps: list) -> Progress:
    """Unpickle a game in progress."""
    progress = Progress(State.from_json(st))
    progress.shuffled, progress.length, progress.cut = list(shuffled), length, cut
    progress.node = progress.legal = progress.outcomes = progress.probabilities = progress.payoffs = None
    for what in steps:
        progress.steps = Step(progress.steps, tuple(what))
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


def decide(loaded: Loaded, progress: Progress, legal: tuple, position: int, forced: bool) -> None:
    """Apply legal option ``position`` of the pending decision and record it."""
    kind, seat, ids, listed, _sorted = legal
    engine = loaded.spec.engine
    if kind == "choose":
        engine.apply_index(progress.st, position)
    else:
        engine.answer(progress.st, (seat, listed), position)
    progress.steps = Step(progress.steps, (kind, seat, position, ids[position], forced))
    progress.legal = progress.node = progress.outcomes = progress.probabilities = None


def apply_chance(loaded: Loaded, progress: Progress, action: int, label: str) -> bool:
    """Apply the pending chance's outcome ``action`` (its fixed id, listed by ``outcomes_of`` with the text
    ``label``): a roll's face, a draw's kind, by number (no Decision built); a shuffle's next position
    (its outcomes then worked out from the last ones); others by label. True when the engine moved on."""
    st = progress.st
    engine = loaded.spec.engine
    fr = st.stack[-1]
    op = engine.code[fr[0]][fr[1]][0]
    if op == ROLL:
        engine.apply_face(st, action)
        outcome: Any = label
    elif op == DRAW:
        drawn = engine.apply_draw(st, action)
        assert drawn, "a kind listed among the draw's outcomes can be drawn"
        outcome = label
    elif op == SHUFFLE:
        outcomes = progress.outcomes
        if outcomes is None:
            outcomes = outcomes_of(loaded, progress)
        progress.shuffled.append(label)
        left = sum(w for _i, _label, w in outcomes) - 1
        if left > 0:  # positions left: one fewer of this kind for the next
            outcomes = progress.outcomes = [(i, text, w - 1 if i == action else w) for i, text, w in outcomes
                                            if i != action or w > 1]
            progress.probabilities = [(i, w / left) for i, _text, w in outcomes]
            progress.node = None
            return False
        outcome = progress.shuffled
        progress.shuffled = []
        engine.apply(st, outcome)
    else:  # a first player or a pick
        engine.apply(st, label)
        outcome = label
    progress.steps = Step(progress.steps, ("chance", outcome))
    progress.outcomes = progress.node = progress.probabilities = progress.legal = None
    return True


def outcomes_of(loaded: Loaded, progress: Progress) -> list:
    """The pending chance's outcomes with a weight above 0, as (id, label, weight) by id, cached until the next
    step: those of ``chance_outcomes``, a roll's cached per die kind, a draw's and a shuffle's counted by kind
    number (no Decision built)."""
    outcomes = progress.outcomes
    if outcomes is None:
        engine = loaded.spec.engine
        st = progress.st
        fr = st.stack[-1]
        ins = engine.code[fr[0]][fr[1]]
        op = ins[0]
        if op == ROLL:
            loc = fr[2]
            kind = engine.program.kind_of[loc[ins[1]][loc[ins[2]]]]
            known = loaded.rolls.get(kind)
            if known is not None:  # a roll's outcomes depend only on the die's kind
                outcomes = progress.outcomes = known[0]
                progress.probabilities = known[1]
                return outcomes
        names = loaded.spec.actions.kind_names
        if op == DRAW:
            outcomes = [(k, names[k], n) for k, n in engine.draw_counts(st)]
        elif op == SHUFFLE and not progress.shuffled:
            outcomes = [(k, names[k], n) for k, n in sorted(Counter(engine.shuffle_kinds(st)).items())]
        else:
            outcomes = [o for o in chance_outcomes(engine, st, progress.shuffled) if o[2] > 0]
            if op == ROLL:
                total = sum(w for _i, _label, w in outcomes)
                loaded.rolls[kind] = (outcomes, [(i, w / total) for i, _label, w in outcomes])
        progress.outcomes = outcomes
    return outcomes


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


TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
CHANCE_ID = int(pyspiel.PlayerId.CHANCE)


def settle_forced(loaded: Loaded, progress: Progress) -> None:
    """With skip_forced: apply decisions with one legal action and chance with one outcome; then note who moves."""
    if not loaded.skip_forced:
        return
    st = progress.st
    engine = loaded.spec.engine
    code = engine.code
    rolls = loaded.rolls
    kind_of = engine.program.kind_of
    left = loaded.max_game_length
    while left > 0:
        if st.over:
            progress.node = TERMINAL_ID
            return
        fr = st.stack[-1]
        ins = code[fr[0]][fr[1]]
        if ins[0] not in DECISIONS:  # chance
            if ins[0] == ROLL and progress.outcomes is None:  # (what outcomes_of gives for a die kind seen before)
                loc = fr[2]
                known = rolls.get(kind_of[loc[ins[1]][loc[ins[2]]]])
                if known is not None and len(known[0]) != 1:
                    progress.outcomes, progress.probabilities = known
                    progress.node = CHANCE_ID
                    return
            outcomes = progress.outcomes or outcomes_of(loaded, progress)
            if len(outcomes) != 1:
                progress.node = CHANCE_ID
                return
            apply_chance(loaded, progress, outcomes[0][0], outcomes[0][1])
        else:
            legal = progress.legal
            if legal is None:
                options = engine.decision_options(st)
                if len(options[3]) == 1:  # forced: taken without its id (no node: the id is never handed out)
                    kind, seat, _spec, listed = options
                    if kind == "choose":
                        engine.apply_index(st, 0)
                    else:
                        engine.answer(st, (seat, listed), 0)
                    progress.steps = Step(progress.steps, (kind, seat, 0, None, True))
                    progress.node = progress.outcomes = progress.probabilities = None
                    left -= 1
                    continue
                legal = legal_of(loaded, progress, options)
            if len(legal[2]) != 1:
                progress.node = legal[1]
                return
            decide(loaded, progress, legal, 0, True)
        left -= 1
    progress.cut = True  # forced steps without end: cut as at max_game_length
    progress.node = None


DECISIONS = (CHOOSE, ASK)


