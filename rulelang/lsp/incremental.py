"""Parsing an edited buffer again without parsing what did not change.

A .rules file is a list of top-level items, each starting on a line at column 0. An edit
usually touches one of them, so :class:`BufferParser` cuts the buffer into *pieces* (a
line at column 0 that is not a comment starts one; the comment and blank lines after an
item stay with it), parses each piece on its own, at its place in the file (the lines
before it are blank for the parser), and remembers the declarations of each piece by its
text. A piece met again on other lines (lines were added or removed above it) gets its
remembered declarations moved by that many lines.

The declarations are those of :func:`rulelang.syntax.build.build_file` on the whole
text: the file's own limits (tokens, lines, holes: :func:`rulelang.syntax.scan.scan_text`)
are checked on the whole text first, and when anything goes wrong (a piece does not
parse, a limit is passed) the whole text is parsed the ordinary way, so that every error
is the one ``rulelang check`` reports. A piece that does not parse on its own ends in an
open bracket or a continued line, or is broken; either way the whole text decides.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.errors import ErrorList, RulelangError
from rulelang.syntax import ast
from rulelang.syntax.build import build_file
from rulelang.syntax.scan import scan_text
from rulelang.syntax.span import Span, register_source

_EMPTY = (1, 1, 1, 1)  # the span the builder gives a construct that matched no text, wherever it is


def pieces(text: str) -> list[tuple[int, str]]:
    """The pieces of ``text`` (``\\n`` line ends): (the 1-based line each starts on, its text with its line ends)."""
    lines = text.split("\n")
    found: list[tuple[int, str]] = []
    start = 0
    for number, line in enumerate(lines):
        if number > start and line[:1] not in ("", " ", "\t", "\f", "#"):
            found.append((start + 1, "\n".join(lines[start:number]) + "\n"))
            start = number
    found.append((start + 1, "\n".join(lines[start:])))
    return found


def moved(node: Any, lines: int) -> Any:
    """``node`` (an AST node, a tuple of them, or a plain value) with every span moved down by ``lines``."""
    if isinstance(node, Span):
        if (node.line, node.col, node.end_line, node.end_col) == _EMPTY:
            return node
        return Span(node.file, node.line + lines, node.col, node.end_line + lines, node.end_col)
    if isinstance(node, tuple):
        return tuple(moved(item, lines) for item in node)
    if attrs.has(type(node)):
        return type(node)(**{f.name: moved(getattr(node, f.name), lines) for f in attrs.fields(type(node))})
    return node


class BufferParser:
    """Builds the AST of one buffer, edit after edit, reusing the pieces it parsed before (see the module)."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, str], tuple[int, tuple[ast.Decl, ...]]] = {}  # (file, piece) -> (line, decls)
        self.parsed = 0  # pieces parsed by the last build (for the benchmark and tests)
        self.tokens: int | None = None  # the tokens of the last text built (what ``game_tokens`` counts)

    def build(self, text: str, path: str) -> ast.RulesFile:
        """What ``build_file(text, path)`` returns, or raises."""
        normal = text.replace("\r\n", "\n").replace("\r", "\n")
        self.tokens = None
        try:
            tokens = scan_text(normal if normal.endswith("\n") else normal + "\n", path)
            decls, known = self._pieces(normal, path)
        except (RulelangError, ErrorList):
            self.known = {}
            self.parsed = -1
            return build_file(text, path)  # the ordinary way: its error, at its place
        self.tokens = tokens
        register_source(path, normal)
        self.known = known
        return ast.RulesFile(path, decls)

    def _pieces(self, normal: str, path: str) -> tuple[tuple[ast.Decl, ...], dict]:
        decls: list[ast.Decl] = []
        known: dict[tuple[str, str], tuple[int, tuple[ast.Decl, ...]]] = {}
        self.parsed = 0
        for line, piece in pieces(normal):
            seen = self.known.get((path, piece)) or known.get((path, piece))
            if seen is None:
                own = build_file("\n" * (line - 1) + piece, path).decls
                self.parsed += 1
            else:
                own = seen[1] if seen[0] == line else moved(seen[1], line - seen[0])
            known[(path, piece)] = (line, own)
            decls.extend(own)
        return tuple(decls), known
