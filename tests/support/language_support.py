"""Small games written inline for the language tests: load one from text, play it by hand."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import rulelang
from rulelang.engine.engine import Engine
from rulelang.errors import ErrorList, RulelangError
from rulelang.rng import Rng

HEAD = 'game "t"\nplayers 2 to 4\n'


def game(tmp_path: Path, body: str, head: str = HEAD, name: str = "t.rules",
         options: dict[str, str] | None = None) -> Engine:
    """Load a game whose text is ``head`` + ``body`` (dedented)."""
    path = tmp_path / name
    path.write_text(head + textwrap.dedent(body))
    return rulelang.load_game(path, options=options)


def check_errors(tmp_path: Path, body: str, head: str = HEAD) -> list[RulelangError]:
    """The errors the checker reports for a game (fails if it loads)."""
    try:
        game(tmp_path, body, head)
    except ErrorList as exc:
        return exc.errors
    except RulelangError as exc:
        return [exc]
    raise AssertionError("the game loaded without errors")


def check_errors_with(tmp_path: Path, body: str, options: dict[str, str]) -> list[RulelangError]:
    """The errors reported for a game loaded with these options (fails if it loads)."""
    try:
        game(tmp_path, body, options=options)
    except ErrorList as exc:
        return exc.errors
    raise AssertionError("the game loaded without errors")


def say_lines(engine: Engine, players: int = 2, choices: list[str] | None = None) -> list[str]:
    """Play with the given choices (then the first option) and return the narrated ``say`` lines."""
    st = engine.new_state(players, narrate=True)
    log: list[dict[str, Any]] = list(st.log or [])
    st.log = []
    todo = list(choices or [])
    rng = Rng(1)
    steps = 0
    while not st.over and steps < 200:
        d = engine.pending(st)
        assert d is not None
        if d.kind == "choice":
            engine.apply(st, todo.pop(0) if todo else list(d.labels or [])[0])
        else:
            engine.apply(st, d.sample(rng))
        log += st.log or []
        st.log = []
        steps += 1
    return [e["text"] for e in log if e["type"] == "say"]
