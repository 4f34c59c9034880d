"""The engine: runs a compiled Program on a State until the next decision.

``pending(state)`` says what is awaited (a player's choice or a chance outcome),
``apply(state, action)`` resumes play with it. No Python generator holds any truth:
where play is paused lives in ``state.stack``.
"""

from __future__ import annotations

import copy
import sys
from bisect import bisect_right
from collections import Counter
from fractions import Fraction
from typing import Any

from rulelang.check.model import PLAYER, Model, PayoffSpec, rank_payoff_spec
from rulelang.compile.codegen import generate, load
from rulelang.compile.emit import END, TAKEN
from rulelang.compile.program import (
    ASK,
    BLOCK,
    CHOOSE,
    DRAW,
    PICK,
    RANDFIRST,
    ROLL,
    SHUFFLE,
    Program,
)
from rulelang.compile.runtime import MAX_OPTIONS, Runaway, place_of, player_label, shuffle_zone
from rulelang.engine.decision import Decision, Labels
from rulelang.engine.payoffs import add_payoffs, declared_payoffs, payoffs_of_result
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.narrate import player_counts_text
from rulelang.numbers import bounded, json_number
from rulelang.syntax.span import Span

DEFAULT_BUDGET = 200_000


class IllegalAction(RulelangError):
    """An action that the rules do not allow at this point."""



def read_label(parser: tuple, action: str, n: int) -> list | None:
    """The ``n`` range values an option's label parser reads from label ``action`` (None for a hole
    that shows no ``for`` value: rendering checks it), or None when the label does not read back."""
    m = parser[0].match(action)
    if m is None:
        return None
    try:
        parsed: list = [None] * n
        for group, (position, convert) in zip(m.groups(), parser[1]):
            if position is not None:
                parsed[position] = convert(group)
    except (ValueError, KeyError):
        return None
    return parsed

