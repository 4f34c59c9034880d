"""The fast way of replay: the recorded trace as the engine's chance stream and pickers (``Feed``), the
recorded choices found by membership tests (``find_member``), and recorded rolls and shuffles applied
without building a Decision. Anything it does not take raises ``Doubt``, and the replayer replays the
trace again the careful way."""

from __future__ import annotations

import functools
import itertools
import operator
import weakref
from typing import Any, Protocol

from rulelang.compile.program import CHOOSE, PICK, SHUFFLE
from rulelang.compile.runtime import player_label, shuffle_zone
from rulelang.engine.engine import Engine, read_label
from rulelang.engine.state import Picking, State
from rulelang.rng import Rng
from rulelang.trace.reading import Trace


class Replaying(Protocol):
    """What the feed reads and sets of the replayer it feeds (``rulelang.trace.replay.Replayer``)."""

    engine: Engine
    trace: Trace
    shadow: Rng | None
    seats: dict[str, int]
    parted: dict[str, Any] | None
    matched: tuple[int, int] | None
    loc_differs: bool

    def check_private(self, line: int, event: dict[str, Any]) -> Any:
        """A verdict when a recorded private look is not the next one the rules gave; None otherwise."""


class Doubt(Exception):
    """The fast way of replay met something it does not take, or that may break the rules."""


class Tables:
    """What the fast way of replay looks up, per engine: the place of each (die, face) on the die, zones by name."""

    def __init__(self, engine: Engine) -> None:
        program = engine.program
        self.places: dict[tuple[str, str], int] = {}  # (die label, face name) -> the face's place on the die
        for label, k in zip(program.component_labels, program.kind_of):
            faces = engine.die_faces[k]
            for f in reversed(faces):
                self.places[label, engine.model.faces[f].name] = faces.index(f)
        self.zones = {z.name: z for z in engine.model.zones}
        face_names = [f.name for f in engine.model.faces]  # (die label) -> its faces' names in order
        self.faces = {label: [face_names[f] for f in engine.die_faces[k]]
                      for label, k in zip(program.component_labels, program.kind_of)}
        # a chance pick asks the stream too (for its place among the players it picks from)
        self.picks = any(ins[0] == PICK for block in engine.code for ins in block if ins)
        self.kind_names = [k.name for k in engine.model.kinds]
        self.unique_kinds = len(set(self.kind_names)) == len(self.kind_names)  # (a shuffle's kinds by name)
        self.read: dict[tuple[int, str], tuple] = {}  # (choice, label) -> what the label reads as (see rows_for)
        self.probes: dict[tuple[int, str], Any] = {}  # (choice, label) -> its test of the recorded option (probe_for)


TABLES: weakref.WeakKeyDictionary[Engine, Tables] = weakref.WeakKeyDictionary()
_ROLL = operator.methodcaller("get", "roll")
_ROLLED = operator.itemgetter("roll", "outcome")
_EVENT = operator.itemgetter(1)


class Chance:
    """The recorded outcomes as a chance stream: ``below(n)`` gives the next recorded roll's (or pick's)
    place among ``n``, ``weighted`` the next draw's place among the kinds it may draw, ``roll_into``
    the recorded faces of several dice (as ``Rng.roll_into`` rolls them)."""

    __slots__ = ("below", "weighted", "one_of")

    def kind_drawn(self, src: list[int], kind_of: list[int]) -> int:
        """The recorded kind of a random draw of any component of ``src`` (as ``Rng.kind_drawn`` draws it)."""
        return self.one_of([kind_of[c] for c in src])

    def roll_into(self, dice: list[int], faces_of: list[list[int]], out: list[int]) -> None:
        """``out[d] = faces_of[d][below(len(faces_of[d]))]`` for each ``d`` of ``dice``, in order (one
        recorded roll each)."""
        below = self.below
        for d in dice:
            faces = faces_of[d]
            out[d] = faces[below(len(faces))]


