"""Read a .rules file and the files it extends, base first."""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from rulelang.errors import RulelangError
from rulelang.safeio import STDIN_NAME, InputError, decode_text, read_rules
from rulelang.syntax import ast
from rulelang.syntax.build import build_file
from rulelang.syntax.scan import game_tokens
from rulelang.syntax.span import register_source


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
    if stdin is not None:
        current, shown, data = Path.cwd() / STDIN_NAME, STDIN_NAME, stdin
    else:
        current = Path(path)
        shown = _display_path(current)
        try:
            data = read_rules(current, shown)
        except InputError as exc:
            if exc.message.startswith("no such"):
                exc.message = f"no such file: {shown}"
                exc.hint = "check the path of the .rules file"
            raise exc from None
    text = _decoded(data, shown)
    source = SourceFile(shown, hashlib.sha256(data).hexdigest(), build_file(text, shown))
    return load_extended(current, source, game_tokens(text, shown), piped=stdin is not None)


def load_extended(path: Path, source: SourceFile, used: int = 0, piped: bool = False) -> list[SourceFile]:
    """``source`` (the file at ``path``, read already or an editor's buffer) after the files it extends, base first.

    Each extended file is read with :func:`read_rules`, confined to the directory of the file that extends it;
    the files share one budget of tokens, of which ``source`` used ``used``. ``piped``: ``source`` came from
    standard input (``path`` is then in the current directory).
    """
    chain = [source]
    try:
        seen = {path.resolve()}
    except (OSError, RuntimeError):
        seen = set()
    current = path
    while True:
        tree = chain[-1].tree
        game = next((d for d in tree.decls if isinstance(d, ast.GameDecl)), None)
        if game is None or game.extends is None:
            break
        from_stdin = piped and len(chain) == 1  # the rules on standard input extend this file
        origin = game.span
        extends_span = game.extends_span or origin
        base = current.parent
        current = current.parent / game.extends
        shown = _display_path(current)
        try:
            resolved = current.resolve()
        except (OSError, RuntimeError):
            resolved = None
        if resolved is not None and resolved in seen:
            raise RulelangError(
                f"'{shown}' extends itself (through a chain of extends)", origin,
                hint="a variant extends its base game; the base must not extend the variant",
            )
        if resolved is not None:
            seen.add(resolved)
        outside = ("the current directory (the rules came from standard input)" if from_stdin
                   else "the directory of the file that extends it")
        try:
            data = read_rules(current, shown, within=base, written=game.extends, span=extends_span,
                              what="extended rules file", outside=outside)
        except InputError as exc:
            if exc.message.startswith("no such"):
                exc.message = f"the game this file extends does not exist: {shown}"
                exc.hint = ("the path is relative to the current directory (the rules came from standard input)"
                            if from_stdin else "the path is relative to the file that says 'extends'")
            elif "is outside" in exc.message and from_stdin:
                exc.hint = "rules read from standard input extend a .rules file in the current directory or below it"
            raise exc from None
        text = _decoded(data, shown)
        used = game_tokens(text, shown, used)
        chain.append(SourceFile(shown, hashlib.sha256(data).hexdigest(), build_file(text, shown)))
    chain.reverse()
    return chain


def _decoded(data: bytes, shown: str) -> str:
    try:
        return decode_text(data, "rules file", shown)
    except InputError as exc:
        if exc.span is not None:
            register_source(shown, data.decode("utf-8", "replace").replace("\x00", " "))
        raise exc from None
