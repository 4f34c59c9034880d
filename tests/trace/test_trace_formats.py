"""Traces of format 1 (turn digests of the table's JSON text) still replay after format 2 (digests of
its numbers as bytes): the digests of a trace are checked the way its own format computes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.agents.base import RandomAgent
from rulelang.play import play
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


def test_new_traces_are_format_2_and_both_formats_are_read():
    assert TRACE_FORMAT == "rulelang-trace/2"
    assert TRACE_FORMATS == {"rulelang-trace/1": 1, "rulelang-trace/2": 2}


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
    assert "rulelang-trace/1 and rulelang-trace/2" in (err.value.hint or "")