class Feed:
    """The recorded trace as the engine's chance stream, trace-event list and pickers.

    While attached to the state, the engine's own loop (``Engine.resume`` with ``State.picking``)
    rolls, draws and picks with the recorded outcomes and takes the recorded choices and
    answers, instead of pausing at each one for replay to apply it. The chance events the
    engine makes on the way are kept as play keeps them (``State.chance_events``) and must
    be, event for event, the ones the trace records before the next action; every choice is
    found among the legal options by its label (``Engine.find_label``), every answer among
    the allowed ones, and every private look is checked at the point replay checks it.
    Anything else (an event out of place or not made here, a rules error, a wrong die)
    raises :class:`Doubt`, and the trace is replayed again the careful way, which says
    what is wrong.
    """

    def __init__(self, replayer: Replaying, st: State) -> None:
        engine = replayer.engine
        tables = TABLES.get(engine)
        if tables is None:
            tables = TABLES[engine] = Tables(engine)
        self.tables = tables
        self.probes = tables.probes
        self.replayer = replayer
        self.engine = engine
        self.code = engine.code
        self.st = st
        self.lines = replayer.trace.events
        self.scheme = replayer.trace.digest_scheme  # how the trace's turn digests are computed
        self.evs = list(map(_EVENT, self.lines))
        self.n = len(self.evs)
        self.at = 0
        self.labels = [player_label(p) for p in range(st.players)]
        self.pickers = [functools.partial(self.pick, p) for p in range(st.players)]
        # the engine takes no decision past the trace's last step: it stops there, and replay says what is missing
        self.limit = st.step + self.n
        for event in reversed(self.evs):
            if event.get("type") in ("chance", "action"):
                if type(event.get("step")) is int:
                    self.limit = event["step"]
                break
        self.made: list[dict[str, Any]] = []  # the chance events the engine made since the last action
        self.chance = Chance()
        self.chance.weighted = self.weighted
        self.chance.one_of = self.one_of
        self.shadow = replayer.shadow  # the seed's chance stream, for a trace whose header says it drew from it
        self.asked: Any = iter(())

    def forward(self, at: int) -> int:
        """Let the engine play on from the trace's event ``at``; the index of the first event it did not take."""
        st = self.st
        self.at = at
        ahead = map(self.evs.__getitem__, range(at, self.n))  # (not islice: that would step over the first ``at``)
        chance: Any = self.chance
        if self.shadow is not None:
            # chance drawn from the seed's stream itself, as play drew it: the events it makes must be the
            # trace's (see _catch_up), so every outcome is the seed's (the careful way says which is not)
            chance = self.shadow
        elif self.tables.picks:
            places = map(self._place, filter(_chance_asked, ahead))
            self.chance.below = functools.partial(next, places)
        else:  # only rolls ask the stream: look their places up without a Python call each
            places = map(self.tables.places.get, map(_ROLLED, filter(_ROLL, ahead)), itertools.repeat(0))
            self.chance.below = functools.partial(next, places)  # (a die's place past its faces: an IndexError)
        made = self.made
        made.clear()
        st.chance_rng = chance
        st.chance_events = made
        # pickers by label (they read the listed options), and the recorded choice taken without listing them
        # (with the seed's stream, every chance the engine's loop meets is drawn there: see Picking.kept)
        st.picking = Picking(self.pickers, self.limit, listed=True, take=self.take, kept=self.shadow is not None)
        try:
            self.engine.resume(st)
            self._catch_up(None)
        except Doubt:
            raise
        except Exception as exc:  # a rules error (or a wrong die rolled): the careful way tells which
            raise Doubt() from exc
        finally:
            st.chance_rng = None
            st.chance_events = None
            st.picking = None
        return self.at

    def seeded_below(self, n: int) -> int:
        """The place of the next recorded roll's face on its die (or of a pick's outcome among the
        ``n`` players picked from), once checked against the seed's chance stream: a doubt when the
        seed gives another face (or player), and the careful way says which."""
        event = next(self.asked)
        r = self.shadow.pick(n)  # type: ignore[union-attr]  # (below(n), the same draw)
        outcome = event["outcome"]
        if "roll" in event:
            faces = self.tables.faces.get(event["roll"])
            if faces is None or len(faces) != n or faces[r] != outcome:
                raise Doubt()
            return r
        among = event.get("among")
        if type(among) is not list or len(among) != n or among[r] != outcome:
            raise Doubt()
        return r

    def _place(self, event: dict[str, Any]) -> int:
        """The place of a recorded roll's face on its die, or of a pick's outcome among the players picked from."""
        outcome = event.get("outcome")
        if "roll" in event:
            return self.tables.places.get((event["roll"], outcome), 0) if type(outcome) is str else 0
        among = event.get("among")
        return among.index(outcome) if type(among) is list and outcome in among else 0

    def _catch_up(self, upto: int | None) -> None:
        """Match the chance events the engine made with the trace's next ones (up to the action at
        ``upto``, or as far as they go), checking private looks on the way."""
        evs = self.evs
        made = self.made
        at = self.at
        k = 0
        m = len(made)
        if m and evs[at:at + m] == made:  # (the usual case, compared at once: the same as one by one)
            k = m
            at += k
        open_end = upto is None  # (then as far as the chance events made go)
        if open_end:
            upto = -1
        while at < upto or open_end and k < m:
            if at >= self.n:
                raise Doubt()  # the engine made chance events the trace does not have
            event = evs[at]
            kind = event["type"]
            if kind == "chance":
                if k >= m or made[k] != event:
                    raise Doubt()
                k += 1
            elif kind == "private":
                if k < m:
                    raise Doubt()  # a look recorded before a roll made here: checked then, the careful way
                self.at = at
                if self.replayer.check_private(self.lines[at][0], event) is not None:
                    raise Doubt()
            elif kind == "digest":  # a turn's digest: the table now, as play wrote it (the careful way tells more)
                if k < m or type(event.get("turn")) is not int \
                        or event.get("digest") != self.st.table_digest(self.scheme):
                    raise Doubt()
                if self.replayer.parted is None:
                    self.replayer.matched = (event["turn"], self.lines[at][0])
            elif kind != "comment":
                raise Doubt()
            at += 1
        if k != m:
            raise Doubt()
        made.clear()
        self.at = at

    def _next_chance(self) -> dict[str, Any]:
        """The trace's chance event the engine draws now (the events it made since the last action come first)."""
        evs = self.evs
        at = self.at
        skip = len(self.made)  # the chance events made before this one
        while True:
            if at >= self.n:
                raise Doubt()
            event = evs[at]
            if event["type"] == "chance":
                if not skip:
                    break
                skip -= 1
            at += 1
        return event

    def one_of(self, kinds: list[int]) -> int:
        """The recorded outcome of the random draw the engine makes now, among ``kinds`` (the kind of
        each component it may draw)."""
        event = self._next_chance()
        outcome = event.get("outcome")
        kind = self.engine.kind_by_name.get(outcome) if "draw" in event and type(outcome) is str else None
        if kind is None or kind not in kinds or self.shadow is not None and self.shadow.one_of(kinds) != kind:
            raise Doubt()  # (not a kind to draw, or not the seed's)
        return kind

    def weighted(self, weights: list[int]) -> int:
        """The recorded outcome of the random draw the engine makes now, as its place among the kinds
        it may draw (in kind order, each as many times as ``weights`` says)."""
        event = self._next_chance()
        name, _, owner = event["draw"].partition(" of ")
        zone = self.tables.zones[name]
        held = self.st.zones[zone.index]
        if owner:
            held = held[self.replayer.seats[owner]] if zone.per_player else None
        kind_of = self.engine.program.kind_of
        counts: dict[int, int] = {}
        for c in held:
            counts[kind_of[c]] = counts.get(kind_of[c], 0) + 1
        kinds = sorted(counts)
        if [counts[k] for k in kinds] != weights:
            raise Doubt()  # a draw of only some of the zone's components
        i = kinds.index(self.engine.kind_by_name[event["outcome"]])
        if self.shadow is not None and self.shadow.weighted(weights) != i:
            raise Doubt()  # not the seed's draw
        return i

    def pick(self, seat: int, n: int) -> int:
        """The place among the ``n`` legal options (or answers) of ``seat``'s recorded action now."""
        at = self.at
        made = self.made
        evs = self.evs
        if made:  # the chance events made since the last action must be the trace's next ones
            j = at + len(made)
            if evs[at:j] != made or j >= self.n or evs[j]["type"] != "action":
                j = self._action_after(at)  # (a look or a digest after them: caught up from ``at``)
            else:
                made.clear()
        else:
            j = at
        event = evs[j] if j < self.n else None
        if event is None or event["type"] != "action":
            j = self._action_after(at)
            event = evs[j]
        st = self.st
        action = event["action"]
        if event["player"] != self.labels[seat] or event["step"] != st.step + 1 or len(event) != 4 \
                or type(action) is not str:
            raise Doubt()
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] == CHOOSE:
            options = st.choice_cache
            if n == 1:  # one legal option: it is the recorded one if its label reads as recorded
                loc = fr[2]
                index, values = options[0]
                opt = ins[1].options[index]
                for (slot, _values), value in zip(opt[1], values):
                    loc[slot] = value
                if opt[0](st, loc) != action:
                    raise Doubt()
                i = 0
            else:
                i = self.engine.find_label(st, ins[1], fr[2], options, action)
                if i is None:
                    raise Doubt()
        else:  # an ask: answered in seat order, as play records it (the engine listed the answers allowed)
            i = st.choice_cache.index(action)
        self.at = j + 1
        return i

    def take(self, st: State, spec: Any, loc: list) -> tuple | None:
        """The recorded action, if it is the next event, is an option of the pending choice ``spec`` and
        its chooser's: that option (its ``for`` values bound in ``loc``), found without listing the
        options (``ChooseSpec.member``); None (nothing changed) when it cannot tell, and the options are
        listed as usual."""
        if spec.member is None:  # (a generated block asks whether its choice has membership tests now)
            return None
        at = self.at
        made = self.made
        evs = self.evs
        j = at + len(made)
        if j >= self.n:
            return None
        event = evs[j]
        caught = event["type"] == "action" and not (made and evs[at:j] != made)
        if not caught:
            # a private look, a turn's digest (or a chance event not made) on the way: matched and checked
            # as ``pick`` does, once the option is found (a choice with no option left is skipped, and the
            # turn's digest is the table's after that)
            j = at
            while j < self.n and evs[j]["type"] != "action":
                j += 1
            if j >= self.n:
                return None
            event = evs[j]
        try:  # an action event with nothing more (every event has a type): its keys are _ACTION_KEYS
            action, player, step = event["action"], event["player"], event["step"]
        except KeyError:
            return None
        if len(event) != 4 or type(action) is not str or step != st.step + 1:
            return None
        chooser = spec.player
        if player != self.labels[chooser(st, loc) if chooser is not None else st.current]:
            return None
        probe = self.probes.get((id(spec), action))
        if probe is None:
            probe = probe_for(spec, action, self.tables)
        found = probe(st, loc)
        if found is None:
            return None
        opt, exact = found
        if caught:
            made.clear()
        else:
            self._catch_up(j)
        if not exact:
            self.replayer.loc_differs = True
        self.at = j + 1
        return opt

    def _action_after(self, at: int) -> int:
        """The index of the trace's next action from ``at`` on, once the chance events the engine made
        since the last action are matched with the trace's (and private looks on the way checked)."""
        evs = self.evs
        j = at
        while j < self.n and evs[j]["type"] != "action":
            j += 1
        if j >= self.n:
            raise Doubt()
        self._catch_up(j)
        return j


