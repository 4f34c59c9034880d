"""Read a .rules file and the files it extends, base first."""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from rulelang.errors import RulelangError
from rulelang.safeio import (
    MAX_RULES_BYTES,
    STDIN_NAME,
    InputError,
    decode_text,
    inside,
    read_input,
    require_rules_suffix,
)
from rulelang.syntax import ast
from rulelang.syntax.build import build_file
from rulelang.syntax.span import Span, register_source


@attrs.frozen
class SourceFile:
    """One file of a game: its path as shown to the user, its sha256 and its AST."""

    path: str
    sha256: str
    tree: ast.RulesFile


def _display_path(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path.as_posix()


def load_sources(path: str | Path, stdin: bytes | None = None) -> list[SourceFile]:
    """Parse ``path`` and, recursively, the file it ``extends``; return them base first.

    With ``stdin`` (the rules read from standard input), that text is the game, shown as
    ``<stdin>``; the file it extends is found from the current directory, never above it.
    """
    chain: list[SourceFile] = []
    seen: set[Path] = set()
    current = Path(path) if stdin is None else Path.cwd() / STDIN_NAME
    origin: Span | None = None
    extends_span: Span | None = None
    base = current.parent
    game_extends = ""
    while True:
        shown = _display_path(current)
        try:
            resolved = current.resolve()
        except (OSError, RuntimeError):
            raise InputError(f"cannot read {shown}: a symbolic link loop", extends_span if origin else None,
                             hint="a symbolic link that points back to itself") from None
        if resolved in seen:
            raise RulelangError(
                f"'{shown}' extends itself (through a chain of extends)", origin,
                hint="a variant extends its base game; the base must not extend the variant",
            )
        seen.add(resolved)
        piped = stdin is not None and len(chain) == 1  # the rules on standard input extend this file
        if origin is not None and not inside(base, current):
            raise RulelangError(
                f"'{game_extends}' is outside the " + ("current directory (the rules came from standard input)"
                                                       if piped else "directory of the file that extends it"),
                extends_span or origin,
                hint="a game extends a .rules file in its own directory or below it" if not piped else
                "rules read from standard input extend a .rules file in the current directory or below it",
            )
        if stdin is not None and origin is None:
            shown = STDIN_NAME
        else:
            require_rules_suffix(current, shown, extends_span if origin is not None else None)
        what = "rules file" if origin is None else "extended rules file"
        try:
            data = stdin if stdin is not None and origin is None else read_input(current, what, MAX_RULES_BYTES, shown)
        except InputError as exc:
            if origin is not None:
                exc.span = extends_span or origin
                if exc.message.startswith("no such"):
                    exc.message = f"the game this file extends does not exist: {shown}"
                    exc.hint = ("the path is relative to the current directory (the rules came from standard input)"
                                if piped else "the path is relative to the file that says 'extends'")
            elif exc.message.startswith("no such"):
                exc.message = f"no such file: {shown}"
                exc.hint = "check the path of the .rules file"
            raise exc from None
        try:
            text = decode_text(data, "rules file", shown)
        except InputError as exc:
            if exc.span is not None:
                register_source(shown, data.decode("utf-8", "replace").replace("\x00", " "))
            raise exc from None
        tree = build_file(text, shown)
        chain.append(SourceFile(shown, hashlib.sha256(data).hexdigest(), tree))
        game = next((d for d in tree.decls if isinstance(d, ast.GameDecl)), None)
        if game is None or game.extends is None:
            break
        origin = game.span
        extends_span = game.extends_span
        base = current.parent
        game_extends = game.extends
        current = current.parent / game.extends
    chain.reverse()
    return chain