class Engine:
    """Plays one compiled game; stateless itself, so one engine serves many states."""

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
        return st

    # ------------------------------------------------------------------ decisions
    def pending(self, st: State) -> Decision | None:
        """The decision play is waiting for, or None when the game is over."""
        if st.over:
            return None
        cached = st.pending_cache
        if cached is not None:
            return cached
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        op = ins[0]
        loc = fr[2]
        program = self.program
        if op == CHOOSE:
            spec = ins[1]
            player = spec.player(st, loc) if spec.player is not None else st.current
            options = st.choice_cache if st.choice_cache is not None else self._options(st, spec, loc)
            labels = Labels(len(options), self._label_renderer(st, fr, options), ins[4],
                            self._option_describer(fr, options))
            d = Decision("choice", player, labels, None, {}, ins[4])
            d.options = options
        elif op == ASK:
            waiting = loc[ins[1].pending_slot]
            player = waiting[0]
            d = Decision("choice", player, self._answers(st, ins[1], loc, player), None, {"ask": True}, ins[4],
                         players=list(waiting))
        elif op == ROLL:
            die = loc[ins[1]][loc[ins[2]]]
            k = program.kind_of[die]
            d = Decision("chance", None, program.face_labels[k], program.face_weights[k],
                         {"roll": program.component_labels[die]}, ins[4],
                         raw=[self.model.faces[f].name for f in self.die_faces[k]])
        elif op == DRAW:
            spec = ins[1]
            src = spec.source(st, loc)
            pred = spec.pred(st, loc)
            counts = Counter(program.kind_of[c] for c in src if pred is None or pred(c))
            kinds = sorted(counts)
            labels = [self.model.kinds[k].name for k in kinds]
            event: dict[str, Any] = {"draw": self._zone_label(spec.source_zone, spec.source_owner, st, loc)}
            d = Decision("chance", None, labels, [counts[k] for k in kinds], event, ins[4])
        elif op == SHUFFLE:
            src = ins[1](st, loc)
            pool = [self.model.kinds[program.kind_of[c]].name for c in src]
            d = Decision("chance", None, None, None, {"shuffle": self.model.zones[ins[2]].name}, ins[4], pool=pool)
        elif op == RANDFIRST:
            d = Decision("chance", None, [player_label(p) for p in range(st.players)], [1] * st.players,
                         {"first_player": True}, ins[4])
        elif op == PICK:
            among = [player_label(p) for p in loc[ins[1].among_slot]]
            d = Decision("chance", None, among, [1] * len(among), {"pick": ins[1].name, "among": among}, ins[4],
                         raw=among)
        else:  # only after a run-time error (a runaway loop) left play between two decisions
            raise RulelangError("this game stopped at a run-time error and cannot go on", st.stopped_at or ins[4],
                                hint="fix the rules at the error reported first, then play again")
        st.pending_cache = d
        return d

    def _zone_label(self, zone: int, owner: Any, st: State, loc: list) -> str:
        name = self.model.zones[zone].name
        if owner is None:
            return name
        return f"{name} of {player_label(owner(st, loc))}"

    def _options(self, st: State, spec: Any, loc: list, check: bool = True) -> list[tuple[int, tuple]]:
        """Every legal option of a ``choose`` as (option index, values of its ``for`` variables).

        With ``check`` False the options' conditions are not applied (used to explain).
        """
        if check and spec.enum is not None:
            return spec.enum(st, loc)
        out: list[tuple[int, tuple]] = []
        for index, (_label, bindings, cond, _pc, _public, _parser, hoisted) in enumerate(spec.options):
            if check is False:
                cond = None
            elif hoisted:
                if not cond(st, loc):
                    continue
                cond = None
            if not bindings:
                if cond is None or cond(st, loc):
                    out.append((index, ()))
            else:
                _enumerate(st, loc, bindings, 0, (), cond, index, out)
            if len(out) > MAX_OPTIONS:
                raise RulelangError(f"a choice of more than {MAX_OPTIONS} options (or tries of its 'for' values)",
                                    self.where_span(st),
                                    hint="narrow the choice's 'for' ranges or split it into several choices")
        return out

    def _bind(self, loc: list, spec: Any, option: tuple[int, tuple]) -> Any:
        """Set the option's ``for`` variables in ``loc``; return the option's compiled tuple."""
        opt = spec.options[option[0]]
        for (slot, _fn), value in zip(opt[1], option[1]):
            loc[slot] = value
        return opt

    def _label_renderer(self, st: State, fr: list, options: list[tuple[int, tuple]]) -> Any:
        spec = self.code[fr[0]][fr[1]][1]
        loc = fr[2]

        def render(i: int) -> str:
            # Rendering a label binds its option's values; put the locals back as they were,
            # so that looking at a decision never changes the state.
            slots = [slot for slot, _fn in spec.options[options[i][0]][1]]
            saved = [loc[slot] for slot in slots]
            try:
                return self._bind(loc, spec, options[i])[0](st, loc)
            finally:
                for slot, value in zip(slots, saved):
                    loc[slot] = value

        return render

    def _option_describer(self, fr: list, options: list[tuple[int, tuple]]) -> Any:
        spec = self.code[fr[0]][fr[1]][1]

        def describe(i: int) -> str:
            index, values = options[i]
            span = spec.spans[index][0] if index < len(spec.spans) else None
            shown = spec.shown[index] if index < len(spec.shown) else ()
            bound = ", ".join(f"{name} = {text(v)}" for (name, text), v in zip(shown, values))
            where = f"line {span.line}" if span is not None else f"option {index + 1}"
            return f"the option at {where}" + (f" with {bound}" if bound else "")

        return describe

    def _find_option(self, st: State, d: Decision, action: Any) -> tuple[int, tuple] | None:
        if not isinstance(action, str) or not isinstance(d.labels, Labels):
            return None
        i = d.labels.find(action)
        return None if i is None else d.options[i]

    def public_label(self, st: State, action: str) -> str | None:
        """How the other players see the pending choice ``action`` (None: exactly as written)."""
        d = self.pending(st)
        if d is None or d.kind != "choice" or d.players is not None:
            return None
        match = self._find_option(st, d, action)
        if match is None:
            return None
        fr = st.stack[-1]
        loc = fr[2]
        saved = list(loc)
        try:
            public = self._bind(loc, self.code[fr[0]][fr[1]][1], match)[4]
            return public(st, loc) if public is not None else None
        finally:
            loc[:] = saved

    def _answers(self, st: State, spec: Any, loc: list, player: int) -> list[str]:
        loc[spec.var] = player
        if spec.enum is not None:
            return spec.enum(st, loc)
        return [label for label, cond in spec.options if cond is None or cond(st, loc)]

    def legal_actions(self, st: State, player: int | None = None) -> list[str]:
        """Labels of the actions ``player`` (default: the pending one) may take now."""
        d = self.pending(st)
        if d is None or d.kind != "choice":
            return []
        if player is not None and d.players is not None and player != d.player:
            if player not in d.players:
                return []
            fr = st.stack[-1]
            ins = self.code[fr[0]][fr[1]]
            return self._answers(st, ins[1], fr[2], player)
        if player is not None and player != d.player:
            return []
        return list(d.labels or [])

    def apply(self, st: State, action: Any, player: int | None = None) -> None:
        """Resume play with ``action`` (a choice label or a chance outcome); raises IllegalAction.

        While an ``ask`` waits for several players, ``player`` says who answers (any of
        them, in any order; default: the first in seat order).
        """
        if st.over:
            raise IllegalAction("the game is already over", hint="nothing can be played after the result")
        d = self.pending(st)
        assert d is not None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        op = ins[0]
        loc = fr[2]
        program = self.program
        if op == ASK:
            spec = ins[1]
            waiting = loc[spec.pending_slot]
            who = d.player if player is None else player
            if isinstance(who, int) and 0 <= who < st.players and st.out[who]:
                raise IllegalAction(f"{player_label(who)} is out of the game and takes no decisions", d.span,
                                    hint="waiting for " + ", ".join(player_label(p) for p in waiting))
            if who not in waiting:
                raise IllegalAction(f"{player_label(who)} is not asked here", d.span,
                                    hint="waiting for " + ", ".join(player_label(p) for p in waiting))
            allowed = d.labels if who == d.player else self._answers(st, spec, loc, who)
            if action not in allowed:
                d2 = Decision("choice", who, self._answers(st, spec, loc, who), None, {}, d.span)
                raise self._illegal(d2, action)
            st.answers[who] = action
            loc[spec.pending_slot] = [p for p in waiting if p != who]
            if not loc[spec.pending_slot]:
                fr[1] += 1
                if st.log is not None:
                    st.log.append({"type": "answers", "answers": {
                        player_label(p): a for p, a in enumerate(st.answers) if a}})
        elif op == CHOOSE:
            match = self._find_option(st, d, action)
            if match is None:
                raise self._illegal(d, action)
            opt = self._bind(loc, ins[1], match)
            public = opt[4](st, loc) if opt[4] is not None else None
            if st.log is not None:
                entry = {"type": "choice", "player": player_label(d.player or 0), "action": action,
                         "forced": len(d.options) == 1}
                if public is not None:
                    entry["public"] = public
                st.log.append(entry)
            fr[1] = opt[3]
        elif op == ROLL:
            die = loc[ins[1]][loc[ins[2]]]
            k = program.kind_of[die]
            face = program.face_index[k].get(action) if isinstance(action, str) else None
            if face is None:
                raise self._illegal(d, action)
            self._rolled(st, fr, ins, die, face)
        elif op == DRAW:
            if not isinstance(action, str) or action not in (d.labels or ()):
                raise self._illegal(d, action)
            self._drawn(st, fr, ins, self._kind_index(action))
        elif op == SHUFFLE:
            if not isinstance(action, list) or sorted(map(str, action)) != sorted(d.pool or []):
                raise self._illegal(d, action)
            src = ins[1](st, loc)
            by_kind: dict[int, list[int]] = {}
            for c in sorted(src):
                by_kind.setdefault(program.kind_of[c], []).append(c)
            for lst in by_kind.values():
                lst.reverse()
            src[:] = [by_kind[self._kind_index(name)].pop() for name in action]
            fr[1] += 1
            if ins[3]:
                self._check_triggers(st, ins[3])
        elif op == RANDFIRST:
            labels = d.labels or []
            if action not in labels:
                raise self._illegal(d, action)
            st.current = labels.index(action)
            fr[1] += 1
        elif op == PICK:
            labels = d.labels or []
            if action not in labels:
                raise self._illegal(d, action)
            loc[ins[1].var] = loc[ins[1].among_slot][labels.index(action)]
            if st.log is not None:
                st.log.append({"type": "pick", "player": action, "among": list(labels)})
            fr[1] += 1
        st.step += 1
        st.pending_cache = st.choice_cache = None
        self._run(st)

    def is_chance(self, st: State) -> bool:
        """True when the pending decision is chance (cheaper than building it)."""
        fr = st.stack[-1]
        return self.code[fr[0]][fr[1]][0] not in (CHOOSE, ASK)

    def apply_random(self, st: State, rng: Any, events: bool = True) -> list[dict[str, Any]]:
        """Sample the pending chance decision with ``rng`` and apply it; return its trace events.

        A roll of several dice is sampled die by die (one event each) in one call.
        With ``events`` False nothing is recorded (fast playouts) and the list is empty.
        """
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] == ROLL:
            out: list[dict[str, Any]] | None = [] if events else None
            self._roll_dice(st, fr, ins, rng, out)
            st.pending_cache = st.choice_cache = None
            self._run(st)
            return out or []
        if not events and self._chance(st, fr, ins, rng):  # nothing to record: no Decision needed
            self._run(st)
            return []
        d = self.pending(st)
        assert d is not None and d.kind == "chance"
        outcome = d.sample(rng)
        event = {"type": "chance", "step": st.step + 1, **d.event, "outcome": outcome}
        self.apply(st, outcome)
        return [event]

    def place_of(self, st: State, c: int) -> list[int]:
        """Where component ``c`` is: [zone index, owner seat or -1]."""
        return place_of(st, c)

    def sees(self, place: list[int], player: int | None) -> bool:
        """Whether ``player`` (None: a spectator) sees what is in a zone ([zone, owner])."""
        zone = self.model.zones[place[0]]
        if zone.visibility == "public":
            return True
        return zone.visibility == "owner" and player is not None and place[1] == player

    def sees_counter(self, counter: Any, owner: int | None, player: int | None) -> bool:
        """Whether ``player`` (None: a spectator) sees ``counter`` (of ``owner``, for a per-player one)."""
        if counter.visibility == "public":
            return True
        return counter.visibility == "owner" and player is not None and owner == player

    def chance_seen_by(self, st: State, player: int | None) -> bool:
        """Whether ``player`` learns the outcome of the pending chance decision."""
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        loc = fr[2]
        if ins[0] == ROLL:
            return self.sees(self.place_of(st, loc[ins[1]][loc[ins[2]]]), player)
        if ins[0] == DRAW:
            spec = ins[1]
            return self.sees(spec.dest_name(st, loc)[1], player) or self.sees(spec.source_name(st, loc)[1], player)
        if ins[0] == SHUFFLE:
            return self.model.zones[ins[2]].visibility == "public"
        return True

    def explain(self, st: State, action: Any, player: int | None = None) -> tuple[str, Span | None]:
        """Why ``action`` (by ``player``) is not legal now, and the rule construct that says so."""
        d = self.pending(st)
        if d is None:
            return "the game is already over", None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if d.kind == "chance":
            if ins[0] == ROLL:
                die = fr[2][ins[1]][fr[2][ins[2]]]
                kind = self.model.kinds[self.program.kind_of[die]]
                return (f"{self.program.component_labels[die]} ({kind.display}) has no face {action!r}; "
                        f"its faces are {', '.join(self.program.face_labels[kind.index])}", kind.span)
            if ins[0] == DRAW:
                return (f"{action!r} cannot be drawn: the zone holds only "
                        f"{', '.join(d.labels or []) or 'nothing that may be drawn'}", d.span)
            if ins[0] == PICK:
                return (f"{action!r} is not among the players this picks from ({', '.join(d.labels or [])})",
                        d.span)
            return f"{action!r} is not a possible outcome here", d.span
        if player is not None and 0 <= player < st.players and st.out[player]:
            return (f"{player_label(player)} is out of the game (since {'round' if self.model.rounds else 'turn'} "
                    f"{st.out[player]}) and takes no decisions", d.span)
        if d.players is not None:
            if player is not None and player not in d.players:
                return (f"{player_label(player)} is not asked here; waiting for "
                        + ", ".join(player_label(p) for p in d.players), d.span)
            return f"{action!r} is not one of the answers here", d.span
        if player is not None and d.player is not None and player != d.player:
            return (f"it is {player_label(d.player)}'s decision, not {player_label(player)}'s", d.span)
        spec = ins[1]
        loc = fr[2]
        saved = list(loc)
        try:
            for option in self._options(st, spec, loc, check=False):
                label, _bindings, cond, _pc, _public, _parser, _hoisted = self._bind(loc, spec, option)
                if label(st, loc) == action and cond is not None and not cond(st, loc):
                    opt_span, cond_span = spec.spans[option[0]]
                    return f"{action!r} is not allowed now: its condition is false", cond_span or opt_span
        finally:
            loc[:] = saved
        return f"{action!r} is not one of the choices here", d.span

    def _rolled(self, st: State, fr: list, ins: tuple, die: int, face: int) -> tuple[bool, bool]:
        """Show ``face`` on ``die``, the next die of the pending roll; (roll done, trigger fired)."""
        loc = fr[2]
        st.faces[die] = face
        if st.log is not None:
            st.log.append({"type": "roll", "component": self.program.component_labels[die],
                           "face": self.model.faces[face].display, "places": [self.place_of(st, die)]})
            if self.model.kinds[self.program.kind_of[die]].cls != "die":
                st.log[-1]["verb"] = "spin"  # a sided component (a coin, a disc) spins
        loc[ins[2]] += 1
        done = loc[ins[2]] >= len(loc[ins[1]])
        if done:
            fr[1] += 1
        fired = bool(ins[3]) and self._check_triggers(st, ins[3])
        return done, fired

    def _roll_dice(self, st: State, fr: list, ins: tuple, rng: Any, out: list[dict[str, Any]] | None) -> None:
        """Roll the pending dice of a roll with ``rng``, die by die, until done or a trigger fires."""
        loc = fr[2]
        program = self.program
        labels = program.component_labels
        faces_of = self.die_faces
        kind_of = program.kind_of
        model_faces = self.model.faces
        dice = loc[ins[1]]
        idx_slot = ins[2]
        below = rng.below
        while True:
            die = dice[loc[idx_slot]]
            faces = faces_of[kind_of[die]]
            face = faces[below(len(faces))]
            st.step += 1
            if out is not None:
                out.append({"type": "chance", "step": st.step, "roll": labels[die],
                            "outcome": model_faces[face].name})
            done, fired = self._rolled(st, fr, ins, die, face)
            if done or fired:
                return

    def _paused_at(self, st: State, op: int) -> tuple[list, tuple] | None:
        """(top frame, instruction) when play is paused at an instruction of kind ``op``."""
        if st.over:
            return None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        return (fr, ins) if ins[0] == op else None

    def try_roll(self, st: State, die_label: str, face_name: str) -> bool:
        """Apply a recorded roll if it is exactly the pending one and possible; False otherwise.

        The fast path of replay: no Decision is built. On False nothing changed, and
        ``apply`` (or ``explain``) says what is wrong.
        """
        paused = self._paused_at(st, ROLL)
        if paused is None:
            return False
        fr, ins = paused
        loc = fr[2]
        program = self.program
        dice = loc[ins[1]]
        die = dice[loc[ins[2]]]
        if program.component_labels[die] != die_label:
            return False
        face = program.face_index[program.kind_of[die]].get(face_name)
        if face is None:
            return False
        st.step += 1
        st.pending_cache = st.choice_cache = None
        done, fired = self._rolled(st, fr, ins, die, face)
        if done or fired:
            self._run(st)
        return True

    def roll_recorded(self, st: State, rolls: list[tuple[str, str]]) -> int:
        """Apply recorded rolls ``(die label, face name)`` in order while each is exactly the pending
        one and possible; return how many were applied (the first one that is not stops it, with
        nothing of it changed: ``try_roll``, ``apply`` or ``explain`` then say what is wrong).

        The same as :meth:`try_roll` on each, in one call.
        """
        program = self.program
        code = self.code
        labels = program.component_labels
        kind_of = program.kind_of
        face_index = program.face_index
        stack = st.stack
        faces = st.faces
        taken = 0
        n = len(rolls)
        while taken < n and not st.over:
            fr = stack[-1]
            ins = code[fr[0]][fr[1]]
            if ins[0] != ROLL:
                break
            loc = fr[2]
            dice = loc[ins[1]]
            at = ins[2]
            quiet = st.log is None and not ins[3]  # no narration, no trigger watches the roll
            while True:  # the dice of this roll, one recorded roll each
                die_label, face_name = rolls[taken]
                die = dice[loc[at]]
                if labels[die] != die_label:
                    return taken
                face = face_index[kind_of[die]].get(face_name)
                if face is None:
                    return taken
                st.step += 1
                st.pending_cache = st.choice_cache = None
                taken += 1
                if quiet:
                    faces[die] = face
                    loc[at] += 1
                    done = fired = loc[at] >= len(dice)
                    if done:
                        fr[1] += 1
                else:
                    done, fired = self._rolled(st, fr, ins, die, face)
                if done or fired:
                    self._run(st)
                    break
                if taken == n:
                    return taken
        return taken

    def _drawn(self, st: State, fr: list, ins: tuple, kind: int) -> bool:
        """Draw a component of ``kind`` (the lowest-numbered matching copy: copies are alike) as the
        pending draw says; False, with nothing changed, if the source holds none that may be drawn."""
        program = self.program
        spec = ins[1]
        loc = fr[2]
        src = spec.source(st, loc)
        pred = spec.pred(st, loc)
        kind_of = program.kind_of
        i = next((i for i, c in enumerate(src) if kind_of[c] == kind and (pred is None or pred(c))), None)
        if i is None:
            return False
        c = src.pop(i)
        if self.model.zones[spec.dest_zone].unrolled:
            st.faces[c] = -1
        ins[2](spec.dest(st, loc), [c])
        if st.log is not None:
            src_name, src_place = spec.source_name(st, loc)
            dst_name, dst_place = spec.dest_name(st, loc)
            st.log.append({"type": "move", "components": [program.component_labels[c]], "from": src_name,
                           "to": dst_name, "random": True, "places": [src_place, dst_place]})
        loc[spec.remaining_slot] -= 1
        if ins[3]:
            self._check_triggers(st, ins[3])
        return True

    def draw_recorded(self, st: State, where: str, kind_name: str) -> bool:
        """Apply a recorded random draw (``where``: the zone as the trace names it, ``kind_name``: what
        was drawn) if it is exactly the pending one and possible; False (nothing changed) otherwise,
        and ``apply`` or ``explain`` then says what is wrong. The fast path of replay: no Decision."""
        paused = self._paused_at(st, DRAW)
        if paused is None:
            return False
        fr, ins = paused
        spec = ins[1]
        kind = self.kind_by_name.get(kind_name)
        if kind is None or self._zone_label(spec.source_zone, spec.source_owner, st, fr[2]) != where:
            return False
        if not self._drawn(st, fr, ins, kind):
            return False
        st.step += 1
        st.pending_cache = st.choice_cache = None
        self._run(st)
        return True

    def apply_label(self, st: State, action: str, player: int) -> bool:
        """Apply ``player``'s choice ``action`` if it is legal, reading the label back into the
        option's values and finding them among the legal options instead of rendering every
        label; False (nothing changed) when it cannot tell, and ``apply`` or ``explain`` then
        says what is wrong. A pending ``ask`` takes ``action`` as ``player``'s answer.
        """
        paused = self._paused_at(st, CHOOSE)
        if paused is None:
            return self._answer_label(st, action, player)
        fr, ins = paused
        spec = ins[1]
        loc = fr[2]
        chooser = spec.player(st, loc) if spec.player is not None else st.current
        if chooser != player:
            return False
        options = st.choice_cache  # the legal options: listed by the generated enumerator when play paused here
        if options is None:
            options = st.choice_cache = self._options(st, spec, loc)
        i = self.find_label(st, spec, loc, options, action)
        if i is None:
            return False
        return self._take(st, fr, spec, options[i], action, chooser)

    def find_label(self, st: State, spec: Any, loc: list, options: list[tuple[int, tuple]], action: str) -> int | None:
        """The position among ``options`` (the legal options of the pending choice ``spec``) of the one
        whose label is ``action``, reading the label back into the option's values where it can
        instead of rendering every label; None when none is. On a match ``loc`` holds that option's
        values, otherwise it is left as it was."""
        for index, (label, bindings, _cond, _pc, _public, parser, _hoisted) in enumerate(spec.options):
            if not bindings:
                try:
                    i = options.index((index, ()))
                except ValueError:  # not legal now
                    continue
                if label(st, loc) == action:
                    return i
                continue
            if parser is None:  # a label we cannot read back: render this option's legal ones
                for i, option in enumerate(options):
                    if option[0] == index:
                        saved = [loc[slot] for slot, _values in bindings]
                        self._bind(loc, spec, option)
                        if label(st, loc) == action:
                            return i
                        for (slot, _values), value in zip(bindings, saved):
                            loc[slot] = value
                continue
            parsed = read_label(parser, action, len(bindings))
            if parsed is None:
                continue
            option = (index, tuple(parsed))
            try:
                i = options.index(option)
            except ValueError:
                continue
            saved = [loc[slot] for slot, _values in bindings]
            for (slot, _values), value in zip(bindings, parsed):
                loc[slot] = value
            if label(st, loc) == action:  # the label read back renders as recorded
                return i
            for (slot, _values), value in zip(bindings, saved):
                loc[slot] = value
        return None

    def _answer_label(self, st: State, action: str, player: int) -> bool:
        """Give ``player``'s answer ``action`` to the pending ``ask`` if it is allowed; False otherwise
        (nothing changed), as :meth:`apply` would with ``player``."""
        paused = self._paused_at(st, ASK)
        if paused is None:
            return False
        fr, ins = paused
        spec = ins[1]
        loc = fr[2]
        waiting = loc[spec.pending_slot]
        if player not in waiting or action not in self._answers(st, spec, loc, player):
            return False
        st.answers[player] = action
        loc[spec.pending_slot] = [p for p in waiting if p != player]
        self._answered(st, fr, not loc[spec.pending_slot])
        return True

    def _take(self, st: State, fr: list, spec: Any, option: tuple[int, tuple], action: str, chooser: int,
              forced: bool | None = None) -> bool:
        """Play a legal option of the pending choice: bind its values, narrate it, go on."""
        loc = fr[2]
        if forced is None:
            forced = st.log is not None and len(self._options(st, spec, loc)) == 1  # before binding: it rebinds
        opt = self._bind(loc, spec, option)
        if st.log is not None:
            entry = {"type": "choice", "player": player_label(chooser), "action": action, "forced": forced}
            if opt[4] is not None:
                entry["public"] = opt[4](st, loc)
            st.log.append(entry)
        fr[1] = opt[3]
        st.step += 1
        st.pending_cache = st.choice_cache = None
        self._run(st)
        return True

    def choice_size(self, st: State) -> tuple[int, int] | None:
        """(who chooses, how many options) when a ``choose`` is pending; None otherwise (cheap)."""
        if st.over:
            return None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] != CHOOSE:
            return None
        options = st.choice_cache
        if options is None:
            options = st.choice_cache = self._options(st, ins[1], fr[2])
        spec = ins[1]
        return (spec.player(st, fr[2]) if spec.player is not None else st.current), len(options)

    def decision_options(self, st: State) -> tuple[str, int, Any, list]:
        """What a player may do now, without writing a label: ("choose", chooser, the compiled spec,
        the legal options as (option number, ``for`` values)) or ("ask", the first to answer, the spec,
        the answers allowed to her). The options are those :meth:`apply_index` and :meth:`answer` count."""
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if st.over or ins[0] not in (CHOOSE, ASK):
            raise RulelangError("no player decides here", self.where_span(st))
        if ins[0] == ASK:
            who = fr[2][ins[1].pending_slot][0]
            return "ask", who, ins[1], self._answers(st, ins[1], fr[2], who)
        options = st.choice_cache
        if options is None:
            options = st.choice_cache = self._options(st, ins[1], fr[2])
        spec = ins[1]
        return "choose", (spec.player(st, fr[2]) if spec.player is not None else st.current), spec, options

    def labels_distinct(self, st: State) -> bool:
        """Whether the pending decision is a ``choose`` whose options cannot render the same label twice
        (proved when the game was compiled), so a recorded label needs no look at the other labels."""
        if st.over:
            return False
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        return ins[0] == CHOOSE and ins[1].distinct

    def option_label(self, st: State, i: int) -> str:
        """The label of option ``i`` of the pending ``choose`` (as ``choice_size`` counts them)."""
        fr = st.stack[-1]
        options = st.choice_cache
        if options is None:
            options = st.choice_cache = self._options(st, self.code[fr[0]][fr[1]][1], fr[2])
        return self._label_renderer(st, fr, options)(i)

    def ask_answers(self, st: State) -> tuple[int, list[str]] | None:
        """(who answers first, the answers allowed to them) when an ``ask`` is pending; None otherwise (cheap)."""
        if st.over:
            return None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] != ASK:
            return None
        who = fr[2][ins[1].pending_slot][0]
        return who, self._answers(st, ins[1], fr[2], who)

    def answer(self, st: State, answers: tuple[int, list[str]], i: int) -> str:
        """Give answer ``i`` of ``answers`` (what :meth:`ask_answers` just said) and go on; the answer given."""
        who, allowed = answers
        if not 0 <= i < len(allowed):
            raise IllegalAction(f"there is no answer {i} here", self.where_span(st))
        fr = st.stack[-1]
        spec = self.code[fr[0]][fr[1]][1]
        loc = fr[2]
        action = allowed[i]
        st.answers[who] = action
        loc[spec.pending_slot] = loc[spec.pending_slot][1:]
        self._answered(st, fr, not loc[spec.pending_slot])
        return action

    def _answered(self, st: State, fr: list, last: bool) -> None:
        """One answer of an ``ask`` is in: after the last, log them all and leave the ``ask``; go on."""
        if last:
            fr[1] += 1
            if st.log is not None:
                st.log.append({"type": "answers", "answers": {
                    player_label(p): a for p, a in enumerate(st.answers) if a}})
        st.step += 1
        st.pending_cache = st.choice_cache = None
        self._run(st)

    def apply_index(self, st: State, i: int) -> None:
        """Take option ``i`` of the pending choice (as listed in ``pending(st).labels``)."""
        options = st.choice_cache
        if options is None or st.over:
            size = self.choice_size(st)
            if size is None:
                raise IllegalAction(f"there is no option {i} here", self.where_span(st))
            options = st.choice_cache
            assert options is not None
        if not 0 <= i < len(options):
            raise IllegalAction(f"there is no option {i} here", self.where_span(st))
        fr = st.stack[-1]
        spec = self.code[fr[0]][fr[1]][1]
        if st.log is None:  # the fast path of playouts: bind the option's values and go on
            index, values = options[i]
            opt = spec.options[index]
            loc = fr[2]
            for (slot, _fn), value in zip(opt[1], values):
                loc[slot] = value
            fr[1] = opt[3]
            st.step += 1
            st.pending_cache = st.choice_cache = None
            self._run(st)
            return
        chooser = spec.player(st, fr[2]) if spec.player is not None else st.current
        label = self._bind(fr[2], spec, options[i])[0](st, fr[2])
        self._take(st, fr, spec, options[i], label, chooser, forced=len(options) == 1)

    def _kind_index(self, name: str) -> int:
        return self.kind_by_name[name]  # (a KeyError for no kind: labels come from the decision)

    def _illegal(self, d: Decision, action: Any) -> IllegalAction:
        if d.kind == "choice":
            shown = ", ".join(repr(x) for x in (d.labels or [])[:12])
            more = "" if len(d.labels or []) <= 12 else f" and {len(d.labels or []) - 12} more"
            return IllegalAction(
                f"{action!r} is not a legal action for {player_label(d.player or 0)} here",
                d.span, hint=f"legal actions: {shown}{more}" if d.labels else "no action is legal here",
            )
        if d.pool is not None:
            return IllegalAction(f"{action!r} is not an ordering of the shuffled components", d.span,
                                 hint="a shuffle outcome lists every component of the zone once")
        return IllegalAction(
            f"{action!r} is not a possible outcome here", d.span,
            hint="possible outcomes: " + ", ".join(repr(x) for x in (d.labels or [])),
        )

    # ------------------------------------------------------------------ the loop
    def _run(self, st: State) -> None:
        """Run generated blocks until a decision is pending or the game ends.

        Each block runs from its entry point to the next pause and says where play resumes
        (the top frame's pc); a decision's entry point is handled here. While
        ``st.picking`` is set, choices and asks are taken here too, and chance other than
        rolls is drawn here (see :meth:`_chance`): the same as :meth:`apply_index`,
        :meth:`answer` and :meth:`apply_random` with the same picks, without building a
        Decision or leaving this loop.
        """
        code = self.code
        stack = st.stack
        left = self.budget
        after_step = self.after_step
        check_after = self._checks[after_step] if after_step else None
        picking = st.picking
        if picking is not None:
            picks, limit = picking[0], picking[1]
            lazy = len(picking) == 2  # pickers by position need only how many options there are
        try:
            while True:
                fr = stack[-1]
                ins = code[fr[0]][fr[1]]
                op = ins[0]
                if op == BLOCK:
                    left = ins[1](st, fr[2], fr, left)
                    if left < 0:
                        if left == TAKEN:  # the block took a decision itself (see CodeGen.pause_pick)
                            left = self.budget
                            continue
                        if left == END:
                            self._finish(st)
                        return
                    continue
                if op == CHOOSE:
                    spec = ins[1]
                    loc = fr[2]
                    if picking is not None and not lazy and spec.member is not None and check_after is None \
                            and st.step < limit:
                        # Replay: the recorded option, taken without listing the others where that is sure
                        # to come out the same (see ChooseSpec.member); None: list them as below.
                        opt = picking[2](st, spec, loc)
                        if opt is not None:
                            fr[1] = opt[3]
                            st.step += 1
                            st.pending_cache = st.choice_cache = None
                            left = self.budget
                            continue
                    if picking is not None and lazy and spec.pick is not None:
                        # A picker needs only how many options there are, then the one picked.
                        n, ends, options = spec.pick(st, loc)
                        if n and st.step >= limit:
                            options = spec.enum(st, loc)
                    else:
                        options = spec.enum(st, loc)
                        ends = None
                    if not options:  # nothing to choose: skip the choice
                        st.pending_cache = st.choice_cache = None
                        fr[1] = spec.end
                        continue
                    if check_after is not None and check_after(st):
                        # ``when ... after each step``: checked now that play would wait for a decision
                        left = _fired_after_step(st, ins, left)
                        continue
                    if picking is None or st.step >= limit:
                        st.choice_cache = options
                        return
                    if ends is None:
                        n = len(options)
                        if not lazy:  # a picker by label finds the option among the listed ones
                            st.choice_cache = options
                    i = picks[spec.player(st, loc) if spec.player is not None else st.current](n)
                    if not 0 <= i < n:
                        raise IllegalAction(f"there is no option {i} here", ins[4])
                    if ends is None:
                        index, values = options[i]
                    else:
                        index, values, lists = options[bisect_right(ends, i)]
                        if lists:  # one of the combinations of the innermost ranges
                            index, values = pick_option(ends, options, i)
                    opt = spec.options[index]
                    if values:
                        for (slot, _fn), value in zip(opt[1], values):
                            loc[slot] = value
                    fr[1] = opt[3]
                    st.step += 1
                    st.pending_cache = st.choice_cache = None
                    left = self.budget  # a decision was taken: the next stretch has a budget of its own
                    continue
                if op == ASK:
                    spec = ins[1]
                    loc = fr[2]
                    slot = spec.pending_slot
                    waiting = loc[slot]
                    if not waiting:  # no one is asked
                        fr[1] += 1
                        continue
                    if check_after is not None and check_after(st):
                        left = _fired_after_step(st, ins, left)
                        continue
                    if picking is None:
                        return
                    # Everyone asked answers in turn (with after-step triggers, one answer a round of the loop).
                    enum, var, answers = spec.enum, spec.var, st.answers
                    while True:
                        if st.step >= limit:
                            return
                        who = waiting[0]
                        loc[var] = who
                        allowed = enum(st, loc) if enum is not None else self._answers(st, spec, loc, who)
                        n = len(allowed)
                        if not lazy:  # a picker by label finds the answer among the listed ones
                            st.choice_cache = allowed
                        i = picks[who](n)
                        if not 0 <= i < n:
                            raise IllegalAction(f"there is no answer {i} here", ins[4])
                        answers[who] = allowed[i]
                        waiting = loc[slot] = waiting[1:]
                        st.step += 1
                        st.pending_cache = st.choice_cache = None
                        if not waiting:
                            fr[1] += 1
                            break
                        if check_after is not None:  # checked at the top of the loop before the next answer
                            break
                    left = self.budget  # decisions were taken: the next stretch has a budget of its own
                    continue
                if self._skip_empty(st, fr, ins):
                    continue
                if check_after is not None and check_after(st):
                    left = _fired_after_step(st, ins, left)
                    continue
                if op == ROLL and st.chance_rng is not None:
                    # Playing with a chance stream attached: roll at once instead of pausing.
                    self._roll_dice(st, fr, ins, st.chance_rng, st.chance_events)
                    st.pending_cache = st.choice_cache = None
                    continue
                if picking is None or st.step >= limit or not self._chance(st, fr, ins, st.chance_rng):
                    return
                left = self.budget
        except Runaway as exc:
            tb = sys.exc_info()[2]
            span = exc.span if exc.span is not None else self.run.lines.span_of(tb)
            st.stopped_at = span
            self._runaway(st, span, turns=exc.kind == "turns", triggers=exc.kind == "triggers")
        except RulelangError as exc:
            if exc.span is None:
                exc.span = self.run.lines.span_of(exc.__traceback__)
            st.stopped_at = exc.span
            raise
        except Exception as exc:
            span = self.run.lines.span_of(exc.__traceback__)
            if span is not None:
                exc.add_note(f"raised by the code generated for {span}")
            raise

    def _chance(self, st: State, fr: list, ins: tuple, rng: Any) -> bool:
        """Draw the pending chance (not a roll) from ``rng`` and apply it; False if it cannot here.

        The same random numbers and the same state as ``apply_random`` (sampling the
        Decision, then ``apply`` of its outcome), without the Decision and its labels;
        only while nothing is recorded or narrated.
        """
        if rng is None or st.over or st.log is not None or st.chance_events is not None:
            return False
        op = ins[0]
        loc = fr[2]
        if op == SHUFFLE:
            # as Decision.sample shuffles the kinds' names, each kind's components in its places by id
            shuffle_zone(rng, ins[1](st, loc), self.program.kind_of)
            fr[1] += 1
            if ins[3]:
                self._check_triggers(st, ins[3])
        elif op == DRAW:
            spec = ins[1]
            pred = spec.pred(st, loc)
            kind_of = self.program.kind_of
            counts = Counter(kind_of[c] for c in spec.source(st, loc) if pred is None or pred(c))
            kinds = sorted(counts)
            if not kinds:
                return False
            k = kinds[0] if len(kinds) == 1 else kinds[rng.weighted([counts[k] for k in kinds])]
            self._drawn(st, fr, ins, k)
        elif op == RANDFIRST:
            st.current = 0 if st.players == 1 else rng.below(st.players)  # a weighted pick among equal weights
            fr[1] += 1
        elif op == PICK:
            among = loc[ins[1].among_slot]
            if not among:
                return False
            loc[ins[1].var] = among[rng.below(len(among))]
            fr[1] += 1
        else:
            return False
        st.step += 1
        st.pending_cache = st.choice_cache = None
        return True

    def _runaway(self, st: State, span: Span | None, turns: bool = False, triggers: bool = False) -> None:
        """The error for rules that ran past the step budget without a decision (at ``span``)."""
        said = [e["text"] for e in st.log or () if e.get("type") == "say"]
        last = f"; the last narration was: {said[-1]!r}" if said else ""
        if triggers:
            raise RulelangError(
                f"triggers fired again and again ({self.budget} steps) without asking for a decision", span,
                hint="a trigger fires here each time: does its block make its own condition true again?" + last,
            ) from None
        if turns:
            now = f"round {st.turn}" if self.model.rounds else f"turn {st.turn}, {player_label(st.current)} to play"
            raise RulelangError(
                f"turns went on for {self.budget} steps without asking for any decision or ending the game "
                f"({now})", span,
                hint="every turn ends at once without a choice or a roll ('end turn', 'another turn', "
                     "or nothing to decide), and no 'end game' is reached" + last,
            ) from None
        raise RulelangError(
            f"the rules ran {self.budget} steps without asking for a decision", span,
            hint="a loop here may never end: check its condition" + last,
        ) from None

    def _skip_empty(self, st: State, fr: list, ins: tuple) -> bool:
        """Skip a decision other than a choice that has nothing to decide (no dice, empty bag, no one asked)."""
        op = ins[0]
        loc = fr[2]
        if op == ROLL:
            if loc[ins[2]] >= len(loc[ins[1]]):
                fr[1] += 1
                return True
            return False
        if op == ASK:
            if not loc[ins[1].pending_slot]:
                fr[1] += 1
                return True
            return False
        if op == DRAW:
            spec = ins[1]
            if loc[spec.remaining_slot] <= 0:
                fr[1] += 1
                return True
            src = spec.source(st, loc)
            pred = spec.pred(st, loc)
            if not any(pred is None or pred(c) for c in src):
                fr[1] += 1
                return True
            return False
        if op == SHUFFLE:
            if len(ins[1](st, loc)) < 2:
                fr[1] += 1
                return True
        return False

    def arm_triggers(self, st: State) -> bool:
        """Start watching the triggers; any whose condition already holds fires now."""
        return self.run.arm(st)

    def _check_triggers(self, st: State, which: tuple[int, ...]) -> bool:
        """Fire every trigger whose condition just became true (in declaration order).

        Triggers watch play, not setup: they are armed when the first turn starts.
        Returns True when a trigger's rule was pushed onto the stack.
        """
        return self._checks[which](st)

    def _finish(self, st: State) -> None:
        st.stack.clear()
        st.over = True
        no_winner = isinstance(st.result, dict) and st.result.get("no_winner")  # 'end game with no winner'
        result = self.standings(st)
        if no_winner:
            result["winners"] = []
        if self.run.pay_fn is not None:  # a declared payoff (one player: it says won, lost or drawn)
            payoff = self.model.payoff
            assert payoff is not None
            add_payoffs(result, declared_payoffs(payoff.spec, self.run.pay_fn, st, payoff.nlocals))
        st.result = result
        if st.log is not None:
            st.log.append({"type": "end", "result": st.result})

    # ------------------------------------------------------------------ results
    @property
    def payoff_spec(self) -> PayoffSpec:
        """The game's payoffs: declared (``payoff p = ...``), or the rank default for the default player count."""
        if self.model.payoff is not None:
            return self.model.payoff.spec
        return rank_payoff_spec(self.model.default_players)

    def payoff_spec_for(self, players: int) -> PayoffSpec:
        """The game's payoffs with ``players`` players (the rank default is [0, 0] for one player)."""
        return self.model.payoff.spec if self.model.payoff is not None else rank_payoff_spec(players)

    def payoffs(self, st: State) -> tuple[Fraction, ...]:
        """Each seat's payoff in a finished game: the declared expression, else
        (players ranked below - players ranked above) / (players - 1); 0 for one player without a declaration."""
        if not st.over or not isinstance(st.result, dict) or "standings" not in st.result:
            raise RulelangError("the game is not over: payoffs are known only at its end", self.where_span(st))
        return payoffs_of_result(st.result, st.players)

    def payoffs_now(self, st: State) -> tuple[Fraction, ...] | None:
        """The declared payoffs as if the game ended now, each held within its bounds (for a search cut short);
        None when the game declares none or the payoff cannot be computed in this position."""
        payoff, pay = self.model.payoff, self.run.pay_fn
        if payoff is None or pay is None:
            return None
        spec = payoff.spec
        self.run.reset_memo()
        out = []
        try:
            for p in range(st.players):
                loc: list[Any] = [None] * max(1, payoff.nlocals)
                loc[0] = p
                out.append(min(spec.high, max(spec.low, Fraction(bounded(pay(st, loc), spec.span)))))
        except RulelangError:
            return None
        finally:
            self.run.reset_memo()
        return tuple(out)

    def standings(self, st: State) -> dict[str, Any]:
        """Rank the players by the game's ranking keys; rank 1 are the winners."""
        program = self.program
        keys = program.rank_keys
        run = self.run
        run.reset_memo()  # pure definitions are computed once per arguments within one standings
        sheets: list[dict[str, dict[str, int]]] = []
        tallied = [run.tallied_rows(st, fns) for fns in run.sheet_fns]  # a tally's rows, if nothing changed since
        for p in range(st.players):
            mine: dict[str, dict[str, int]] = {}
            for (name, lines, nlocals), fns, rows in zip(program.sheets, run.sheet_fns, tallied):
                if rows is not None:
                    mine[name] = {label: bounded(v, self.model.ranking.span) for (label, _), v in zip(lines, rows[p])}
                    continue
                loc = [None] * max(1, nlocals)
                loc[0] = p
                mine[name] = {label: bounded(fn(st, loc), self.model.ranking.span)
                              for (label, _), fn in zip(lines, fns)}
            sheets.append(mine)
        rows = []
        span = self.model.ranking.span
        nlocals = max(1, program.rank_nlocals)
        rank_sheets = program.rank_sheets
        by_key = [(fn, rank_sheets[k] if k < len(rank_sheets) else None) for k, fn in enumerate(run.rank_fns)]
        for p in range(st.players):
            loc = [None] * nlocals
            loc[0] = p
            values = []
            for fn, sheet in by_key:
                if sheet is not None:  # the key is a score sheet's total: already added up
                    values.append(bounded(sum(sheets[p][program.sheets[sheet][0]].values()), span))
                else:
                    values.append(bounded(fn(st, loc), span))
            rows.append((p, values))

        highest = [d == "highest" for d, _ in keys]

        def sort_key(row: tuple[int, list[int]]) -> tuple[int, ...]:
            return tuple([-v if h else v for h, v in zip(highest, row[1])])

        keyed = sorted([(sort_key(row), row[0], row) for row in rows])  # seats differ: rows never compared
        ranking = []
        rank = 0
        prev = None
        for i, (k, _p, row) in enumerate(keyed):
            if k != prev:
                rank = i + 1
                prev = k
            entry: dict[str, Any] = {"player": player_label(row[0]), "rank": rank,
                                     "keys": [json_number(v) for v in row[1]]}
            if sheets[row[0]]:
                entry["sheets"] = {name: {label: json_number(v) for label, v in lines.items()}
                                   for name, lines in sheets[row[0]].items()}
            ranking.append(entry)
        winners = [r["player"] for r in ranking if r["rank"] == 1]
        return {"winners": winners, "standings": ranking}

    # ------------------------------------------------------------------ views
    def observe(self, st: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator who sees only public information)."""
        model = self.model
        program = self.program
        labels = program.component_labels
        faces = model.faces

        shown_name = self.shown_name

        def show(ids: list[int]) -> list[str]:
            out = []
            for c in ids:
                f = st.faces[c]
                name = shown_name[labels[c]]
                out.append(f"{name}={faces[f].name}" if f >= 0 else name)
            return out

        zones: dict[str, Any] = {}
        for z in model.zones:
            if z.per_class is not None:  # the pile on each component of a class
                for c, ids in enumerate(st.zones[z.index]):
                    if self.program.kind_of[c] in z.per_class:
                        key = f"{z.name} of {labels[c]}"
                        zones[key] = show(ids) if z.visibility == "public" else {"hidden": len(ids)}
            elif z.per_kind is not None:
                if not st.zones[z.index]:
                    continue  # no component of the kind: no such zone
                first = self.program.kind_of.index(z.per_kind)
                for i, ids in enumerate(st.zones[z.index]):
                    key = f"{z.name} of {labels[first + i]}"
                    zones[key] = show(ids) if z.visibility == "public" else {"hidden": len(ids)}
            elif z.per_player:
                for p in range(st.players):
                    ids = st.zones[z.index][p]
                    visible = z.visibility == "public" or (z.visibility == "owner" and p == player)
                    key = f"{z.name} of {player_label(p)}"
                    zones[key] = show(ids) if visible else {"hidden": len(ids)}
            else:
                ids = st.zones[z.index]
                zones[z.name] = show(ids) if z.visibility == "public" else {"hidden": len(ids)}
        counters: dict[str, Any] = {}
        bookkeeping: dict[str, Any] = {}
        for c in model.counters:
            value = st.counters[c.index]
            as_text = player_label if c.type == PLAYER else json_number
            if c.per_player:
                shown = {player_label(p): as_text(v) if self.sees_counter(c, p, player) else {"hidden": True}
                         for p, v in enumerate(value)}
            else:
                shown = as_text(value) if self.sees_counter(c, None, player) else {"hidden": True}
            (counters if c.doc is not None else bookkeeping)[c.name] = shown
        d = self.pending(st)
        obs: dict[str, Any] = {
            "you": player_label(player) if player is not None else None,
            "players": st.players,
            "turn": st.turn,
            "current": player_label(st.current),
            "counters": counters,
            "bookkeeping": bookkeeping,
            "zones": zones,
            "over": st.over,
        }
        if self.model.rounds:  # nobody has the turn: the table plays a round
            obs["current"] = None
            obs["round"] = st.turn
        if any(st.out):
            obs["out"] = [player_label(p) for p in range(st.players) if st.out[p]]
        if player is not None and st.seen[player]:
            obs["seen"] = copy.deepcopy(st.seen[player])  # an independent value: agents may change it
        if d is not None:
            obs["waiting_for"] = player_label(d.player) if d.kind == "choice" and d.player is not None else "chance"
            if d.kind == "choice" and player is not None and (d.player == player or player in (d.players or ())):
                obs["legal_actions"] = self.legal_actions(st, player)
                if d.players is not None:
                    obs["ask"] = True
        if st.result is not None:
            obs["result"] = copy.deepcopy(st.result)
        return obs

    def where_span(self, st: State) -> Span | None:
        """The rule construct play is paused at (for messages)."""
        if not st.stack:
            return None
        fr = st.stack[-1]
        return self.code[fr[0]][fr[1]][4]


def _fired_after_step(st: State, ins: tuple, left: int) -> int:
    """After a ``when ... after each step`` trigger fired at a decision: the decision is looked at
    afresh, and the stretch's step budget (``left``) is one less; a runaway when it is spent."""
    st.pending_cache = st.choice_cache = None
    left -= 1
    if left < 0:
        raise Runaway("loop", ins[4])
    return left