READ_MAX = 100_000  # labels read back kept per engine (see rows_for); a trace's own labels past that are read again
WHOLE, RANGE, READ, KNOWN = 0, 1, 2, 3  # how find_member tries an option: no values, its range's values in order,
# values read, its range's values in order with whether each one's label reads as the action kept (``_known``)


def rows_for(spec: Any, action: str, read: dict[tuple[int, str], tuple]) -> tuple:
    """The options of ``spec`` whose labels may read as ``action``, in the order ``find_member`` tries them,
    each as (how it is tried, its test, its label or None where the label need not be rendered to
    compare, the slots of its ``for`` values, the values its label reads as (for ``KNOWN``: a table of
    whether each value's label is ``action``, filled as values come), whether taking it leaves
    the locals exact, the option, its range's values); a row ``None`` where ``find_member`` gives up. What
    only the label tells (its prefix, its whole text, what it reads back), worked out once per choice
    and label and kept in ``read``."""
    key = (id(spec), action)
    rows = read.get(key)
    if rows is not None:
        return rows
    out: list = []
    for prefix, whole, test, values, exact, read_back, opt in spec.member[1]:
        if whole is not None:
            if action != whole:
                continue  # (a label without holes: every label of this option is that text)
        elif not action.startswith(prefix):
            continue  # (the text its labels start with)
        label, bindings, parser = opt[0], opt[1], opt[5]
        slots = tuple(slot for slot, _values in bindings)
        if not bindings:
            out.append((WHOLE, test, None if whole is not None else label, slots, (), exact, opt, values))
        elif parser is None:  # a label not read back: this option's values in the order listed, rendered
            if values is None:
                out.append(None)
                break
            if read_back:  # (its label shows only its value, a kind or a component: one text per value)
                out.append((KNOWN, test, label, slots, {}, exact, opt, values))
            else:
                out.append((RANGE, test, label, slots, (), exact, opt, values))
        else:
            parsed = read_label(parser, action, len(bindings))
            if parsed is not None:
                # (a label read back through tables renders as read: see CodeGen.member_tests)
                out.append((READ, test, None if read_back else label, slots, tuple(parsed), exact, opt, values))
    rows = tuple(out)
    if len(read) < READ_MAX:
        read[key] = rows
    return rows


