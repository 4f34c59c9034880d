"""Recording written cheaper, against the writing before (the same events, digests included, on every game at
its fewest and most players and on every example, kept in a list and handed on; the traces replay compliant):

- a roll recorded and not narrated makes each die's event as a copy of that die's event for the face shown,
  its step set in it (``chance.CHANCE_COPIED``): the same dicts, keys in the same order;
- a turn's digest of scheme 3 written in one ``marshal`` call where the faces changed since the last one,
  their own hash made only once they are seen unchanged (``state.DIGEST3_ONE_CALL``): the same bytes hashed;
- a list recorder's test of a new turn or look made at every action and step end, without keeping whether a
  step is under way (``play.LIST_UNTRACKED``).

A broken variant of each is noticed here (events copied from a shared dict, faces kept without a copy, a
recorder that forgets the test at an action).
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
from rulelang.compile import chance
from rulelang.engine import state as state_module
from rulelang.engine.engine import Engine
from rulelang.engine.state import State

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
RUN_FLAGS = [(state_module, "DIGEST3_ONE_CALL"), (play_module, "LIST_UNTRACKED")]


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(chance, "CHANCE_COPIED", on)
        return load_game(path)


def recordings(engine: Engine, players: int, seed: int, on: bool, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The game kept in a list and handed on (``lever_support.trace``), with the run-time flags ``on`` or off;
    the keys' order of every event with it."""
    with monkeypatch.context() as patch:
        for module, name in RUN_FLAGS:
            patch.setattr(module, name, on)
        kept, handed = listed(engine, players, seed), trace(engine, players, seed)
    orders = [list(e) for e in kept[0]]
    return [kept, handed, orders]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_records_as_without_the_levers(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
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


def test_the_dice_games_take_the_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    for game in ("chicken", "chicken-eggspansion"):
        new, old = _pair(game, monkeypatch)
        assert "CE[" in new.program.generated.source and "CE[" not in old.program.generated.source


def _pair(game: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    path = REPO / "games" / f"{game}.rules"
    return _load(path, monkeypatch, True), _load(path, monkeypatch, False)


def test_events_copied_from_a_shared_dict_are_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that hands out each die's event itself (not a copy) is noticed: its steps are wrong."""
    right = _load(REPO / "games" / "chicken.rules", monkeypatch, True)

    def shared(L: list, ev: str, dice: str, names: tuple[str, str, str, str], ind: int, sp: Any) -> None:
        face, die, e, _add = names
        L.append((ind, f"for {face}, {die} in enumerate({dice}, st.step + 1):", sp))
        L.append((ind + 1, f"{e} = CE[{die}][F[{die}]]", sp))
        L.append((ind + 1, f"{e}['step'] = {face}", sp))
        L.append((ind + 1, f"{ev}.append({e})", sp))

    monkeypatch.setattr(chance, "copied_events", shared)
    wrong = _load(REPO / "games" / "chicken.rules", monkeypatch, True)
    assert listed(wrong, 3, 1) != listed(right, 3, 1)


def kept_digests(st: State, digest: Any) -> list[tuple[str, str]]:
    """``digest(st, kept)`` of ``st`` as its faces change in place and stay (a new turn each time), each with
    ``table_digest(3)``."""
    kept: list[Any] = [None, None]
    got = []
    for change in (None, 3, None, None, 1, 4, None, 0, None):
        if change is not None:
            st.faces[change] = (st.faces[change] + 1) % 6
        st.turn += 1
        got.append((digest(st, kept), st.table_digest(3)))
    return got


def test_faces_changed_and_kept_digest_as_defined(monkeypatch: pytest.MonkeyPatch) -> None:
    """Faces changed in place and kept again are hashed as they are (digest by digest); a one-call digest that
    left the hash of the faces before in place when they changed is noticed."""
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(3)
    st.faces = [f if f >= 0 else 0 for f in st.faces]
    real = state_module.faces_kept_digest3
    got = kept_digests(st.copy(), real)
    assert all(a == b for a, b in got) and len({a for a, _b in got}) == len({b for _a, b in got}) > 5

    def stale(st: State, kept: list) -> str:
        before = kept[1]
        digest = real(st, kept)
        if kept[1] is None:
            kept[1] = before
        return digest

    assert any(a != b for a, b in kept_digests(st.copy(), stale))


def test_a_recorder_that_forgets_the_test_at_an_action_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """An untracked list recorder that tested only at a step's end would put digests after the action."""
    engine = load_game(REPO / "games" / "rule-the-roost.rules")
    right = listed(engine, 4, 1)

    def took(self: Any, st: State, seat: int, action: str) -> None:
        self.add({"type": "action", "step": st.step + 1, "player": self.labels[seat], "action": action})

    monkeypatch.setattr(play_module._recorder_class(), "took", took)
    assert listed(engine, 4, 1) != right