def bad_option(i: int, span: Span | None) -> None:
    """A picker by position gave an index outside the options listed (generated code calls it)."""
    raise IllegalAction(f"there is no option {i} here", span)


def bad_answer(i: int, span: Span | None) -> None:
    """A picker by position gave an index outside the answers listed (generated code calls it)."""
    raise IllegalAction(f"there is no answer {i} here", span)


def pick_option(ends: list[int], parts: list[tuple], i: int) -> tuple[int, tuple]:
    """Option ``i`` of a choice listed lazily (see ``ChooseSpec.pick``): (option index, values of its ``for``s)."""
    j = bisect_right(ends, i)
    index, values, lists = parts[j]
    if not lists:
        return index, values
    at = i - ends[j - 1] if j else i
    if len(lists) == 1:
        return index, (*values, lists[0][at])
    if len(lists) == 2:
        first, last = lists
        at, r = divmod(at, len(last))
        return index, (*values, first[at], last[r])
    tail = []
    for values_of in reversed(lists):  # the last range varies fastest
        at, r = divmod(at, len(values_of))
        tail.append(values_of[r])
    return index, (*values, *reversed(tail))


def _enumerate(st: State, loc: list, bindings: tuple, depth: int, prefix: tuple, cond: Any, index: int,
               out: list, tried: list[int] | None = None) -> None:
    """Bind each ``for`` of an option in turn (later ranges may depend on earlier values).

    Stops once more than MAX_OPTIONS combinations were tried (the caller reports it)."""
    if tried is None:
        tried = [0]
    slot, values = bindings[depth]
    last = depth + 1 == len(bindings)
    for v in values(st, loc):
        tried[0] += 1
        if tried[0] > MAX_OPTIONS:
            out.extend([(index, ())] * (MAX_OPTIONS + 1 - len(out)))  # mark: too many
            return
        loc[slot] = v
        if last:
            if cond is None or cond(st, loc):
                out.append((index, (*prefix, v)))
        else:
            _enumerate(st, loc, bindings, depth + 1, (*prefix, v), cond, index, out, tried)