def find_member(st: State, spec: Any, loc: list, action: str,
            read: dict[tuple[int, str], tuple] | None = None) -> tuple[tuple, bool] | None:
    """The option of the pending choice ``spec`` whose label is ``action``, as ``Engine.find_label`` finds
    it among the listed options (the same option, tried in the same order), but testing only that
    option's values with the generated membership test: (the option, whether the locals are now what
    listing and taking it leave); None when none is, or when it cannot tell (or listing might fail
    here). On a match ``loc`` holds the option's values, otherwise it is left as it was. ``read``: the
    labels already read back (see ``rows_for``)."""
    guard = spec.member[0]
    if read is None:
        read = {}
    rows = read.get((id(spec), action))
    for row in rows if rows is not None else rows_for(spec, action, read):
        if row is None:
            return None
        how, test, label, slots, parsed, exact, opt, values = row
        if how == WHOLE:
            if test(st, loc) and (label is None or label(st, loc) == action):
                if guard is not None and not guard(st, loc):
                    return None  # listing might fail here: let it
                return opt, exact
            continue
        if how == RANGE:  # a label not read back: this option's values in the order listed, rendered
            slot = slots[0]
            saved = loc[slot]
            for value in values(st, loc):
                loc[slot] = value
                if test(st, loc) and label(st, loc) == action:
                    if guard is not None and not guard(st, loc):
                        loc[slot] = saved
                        return None
                    return opt, exact
            loc[slot] = saved
            continue
        if how == KNOWN:  # as RANGE, each value's label rendered once per choice and action
            slot = slots[0]
            saved = loc[slot]
            for value in values(st, loc):
                loc[slot] = value
                same = parsed.get(value)
                if same is None:
                    same = parsed[value] = label(st, loc) == action
                if same and test(st, loc):
                    if guard is not None and not guard(st, loc):
                        loc[slot] = saved
                        return None
                    return opt, exact
            loc[slot] = saved
            continue
        if len(slots) == 1:
            slot = slots[0]
            saved1 = loc[slot]
            loc[slot] = parsed[0]
            if test(st, loc) and (label is None or label(st, loc) == action):
                if guard is None or guard(st, loc):
                    return opt, exact
                loc[slot] = saved1
                return None  # listing might fail here: let it
            loc[slot] = saved1
            continue
        saved = [loc[slot] for slot in slots]
        for slot, value in zip(slots, parsed):
            loc[slot] = value
        if test(st, loc) and (label is None or label(st, loc) == action):
            if guard is None or guard(st, loc):
                return opt, exact
            for slot, value in zip(slots, saved):
                loc[slot] = value
            return None  # listing might fail here: let it
        for slot, value in zip(slots, saved):
            loc[slot] = value
    return None


