"""The engine's decisions: what play waits for, the legal options and their labels, and why an action is not legal.

``Choices.pending`` builds the Decision at the top frame; the functions below list and pick the
options of a ``choose`` (the generated code calls ``pick_option``, ``bad_option`` and ``bad_answer``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Any

from rulelang.check.model import Model
from rulelang.compile.program import ASK, CHOOSE, DRAW, PICK, RANDFIRST, ROLL, SHUFFLE, Program
from rulelang.compile.runtime import MAX_OPTIONS, IdsOnly, player_label
from rulelang.engine.decision import Decision, Labels
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.syntax.span import Span


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


class IdTables(dict):
    """An adapter's ``State.id_tables`` (``ActionSpace.tables``) asking, where play stops at a choice, for its
    options' ids alone (an ``IdsOnly`` in ``State.choice_cache``: the adapter binds the option taken from its
    id); anything else that needs the options lists them again (``Choices.listed_options``)."""

    __slots__ = ()


def listed_with_ids(spec: Any, st: State, loc: list, tables: dict[int, tuple],
                    only: bool = False) -> list[tuple[int, tuple]]:
    """The legal options of ``choose`` ``spec``, as ``spec.enum`` lists them; listed with their action ids
    in an adapter's fixed action space (a ``Listed`` with ``ids``) where ``tables`` has the choice and every
    value listed is in its domain, else as a plain list (the adapter finds the ids, or the error, itself).
    With ``only``, where ``tables`` are ``IdTables`` and nobody picks (``State.picking``): the ids alone, an
    ``IdsOnly`` (the same listing, the same locals left), unless a value is outside its domain."""
    table = tables.get(id(spec))
    if table is not None and spec.ids is not None:
        try:
            if only and spec.only is not None and type(tables) is IdTables and st.picking is None:
                return spec.only(st, loc, table)
            out = spec.ids(st, loc, table)
        except KeyError:  # a value outside its domain (or an error of the rules: listed again, it is raised again)
            pass
        else:
            if len(out.ids) == len(out):
                return out
    return spec.enum(st, loc)


class Choices:
    """The decisions of ``Engine`` (a mixin: the engine's attributes are set by ``Engine.__init__``)."""

    program: Program
    model: Model
    code: list
    die_faces: list
    kind_by_name: dict[str, int]

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
            options = self.listed_options(st, spec, loc)
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

    def listed_options(self, st: State, spec: Any, loc: list) -> list[tuple[int, tuple]]:
        """The legal options of the pending ``choose`` ``spec`` as (option index, ``for`` values): those kept in
        ``State.choice_cache``, else (none kept, or their ids alone) listed now and kept."""
        options = st.choice_cache
        if options is None or type(options) is IdsOnly:
            options = st.choice_cache = self._options(st, spec, loc)
        return options

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
            tables = st.id_tables
            return spec.enum(st, loc) if tables is None or spec.ids is None else listed_with_ids(spec, st, loc, tables)
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

    def choice_size(self, st: State) -> tuple[int, int] | None:
        """(who chooses, how many options) when a ``choose`` is pending; None otherwise (cheap)."""
        if st.over:
            return None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] != CHOOSE:
            return None
        options = st.choice_cache
        if options is None or type(options) is IdsOnly:
            options = st.choice_cache = self._options(st, ins[1], fr[2])
        spec = ins[1]
        return (spec.player(st, fr[2]) if spec.player is not None else st.current), len(options)

    def decision_options(self, st: State) -> tuple[str, int, Any, list]:
        """What a player may do now, without writing a label: ("choose", chooser, the compiled spec,
        the legal options as (option number, ``for`` values)) or ("ask", the first to answer, the spec,
        the answers allowed to her). The options are those :meth:`apply_index` and :meth:`answer` count;
        where play stopped with an adapter's ``IdTables``, they may be their ids alone (an ``IdsOnly``)."""
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

    def labels_apart(self, st: State, spec: Any, loc: list, options: list[tuple[int, tuple]]) -> bool:
        """Whether the listed ``options`` of the choice ``spec`` all render different labels (the locals
        left as they were), as ``Labels.check_unique`` finds; without building a Decision."""
        seen = set()
        saved = list(loc)
        try:
            for index, values in options:
                opt = spec.options[index]
                for (slot, _fn), value in zip(opt[1], values):
                    loc[slot] = value
                seen.add(opt[0](st, loc))
        finally:
            loc[:] = saved
        return len(seen) == len(options)

    def option_label(self, st: State, i: int) -> str:
        """The label of option ``i`` of the pending ``choose`` (as ``choice_size`` counts them)."""
        fr = st.stack[-1]
        options = self.listed_options(st, self.code[fr[0]][fr[1]][1], fr[2])
        return self._label_renderer(st, fr, options)(i)

    def _pending_ask(self, st: State) -> tuple[Any, list] | None:
        """(the spec, the locals) of the pending ``ask``; None when no ``ask`` is pending."""
        if st.over:
            return None
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        return (ins[1], fr[2]) if ins[0] == ASK else None

    def ask_answers(self, st: State) -> tuple[int, list[str]] | None:
        """(who answers first, the answers allowed to them) when an ``ask`` is pending; None otherwise (cheap)."""
        asked = self._pending_ask(st)
        if asked is None:
            return None
        spec, loc = asked
        who = loc[spec.pending_slot][0]
        return who, self._answers(st, spec, loc, who)

    def answers_of(self, st: State, player: int) -> list[str] | None:
        """The answers allowed to ``player`` in the pending ``ask`` (``legal_actions(st, player)`` there:
        empty when she is not still to answer); None when no ``ask`` is pending (cheap: no Decision)."""
        asked = self._pending_ask(st)
        if asked is None:
            return None
        spec, loc = asked
        return self._answers(st, spec, loc, player) if player in loc[spec.pending_slot] else []

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

    def where_span(self, st: State) -> Span | None:
        """The rule construct play is paused at (for messages)."""
        if not st.stack:
            return None
        fr = st.stack[-1]
        return self.code[fr[0]][fr[1]][4]


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
