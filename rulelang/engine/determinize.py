"""Determinization: whole states a player cannot tell apart from the real one.

A search agent may not look at the State, only at its observation. To search anyway,
it asks for *determinizations*: full states built from what that player knows. The
components the player cannot see are taken out of the places the player cannot see
and dealt back among those places at random, each place keeping its count; the
player's private looks (``reveal``) pin the kinds it saw where it saw them; the
answers other players already gave to a pending ``ask`` are withdrawn (they answer
again); other players' private looks are emptied. Everything the player sees (public
zones, its own ``owner`` zones, counters, whose turn, the continuation) is kept.

Which kinds may be dealt to which zone is learned from the rules alone, by playing a
few random games (a deck of cards never receives a token the rules only ever put in a
pool), so a determinization never depends on where the hidden components really are.

Known limitation: local values of the paused rules (the continuation) are kept as
they are. A rule that is paused with a secret value in a local (a kind another player
chose under ``{secret ...}``) keeps that value in its frame; the engine only reads it
where the rules say, and the shipped games read such values for narration only.
"""

from __future__ import annotations

import weakref
from typing import Any

from rulelang.compile.program import ASK
from rulelang.compile.runtime import player_label
from rulelang.engine.engine import Engine
from rulelang.engine.state import Picking, State
from rulelang.rng import Rng

Place = tuple[int, int]  # (zone index, owner seat / per-kind index, or -1 for a shared zone)

_COMPAT_CACHE: weakref.WeakKeyDictionary[Engine, dict[int, dict[int, frozenset[int]]]] = weakref.WeakKeyDictionary()


def places(engine: Engine, st: State) -> list[tuple[Place, list[int]]]:
    """Every place of ``st`` with its component list, in a fixed order."""
    out: list[tuple[Place, list[int]]] = []
    for z in engine.model.zones:
        content = st.zones[z.index]
        if z.per_player or z.per_kind is not None or z.per_class is not None:
            for owner, lst in enumerate(content):
                out.append(((z.index, owner), lst))
        else:
            out.append(((z.index, -1), content))
    return out


def visible(engine: Engine, place: Place, player: int) -> bool:
    """Whether ``player`` sees into ``place``."""
    z = engine.model.zones[place[0]]
    if z.visibility == "public":
        return True
    return z.visibility == "owner" and z.per_player and place[1] == player


def place_names(engine: Engine, st: State) -> dict[str, Place]:
    """How narration and private looks name each place (``"the cards under Board#1"``) -> the place."""
    labels = engine.program.component_labels
    kind_of = engine.program.kind_of
    names: dict[str, Place] = {}
    for z in engine.model.zones:
        if z.per_class is not None:
            for c in range(len(st.zones[z.index])):
                if kind_of[c] in z.per_class:
                    names[f"{z.display} {labels[c]}"] = (z.index, c)
        elif z.per_kind is not None:
            first = kind_of.index(z.per_kind)
            for i in range(len(st.zones[z.index])):
                names[f"{z.display} {labels[first + i]}"] = (z.index, i)
        elif z.per_player:
            for p in range(st.players):
                names[f"{player_label(p)}'s {z.display}"] = (z.index, p)
        else:
            names[z.display] = (z.index, -1)
    return names


def learn_zone_kinds(engine: Engine, players: int, games: int = 8, seed: int = 12345) -> dict[int, frozenset[int]]:
    """For each kind, the zones random games ever put it in (knowledge of the rules, not of a game)."""
    cached = _COMPAT_CACHE.get(engine, {}).get(players)
    if cached is not None:
        return cached
    kind_of = engine.program.kind_of
    seen: dict[int, set[int]] = {k.index: set() for k in engine.model.kinds}
    rng = Rng(seed, stream=7)
    for g in range(games):
        st = engine.new_state(players)
        steps = 0
        while True:
            for (z, _owner), lst in places(engine, st):
                for c in lst:
                    seen[kind_of[c]].add(z)
            if st.over or steps > 5000:
                break
            steps += 1
            random_step(engine, st, rng)
        del g
    result = {k: frozenset(v) for k, v in seen.items()}
    _COMPAT_CACHE.setdefault(engine, {})[players] = result
    return result


def random_step(engine: Engine, st: State, rng: Rng) -> bool:
    """One uniformly random step: a chance outcome or a legal action of whoever decides;
    whether it was a decision (not chance)."""
    if engine.is_chance(st):
        engine.apply_random(st, rng, events=False)
        return False
    size = engine.choice_size(st)
    if size is not None:
        engine.apply_index(st, rng.below(size[1]))
        return True
    d = engine.pending(st)
    assert d is not None and d.labels is not None
    engine.apply(st, d.labels[rng.below(len(d.labels))], player=d.player)
    return True


