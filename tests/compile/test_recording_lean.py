"""Recording written leaner again, against the writing before (the same events, digests included, on every game at
its fewest and most players and on every example, kept in a list and handed on; the traces replay compliant):

- a recording's test that a counted range's kinds read apart answered from the answers kept
  (``decisions.KINDS_DIFFER_KEPT``, ``runtime.kinds_differ_kept``);
- a list recorder's new looks and scheme-3 digest at a new turn made in its own test (``play.DIGEST_LEAN``), the
  digests' sha256 made as play ends (``play.DIGEST_BATCHED``).

A broken variant of each is noticed here (a kept answer that forgets the classes, a lean digest written with other
counters, a batch that forgets the faces' kept hash).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, listed, player_counts, trace
from lever_support import replays_compliant as replays

from rulelang import load_game
from rulelang import play as play_module
from rulelang.agents.base import RandomAgent
from rulelang.compile import decisions, runtime
from rulelang.engine.engine import Engine
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
RUN_FLAGS = ("DIGEST_LEAN", "DIGEST_BATCHED")


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(decisions, "KINDS_DIFFER_KEPT", on)
        return load_game(path)


def recordings(engine: Engine, players: int, seed: int, on: bool, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The game kept in a list (with and without digests) and handed on, the run-time flags ``on`` or off; the keys'
    order of every event kept."""
    with monkeypatch.context() as patch:
        for name in RUN_FLAGS:
            patch.setattr(play_module, name, on)
        kept, handed = listed(engine, players, seed), trace(engine, players, seed)
        bare: list[dict[str, Any]] = []
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, events=bare)
    return [kept, handed, bare, [list(e) for e in kept[0]]]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_records_as_without_the_levers(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    assert "kinds_differ(" not in new.program.generated.source
    assert "kinds_differ_kept(" not in old.program.generated.source
    if game == "chicken-eggspansion":  # (its counted choices' kinds are told apart as they are counted)
        assert "kinds_differ_kept(" in new.program.generated.source
    counts = player_counts(new)
    for n, seed in itertools.product(sorted({counts[0], counts[-1]}), range(3)):
        got = recordings(new, n, seed, True, monkeypatch)
        assert got == recordings(old, n, seed, False, monkeypatch), (n, seed)
        assert got[0][0] == got[1][0]  # (kept in a list and handed on: the same events)
        assert any(e["type"] == "digest" for e in got[0][0])
    for n in sorted({counts[0], counts[-1]}):
        replays(new, n, 1)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_records_as_without_the_levers(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    n = new.model.default_players
    for seed in range(2):
        assert recordings(new, n, seed, True, monkeypatch) == recordings(old, n, seed, False, monkeypatch), seed


def test_kinds_differ_kept_answers_as_kinds_differ() -> None:
    """Every list of kinds, in order, under two tables of classes that tell them apart differently, answered as
    ``kinds_differ`` answers (and again, kept); a kept answer that forgot the classes would answer one table as the
    other."""
    tables = [(-1, -1, 2, 2, 0, 0, 1, 1), (0, 0, 0, 0, -1, -1, -1, -1)]
    for class_of in tables * 2:
        for size in range(5):
            for kinds in itertools.combinations(range(8), size):
                assert runtime.kinds_differ_kept(class_of, list(kinds)) == runtime.kinds_differ(class_of, list(kinds))
    answers = [runtime.kinds_differ(t, [0, 1]) for t in tables]
    assert answers[0] != answers[1]  # (so a memo by kinds alone is noticed above)


def test_a_lean_digest_without_the_counters_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lean digest whose writing had other counters (only the lean recorder's own ``marshal`` calls) would
    give other digests than ``table_digest(3)`` on a game with counters and dice (faces changed, and kept)."""
    for game, n in (("chicken", 3), ("rule-the-roost", 4)):
        engine = load_game(REPO / "games" / f"{game}.rules")
        right = listed(engine, n, 2)
        real = play_module._DUMPS

        def forgetful(value: list, version: int, real: Any = real) -> bytes:
            head = value[-1] if len(value) == 2 else value
            return real(value[:1] + [head[:-1] + [[]]] if len(value) == 2 else head[:-1] + [[1]], version)

        with monkeypatch.context() as patch:
            patch.setattr(play_module, "_DUMPS", forgetful)
            assert listed(engine, n, 2) != right, game


def test_a_batch_that_forgets_the_kept_hash_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Digests batched as play ends hashing only the bytes written (not going on from the faces' kept hash) would
    differ from ``table_digest(3)`` where the faces stay (Rule the Roost's, turn after turn)."""
    engine = load_game(REPO / "games" / "rule-the-roost.rules")
    right = listed(engine, 4, 1)

    def finish(self: Any) -> None:
        for event, _h, data in self.unhashed or ():
            event["digest"] = play_module._SHA256(data).digest()[:8].hex()

    monkeypatch.setattr(play_module._LeanListRecorder, "finish", finish)
    assert listed(engine, 4, 1) != right