def probe_for(spec: Any, action: str, tables: Tables) -> Any:
    """``find_member`` of ``action`` among the options of ``spec`` as a function of (state, locals),
    worked out once per choice and label and kept in ``tables.probes``: where the label may read as
    one option only (one row of ``rows_for``, tried with no values or one value read back), that
    row's test written out (the same tests in the same order, the same locals left, the same
    answer); otherwise ``find_member`` itself."""
    read = tables.read
    rows = read.get((id(spec), action))
    if rows is None:
        rows = rows_for(spec, action, read)
    guard = spec.member[0]
    probe: Any = None
    if len(rows) == 1 and rows[0] is not None and rows[0][0] in (WHOLE, READ):
        how, test, label, slots, parsed, exact, opt, _values = rows[0]
        found = (opt, exact)
        if how == WHOLE and label is None and guard is None:
            def probe(st: State, loc: list) -> tuple | None:
                return found if test(st, loc) else None
        elif how == WHOLE:
            def probe(st: State, loc: list) -> tuple | None:
                if test(st, loc) and (label is None or label(st, loc) == action):
                    if guard is not None and not guard(st, loc):
                        return None  # listing might fail here: let it
                    return found
                return None
        elif len(slots) > 1:  # values read back from the label
            bound = tuple(zip(slots, parsed))

            def probe(st: State, loc: list) -> tuple | None:
                saved = [loc[slot] for slot in slots]
                for slot, value in bound:
                    loc[slot] = value
                if test(st, loc) and (label is None or label(st, loc) == action):
                    if guard is None or guard(st, loc):
                        return found
                for slot, value in zip(slots, saved):
                    loc[slot] = value
                return None  # (or listing might fail here: let it)
        else:  # one value read back from the label
            slot, value = slots[0], parsed[0]

            def probe(st: State, loc: list) -> tuple | None:
                saved = loc[slot]
                loc[slot] = value
                if test(st, loc) and (label is None or label(st, loc) == action):
                    if guard is None or guard(st, loc):
                        return found
                loc[slot] = saved
                return None  # (or listing might fail here: let it)
    if probe is None:
        def probe(st: State, loc: list) -> tuple | None:
            return find_member(st, spec, loc, action, read)
    if len(tables.probes) < READ_MAX:
        tables.probes[id(spec), action] = probe
    return probe


