"""The game state: plain data that round-trips through JSON exactly.

Zones hold component ids (a list per shared zone, a list of lists per per-player
zone), dice hold face indices (-1: not rolled), counters hold ints; the continuation
``stack`` says where in the rules play is paused: frames of [rule, pc, locals].
"""

from __future__ import annotations

import copy
import hashlib
import json
import marshal
import re
from fractions import Fraction
from types import MethodType
from typing import Any

import attrs

from rulelang.engine.tablebytes import NATIVE, table_bytes, table_bytes3
from rulelang.numbers import ascii_fraction
from rulelang.rng import Rng

# A turn's digest (scheme 2) hashed in one pass: the table's marshal bytes, then the counters' text kept as
# bytes by their marshal bytes (``State.table_digest``), without the calls and copies of ``table_bytes``.
DIGEST_ONE_PASS = True
# A turn's digest of scheme 3 written in one ``marshal`` call, the faces and the rest of the table together (the
# bytes of the list of both, less its 5-byte head, are theirs one after the other), and a recorder's faces hashed
# apart only once they are seen unchanged from one digest to the next (``faces_kept_digest3``): the same bytes.
DIGEST3_ONE_CALL = True
_DUMPS = marshal.dumps  # (the recorder's digests look them up once)
_SHA256 = hashlib.sha256
RNG_PICK = Rng.pick  # (taken at import: a method patched later is not the one ``ones_free`` vouches for)
STATE_FORMAT = 2  # 2: the pcs of the continuation number the entry points of the generated code


@attrs.define
class Picking:
    """The mode of play while decisions are taken without pausing: what the generated blocks and the
    engine's loop read at each decision they take (``State.picking``).

    - ``picks[seat](n)``: the index of the option (or answer) ``seat`` takes among ``n``;
    - ``limit``: no decision is taken from this step on (play stops there: ``max_steps``); a picker may
      change it while play goes on (a search's tree walk stops at the decision after the one it expands,
      or hands over to its rollout, see ``agents.search._Walk.hand_over``);
    - ``listed``: the pickers read the pending decision's listed options (``State.choice_cache``), as
      replay's pickers by label do, so no choice is only counted or listed lazily (read at each decision:
      the walk's hand-over turns it off, and changes the pickers in ``picks`` in place);
    - ``take(st, spec, loc)``: replay's recorded option of a choice found without listing the options
      (``ChooseSpec.member``), or None to list them;
    - ``record``: a recorder whose ``took(st, seat, label)`` is called just before each choice or
      answer is taken (``rulelang.play.Recorder``: the trace's events made in the blocks);
    - ``kept``: the chance drawn in the engine's loop (not only in the blocks) is drawn there and its
      events kept with ``State.chance_events`` though nothing records: replay's feed, drawing from the
      trace's seed as play drew, matches them with the trace's (``rulelang.trace.feed``);
    - ``lean``: a game that ends meanwhile gets a lean result, each seat's rank and the declared
      payoffs only (``{"ranks": [...], "payoffs": [...]}``, see ``Engine._finish``): a search's rollout,
      which reads nothing else of it;
    - ``ones``: every picker in ``picks`` gives 0 for one option and does nothing else then (each an
      ``Rng.pick`` bound method, see ``ones_free``), so a forced answer (one allowed) is given without
      calling it; set only where ``picks`` is never changed while play goes on (``play``, simulate);
    - ``blind``: every picker in ``picks`` reads nothing of the state and gives an index in range, so
      it may be called before the decisions before it are written (an ``ask``'s answers listed and
      picked at once, ``compile.answers.ANSWERS_BLIND``), though it is called for every decision, a
      forced one too, in the same order (a rollout's picker, which counts its calls:
      ``engine.determinize.counting_picker``); its effects on the state, if any, touch nothing those
      decisions read.

    Plain play sets only the first two; recording adds ``record``; replay sets ``listed`` and ``take``
    (and ``kept``, drawing from the seed's stream); a search's rollouts set ``lean`` and ``blind``.
    """

    picks: list[Any]
    limit: int
    listed: bool = False
    take: Any = None
    record: Any = None
    kept: bool = False
    lean: bool = False
    ones: bool = False
    blind: bool = False


