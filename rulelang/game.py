"""Loading a game: text -> syntax -> checked model -> compiled program -> engine."""

from __future__ import annotations

from pathlib import Path

from rulelang.check.checker import check_sources
from rulelang.compile.compiler import compile_model
from rulelang.engine.engine import DEFAULT_BUDGET, Engine
from rulelang.syntax.loader import load_sources


def load_game(path: str | Path, options: dict[str, str] | None = None, budget: int = DEFAULT_BUDGET) -> Engine:
    """Parse, check and compile the game in ``path``; raise RulelangError/ErrorList if it is broken."""
    sources = load_sources(path)
    model = check_sources(sources, options)
    return Engine(compile_model(model), budget=budget)