def random_playout(engine: Engine, st: State, rng: Rng, decisions: int, lean: bool = False) -> int:
    """Play ``st`` on at random until the game ends or ``decisions`` decisions were taken (chance
    does not count); return how many were taken.

    The same game and the same draws of ``rng`` as calling :func:`random_step` until then, but
    taken the way ``play()`` takes them: the engine's pickers by position (``State.picking``) and a
    chance stream attached, so the generated code takes every choice, answer and chance outcome
    itself without returning between them. After the last decision allowed, the stream is taken
    off again, so play stops at the next chance as it would one step at a time. With ``lean``, a
    game that ends gets the engine's lean result (ranks and payoffs only: ``Picking.lean``).
    """
    if decisions <= 0 or st.over:
        return 0
    picker, begin, count = counting_picker(rng)
    picks = [picker] * st.players
    done = 0  # the decisions taken before the picker's count began (by random_step)
    begin(st, decisions)
    try:
        while not st.over and done + count() < decisions:
            taken = done + count()
            before = st.step
            st.chance_rng = rng
            # the step limit: at most the decisions still allowed (chance steps count towards it too)
            st.picking = Picking(picks, st.step + decisions - taken, lean=lean, blind=True)
            st.pending_cache = st.choice_cache = None
            engine.resume(st)
            if st.step == before and done + count() == taken and not st.over:
                # nothing the fast way takes here: one step as before, and the picker counts on from there
                st.chance_rng = st.picking = None
                done = taken + random_step(engine, st, rng)
                begin(st, decisions - done)
    finally:
        st.chance_rng = None
        st.picking = None
    return done + count()


