"""Generated code for chance: ``roll``, random draws, ``shuffle`` and ``pick w at random`` (a part of the
generator); each is resolved inline when a chance stream is attached, else a pause for the engine.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from rulelang.check import model as m
from rulelang.compile import emit, queries, runtime
from rulelang.compile.analysis import never_negative, reads_slots
from rulelang.compile.emit import SOFT_LIMIT
from rulelang.compile.program import (
    DRAW,
    PICK,
    ROLL,
    DrawSpec,
    PickSpec,
)
from rulelang.compile.runtime import player_label

DRAW_ONCE = True
"""Whether a random draw of one component (``move 1 random ...``, the number written) draws it without a
``while`` counting the draws down: the same draw, the same step, the frame's count set to 0 after it (as the
loop leaves it), or left at 1 with nothing to draw from; the equivalence tests turn it off to compare."""

ROLL_AT_ONCE = True
"""Whether a roll with a chance stream and no trigger between two dice reads its dice from a local
and tests the trace and the narration once (``st.chance_events``, ``st.log``) before telling them
anything: the same draws, events and frame locals as the code written before (which the equivalence
tests compare it with)."""


CHANCE_COPIED = True
"""Whether a roll that is recorded and not narrated makes each die's trace event as a copy of that die's event
for the face it shows (``CE[die][face]``, a constant: its type, roll and outcome written once, at load) with
the step set in it, instead of a dict written out with its four entries: the same dicts, keys in the same
order (the step's place kept in the copy); the equivalence tests turn it off to compare."""


def chance_events(labels: list[str], faces_of: list[list[int]], face_names: list[str]) -> list[dict[int, dict]]:
    """Per component, its trace event of a roll for each face it may show (face index -> event, the step 0
    there: ``{'type': 'chance', 'step': 0, 'roll': label, 'outcome': face name}``), for ``CHANCE_COPIED``;
    a component without faces has none."""
    return [{f: {"type": "chance", "step": 0, "roll": label, "outcome": face_names[f]} for f in faces}
            for label, faces in zip(labels, faces_of)]


def copied_events(L: list, ev: str, dice: str, names: tuple[str, str, str, str], ind: int, sp: Any) -> None:
    """Write the loop that adds to the list ``ev`` each die of ``dice``'s event, a copy of ``CE[die][face
    shown]`` with its step set (``CHANCE_COPIED``): numbered from the step after ``st.step``, as the dice go
    (``names``: the locals of the step, the die, the event and the list's ``append``)."""
    face, die, e, add = names
    L.append((ind, f"{add} = {ev}.append", sp))
    L.append((ind, f"for {face}, {die} in enumerate({dice}, st.step + 1):", sp))
    L.append((ind + 1, f"{e} = CE[{die}][F[{die}]].copy()", sp))
    L.append((ind + 1, f"{e}['step'] = {face}", sp))
    L.append((ind + 1, f"{add}({e})", sp))


class ChanceEmitter:
    """Dice, random draws and shuffles (mixed into ``CodeGen``)."""

    def copied_consts(self) -> None:
        """The constant table ``CE`` of ``CHANCE_COPIED`` (each component's roll events), made once."""
        if "CE" not in self.consts:
            self.consts["CE"] = chance_events(self.comp.labels, [self.model.kinds[k].faces for k in self.comp.kind_of],
                                              [f.name for f in self.model.faces])

    def emit_shuffle(self, L: list, s: m.ShuffleS, pc: int, ind: int) -> bool:
        """Shuffle a zone: while the engine's pickers play with a chance stream and nothing records
        or narrates, at once, as ``Engine._chance`` would (the same draws, the same step and budget);
        else pause at ``pc``. A zone that triggers watch, or triggers after each step, always pause."""
        sp = s.span
        if self.entries[pc][3] or self.after_step_triggers:
            return self.pause(L, pc, ind)
        self.consts["shuffle_zone"] = runtime.shuffle_zone
        src, rng, P = self.var("src"), self.var("rng"), self.var("pk")
        L.append((ind, f"{src} = {self.zone(s.zone)}", sp))
        L.append((ind, f"if len({src}) > 1:", sp))  # fewer than two: nothing to shuffle, no step
        L.append((ind + 1, f"{rng} = st.chance_rng", sp))
        L.append((ind + 1, f"{P} = st.picking", sp))
        L.append((ind + 1, f"if {rng} is None or {P} is None or st.step >= {P}.limit or st.log is not None "
                           "or st.chance_events is not None:", sp))
        self.pause(L, pc, ind + 2)
        if len(set(self.comp.kind_of)) == len(self.comp.kind_of):  # each component a kind of its own
            L.append((ind + 1, f"{rng}.shuffle({src})", sp))  # (what shuffle_zone comes to then)
        else:
            L.append((ind + 1, f"shuffle_zone({rng}, {src}, KO)", sp))
        L.append((ind + 1, "st.step += 1", sp))
        L.append((ind + 1, "st.pending_cache = st.choice_cache = None", sp))
        L.append((ind + 1, "left = BUDGET", sp))  # a decision was taken: as the engine's loop resets it
        return False

    def emit_roll(self, L: list, s: m.RollS, after: tuple, ind: int) -> bool:
        """Roll dice: while playing with a chance stream, at once (one trace event per die); else pause."""
        sp = s.span
        lst = self.alloc((id(s), "roll"), 2)
        c = self.var("c")
        if s.query.one is not None and not s.query.zones and not all(self.is_die):  # 'roll d': d must be a die
            x = self.var("x")
            L.append((ind, f"{x} = {self.ex(s.query.one)}", sp))
            L.append((ind, f"if not ISDIE[{x}]:", sp))
            L.append((ind + 1, f"fail_here(LB[{x}] + {self.const(f' has no faces: it cannot {s.verb}')}, "
                               f"{self.const(sp)}, {self.const(f'{s.verb} a die (or a component with sides)')})", sp))
        if all(self.is_die):  # every component is a die: the selection is the dice (a list of their own)
            dice = self.selection(s.query)
        else:
            picked = self.selection(s.query, copy=False)
            dice = f"[*filter(ISDIE.__getitem__, {picked})]" if queries.TABLE_MAPS else \
                f"[{c} for {c} in {picked} if ISDIE[{c}]]"
        pc = self.site_pc(s, 2)
        which = self.comp.triggers_for(self.query_zones(s.query))
        self.entries.setdefault(pc, (ROLL, lst, lst + 1, which, sp))
        self.check_fn(which)
        self.resume(pc + 1, after, sp)
        self.nsoft += 1
        if ROLL_AT_ONCE and not which and not (self.nsoft > SOFT_LIMIT or self.after_step_triggers):
            return self.roll_at_once(L, s, dice, lst, pc, ind)
        L.append((ind, f"loc[{lst}] = {dice}", sp))
        L.append((ind, f"loc[{lst + 1}] = 0", sp))
        if self.nsoft > SOFT_LIMIT or self.after_step_triggers:
            # (with triggers ``after each step``, the engine checks them at every chance decision first)
            return self.pause(L, pc, ind)
        rng, die, face, ev = (self.var(x) for x in ("rng", "die", "face", "ev"))
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        self.pause(L, pc, ind + 1)
        L.append((ind, f"{ev} = st.chance_events", sp))
        L.append((ind, "F = st.faces", sp))
        spins = [k.cls != "die" and bool(k.faces) for k in self.model.kinds]
        self.consts["SPIN"] = [{"verb": "spin"} if x else {} for x in spins]
        verb = f", **SPIN[KO[{die}]]" if any(spins) else ""  # a sided component (a coin, a disc) spins

        def rolled(at: int, step: str) -> None:  # what a die shown is told: its trace event, its narration
            L.append((at, f"if {ev} is not None:", sp))
            L.append((at + 1, f"{ev}.append({{'type': 'chance', 'step': {step}, 'roll': LB[{die}], "
                              f"'outcome': FN[F[{die}]]}})", sp))
            L.append((at, "if st.log is not None:", sp))
            L.append((at + 1, f"st.log.append({{'type': 'roll', 'component': LB[{die}], 'face': FD[F[{die}]], "
                              f"'places': [place_of(st, {die})]{verb}}})", sp))

        if not which:  # no trigger between two dice: all rolled in one call (the draws of rng.below, inlined)
            L.append((ind, f"{rng}.roll_into(loc[{lst}], DF, F)", sp))
            L.append((ind, f"if {ev} is not None and st.log is None:", sp))  # recorded: the dice's events at once
            event = f"{{'type': 'chance', 'step': {face}, 'roll': LB[{die}], 'outcome': FN[F[{die}]]}}"
            if CHANCE_COPIED:
                self.copied_consts()
                copied_events(L, ev, f"loc[{lst}]", (face, die, self.var("e"), self.var("add")), ind + 1, sp)
            else:
                L.append((ind + 1, f"{ev} += [{event} for {face}, {die} in enumerate(loc[{lst}], st.step + 1)]", sp))
            L.append((ind, "elif st.log is not None:", sp))  # narrated (and perhaps recorded): die by die
            L.append((ind + 1, f"for {face}, {die} in enumerate(loc[{lst}], st.step + 1):", sp))
            rolled(ind + 2, face)
            L.append((ind, f"loc[{lst + 1}] = len(loc[{lst}])", sp))
            L.append((ind, f"st.step += loc[{lst + 1}]", sp))
            return False
        L.append((ind, f"for {die} in loc[{lst}]:", sp))  # die by die, the triggers checked after each
        L.append((ind + 1, f"F[{die}] = DF[{die}][{rng}.below(len(DF[{die}]))]", sp))
        L.append((ind + 1, "st.step += 1", sp))
        rolled(ind + 1, "st.step")
        L.append((ind + 1, f"loc[{lst + 1}] += 1", sp))
        L.append((ind + 1, f"if {self.check_fn(which)}(st):", sp))
        L.append((ind + 2, f"fr[1] = {pc} if loc[{lst + 1}] < len(loc[{lst}]) else {pc + 1}", sp))
        L.append((ind + 2, "return left", sp))
        return False

    def roll_at_once(self, L: list, s: m.RollS, dice: str, lst: int, pc: int, ind: int) -> bool:
        """``emit_roll`` with no trigger between two dice (``ROLL_AT_ONCE``): with a chance stream, the
        dice (``dice``, the source of a list of their own) rolled in one call from a local, the trace and
        the narration told only when either is on; else the frame's locals set for the engine's roll."""
        sp = s.span
        rng, die, face, ev, got, n = (self.var(x) for x in ("rng", "die", "face", "ev", "dice", "n"))
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        L.append((ind + 1, f"loc[{lst}] = {dice}", sp))
        L.append((ind + 1, f"loc[{lst + 1}] = 0", sp))
        self.pause(L, pc, ind + 1)
        L.append((ind, f"loc[{lst}] = {got} = {dice}", sp))
        L.append((ind, "F = st.faces", sp))
        L.append((ind, f"{rng}.roll_into({got}, DF, F)", sp))
        L.append((ind, "if st.chance_events is not None or st.log is not None:", sp))
        j = ind + 1
        L.append((j, f"{ev} = st.chance_events", sp))
        spins = [k.cls != "die" and bool(k.faces) for k in self.model.kinds]
        self.consts["SPIN"] = [{"verb": "spin"} if x else {} for x in spins]
        verb = f", **SPIN[KO[{die}]]" if any(spins) else ""  # a sided component (a coin, a disc) spins
        L.append((j, f"if {ev} is not None and st.log is None:", sp))  # recorded: the dice's events at once
        event = f"{{'type': 'chance', 'step': {face}, 'roll': LB[{die}], 'outcome': FN[F[{die}]]}}"
        if CHANCE_COPIED:
            self.copied_consts()
            copied_events(L, ev, got, (face, die, self.var("e"), self.var("add")), j + 1, sp)
        else:
            L.append((j + 1, f"{ev} += [{event} for {face}, {die} in enumerate({got}, st.step + 1)]", sp))
        L.append((j, "elif st.log is not None:", sp))  # narrated (and perhaps recorded): die by die
        L.append((j + 1, f"for {face}, {die} in enumerate({got}, st.step + 1):", sp))
        L.append((j + 2, f"if {ev} is not None:", sp))
        L.append((j + 3, f"{ev}.append({event})", sp))
        L.append((j + 2, "if st.log is not None:", sp))
        L.append((j + 3, f"st.log.append({{'type': 'roll', 'component': LB[{die}], 'face': FD[F[{die}]], "
                         f"'places': [place_of(st, {die})]{verb}}})", sp))
        L.append((ind, f"loc[{lst + 1}] = {n} = len({got})", sp))
        L.append((ind, f"st.step += {n}", sp))
        return False

    def emit_draw(self, L: list, s: m.MoveS, after: tuple, ind: int) -> bool:
        sp = s.span
        q = s.query
        sel = q.zones[0]
        slot = self.alloc((id(s), "draw"), 1)
        qs = self.const(q.span)
        n = repr(q.count or 1) if q.count_expr is None else \
            f"whole(bounded({self.ex(q.count_expr)}, {qs}), {qs}, {self.const('how many to draw')})"
        L.append((ind, f"loc[{slot}] = {n}", sp))
        pc = self.site_pc(s, 2)
        if pc not in self.entries:
            dest_zone = self.model.zones[s.dest.zone]
            spec = DrawSpec(
                source=self.zone_fn(sel), pred=self.predicate_fn(q), dest=self.zone_fn(s.dest),
                dest_zone=dest_zone.index, place=s.place, remaining_slot=slot, source_zone=sel.zone,
                source_owner=self.expr_fn(sel.owner) if sel.owner is not None else None,
                source_name=self.zone_name_fn(sel), dest_name=self.zone_name_fn(s.dest),
            )
            put = self.insert_fn(dest_zone, s.place)
            which = self.comp.triggers_for({sel.zone, s.dest.zone})
            self.check_fn(which)
            self.entries[pc] = (DRAW, spec, put, which, sp)
        which = self.entries[pc][3]
        self.resume(pc + 1, after, sp)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT or self.after_step_triggers:
            # (with triggers ``after each step``, the engine checks them at every chance decision first)
            return self.pause(L, pc, ind)
        # While playing with a chance stream: draw at once, as Engine.apply_random would.
        rng, src, kinds, k, c, i, ev = (self.var(x) for x in ("rng", "src", "kinds", "k", "c", "i", "ev"))
        how, test = self.filter(q, c)
        cond = "" if how == "all" else f"{test}[{c}]" if how == "mask" else test
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        self.pause(L, pc, ind + 1)
        once = DRAW_ONCE and q.count_expr is None and (q.count or 1) == 1  # one draw: no loop to count it down
        if not once:
            L.append((ind, f"while loc[{slot}] > 0:", sp))
        j = ind + (not once)
        L.append((j, f"{src} = {self.zone(sel)}", sp))
        if not cond:  # (see draw_any)
            self.draw_any(L, src, rng, k, c, i, j, sp)
        else:
            # The kinds of the components that may be drawn, one entry per component, in kind order: the
            # r-th entry is the kind rng.weighted(counts per kind) would give for below(total) = r.
            L.append((j, f"{kinds} = sorted([KO[{c}] for {c} in {src}{' if ' + cond if cond else ''}])", sp))
            L.append((j, f"if not {kinds}:", sp))
            L.append((j + 1, "break", sp))
        if once:  # nothing to draw from: nothing drawn (the loop's 'break'), the count left at 1
            assert L[-1][1] == "break" if cond else L[-4][1] == "break"
            at = len(L) - (1 if cond else 4)
            L[at - 1:at + 1] = [(j, f"if {kinds if cond else src}:", sp)]
            L[at:] = [(t + 1, text, where) for t, text, where in L[at:]]
            j += 1
        if cond:
            L.append((j, f"{k} = {kinds}[0] if {kinds}[0] == {kinds}[-1] else {rng}.one_of({kinds})", sp))
        L.append((j, "st.step += 1", sp))
        L.append((j, f"{ev} = st.chance_events", sp))
        L.append((j, f"if {ev} is not None:", sp))
        zname = self.const(self.model.zones[sel.zone].name)
        label = zname if sel.owner is None else f"{zname} + ' of ' + PL({self.ex(sel.owner)})"
        L.append((j + 1, f"{ev}.append({{'type': 'chance', 'step': st.step, 'draw': {label}, 'outcome': KN[{k}]}})",
                  sp))
        if not cond:
            L.append((j, f"{c} = {src}.pop(bisect_left({src}, KLO[{k}]))", sp))  # the first of its kind
        else:
            L.append((j, f"for {i}, {c} in enumerate({src}):", sp))
            L.append((j + 1, f"if KO[{c}] == {k}{' and ' + cond if cond else ''}:", sp))
            L.append((j + 2, "break", sp))
            L.append((j, f"{src}.pop({i})", sp))
        if self.model.zones[s.dest.zone].unrolled:
            L.append((j, f"st.faces[{c}] = -1", sp))
        d, one = self.var("d"), self.var("one")
        if not self.model.zones[s.dest.zone].ordered:
            L.append((j, f"insort({self.zone(s.dest)}, {c})", sp))
        else:
            L.append((j, f"{d} = {self.zone(s.dest)}", sp))
            L.append((j, f"{one} = [{c}]", sp))
            self.put(L, self.model.zones[s.dest.zone], s.place, d, one, j, sp)
        L.append((j, "if st.log is not None:", sp))
        fn, tn = self.var("fn"), self.var("tn")
        L.append((j + 1, f"{fn} = {self.zone_name(sel)}", sp))
        L.append((j + 1, f"{tn} = {self.zone_name(s.dest)}", sp))
        L.append((j + 1, f"st.log.append({{'type': 'move', 'components': [LB[{c}]], 'from': {fn}[0], 'to': {tn}[0], "
                         f"'random': True, 'places': [{fn}[1], {tn}[1]]}})", sp))
        L.append((j, f"loc[{slot}] = 0" if once else f"loc[{slot}] -= 1", sp))
        if which:
            L.append((j, f"if {self.check_fn(which)}(st):", sp))
            self.pause(L, pc, j + 1)
        return False

    def draw_any(self, L: list, src: str, rng: str, k: str, c: str, i: str, j: int, sp: Any) -> None:
        """The kind of a random draw of any component of ``src`` (a zone a draw takes from is unordered,
        so kept sorted: its components' kinds are in kind order, each component an entry): the kind
        of the r-th component for ``pick(len)`` = r, which is what ``one_of`` over the sorted list of
        kinds draws, and no draw at all when the first and the last are of one kind."""
        self.kind_spans()
        self.consts["bisect_left"] = bisect.bisect_left
        L.append((j, f"if not {src}:", sp))
        L.append((j + 1, "break", sp))
        L.append((j, f"{k} = KO[{src}[0]]", sp))
        L.append((j, f"if {k} != KO[{src}[-1]]:", sp))
        L.append((j + 1, f"{k} = {rng}.kind_drawn({src}, KO)", sp))  # (replay's stream: the recorded kind)

    def reveal_where(self, sel: m.ZoneSel) -> str:
        """Source of the narration name of a zone a reveal looks at: a zone of each component of a kind
        named inline (its display name, a space, the component's label: as its namer names it),
        others by their namer."""
        zone = self.model.zones[sel.zone]
        if sel.owner is not None and zone.per_kind is not None and zone.per_class is None:
            return f"({self.const(zone.display + ' ')} + LB[{self.ex(sel.owner)}])"
        return f"{self.zone_name(sel)}[0]"


def emit_pick(gen: Any, L: list, s: m.PickS, after: tuple, ind: int) -> bool:
    """``pick w at random``: no chance with fewer than two players to pick from; else a recorded chance event."""
    sp = s.span
    var, lst, qvar = s.var + gen.off, s.list_slot + gen.off, s.qvar + gen.off
    p, among = gen.var("p"), gen.var("l")
    text = answered_text(gen, s)
    if text is not None:
        # 'if answer of q == T': how many gave that answer first, and who when one did (a race's usual
        # outcome); the players are gone through only when several did (the same list, the same draw)
        x, answers, n, w = gen.var("x"), gen.var("an"), gen.var("n"), gen.var("w")
        L.append((ind, f"{x} = {text}", sp))
        L.append((ind, f"{answers} = st.answers", sp))
        L.append((ind, f"{n} = {answers}.count({x})", sp))
        L.append((ind, f"if {n} == 0:", sp))
        L.append((ind + 1, f"loc[{var}] = -1", sp))
        L.append((ind, f"elif {n} == 1:", sp))
        if s.iterable.kind == "players":
            L.append((ind + 1, f"loc[{var}] = {answers}.index({x})", sp))
        else:  # players still in: one who answered, then dropped out, is not among them
            L.append((ind + 1, f"{w} = {answers}.index({x})", sp))
            L.append((ind + 1, f"loc[{var}] = -1 if st.out[{w}] else {w}", sp))
        L.append((ind, "else:", sp))
        ind += 1
    L.append((ind, f"{among} = loc[{lst}] = []", sp))  # the list kept in loc for a pause, built from its variable
    L.append((ind, f"for {p} in {gen.iterable(s.iterable, copy=False)}:", sp))
    if text is not None:
        L.append((ind + 1, f"if {answers}[{p}] == {x}:", sp))
        L.append((ind + 2, f"{among}.append({p})", sp))
    elif s.cond is not None:
        if never_negative(s.iterable):
            gen.cse_ids.add(p)
        gen.loop_vars[qvar] = p  # the condition reads the value from its Python variable
        try:
            cond = gen.ex(s.cond)
        finally:
            del gen.loop_vars[qvar]
        if not emit.slot_unread([(0, cond, sp)], qvar):  # the condition reads it from loc too (through a helper)
            L.append((ind + 1, f"loc[{qvar}] = {p}", sp))
        L.append((ind + 1, f"if {cond}:", sp))
        L.append((ind + 2, f"{among}.append({p})", sp))
    else:
        L.append((ind + 1, f"{among}.append({p})", sp))
    pc = gen.site_pc(s, 2)
    gen.entries.setdefault(pc, (PICK, PickSpec(var, lst, s.name), None, None, sp))
    gen.resume(pc + 1, after, sp)
    gen.consts["picked"] = picked
    L.append((ind, f"if len({among}) < 2:", sp))
    L.append((ind + 1, f"loc[{var}] = {among}[0] if {among} else -1", sp))
    L.append((ind, "else:", sp))
    if gen.after_step_triggers:  # the engine checks those at every chance decision first
        gen.pause(L, pc, ind + 1)
        return False
    rng = gen.var("rng")
    L.append((ind + 1, f"{rng} = st.chance_rng", sp))
    L.append((ind + 1, f"if {rng} is None:", sp))
    gen.pause(L, pc, ind + 2)
    L.append((ind + 1, f"picked(st, loc, {var}, {among}, {rng}.below(len({among})), "
                       f"{gen.const(s.name)})", sp))
    return False


_SURE = re.compile(r"[A-Za-z_]\w*(\[(loc\[\d+\]|_v\d+)\])?")  # a constant, or a table read at a local's value


def answered_text(gen: Any, s: m.PickS) -> str | None:
    """Source of T where a pick's condition is ``answer of q == T`` (either way round), T reads not q,
    and q goes through all players or those still in; None otherwise. T is computed once, before the
    players are gone through: so only where that cannot raise an error the loop would not (all players
    are never none; else T is a constant or a table read at a local's value)."""
    cond = s.cond
    if type(cond) is not m.BinOp or cond.op != "==" or s.iterable.kind not in ("players", "players_in"):
        return None
    for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
        if type(a) is m.AnswerGet and type(a.player) is m.Local and a.player.slot == s.qvar \
                and not reads_slots(b, {s.qvar}):
            text = gen.ex(b)
            if s.iterable.kind == "players" or _SURE.fullmatch(text):
                return text
    return None


def picked(st: Any, loc: list, var: int, among: list[int], i: int, name: str) -> None:
    """Chance picked ``among[i]``: bind it, count the step, record the event and narrate it."""
    winner = among[i]
    loc[var] = winner
    st.step += 1
    events = st.chance_events
    if events is None and st.log is None:  # nothing records the pick
        return
    labels = [player_label(p) for p in among]
    if events is not None:
        events.append({"type": "chance", "step": st.step, "pick": name, "among": labels,
                       "outcome": player_label(winner)})
    if st.log is not None:
        st.log.append({"type": "pick", "player": player_label(winner), "among": labels})


EMITTERS = {m.PickS: emit_pick}
"""The statements this module writes, by IR type (statements.py dispatches on it)."""
