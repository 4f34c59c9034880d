"""Loading a game: text -> syntax -> checked model -> compiled program -> engine."""

from __future__ import annotations

import hashlib
import os
import stat
from collections import OrderedDict
from pathlib import Path

import attrs

from rulelang.check.checker import check_sources
from rulelang.compile.codegen import compile_model
from rulelang.engine.engine import DEFAULT_BUDGET, Engine
from rulelang.errors import RulelangError
from rulelang.safeio import InputError, decode_text
from rulelang.syntax import ast
from rulelang.syntax.loader import SourceFile, load_sources
from rulelang.syntax.span import Span, register_source

MEMO_SIZE = 16
"""How many loaded games one process keeps (see :func:`load_game`)."""


@attrs.frozen
class _Loaded:
    """A game loaded in this process: its engine and, top file first, each file's path, shown name and sha256."""

    engine: Engine
    files: tuple[tuple[Path, str, str], ...]


_MEMO: OrderedDict[tuple[object, ...], _Loaded] = OrderedDict()


def load_game(path: str | Path, options: dict[str, str] | None = None, budget: int = DEFAULT_BUDGET,
              stdin: bytes | None = None) -> Engine:
    """Parse, check and compile the game in ``path`` (or the rules text ``stdin``, read from standard input);
    raise RulelangError/ErrorList if it is broken.

    A process keeps the last few games it loaded from files (in memory only): loading the same files again,
    byte for byte, from the same directory with the same options and budget gives the same engine back
    (engines are stateless). ``RULELANG_NO_CACHE=1`` turns this off."""
    key = _memo_key(path, options, budget) if stdin is None else None
    if key is not None:
        known = _MEMO.get(key)
        if known is not None and _unchanged(known):
            _MEMO.move_to_end(key)
            return known.engine
    sources = load_sources(path, stdin)
    try:
        model = check_sources(sources, options)
        engine = Engine(compile_model(model), budget=budget)
    except RecursionError:  # a last guard: the syntax and definition limits should come first
        raise nesting_error(sources[-1].path) from None
    if key is not None:
        _MEMO[key] = _Loaded(engine, _chain(Path(path), sources))
        while len(_MEMO) > MEMO_SIZE:
            _MEMO.popitem(last=False)
    return engine


def forget_loaded_games() -> None:
    """Drop the games this process keeps, so that the next loads compile afresh."""
    _MEMO.clear()


def _memo_key(path: str | Path, options: dict[str, str] | None, budget: int) -> tuple[object, ...] | None:
    """What a load depends on besides the files' bytes, or None when loads are not to be kept."""
    if os.environ.get("RULELANG_NO_CACHE", "").strip() not in ("", "0"):
        return None
    try:
        cwd = os.getcwd()  # shown names (and so every span) are relative to it
    except OSError:
        return None
    opts = tuple(sorted((repr(k), repr(v)) for k, v in (options or {}).items()))
    return (os.fspath(path), cwd, opts, budget)


def _chain(top: Path, sources: list[SourceFile]) -> tuple[tuple[Path, str, str], ...]:
    """The files of a loaded game, top first, as the loader found them."""
    files = []
    current = top
    for source in reversed(sources):
        files.append((current, source.path, source.sha256))
        game = next((d for d in source.tree.decls if isinstance(d, ast.GameDecl)), None)
        if game is not None and game.extends is not None:
            current = current.parent / game.extends
    return tuple(files)


def _shown(path: Path) -> str:
    """The name the loader shows for ``path`` (relative to the working directory when inside it)."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path.as_posix()


def _unchanged(known: _Loaded) -> bool:
    """Whether every file of a kept game still has the same name and bytes; if so, its text is registered again
    (for errors that quote the rules), as loading it would."""
    texts = []
    for path, shown, sha in known.files:
        try:
            if _shown(path) != shown:
                return False
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO put there must not block
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return False
                with os.fdopen(fd, "rb", closefd=False) as handle:
                    data = handle.read()
            finally:
                os.close(fd)
            if hashlib.sha256(data).hexdigest() != sha:
                return False
            texts.append((shown, decode_text(data, "rules file", shown)))
        except (OSError, InputError):
            return False
    for shown, text in texts:
        register_source(shown, text)
    return True


def nesting_error(top: str) -> RulelangError:
    """The error for rules that nest too deeply to check (Python's stack ran out), placed at ``top``'s start."""
    return RulelangError("the rules nest too deeply to check (definitions used inside deep expressions?)",
                         Span(top, 1, 1, 1, 2), hint="split deep expressions and long chains of definitions")