def counting_picker(rng: Rng) -> tuple[Any, Any, Any]:
    """(picker, begin, taken): a picker by position drawing as ``rng.pick`` (the same draws), which counts
    the decisions it takes since ``begin(st, decisions)`` and, at the last of those ``decisions``, takes the
    chance stream off ``st``; ``taken()`` says how many it took (:func:`random_playout`'s picker too).
    For a rollout that begins within a run of the engine's loop (a search's tree walk hands over to it)."""
    taken = 0
    decisions = 0
    state: State | None = None
    inc = rng._inc

    def picker(n: int) -> int:
        nonlocal taken
        taken += 1
        if taken >= decisions:
            state.chance_rng = None  # type: ignore[union-attr]  # no chance after the last decision
        if n <= 1:
            return 0 if n == 1 else rng.below(n)  # one option: nothing drawn (as below(1))
        s = rng._state
        r = (((((s >> 18) ^ s) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (s >> 59)) & 0xFFFFFFFF
        s = (s * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
        if r < n:  # below() rejects a draw under (2**32 - n) % n, which is less than n
            threshold = (0x100000000 - n) % n
            while r < threshold:
                r = (((((s >> 18) ^ s) >> 27) & 0xFFFFFFFF) * 0x100000001 >> (s >> 59)) & 0xFFFFFFFF
                s = (s * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF
        rng._state = s
        return r % n

    def begin(st: State, allowed: int) -> None:
        nonlocal taken, decisions, state
        taken, decisions, state = 0, allowed, st

    def count() -> int:
        return taken

    return picker, begin, count


def determinize(engine: Engine, st: State, player: int, rng: Rng,
                zone_kinds: dict[int, frozenset[int]] | None = None) -> State:
    """A full state that ``player`` cannot tell from ``st``, sampled with ``rng``.

    The result depends on ``st`` only through what ``player`` knows: for a fixed
    ``rng``, two states that differ only in what ``player`` cannot see give the same
    determinization.
    """
    new = st.copy()
    kind_of = engine.program.kind_of
    zones = engine.model.zones
    hidden = _hidden_places(engine, new, player)
    pool = sorted([c for _place, lst in hidden for c in lst])  # canonical: ids, not where they were
    sizes = {place: len(lst) for place, lst in hidden}
    filled: dict[Place, list[int]] = {place: [] for place, _ in hidden}
    if st.seen[player]:
        pin_seen(engine, st, new, player, pool, sizes, filled)
    rng.shuffle(pool)
    compat = zone_kinds if zone_kinds is not None else {}
    allowed_in, every = _kinds_allowed_in(engine, compat)
    # Deal to the most particular places first (the box takes anything, so it comes last).
    for place in sorted(filled, key=lambda pl: (len(allowed_in[pl[0]]), pl)):
        need = sizes[place] - len(filled[place])
        if need > 0:
            take, pool = deal_to_place(pool, need, allowed_in[place[0]], every, kind_of)
            filled[place] += take
    is_die = _dice(engine)
    faces_now = new.faces
    for place, lst in hidden:
        z = zones[place[0]]
        lst[:] = filled[place] if z.ordered else sorted(filled[place])
        for c in lst:
            if is_die[c]:
                faces = engine.die_faces[kind_of[c]]
                faces_now[c] = -1 if z.unrolled else rng.below(len(faces))
    _withdraw_answers(engine, new, player)
    new.seen = [s if p == player else [{**look, "components": []} for look in s] for p, s in enumerate(new.seen)]
    _rearm(engine, new)
    return new


_HIDDEN_CACHE: weakref.WeakKeyDictionary[Engine, dict[tuple, list[tuple[int, int]]]] = weakref.WeakKeyDictionary()


def _hidden_places(engine: Engine, st: State, player: int) -> list[tuple[Place, list[int]]]:
    """The places ``player`` does not see into, with their lists, in the order of :func:`places`."""
    shape = (player, st.players, tuple(len(st.zones[z.index]) for z in engine.model.zones
                                       if z.per_player or z.per_kind is not None or z.per_class is not None))
    by_shape = _HIDDEN_CACHE.get(engine)
    if by_shape is None:
        by_shape = _HIDDEN_CACHE[engine] = {}
    found = by_shape.get(shape)
    if found is None:
        found = by_shape[shape] = [place for place, _lst in places(engine, st) if not visible(engine, place, player)]
    zs = st.zones
    return [(place, zs[place[0]] if place[1] < 0 else zs[place[0]][place[1]]) for place in found]


_DICE_CACHE: weakref.WeakKeyDictionary[Engine, list[bool]] = weakref.WeakKeyDictionary()


def _dice(engine: Engine) -> list[bool]:
    """Per component: whether it is a die."""
    found = _DICE_CACHE.get(engine)
    if found is None:
        kinds = engine.model.kinds
        found = _DICE_CACHE[engine] = [kinds[k].cls == "die" for k in engine.program.kind_of]
    return found


_Allowed = tuple[dict[int, frozenset[int]], list[frozenset[int]], frozenset[int]]
_ALLOWED_CACHE: weakref.WeakKeyDictionary[Engine, _Allowed] = weakref.WeakKeyDictionary()


def _kinds_allowed_in(engine: Engine, compat: dict[int, frozenset[int]]) -> tuple[list[frozenset[int]], frozenset[int]]:
    """For each zone, the kinds that may be dealt to it (every kind when nothing was learned); and
    the set of every kind, which stands (the same object) for a zone that takes any."""
    cached = _ALLOWED_CACHE.get(engine)
    if cached is not None and cached[0] is compat:
        return cached[1], cached[2]
    result = _allowed(engine, compat)
    every = frozenset(k.index for k in engine.model.kinds)
    result = [every if a == every else a for a in result]
    _ALLOWED_CACHE[engine] = (compat, result, every)
    return result, every


def _allowed(engine: Engine, compat: dict[int, frozenset[int]]) -> list[frozenset[int]]:
    every = frozenset(k.index for k in engine.model.kinds)
    if not compat:
        return [every] * len(engine.model.zones)
    return [frozenset(k for k, zs in compat.items() if z.index in zs) for z in engine.model.zones]


def _withdraw_answers(engine: Engine, st: State, player: int) -> None:
    """During a pending ``ask``, other players' answers are secret: they are asked again."""
    if st.over:
        return
    fr = st.stack[-1]
    if engine.code[fr[0]][fr[1]][0] != ASK:  # only an ask has players who answered already
        return
    d = engine.pending(st)
    if d is None or d.players is None:
        return
    answered = [q for q, a in enumerate(st.answers) if a and q != player and q not in d.players]
    if not answered:
        return
    loc = st.stack[-1][2]
    slot = next((i for i, v in enumerate(loc) if isinstance(v, list) and v == d.players), None)
    if slot is None:
        raise RuntimeError("cannot find who is still to answer the pending ask")
    for q in answered:
        st.answers[q] = ""
    loc[slot] = sorted(set(d.players) | set(answered))
    st.pending_cache = st.choice_cache = None


def _rearm(engine: Engine, st: State) -> None:
    """Set each trigger's remembered condition to its value in the determinized state."""
    program = engine.program
    conds = getattr(program, "trigger_conds", None)
    each = getattr(program, "trigger_each", None)
    rules = getattr(program, "trigger_rules", None)
    if st.armed is None or conds is None or each is None or rules is None:
        return
    for t, cond in enumerate(conds):
        loc: list[Any] = [None] * max(1, program.nlocals[rules[t]])
        if each[t]:
            flags = st.armed[t]
            for p in range(st.players):
                loc[0] = p
                flags[p] = bool(cond(st, loc))
        else:
            st.armed[t] = bool(cond(st, loc))


class World:
    """What a search agent may ask of the game it sits in: determinizations for its own seat.

    It holds the real state but hands out only states built from what ``player`` knows.
    """

    __slots__ = ("engine", "player", "_state", "_zone_kinds", "_template")

    def __init__(self, engine: Engine, state: State, player: int) -> None:
        self.engine = engine
        self.player = player
        self._state = state
        self._zone_kinds = learn_zone_kinds(engine, state.players)
        self._template: _Template | None = None

    def sample(self, rng: Rng) -> State:
        """A determinization of the current position for this player (as :func:`determinize` gives it,
        the same state for the same draws; what does not depend on the draws is worked out once per World)."""
        template = self._template
        if template is None:
            template = self._template = _Template(self.engine, self._state, self.player, self._zone_kinds)
        return template.sample(rng)


class _Template:
    """What :func:`determinize` works out before its first draw, kept for many samples of one position.

    Besides the copy to start from (its looks emptied; during a pending ask each sample withdraws the answers), the pool
    and the pins: the places dealt to, in dealing order, each with a table of the components it may
    take; the hidden places whose content is the same in every sample (a place dealt nothing holds
    its pins; an unordered place that is the only one dealt to, and takes the whole pool, holds it
    sorted), laid out in that copy once;
    and the dice among the hidden components, whose faces each sample rolls again.
    """

    __slots__ = ("engine", "base", "found", "pool", "pinned", "deals", "fills", "dice", "face_numbers", "shape",
                 "asking")

    def __init__(self, engine: Engine, st: State, player: int, zone_kinds: dict[int, frozenset[int]]) -> None:
        self.engine = engine
        base = st.copy()
        hidden = _hidden_places(engine, base, player)
        self.found = [place for place, _lst in hidden]
        pool = sorted([c for _place, lst in hidden for c in lst])
        sizes = {place: len(lst) for place, lst in hidden}
        filled: dict[Place, list[int]] = {place: [] for place, _ in hidden}
        if st.seen[player]:
            pin_seen(engine, st, base, player, pool, sizes, filled)
        self.pool = pool
        allowed_in, every = _kinds_allowed_in(engine, zone_kinds)
        kind_of = engine.program.kind_of
        zones = engine.model.zones
        order = [(place, sizes[place] - len(filled[place]), allowed_in[place[0]])
                 for place in sorted(filled, key=lambda pl: (len(allowed_in[pl[0]]), pl))]
        dealt = [(place, need, allowed) for place, need, allowed in order if need > 0]
        # (place, components to deal there, which components it takes: None for any, else a table by id)
        # (a place that may take every component of the pool takes the first ones, as one that takes any)
        self.deals = [(place, need, None if allowed is every or all(kind_of[c] in allowed for c in pool)
                       else [k in allowed for k in kind_of]) for place, need, allowed in dealt]
        fixed: dict[Place, list[int]] = {}
        if len(dealt) == 1 and dealt[0][1] >= len(pool) and not zones[dealt[0][0][0]].ordered:
            place = dealt[0][0]  # the one place dealt to takes the whole pool, whatever its order
            fixed[place] = sorted(filled[place] + pool)
        for place, need, _allowed in order:
            if need <= 0:
                lst = filled[place]
                fixed[place] = lst[:] if zones[place[0]].ordered else sorted(lst)
        self.pinned = {place: lst for place, lst in filled.items() if place not in fixed}
        zs = base.zones
        # (place, its list's zone, owner, ordered, unrolled, whether its content is the same each time)
        is_die = _dice(engine)
        has_dice = any(is_die[c] for c in pool) or any(is_die[c] for lst in filled.values() for c in lst)
        self.dice = is_die if has_dice else None
        # per die, its face numbers (0 to faces - 1): a roll of these (Rng.roll_into) is below(faces) for each
        self.face_numbers = [list(range(len(engine.die_faces[k]))) for k in kind_of] if has_dice else []
        # (place, ordered, unrolled, fixed: None, or the dice its fixed content rolls, in order)
        self.fills = []
        for place in self.found:
            z = zones[place[0]]
            rolled = None
            if place in fixed:
                lst = zs[place[0]] if place[1] < 0 else zs[place[0]][place[1]]
                lst[:] = fixed[place]
                if has_dice:
                    for c in lst:
                        if is_die[c] and z.unrolled:
                            base.faces[c] = -1
                rolled = [c for c in lst if is_die[c]] if has_dice and not z.unrolled else []
            self.fills.append((place, z.ordered, z.unrolled, rolled))
        self.deals = [d for d in self.deals if d[0] not in fixed]
        # during a pending ask, the answers are withdrawn from each sample once it is dealt, as determinize
        # withdraws them: listing them may set a local of the paused rule from the cards dealt
        self.asking = player if not base.over and engine.code[base.stack[-1][0]][base.stack[-1][1]][0] == ASK else None
        base.seen = [s if p == player else [{**look, "components": []} for look in s] for p, s in enumerate(base.seen)]
        self.base = base
        self.shape = base.shape()  # (the base is never changed: each sample copies it)

    def sample(self, rng: Rng) -> State:
        """One determinization: the same as ``determinize(engine, st, player, rng, zone_kinds)``."""
        engine = self.engine
        new = self.base.copy_shaped(self.shape)
        pool = self.pool[:]
        rng.shuffle(pool)
        pinned = self.pinned
        filled: dict[Place, list[int]] = {}
        for place, need, ok in self.deals:
            if ok is None:
                take, pool = pool[:need], pool[need:]
            else:
                take, rest = [], []
                end = len(pool)
                for i, c in enumerate(pool):  # the first ``need`` it may take, in pool order; the others keep theirs
                    if ok[c]:
                        take.append(c)
                        if len(take) == need:
                            end = i + 1
                            break
                    else:
                        rest.append(c)
                pool = rest + pool[end:] if end < len(pool) else rest
                if len(take) < need:  # too few of those: the first of the others (see deal_to_place)
                    more = need - len(take)
                    take += pool[:more]
                    pool = pool[more:]
            mine = pinned[place]
            filled[place] = mine + take if mine else take
        zs = new.zones
        is_die = self.dice
        faces_now = new.faces
        for place, ordered, unrolled, rolled in self.fills:
            if rolled is not None:  # the same content in every sample
                if rolled:
                    rng.roll_into(rolled, self.face_numbers, faces_now)  # below(faces) for each, in order
                continue
            lst = zs[place[0]] if place[1] < 0 else zs[place[0]][place[1]]
            got = filled.get(place)
            if got is None:
                got = pinned[place][:]
            lst[:] = got if ordered else sorted(got)
            if is_die is not None:
                for c in lst:
                    if is_die[c]:
                        faces_now[c] = -1 if unrolled else rng.below(len(self.face_numbers[c]))
        if self.asking is not None:
            _withdraw_answers(engine, new, self.asking)
        _rearm(engine, new)
        return new


def deal_to_place(pool: list[int], need: int, allowed: Any, every: Any,
                  kind_of: list[int]) -> tuple[list[int], list[int]]:
    """What a hidden place needing ``need`` components is dealt from ``pool``, and the pool left: the first
    ones of a kind ``allowed`` there, in pool order (any, where ``allowed`` is ``every``); if too few of
    those are left, the first of the others (nothing the rules ever put there is left: deal what there is)."""
    if allowed is every:
        return pool[:need], pool[need:]
    at = []
    for i, c in enumerate(pool):
        if kind_of[c] in allowed:
            at.append(i)
            if len(at) == need:
                break
    take = [pool[i] for i in at]
    if at:
        keep = set(at)
        rest = [c for i, c in enumerate(pool) if i not in keep]
    else:
        rest = pool
    if len(take) < need:
        more = need - len(take)
        take += rest[:more]
        rest = rest[more:]
    return take, rest


def pin_seen(engine: Engine, st: State, new: State, player: int, pool: list[int], sizes: dict[Place, int],
             filled: dict[Place, list[int]]) -> None:
    """Put in ``filled`` (taking them out of ``pool``) the components ``player``'s private looks pinned:
    the latest look at each hidden place counts, up to the place's size, each name seen matched by its
    kind or its label."""
    kind_of = engine.program.kind_of
    kinds = engine.model.kinds
    names = place_names(engine, new)
    latest: dict[Place, list[str]] = {}
    for look in st.seen[player]:
        place = names.get(look["where"])
        if place is not None and place in filled:
            latest[place] = look["components"]
    label_of = engine.program.component_labels
    for place, seen_names in latest.items():
        for name in seen_names:
            if len(filled[place]) >= sizes[place]:
                break
            name = name.partition("=")[0]  # a die is seen with its face ("Die#26=Two"); it may be rolled since
            for i, c in enumerate(pool):
                if kinds[kind_of[c]].name == name or label_of[c] == name:
                    filled[place].append(pool.pop(i))
                    break