def _chance_asked(event: dict[str, Any]) -> bool:
    """Whether a trace event is a roll or a pick (the chance outcomes the engine asks the stream for by place)."""
    return event.get("type") == "chance" and ("roll" in event or "pick" in event)


_ACTION_KEYS = frozenset(("type", "step", "player", "action"))
_SHUFFLE_KEYS = frozenset(("type", "step", "shuffle", "outcome"))
_ROLL_KEYS = (frozenset(("type", "step", "roll", "outcome")), frozenset(("type", "roll", "outcome")))


def recorded_rolls(events: list[tuple[int, dict[str, Any]]], start: int, step: int) -> list[tuple[str, str]]:
    """(die, face) of the plain roll events from ``start`` on, each at the step after the one before."""
    rolls = []
    with_step, without_step = _ROLL_KEYS
    for k in range(start, len(events)):
        event = events[k][1]
        step += 1
        keys = event.keys()
        if keys == with_step:
            if event["step"] != step:
                break
        elif keys != without_step:
            break
        roll = event["roll"]
        outcome = event["outcome"]
        if event["type"] != "chance" or type(roll) is not str or type(outcome) is not str:
            break
        rolls.append((roll, outcome))
    return rolls


def seeded_shuffle(engine: Engine, st: State, event: dict[str, Any], shadow: Rng) -> bool:
    """Shuffle the pending zone with the seed's chance stream ``shadow``, as play shuffled it
    (``Engine._chance``: the same draws, order, triggers and step), if the recorded shuffle is the
    pending one; False (nothing changed, nothing drawn) when it is not. A doubt when the seed's order
    is not the recorded one, or on a rules error after it (the careful way says which)."""
    outcome = event.get("outcome")
    tables = TABLES.get(engine)
    paused = _pending_shuffle(engine, st, event) if tables is not None else None
    if paused is None:
        return False
    fr, ins = paused
    src = ins[1](st, fr[2])
    kind_of = engine.program.kind_of
    shuffle_zone(shadow, src, kind_of)
    names = tables.kind_names
    if [names[kind_of[c]] for c in src] != outcome:
        raise Doubt()  # (not the seed's order, or not the zone's components)
    _after_shuffle(engine, st, fr, ins, resume=False)
    return True


