"""Read a .rules file and the files it extends, base first."""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from rulelang.errors import RulelangError
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
    except ValueError:
        return path.as_posix()


def load_sources(path: str | Path) -> list[SourceFile]:
    """Parse ``path`` and, recursively, the file it ``extends``; return them base first."""
    chain: list[SourceFile] = []
    seen: set[Path] = set()
    current = Path(path)
    origin: Span | None = None
    extends_span: Span | None = None
    while True:
        shown = _display_path(current)
        resolved = current.resolve()
        if resolved in seen:
            raise RulelangError(
                f"'{shown}' extends itself (through a chain of extends)", origin,
                hint="a variant extends its base game; the base must not extend the variant",
            )
        seen.add(resolved)
        try:
            data = current.read_bytes()
        except FileNotFoundError:
            if origin is None:
                raise RulelangError(f"no such file: {shown}", hint="check the path of the .rules file") from None
            raise RulelangError(
                f"the game this file extends does not exist: {shown}", extends_span or origin,
                hint="the path is relative to the file that says 'extends'",
            ) from None
        except OSError as exc:
            raise RulelangError(f"cannot read {shown}: {exc.strerror}", origin) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            lossy = data.decode("utf-8", "replace")
            register_source(shown, lossy)
            before = data[: exc.start].decode("utf-8", "replace")
            line = before.count("\n") + 1
            col = len(before) - (before.rfind("\n") + 1) + 1
            raise RulelangError(f"{shown} is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                                Span(shown, line, col, line, col + 1), hint="save the file as UTF-8") from None
        tree = build_file(text, shown)
        chain.append(SourceFile(shown, hashlib.sha256(data).hexdigest(), tree))
        game = next((d for d in tree.decls if isinstance(d, ast.GameDecl)), None)
        if game is None or game.extends is None:
            break
        origin = game.span
        extends_span = game.extends_span
        current = current.parent / game.extends
    chain.reverse()
    return chain
