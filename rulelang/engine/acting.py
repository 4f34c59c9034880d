"""The engine's actions: applying a choice, an answer or a chance outcome, and the fast paths that
apply a recorded roll, draw or label without building a Decision (replay) or a picked index (playouts)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulelang.check.model import Model
from rulelang.compile.program import ASK, CHOOSE, DRAW, PICK, RANDFIRST, ROLL, SHUFFLE, Program
from rulelang.compile.runtime import IdsOnly, player_label
from rulelang.engine.choices import IllegalAction, read_label
from rulelang.engine.decision import Decision
from rulelang.engine.state import State

# A chance step that recording play meets in its own loop (not in the engine's: the first, say) drawn and
# kept as the engine's loop draws and keeps it (``Acting._chance``), without a Decision and its labels.
CHANCE_RECORDED = True


class Acting:
    """The actions of ``Engine`` (a mixin: the engine's attributes are set by ``Engine.__init__``)."""

    program: Program
    model: Model
    code: list
    die_faces: list
    kind_by_name: dict[str, int]

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
                self.check_triggers(st, ins[3])
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
        With ``events`` False nothing is recorded (fast playouts) and the list is empty. While the
        state keeps chance events (``State.chance_events``: recording play), they go there instead,
        before those of the chance play meets on the way, and the list returned is empty.
        """
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        kept = st.chance_events if events else None
        if ins[0] == ROLL:
            out: list[dict[str, Any]] | None = kept if kept is not None else [] if events else None
            self._roll_dice(st, fr, ins, rng, out)
            st.pending_cache = st.choice_cache = None
            self._run(st)
            return [] if kept is not None else out or []
        if not events and self._chance(st, fr, ins, rng):  # nothing to record: no Decision needed
            self._run(st)
            return []
        picking = st.picking
        if CHANCE_RECORDED and kept is not None and picking is not None and picking.record is not None \
                and self._chance(st, fr, ins, rng):  # recording play: the event kept there, as the loop keeps it
            self._run(st)
            return []
        d = self.pending(st)
        assert d is not None and d.kind == "chance"
        outcome = d.sample(rng)
        event = {"type": "chance", "step": st.step + 1, **d.event, "outcome": outcome}
        if kept is not None:
            kept.append(event)
            self.apply(st, outcome)
            return []
        self.apply(st, outcome)
        return [event]

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
        fired = bool(ins[3]) and self.check_triggers(st, ins[3])
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

    def paused_at(self, st: State, op: int) -> tuple[list, tuple] | None:
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
        paused = self.paused_at(st, ROLL)
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

    def apply_face(self, st: State, face: int) -> None:
        """Show face ``face`` (its number among the model's faces) on the next die of the pending roll.

        The fast path of a chance outcome taken from the roll's own outcomes (an adapter's chance
        node): nothing is looked up by label, and nothing is checked (see :meth:`try_roll`).
        """
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        loc = fr[2]
        st.step += 1
        st.pending_cache = st.choice_cache = None
        done, fired = self._rolled(st, fr, ins, loc[ins[1]][loc[ins[2]]], face)
        if done or fired:
            self._run(st)

    def draw_counts(self, st: State) -> list[tuple[int, int]]:
        """The pending random draw's outcomes as (kind number, how many of it may be drawn), by kind number:
        the kinds ``pending`` names (by their names) and its weights, without building a Decision."""
        fr = st.stack[-1]
        spec = self.code[fr[0]][fr[1]][1]
        loc = fr[2]
        src = spec.source(st, loc)
        pred = spec.pred(st, loc)
        kind_of = self.program.kind_of
        if pred is None:
            counts = Counter(map(kind_of.__getitem__, src))
        else:
            counts = Counter(kind_of[c] for c in src if pred(c))
        return sorted(counts.items())

    def apply_draw(self, st: State, kind: int) -> bool:
        """Draw a component of kind ``kind`` (its number) in the pending random draw and go on: what
        ``apply`` does with that kind's name, without building a Decision; False, with nothing changed,
        when none may be drawn (``apply`` then says why). The fast path of an adapter's chance node."""
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] != DRAW or not self._drawn(st, fr, ins, kind):
            return False
        st.step += 1
        st.pending_cache = st.choice_cache = None
        self._run(st)
        return True

    def shuffle_kinds(self, st: State) -> list[int]:
        """The kind numbers of the components the pending shuffle orders (``pending(st).pool``, by number)."""
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        kind_of = self.program.kind_of
        return [kind_of[c] for c in ins[1](st, fr[2])]

    def apply_shuffle(self, st: State, kinds: list[int]) -> None:
        """Order the pending shuffle's zone as ``kinds`` (kind numbers, top first) and go on: what ``apply``
        does with those kinds' names, without building a Decision or checking them. ``kinds`` must be a
        permutation of ``shuffle_kinds(st)`` (an adapter dealing from their counts; ``apply`` checks a list
        from elsewhere)."""
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        kind_of = self.program.kind_of
        src = ins[1](st, fr[2])
        by_kind: dict[int, list[int]] = {}
        for c in sorted(src):
            by_kind.setdefault(kind_of[c], []).append(c)
        for lst in by_kind.values():
            lst.reverse()
        src[:] = [by_kind[k].pop() for k in kinds]
        fr[1] += 1
        if ins[3]:
            self.check_triggers(st, ins[3])
        st.step += 1
        st.pending_cache = st.choice_cache = None
        self._run(st)

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
            self.check_triggers(st, ins[3])
        return True

    def draw_recorded(self, st: State, where: str, kind_name: str) -> bool:
        """Apply a recorded random draw (``where``: the zone as the trace names it, ``kind_name``: what
        was drawn) if it is exactly the pending one and possible; False (nothing changed) otherwise,
        and ``apply`` or ``explain`` then says what is wrong. The fast path of replay: no Decision."""
        paused = self.paused_at(st, DRAW)
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
        paused = self.paused_at(st, CHOOSE)
        if paused is None:
            return self._answer_label(st, action, player)
        fr, ins = paused
        spec = ins[1]
        loc = fr[2]
        chooser = spec.player(st, loc) if spec.player is not None else st.current
        if chooser != player:
            return False
        options = self.listed_options(st, spec, loc)  # listed by the generated enumerator when play paused here
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
        paused = self.paused_at(st, ASK)
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

    def answer_forced(self, st: State, most: int) -> tuple[list[int], tuple[int, list[str]] | None]:
        """Give the pending ``ask``'s answers one after the other while the one to answer has a single answer
        allowed (at most ``most``), each as :meth:`answer` gives it: (who answered, in order; (who answers
        next, her answers) where play stopped at the ask, else None: the ask was left, ``most`` were given,
        or (with after-step triggers, or someone picking) play went through the loop after one answer.
        Between two answers of one ask, with no after-step trigger and nobody picking, play would stop at
        the same ask again at once: the loop is not entered there."""
        fr = st.stack[-1]
        spec = self.code[fr[0]][fr[1]][1]
        loc = fr[2]
        slot = spec.pending_slot
        answers = st.answers
        quiet = st.picking is None and not self.after_step
        answered: list[int] = []
        while len(answered) < most:
            waiting = loc[slot]
            who = waiting[0]
            allowed = self._answers(st, spec, loc, who)
            if len(allowed) != 1:
                return answered, (who, allowed)
            answered.append(who)
            answers[who] = allowed[0]
            rest = loc[slot] = waiting[1:]
            if rest and quiet:  # (what _answered does before the loop, which would stop here again)
                st.step += 1
                st.pending_cache = st.choice_cache = None
                continue
            self._answered(st, fr, not rest)
            break
        return answered, None

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

    def apply_option(self, st: State, option: tuple[int, tuple], forced: bool = False) -> None:
        """Take ``option`` (option index, ``for`` values) of the pending choice, which the caller knows to be
        one of its legal options (an adapter's, found from its id among the ids listed), as :meth:`apply_index`
        takes it (``forced``: the only one, as narration says)."""
        fr = st.stack[-1]
        spec = self.code[fr[0]][fr[1]][1]
        if st.log is None:
            opt = spec.options[option[0]]
            loc = fr[2]
            for (slot, _fn), value in zip(opt[1], option[1]):
                loc[slot] = value
            fr[1] = opt[3]
            st.step += 1
            st.pending_cache = st.choice_cache = None
            self._run(st)
            return
        chooser = spec.player(st, fr[2]) if spec.player is not None else st.current
        label = self._bind(fr[2], spec, option)[0](st, fr[2])
        self._take(st, fr, spec, option, label, chooser, forced=forced)

    def apply_index(self, st: State, i: int) -> None:
        """Take option ``i`` of the pending choice (as listed in ``pending(st).labels``)."""
        options = st.choice_cache
        if options is None or st.over or type(options) is IdsOnly:
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