def shuffled(engine: Engine, st: State, event: dict[str, Any]) -> bool:
    """Apply a recorded shuffle if it is exactly the pending one and possible, as ``Engine.apply``
    applies it (the same order, triggers, step), without building the Decision; False (nothing
    changed) otherwise, and the replayer says what is wrong. Only the fast way uses it: a rules
    error on the way is a doubt (the careful way says what it is)."""
    outcome = event.get("outcome")
    tables = TABLES.get(engine)
    paused = _pending_shuffle(engine, st, event) if tables is not None and tables.unique_kinds else None
    if paused is None:
        return False
    fr, ins = paused
    kind_by_name = engine.kind_by_name
    if not all(type(name) is str and name in kind_by_name for name in outcome):
        return False
    src = ins[1](st, fr[2])
    kind_of = engine.program.kind_of
    names = tables.kind_names
    if sorted(outcome) != sorted([names[kind_of[c]] for c in src]):
        return False  # (not an order of the zone's components)
    by_kind: dict[int, list[int]] = {}
    for c in sorted(src):
        by_kind.setdefault(kind_of[c], []).append(c)
    for lst in by_kind.values():
        lst.reverse()
    src[:] = [by_kind[kind_by_name[name]].pop() for name in outcome]
    _after_shuffle(engine, st, fr, ins, resume=True)
    return True


def _pending_shuffle(engine: Engine, st: State, event: dict[str, Any]) -> tuple[list, tuple] | None:
    """The paused frame and its instruction, if ``event`` is a well-formed shuffle of the zone the
    rules are about to shuffle; None otherwise."""
    if type(event.get("outcome")) is not list or not event.keys() <= _SHUFFLE_KEYS:
        return None
    paused = engine.paused_at(st, SHUFFLE)
    if paused is None or engine.model.zones[paused[1][2]].name != event["shuffle"]:
        return None
    return paused


def _after_shuffle(engine: Engine, st: State, fr: list, ins: tuple, resume: bool) -> None:
    """What follows a shuffle applied in the fast way, as ``Engine.apply`` does it: the frame moves on,
    its triggers are checked, the step counted (and, with ``resume``, play goes on to the next
    decision); a rules error on the way is a doubt (the careful way says what it comes to)."""
    fr[1] += 1
    try:
        if ins[3]:
            engine.check_triggers(st, ins[3])
        st.step += 1
        st.pending_cache = st.choice_cache = None
        if resume:
            engine.resume(st)
    except Exception:  # (a rules error after the shuffle)
        raise Doubt() from None
