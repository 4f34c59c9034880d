"""The engine's loop: runs generated blocks until a decision is pending or the game ends, takes the
decisions of pickers and draws the chance of a chance stream on the way, and reports runaway rules."""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections import Counter
from typing import Any

from rulelang.check.model import Model
from rulelang.compile.emit import END, TAKEN
from rulelang.compile.program import ASK, BLOCK, CHOOSE, DRAW, PICK, RANDFIRST, ROLL, SHUFFLE, Program
from rulelang.compile.runtime import Runaway, kinds_apart, player_label, shuffle_zone
from rulelang.engine.choices import IllegalAction, listed_with_ids, pick_option
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.syntax.span import Span


class Loop:
    """The loop of ``Engine`` (a mixin: the engine's attributes are set by ``Engine.__init__``)."""

    program: Program
    model: Model
    code: list
    budget: int
    after_step: tuple[int, ...]
    run: Any

    # ------------------------------------------------------------------ the loop
    def _run(self, st: State) -> None:
        """Run generated blocks until a decision is pending or the game ends.

        Each block runs from its entry point to the next pause and says where play resumes
        (the top frame's pc); a decision's entry point is handled here. While
        ``st.picking`` is set, choices and asks are taken here too, and chance other than
        rolls is drawn here (see :meth:`_chance`): the same as :meth:`apply_index`,
        :meth:`answer` and :meth:`apply_random` with the same picks, without building a
        Decision or leaving this loop. ``st.picking`` is the mode of play (a ``Picking``): with
        its ``record``, each choice and answer taken here is told to the recorder first; with
        ``listed``, the pickers read the options listed; ``take`` is replay's recorded option.
        """
        code = self.code
        stack = st.stack
        left = self.budget
        after_step = self.after_step
        check_after = self._checks[after_step] if after_step else None
        picking = st.picking
        if picking is not None:  # the mode of play (see State.picking)
            # (its limit and ``listed`` are read where they are used: a picker may change them while play goes
            # on, see Picking; pickers by position need only how many options there are, unless ``listed``)
            picks, take, rec = picking.picks, picking.take, picking.record
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
                    taking = picking is not None
                    # recording where two options may read alike: every label is rendered (see labels_apart)
                    alike = taking and rec is not None and not spec.distinct
                    if taking and take is not None and spec.member is not None and check_after is None \
                            and st.step < picking.limit:
                        # Replay: the recorded option, taken without listing the others where that is sure
                        # to come out the same (see ChooseSpec.member); None: list them as below.
                        opt = take(st, spec, loc)
                        if opt is not None:
                            fr[1] = opt[3]
                            st.step += 1
                            st.pending_cache = st.choice_cache = None
                            left = self.budget
                            continue
                    if taking and not picking.listed and not alike and spec.pick is not None:
                        # A picker needs only how many options there are, then the one picked.
                        n, ends, options = spec.pick(st, loc)
                        if n and st.step >= picking.limit:
                            options = spec.enum(st, loc)
                    else:
                        tables = st.id_tables  # an adapter's: the options listed with their action ids
                        options = spec.enum(st, loc) if tables is None or spec.ids is None else \
                            listed_with_ids(spec, st, loc, tables, True)
                        ends = None
                    if not options:  # nothing to choose: skip the choice
                        st.pending_cache = st.choice_cache = None
                        fr[1] = spec.end
                        continue
                    if check_after is not None and check_after(st):
                        # ``when ... after each step``: checked now that play would wait for a decision
                        left = _fired_after_step(st, ins, left)
                        continue
                    if not taking or st.step >= picking.limit:
                        st.choice_cache = options
                        return
                    if ends is None:
                        n = len(options)
                        if picking.listed:  # a picker by label finds the option among the listed ones
                            st.choice_cache = options
                    if alike and not (spec.alike is not None and kinds_apart(spec.alike, options)) \
                            and not self.labels_apart(st, spec, loc, options):
                        st.choice_cache = options  # two read alike: play() says so
                        return
                    seat = spec.player(st, loc) if spec.player is not None else st.current
                    i = picks[seat](n)
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
                    if rec is not None:
                        rec.took(st, seat, opt[0](st, loc))  # (its label, as play() would record it)
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
                        if st.step >= picking.limit:
                            return
                        who = waiting[0]
                        loc[var] = who
                        allowed = enum(st, loc) if enum is not None else self._answers(st, spec, loc, who)
                        n = len(allowed)
                        if picking.listed:  # a picker by label finds the answer among the listed ones
                            st.choice_cache = allowed
                        i = picks[who](n)
                        if not 0 <= i < n:
                            raise IllegalAction(f"there is no answer {i} here", ins[4])
                        if rec is not None:
                            rec.took(st, who, allowed[i])
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
                if picking is None or st.step >= picking.limit or not self._chance(st, fr, ins, st.chance_rng):
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

    resume = _run  # the public name of the loop, for drivers of play outside the engine (the replay's feed)

    def _chance(self, st: State, fr: list, ins: tuple, rng: Any) -> bool:
        """Draw the pending chance (not a roll) from ``rng`` and apply it; False if it cannot here.

        The same random numbers and the same state as ``apply_random`` (sampling the
        Decision, then ``apply`` of its outcome), without the Decision and its labels; only while
        nothing is narrated. While play records (``Picking.record``), its trace event is the one
        ``apply_random`` makes, kept with the chance events (``State.chance_events``) as a step of
        its own: the step before ends first, as play's loop ends it before a chance decision. So
        too while replay's feed keeps them (``Picking.kept``: drawn from the seed's stream), to be
        matched with the trace's.
        """
        if rng is None or st.over or st.log is not None:
            return False
        made = st.chance_events
        rec = None
        if made is not None:
            picking = st.picking
            rec = picking.record if picking is not None else None
            # (replay's feed keeps the chance events it matches: drawn here only from the seed's stream,
            # as play drew them, see Picking.kept; else applied as recorded, the careful way)
            if rec is None and not (picking is not None and picking.kept):
                return False
        op = ins[0]
        loc = fr[2]
        if op == DRAW:
            spec = ins[1]
            pred = spec.pred(st, loc)
            kind_of = self.program.kind_of
            counts = Counter(kind_of[c] for c in spec.source(st, loc) if pred is None or pred(c))
            kinds = sorted(counts)
            if not kinds:
                return False
        elif op == PICK:
            among = loc[ins[1].among_slot]
            if not among:
                return False
        elif op != SHUFFLE and op != RANDFIRST:
            return False
        if rec is not None:  # a step of its own: the one under way ends first, as play's loop ends it
            rec.end(st)
            rec.begin(st)
        step = st.step + 1
        if op == SHUFFLE:
            zone = ins[1](st, loc)
            # as Decision.sample shuffles the kinds' names, each kind's components in its places by id
            kind_of = self.program.kind_of
            shuffle_zone(rng, zone, kind_of)
            if made is not None:
                kinds_of = self.model.kinds
                made.append({"type": "chance", "step": step, "shuffle": self.model.zones[ins[2]].name,  # type: ignore[union-attr]
                             "outcome": [kinds_of[kind_of[c]].name for c in zone]})
            fr[1] += 1
            if ins[3]:
                self.check_triggers(st, ins[3])
        elif op == DRAW:
            k = kinds[0] if len(kinds) == 1 else kinds[rng.weighted([counts[k] for k in kinds])]
            if made is not None:
                made.append({"type": "chance", "step": step,
                             "draw": self._zone_label(spec.source_zone, spec.source_owner, st, loc),  # type: ignore[attr-defined]
                             "outcome": self.model.kinds[k].name})
            self._drawn(st, fr, ins, k)
        elif op == RANDFIRST:
            st.current = 0 if st.players == 1 else rng.below(st.players)  # a weighted pick among equal weights
            if made is not None:
                made.append({"type": "chance", "step": step, "first_player": True,  # type: ignore[union-attr]
                             "outcome": player_label(st.current)})
            fr[1] += 1
        else:  # PICK
            loc[ins[1].var] = picked = among[rng.below(len(among))]
            if made is not None:
                made.append({"type": "chance", "step": step, "pick": ins[1].name,  # type: ignore[union-attr]
                             "among": [player_label(p) for p in among], "outcome": player_label(picked)})
            fr[1] += 1
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

    def check_triggers(self, st: State, which: tuple[int, ...]) -> bool:
        """Fire every trigger whose condition just became true (in declaration order).

        Triggers watch play, not setup: they are armed when the first turn starts.
        Returns True when a trigger's rule was pushed onto the stack.
        """
        return self._checks[which](st)


def _fired_after_step(st: State, ins: tuple, left: int) -> int:
    """After a ``when ... after each step`` trigger fired at a decision: the decision is looked at
    afresh, and the stretch's step budget (``left``) is one less; a runaway when it is spent."""
    st.pending_cache = st.choice_cache = None
    left -= 1
    if left < 0:
        raise Runaway("loop", ins[4])
    return left
