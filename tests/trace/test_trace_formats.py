"""Traces of format 1 (turn digests of the table's JSON text) and of format 2 (digests of its numbers as bytes,
its counters as JSON) still replay after format 3 (digests of all of them as bytes in one pass): the digests
of a trace are checked the way its own format computes them, and a changed digest is told alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.agents.base import RandomAgent
from rulelang.play import play
from rulelang.trace import format as trace_format
from rulelang.trace.format import TRACE_FORMAT, TRACE_FORMATS
from rulelang.trace.reading import TraceError, read_trace
from tests.trace.test_replay import CHICKEN, EGGSPANSION, engine_for, make_trace, replay_events, write_trace

BARNYARD = "games/barnyard.rules"


def _as_format_1(game: str, players: int, seed: int) -> list[dict]:
    """The trace run --trace wrote before format 2: the same lines, its turn digests of scheme 1."""
    engine = engine_for(game)
    st = engine.new_state(players)
    old: list[str] = []
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, digests=True,
         on_event=lambda e, _n: old.append(st.table_digest(1)) if e["type"] == "digest" else None)
    events = make_trace(game, players, seed, digests=True)
    events[0]["format"] = "rulelang-trace/1"
    digests = iter(old)
    for e in events:
        if e["type"] == "digest":
            e["digest"] = next(digests)
    assert next(digests, None) is None
    return events


def test_new_traces_are_format_3_and_every_format_is_read():
    assert TRACE_FORMAT == "rulelang-trace/3"
    assert TRACE_FORMATS == {"rulelang-trace/1": 1, "rulelang-trace/2": 2, "rulelang-trace/3": 3}


@pytest.mark.parametrize(("game", "players", "seed"), [(CHICKEN, 3, 4), (EGGSPANSION, 4, 9), (BARNYARD, 4, 2)])
def test_format_1_traces_replay_with_their_own_digests(game: str, players: int, seed: int, tmp_path: Path):
    old = _as_format_1(game, players, seed)
    new = make_trace(game, players, seed, digests=True)
    assert sum(e["type"] == "digest" for e in new) > 2
    def digests(events: list[dict]) -> list[str]:
        return [e["digest"] for e in events if e["type"] == "digest"]

    assert digests(old) != digests(new)
    for name, events in (("old", old), ("new", new)):
        verdict, _ = replay_events(write_trace(tmp_path / f"{name}.jsonl", events))
        assert verdict.status == "compliant" and verdict.parted is None, (name, verdict.message)


def test_digests_of_the_other_format_part_the_games(tmp_path: Path):
    """A format-1 header with format-2 digests (or the other way round) is told as games that parted."""
    new = make_trace(CHICKEN, 3, 4, digests=True)
    new[0]["format"] = "rulelang-trace/1"
    verdict, _ = replay_events(write_trace(tmp_path / "mixed.jsonl", new))
    assert verdict.parted is not None
    old = _as_format_1(CHICKEN, 3, 4)
    old[0]["format"] = "rulelang-trace/2"
    verdict, _ = replay_events(write_trace(tmp_path / "mixed2.jsonl", old))
    assert verdict.parted is not None


def test_an_unknown_format_names_both(tmp_path: Path):
    events = make_trace(CHICKEN, 2, 1)
    events[0]["format"] = "rulelang-trace/9"
    path = write_trace(tmp_path / "t.jsonl", events)
    with pytest.raises(TraceError) as err:
        read_trace(path)
    assert "rulelang-trace/9" in err.value.message
    assert "rulelang-trace/1, rulelang-trace/2 and rulelang-trace/3" in (err.value.hint or "")


# ------------------------------------------------------------------ format 3 beside format 2


def _recorded(game: str, players: int, seed: int, digest3: bool, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The trace run --trace writes with format 3 (``DIGEST3``) or format 2, as a list of events."""
    with monkeypatch.context() as patch:
        patch.setattr(trace_format, "DIGEST3", digest3)
        return make_trace(game, players, seed, digests=True)


def _told(verdict) -> tuple:
    return verdict.status, verdict.line, verdict.message, verdict.parted


CASES = [(CHICKEN, 3, 4), (EGGSPANSION, 4, 9), (BARNYARD, 4, 2), ("games/rule-the-roost.rules", 4, 5),
         ("games/rooster-rush.rules", 3, 1)]


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_format_2_and_format_3_traces_replay_alike(game: str, players: int, seed: int, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch):
    three, two = (_recorded(game, players, seed, on, monkeypatch) for on in (True, False))
    assert (three[0]["format"], two[0]["format"]) == ("rulelang-trace/3", "rulelang-trace/2")
    assert [{**e, "format": None, "digest": None} if e["type"] in ("header", "digest") else e for e in three] == \
        [{**e, "format": None, "digest": None} if e["type"] in ("header", "digest") else e for e in two]
    told = []
    for name, events in (("three", three), ("two", two)):
        verdict, _ = replay_events(write_trace(tmp_path / f"{name}.jsonl", events))
        assert verdict.status == "compliant" and verdict.parted is None, (name, verdict.message)
        told.append(_told(verdict))
    assert told[0] == told[1]


@pytest.mark.parametrize(("game", "players", "seed"), CASES[:3])
@pytest.mark.parametrize("nth", [0, 2, -1])
@pytest.mark.parametrize("edit", ["one digit", "garbage"])
def test_a_changed_digest_is_told_at_the_same_turn_in_formats_2_and_3(game: str, players: int, seed: int, nth: int,
                                                                      edit: str, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    told = []
    for on in (True, False):
        events = _recorded(game, players, seed, on, monkeypatch)
        at = [i for i, e in enumerate(events) if e["type"] == "digest"][nth]
        was = events[at]["digest"]
        events[at]["digest"] = (was[:5] + ("0" if was[5] != "0" else "1") + was[6:]) if edit == "one digit" \
            else "not a digest"
        verdict, _ = replay_events(write_trace(tmp_path / f"{on}.jsonl", events))
        assert verdict.status != "compliant" and verdict.parted is not None
        assert verdict.parted["line"] == at + 1 and verdict.parted["turn"] == events[at]["turn"]
        told.append(_told(verdict))
    assert told[0] == told[1]


def test_digests_of_formats_2_and_3_part_the_games_under_the_other_header(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    for on, other in ((True, "rulelang-trace/2"), (False, "rulelang-trace/3")):
        events = _recorded(CHICKEN, 3, 4, on, monkeypatch)
        events[0]["format"] = other
        verdict, _ = replay_events(write_trace(tmp_path / "mixed.jsonl", events))
        assert verdict.parted is not None and verdict.parted["turn"] == 1
