"""Loading a game: text -> syntax -> checked model -> compiled program -> engine."""

from __future__ import annotations

from pathlib import Path

from rulelang.check.checker import check_sources
from rulelang.compile.compiler import compile_model
from rulelang.engine.engine import DEFAULT_BUDGET, Engine
from rulelang.errors import RulelangError
from rulelang.syntax.loader import load_sources
from rulelang.syntax.span import Span


def load_game(path: str | Path, options: dict[str, str] | None = None, budget: int = DEFAULT_BUDGET,
              stdin: bytes | None = None) -> Engine:
    """Parse, check and compile the game in ``path`` (or the rules text ``stdin``, read from standard input);
    raise RulelangError/ErrorList if it is broken."""
    sources = load_sources(path, stdin)
    try:
        model = check_sources(sources, options)
        return Engine(compile_model(model), budget=budget)
    except RecursionError:  # a last guard: the syntax and definition limits should come first
        top = sources[-1].path
        raise RulelangError("the rules nest too deeply to check (definitions used inside deep expressions?)",
                            Span(top, 1, 1, 1, 2), hint="split deep expressions and long chains of definitions"
                            ) from None
