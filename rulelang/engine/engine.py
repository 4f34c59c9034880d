"""The engine: runs a compiled Program on a State until the next decision.

``pending(state)`` says what is awaited (a player's choice or a chance outcome),
``apply(state, action)`` resumes play with it. No Python generator holds any truth:
where play is paused lives in ``state.stack``.

The engine's jobs live in mixins, one module each: ``choices`` (the pending decision, its
options and labels, why an action is not legal), ``acting`` (applying actions and the fast
paths of replay and playouts), ``loop`` (running generated blocks), ``results`` (standings,
payoffs, the end) and ``seeing`` (views and redaction). This module makes the engine and a
fresh state.
"""

from __future__ import annotations

from typing import Any

from rulelang.check.model import Model
from rulelang.compile.codegen import generate, load
from rulelang.compile.program import Program
from rulelang.compile.runtime import MAX_OPTIONS
from rulelang.engine.acting import Acting
from rulelang.engine.choices import Choices, IllegalAction, bad_answer, bad_option, pick_option, read_label
from rulelang.engine.loop import Loop
from rulelang.engine.results import Results
from rulelang.engine.seeing import Seeing
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.numbers import bounded
from rulelang.wording import player_counts_text

__all__ = ["DEFAULT_BUDGET", "MAX_OPTIONS", "Engine", "IllegalAction", "bad_answer", "bad_option", "pick_option",
           "read_label"]

DEFAULT_BUDGET = 200_000


class Engine(Choices, Acting, Loop, Results, Seeing):
    """Plays one compiled game; stateless itself (it keeps only fresh games to copy: see ``new_state``), so
    one engine serves many states."""

    def __init__(self, program: Program, budget: int = DEFAULT_BUDGET, coverage: bool = False) -> None:
        """With ``coverage``, ``self.coverage[i]`` counts the runs of ``program.constructs[i]`` (rule bodies
        entered, options taken, branches taken, triggers fired), over every state this engine plays."""
        self.program = program
        self.model: Model = program.model
        self.budget = budget
        self.coverage: list[int] | None = [0] * len(program.constructs) if coverage else None
        if coverage:
            if program.generated_coverage is None:
                program.generated_coverage = generate(program.model, coverage=True)
            generated = program.generated_coverage
        else:
            generated = program.generated
        self.run = load(generated, self.coverage, {"pick_option": pick_option, "bad_option": bad_option,
                                                        "bad_answer": bad_answer, "BUDGET": budget})
        self.code = self.run.code
        self._checks = self.run.checks
        self.die_faces = [k.faces for k in self.model.kinds]
        self.after_step = tuple(i for i, t in enumerate(self.model.triggers) if t.after_step)
        self.kind_by_name = {k.name: k.index for k in self.model.kinds}
        # per number of players: a fresh game as run up to its first decision, and its shape (see new_state)
        self.fresh: dict[int, tuple[State, tuple, Any]] = {}  # (with the options listed at that decision)
        # What a player is shown of a component: dice by their label (each die is its own
        # object on the table); copies of a card or token only by their kind, since the
        # numbers of copies follow hidden orders and would tell where the others are.
        # Components that own zones (one pile under each board card) keep their label too.
        owners = {z.per_kind for z in self.model.zones if z.per_kind is not None}
        owners |= {k for z in self.model.zones if z.per_class is not None for k in z.per_class}
        self.shown_name = {
            label: (label if self.model.kinds[k].cls == "die" or k in owners else self.model.kinds[k].name)
            for label, k in zip(program.component_labels, program.kind_of)
        }

    # ------------------------------------------------------------------ creation
    def new_state(self, players: int | None = None, narrate: bool = False, position: Any = None,
                  setup_seed: int = 0) -> State:
        """A fresh game with ``players`` players, run up to its first decision.

        With ``narrate``, ``state.log`` collects narration events from the start. With a
        ``position`` (see rulelang.engine.position), setup runs first (its chance resolved
        by a stream seeded with ``setup_seed``), then the position is laid out and play
        starts with the position's current player's turn.
        """
        model = self.model
        n = model.default_players if players is None else players
        kept = self.fresh.get(n) if position is None and not narrate else None
        if kept is not None:  # setup runs alike every time up to its first decision: the state it left, copied
            st = kept[0].copy_shaped(kept[1])
            st.choice_cache = kept[2]  # (the same state lists the same options)
            return st
        if not model.min_players <= n <= model.max_players:
            raise RulelangError(
                f"{model.title} takes {player_counts_text(model.min_players, model.max_players)}, not {n}",
                hint=f"use --players {model.min_players}" if model.min_players == model.max_players else
                f"use --players with a number from {model.min_players} to {model.max_players}",
            )
        st = State(n)
        st.zones = [
            [[] for _ in range(n)] if z.per_player
            else [[] for _ in range(model.kinds[z.per_kind].count)] if z.per_kind is not None
            else [[] for _ in range(self.program.component_count)] if z.per_class is not None
            else []
            for z in model.zones
        ]
        st.zones[0] = list(range(self.program.component_count))
        st.faces = [-1] * self.program.component_count
        st.counters = []
        for counter, init in zip(model.counters, self.run.counter_inits):
            value = bounded(init(st, []), counter.span)
            st.counters.append([value] * n if counter.per_player else value)
        st.armed = None  # triggers watch play, not setup: armed when the first turn starts
        st.stack = [[self.program.driver, 0, []]]
        if position is not None:
            from rulelang.engine.position import apply_position
            from rulelang.rng import Rng

            st.pause_at_turn = True
            self._run(st)
            rng = Rng(setup_seed, stream=0)
            while st.pause_at_turn and not st.over:
                d = self.pending(st)
                assert d is not None
                self.apply(st, d.sample(rng) if d.kind == "chance" else (d.labels or [""])[0])
            apply_position(self, st, position)
            st.step = 0
        if narrate:
            st.log = []
        self._run(st)
        if position is None and not narrate and self.coverage is None:
            # Up to its first decision, setup reads nothing but the number of players (no chance is drawn,
            # nothing is narrated, no one decides): every fresh game of that many players is a copy of this one.
            self.fresh[n] = (st.copy(), st.shape(), st.choice_cache)
        return st
