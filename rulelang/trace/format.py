"""The trace format: JSON Lines, one event a line (see docs/traces.md)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from rulelang.engine.engine import Engine
from rulelang.engine.state import State

TRACE_FORMAT = "rulelang-trace/3"
TRACE_FORMATS = {"rulelang-trace/1": 1, "rulelang-trace/2": 2, "rulelang-trace/3": 3}
"""The trace formats this rulelang reads, each with the scheme of its tables' digests
(``State.table_digest``): format 1 hashed the table's JSON text, format 2 its numbers as bytes and its
counters as JSON text, format 3 all of them as bytes written in one pass; the lines are the same."""
# New recordings write format 3 (turn digests of scheme 3); off: format 2, as before (``written_format``).
DIGEST3 = True
CHANCE_FROM_SEED = "seed"
"""The header's ``"chance"`` when every chance outcome was drawn from the seed's chance stream
(PCG32 stream 0 of ``seed``, see docs/traces.md): replay then checks each outcome against it."""


def header(engine: Engine, game_file: str, players: int, seed: int | None, agents: list[str],
           options: dict[str, Any], chance: str | None = None) -> dict[str, Any]:
    """The first line of a trace: which game, which file (and its sha256), who played, the seed, and
    with ``chance`` (``CHANCE_FROM_SEED``) that every chance outcome was drawn from the seed."""
    model = engine.model
    files = model.files
    head: dict[str, Any] = {
        "type": "header",
        "format": written_format(),
        "game": model.title,
        "file": game_file,
        "sha256": files[-1][1],
        "sources": [{"file": f, "sha256": h} for f, h in files],
        "variant": model.title if len(files) > 1 else None,
        "options": {name: opt.value for name, opt in sorted(model.options.items())},
        "players": players,
        "seed": seed,
    }
    if chance is not None:
        head["chance"] = chance  # (next to the seed it names)
    head["agents"] = agents
    return head


def written_format() -> str:
    """The format new recordings write: ``TRACE_FORMAT`` (format 3), or format 2 with ``DIGEST3`` off."""
    return TRACE_FORMAT if DIGEST3 else "rulelang-trace/2"


def written_scheme() -> int:
    """The scheme of the turn digests new recordings write (``State.table_digest``): that of
    ``written_format()``."""
    return TRACE_FORMATS[written_format()]


def digest_line(state: State) -> dict[str, Any]:
    """A turn's checkpoint: the turn (or round) that has begun and the digest of the table then
    (``State.table_digest`` of the scheme new recordings write), written at its first decision."""
    return {"type": "digest", "turn": state.turn, "digest": state.table_digest(written_scheme())}


def result_line(state: State) -> dict[str, Any]:
    """The last line of a trace: the result and a digest of the final state."""
    assert state.result is not None
    line = {
        "type": "result",
        "steps": state.step,
        "turns": state.turn,
        "winners": state.result["winners"],
        "standings": state.result["standings"],
    }
    for key in ("payoffs", "outcome"):  # only in a game that declares a payoff
        if key in state.result:
            line[key] = state.result[key]
    line["digest"] = state.digest()
    return line


def dumps_line(event: dict[str, Any]) -> str:
    """One trace line: compact JSON, keys in a stable order."""
    return _LINE(event)


_LINE = json.JSONEncoder(separators=(", ", ": "), ensure_ascii=False).encode  # (one encoder for every line)


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