def ones_free(picks: list[Any]) -> bool:
    """Whether every picker of ``picks`` is an ``Rng.pick`` bound method (a random agent's
    ``choose_index``): among one option it gives 0 and draws nothing, so calling it then changes
    nothing and not calling it cannot be told apart (``Picking.ones``); False for no pickers."""
    for pick in picks:
        if type(pick) is not MethodType or pick.__func__ is not RNG_PICK:
            return False
    return bool(picks)


class State:
    """Everything that decides how a game goes on from here; nothing else."""

    __slots__ = (
        "stopped_at",
        "players", "zones", "faces", "counters", "current", "stack", "armed", "over", "result",
        "extra_turn", "next_player", "step", "turn", "answers", "seen", "looks",
        "pending_cache", "choice_cache", "log", "pause_at_turn", "chance_rng", "chance_events",
        "out", "picking", "defer_result", "id_tables",
    )

    def __init__(self, players: int) -> None:
        self.players = players
        self.zones: list[Any] = []
        self.faces: list[int] = []
        self.counters: list[Any] = []
        self.current = 0
        self.stack: list[list[Any]] = []
        self.armed: list | None = None
        self.over = False
        self.stopped_at: Any = None  # the place of the run-time error that stopped play mid-step, if one did
        self.result: dict[str, Any] | None = None
        self.extra_turn = False
        self.next_player = -1
        self.step = 0
        self.turn = 0
        self.answers: list[str] = [""] * players  # each player's answer to the last ``ask``
        self.seen: list[list[dict[str, Any]]] = [[] for _ in range(players)]  # private looks, per player
        self.looks = 0  # how many private looks there are in ``seen`` in all (a recorder's cheap test of a new one)
        self.out: list[int] = [0] * players  # per player: 0 while in, else the turn or round she dropped out in
        # Not part of the state: a cache of the pending decision, and narration sink.
        self.pending_cache: Any = None
        self.log: list[dict[str, Any]] | None = None
        self.pause_at_turn = False
        self.choice_cache: Any = None  # the pending choose's options, before any Decision is built
        self.chance_rng: Any = None  # while playing: dice are rolled with it without pausing
        self.chance_events: list[dict[str, Any]] | None = None  # ...and their trace events kept here
        # While the engine's loop and the generated blocks take decisions themselves: the mode of play
        # (a ``Picking``: plain play, recording or replay); None: every decision pauses.
        self.picking: Picking | None = None
        # With it, the end of the game leaves ``result`` to be worked out when it is asked for
        # (``Engine.settle_result``; ``Engine.payoffs`` needs only the declared payoffs): for a driver
        # that reads only the payoffs, if at all (an OpenSpiel algorithm's returns). Copies keep it.
        self.defer_result = False
        # Not part of the state: an adapter's fixed action space, as the tables its choices' listings write
        # each option's action id from (``ActionSpace.tables``: id(ChooseSpec) -> per option, the id base and
        # value -> offset per ``for``); with it, a choice the engine stops at is listed with its ids
        # (``Engine.list_options``). Copies keep it.
        self.id_tables: dict[int, tuple] | None = None

    def copy(self) -> State:
        """A deep copy, cheap enough for look-ahead search."""
        new = State.__new__(State)
        new.players = self.players
        new.zones = [z[:] if not z or not isinstance(z[0], list) else [p[:] for p in z] for z in self.zones]
        new.faces = self.faces[:]
        new.counters = [c[:] if isinstance(c, list) else c for c in self.counters]
        new.current = self.current
        new.stack = [[f[0], f[1], [v[:] if isinstance(v, list) else v for v in f[2]]] for f in self.stack]
        return self._copy_rest(new)

    def _copy_rest(self, new: State) -> State:
        """Fill in ``new``, a copy under way whose zones, faces, counters and stack are done: the rest of
        the state copied, the caches and the mode of play left unset (what :meth:`copy` and
        :meth:`copy_shaped` share)."""
        new.armed = None if self.armed is None else [a[:] if isinstance(a, list) else a for a in self.armed]
        new.answers = self.answers[:]
        new.seen = [[{**look, "components": look["components"][:]} for look in looks] if looks else []
                    for looks in self.seen]
        new.looks = self.looks
        new.out = self.out[:]
        new.over = self.over
        new.result = None if self.result is None else copy.deepcopy(self.result)
        new.extra_turn = self.extra_turn
        new.next_player = self.next_player
        new.step = self.step
        new.stopped_at = self.stopped_at
        new.turn = self.turn
        new.pending_cache = None
        new.choice_cache = None
        new.log = None
        new.pause_at_turn = False
        new.chance_rng = None
        new.chance_events = None
        new.picking = None
        new.defer_result = self.defer_result
        new.id_tables = self.id_tables
        return new

    def shape(self) -> tuple[list[bool], list[list[int]]]:
        """Which zones nest a list per owner, and where each frame of the continuation holds a list: what
        :meth:`copy` looks at value by value, for :meth:`copy_shaped` of this state again and again."""
        nested = [bool(z) and isinstance(z[0], list) for z in self.zones]
        lists = [[i for i, v in enumerate(f[2]) if isinstance(v, list)] for f in self.stack]
        return nested, lists

    def copy_shaped(self, shape: tuple[list[bool], list[list[int]]]) -> State:
        """:meth:`copy` of a state whose :meth:`shape` is ``shape`` (a search's template, copied for
        every determinization): the same copy, without looking at each value again."""
        nested, lists = shape
        new = State.__new__(State)
        new.players = self.players
        new.zones = [[p[:] for p in z] if deep else z[:] for z, deep in zip(self.zones, nested)]
        new.faces = self.faces[:]
        new.counters = [c[:] if isinstance(c, list) else c for c in self.counters]
        new.current = self.current
        stack = []
        for f, at in zip(self.stack, lists):
            loc = f[2][:]
            for i in at:
                loc[i] = loc[i][:]
            stack.append([f[0], f[1], loc])
        new.stack = stack
        return self._copy_rest(new)

    def to_json(self, fresh: bool = True) -> dict[str, Any]:
        """The state as JSON-ready plain data (``out`` only once a player has dropped out); with ``fresh``
        False the result is the state's own (not a copy: for writing it out at once)."""
        data = {
            "format": STATE_FORMAT,
            "players": self.players,
            "zones": self.zones,
            "faces": self.faces,
            "counters": _plain(self.counters),
            "current": self.current,
            "stack": _plain(self.stack),
            "armed": self.armed,
            "over": self.over,
            "result": copy.deepcopy(self.result) if fresh else self.result,
            "extra_turn": self.extra_turn,
            "next_player": self.next_player,
            "step": self.step,
            "turn": self.turn,
            "answers": self.answers,
            "seen": self.seen,
        }
        if any(self.out):
            data["out"] = self.out
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_json` output (structure is validated by the engine)."""
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise ValueError("not a rulelang state (format missing or unknown)")
        data = copy.deepcopy(data)
        st = cls(int(data["players"]))
        st.zones = data["zones"]
        st.faces = data["faces"]
        st.counters = _numbers(data["counters"])
        st.current = data["current"]
        st.stack = _numbers(data["stack"])
        st.armed = data["armed"]
        st.over = data["over"]
        st.result = data["result"]
        st.extra_turn = data["extra_turn"]
        st.next_player = data["next_player"]
        st.step = data["step"]
        st.turn = data["turn"]
        st.answers = data["answers"]
        st.seen = data["seen"]
        st.looks = sum(map(len, st.seen))
        st.out = data.get("out", [0] * st.players)
        return st

    def dumps(self) -> str:
        """Canonical JSON text of the state."""
        return json.dumps(self.to_json(fresh=False), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """A stable short hash of the state, for trace checkpoints."""
        return hashlib.sha256(self.dumps().encode()).hexdigest()[:16]

    def table_digest(self, scheme: int = 2) -> str:
        """A stable short hash of the game on the table: zones, faces, counters, whose turn, the turn
        (or round), the step and who is out; not where in the rules play is paused (the frames'
        locals may differ between ways of reaching one position), nor answers and private looks.

        ``scheme`` 3 (traces of format ``rulelang-trace/3``, the format new recordings write) hashes the
        table's numbers as bytes written in one pass (``tablebytes.table_bytes3``: the counters among
        them, the faces last); scheme 2 (``rulelang-trace/2``) the same numbers as bytes but the counters
        as JSON text (``tablebytes.table_bytes``); scheme 1 (``rulelang-trace/1``) its compact JSON text.

        What a digest guarantees: its 16 hex digits are the first 64 bits of the sha256 of a writing of
        the table that is one-to-one (schemes 2 and 3: lengths, types and widths written; scheme 1: JSON),
        so it changes whenever the table differs (zones, faces, counters, current, turn, step, out), but
        for a sha256 collision on 64 bits (about 2**-64 for a given pair of tables)."""
        if scheme == 3:  # (the first 8 bytes as hex: the first 16 hex digits, made without the other 48)
            if DIGEST3_ONE_CALL and NATIVE:
                one = _digest3_one_call(self)
                if one is not None:
                    return one
            return hashlib.sha256(table_bytes3(self)).digest()[:8].hex()
        if scheme == 2:
            if DIGEST_ONE_PASS and NATIVE:  # (the same bytes hashed: see table_bytes and _counters_text)
                counters = self.counters
                try:
                    key = marshal.dumps(counters, 2)
                    table = marshal.dumps([self.players, self.current, self.turn, self.step, self.zones, self.faces,
                                           self.out], 2)
                except ValueError:  # (a fraction: written the careful way)
                    pass
                else:
                    tail = _COUNTERS_TAIL.get(key)
                    if tail is None:
                        if len(_COUNTERS_TAIL) >= 4096:
                            _COUNTERS_TAIL.clear()
                        tail = _COUNTERS_TAIL[key] = b";" + _whole_text(counters).encode()
                    h = hashlib.sha256(table)
                    h.update(tail)
                    return h.hexdigest()[:16]
            return hashlib.sha256(table_bytes(self, _counters_text(self.counters))).hexdigest()[:16]
        if scheme != 1:
            raise ValueError(f"no table digest scheme {scheme!r}")
        # The compact JSON text of [players, zones, faces, counters, current, turn, step, out], each zone
        # and the faces written once for as long as they hold the same numbers (see ``_kept_text``).
        zones = ",".join([_kept_text(i, z) for i, z in enumerate(self.zones)])
        text = (f"[{self.players},[{zones}],{_kept_text(-1, self.faces)},{_whole_text(self.counters)},"
                f"{self.current},{self.turn},{self.step},{_kept_text(-2, self.out)}]")
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def faces_kept(st: State) -> list | None:
    """The faces of ``st`` and their marshal bytes (``[faces, bytes]``, for ``faces_kept_digest``) where
    they hold ints and nothing else (their bytes ``i`` and 4 bytes each: no bool, float or number past 32
    bits), else None."""
    faces = st.faces
    try:
        data = marshal.dumps(faces, 2)
    except ValueError:  # (a fraction)
        return None
    n = len(faces)
    if not NATIVE or len(data) != 5 + 5 * n or data[5::5] != b"i" * n:
        return None
    return [faces[:], data]


def faces_kept_digest(st: State, kept: list) -> str:
    """``st.table_digest()`` (scheme 2) for a recorder that keeps the faces and their bytes in ``kept``
    (``[faces, bytes or None]``, at first ``[None, None]``) for as long as they hold the same
    numbers (a game without dice never changes them): only for play whose faces held ints and nothing
    else when it began (``play.Recorder`` checks it) and where only play writes them (face numbers);
    the faces kept are checked as ``faces_kept`` checks them."""
    faces = st.faces
    if faces != kept[0]:  # (changed since the last digest, a die rolled say: hashed in one pass, kept for the next)
        kept[0], kept[1] = faces[:], None
        return st.table_digest()
    data = kept[1]
    if data is None:  # (the same twice: their bytes made once, where they hold ints and nothing else)
        now = faces_kept(st)
        if now is None:
            return st.table_digest()
        data = kept[1] = now[1]
    counters = st.counters
    try:
        key = marshal.dumps(counters, 2)
        head = marshal.dumps([st.players, st.current, st.turn, st.step, st.zones], 2)
        out = marshal.dumps(st.out, 2)
    except ValueError:  # (a fraction: written the careful way)
        return st.table_digest()
    tail = _COUNTERS_TAIL.get(key)
    if tail is None:
        if len(_COUNTERS_TAIL) >= 4096:
            _COUNTERS_TAIL.clear()
        tail = _COUNTERS_TAIL[key] = b";" + _whole_text(counters).encode()
    # (marshal version 2 writes a list as "[", its length and its items, each as it writes it alone)
    return hashlib.sha256(b"".join((b"[\x07\x00\x00\x00", head[5:], data, out, tail))).hexdigest()[:16]


def _digest3_one_call(st: State) -> str | None:
    """The scheme-3 digest of ``st``'s table written in one ``marshal`` call (``DIGEST3_ONE_CALL``), or None where
    marshal cannot write it (a fraction: the careful way writes it). Marshal writes a list as "[", its length, then
    each item as it writes it alone, so the list of both less its 5-byte head is the faces' bytes, then the rest's."""
    try:
        both = _DUMPS([st.faces, [st.players, st.current, st.turn, st.step, st.zones, st.out, st.counters]], 2)
    except ValueError:
        return None
    return _SHA256(both[5:]).digest()[:8].hex()


def faces_kept_digest3(st: State, kept: list) -> str:
    """``st.table_digest(3)`` for a recorder that keeps the faces and the sha256 of their bytes (hashed
    first) in ``kept`` (``[faces, hash]``, at first ``[None, None]``) for as long as they hold the same
    numbers (a game without dice never changes them): the hash copied, then the rest of the table
    written in one ``marshal`` call and hashed on. Only for play whose faces held ints and nothing else
    when it began (``play.Recorder`` checks it) and where only play writes them (face numbers); faces
    kept are checked as ``faces_kept`` checks them, and faces that are not (a bool, a number past 32
    bits) are digested by ``table_digest(3)``.

    With ``DIGEST3_ONE_CALL``, faces changed since the last digest (a die rolled: they often change every
    turn) are only copied into ``kept`` (the hash None) and digested with the table in one call
    (``table_digest(3)``); their own hash is made at the next digest that finds them unchanged."""
    faces = st.faces
    if faces != kept[0]:  # (changed since the last digest, a die rolled say)
        if DIGEST3_ONE_CALL and NATIVE:
            kept[0], kept[1] = faces[:], None
            one = _digest3_one_call(st)
            return st.table_digest(3) if one is None else one
        now = faces_kept(st)  # (their hash made and kept)
        if now is None:
            kept[0] = kept[1] = None
            return st.table_digest(3)
        kept[0], kept[1] = now[0], hashlib.sha256(now[1])
    elif kept[1] is None:  # (the same faces twice: their bytes checked and hashed now, kept for the next)
        now = faces_kept(st)
        if now is None:
            kept[0] = None
            return st.table_digest(3)
        kept[0], kept[1] = now[0], hashlib.sha256(now[1])
    try:
        head = _DUMPS([st.players, st.current, st.turn, st.step, st.zones, st.out, st.counters], 2)
    except ValueError:  # (a fraction: written the careful way)
        return st.table_digest(3)
    h = kept[1].copy()
    h.update(head)
    return h.digest()[:8].hex()


def _plain(value: Any) -> Any:
    """``value`` with every fraction written as ``{"fraction": "7/3"}`` (JSON has no exact fractions)."""
    if isinstance(value, list):
        if not any(isinstance(v, (list, Fraction)) for v in value):
            return value
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    return value


def _fraction_text(value: Any) -> str:
    """A fraction as JSON text in a table digest (``7/3``: a string, never mistaken for a number)."""
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"not part of a state: {value!r}")


_WHOLE_TEXT = re.compile(r"[-\[\],0-9]*").fullmatch  # the text of whole numbers and lists of them, nothing else


def _whole_text(value: list) -> str:
    """The compact JSON text of ``value``. Whole numbers and lists of them (all a table holds but for
    fractions) print alike in Python and in compact JSON once the spaces are gone, and Python prints
    them faster: its text is used when it holds nothing else (a fraction or a bool: JSON writes it)."""
    text = repr(value).replace(" ", "")
    return text if _WHOLE_TEXT(text) is not None else _TABLE_JSON(value)


_COUNTERS_TEXT: dict[bytes, str] = {}  # the marshal bytes of counters -> their compact JSON text
_COUNTERS_TAIL: dict[bytes, bytes] = {}  # ... -> the bytes a digest hashes after the table's: b";" and that text


def _counters_text(counters: list) -> str:
    """``_whole_text`` of ``counters``, looked up by their marshal bytes (written far faster than the
    text, and different wherever the texts are: marshal writes a bool, and refuses a fraction)."""
    try:
        key = marshal.dumps(counters, 2)
    except ValueError:  # (a fraction)
        return _whole_text(counters)
    text = _COUNTERS_TEXT.get(key)
    if text is None:
        if len(_COUNTERS_TEXT) >= 4096:
            _COUNTERS_TEXT.clear()
        text = _COUNTERS_TEXT[key] = _whole_text(counters)
    return text


_KEPT: dict[int, tuple[list, str]] = {}  # zone index (faces: -1, out: -2) -> (a copy of its numbers, their JSON text)


def _kept_text(key: int, numbers: list) -> str:
    """The compact JSON text of a zone's component ids (or of the faces), a list of whole numbers or of
    lists of them: the text last written under ``key`` while the numbers are still the same (comparing
    lists costs far less than writing them, and a turn changes few zones), else written now and kept.
    (Only whole numbers are kept there, so equal lists have equal texts.)"""
    kept = _KEPT.get(key)
    if kept is not None and kept[0] == numbers:
        return kept[1]
    text = repr(numbers).replace(" ", "")
    if _WHOLE_TEXT(text) is None:  # not whole numbers only: written by JSON, not kept
        return _TABLE_JSON(numbers)
    _KEPT[key] = (numbers[:] if not numbers or type(numbers[0]) is not list else [x[:] for x in numbers], text)
    return text


_TABLE_JSON = json.JSONEncoder(separators=(",", ":"), default=_fraction_text).encode  # (compact, as State.dumps)


def _numbers(value: Any) -> Any:
    """The inverse of :func:`_plain`: ``{"fraction": "7/3"}`` back to an exact fraction."""
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    if isinstance(value, dict) and set(value) == {"fraction"} and isinstance(value["fraction"], str):
        try:
            return Fraction(ascii_fraction(value["fraction"]))
        except ValueError:
            raise ValueError(f"not a fraction: {value['fraction']!r}") from None
    return value
