"""What an editor needs to know about one .rules buffer, saved or not.

The buffer is parsed, checked and compiled exactly as ``rulelang check`` loads a file
(the files it extends are read from disk), so the problems are the same messages; the
declarations of the buffer and of the files it extends are indexed for hover,
go-to-definition and completion. Nothing here depends on an editor protocol.
"""

from __future__ import annotations

import hashlib
import linecache
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from rulelang.check.checker import BUILTINS, check_sources
from rulelang.compile.checking import CheckingCompile, compile_python
from rulelang.compile.codegen import compile_model
from rulelang.errors import ErrorList, RulelangError
from rulelang.fmt.words import keywords as grammar_keywords
from rulelang.game import nesting_error
from rulelang.lsp.incremental import BufferParser
from rulelang.safeio import check_rules_buffer
from rulelang.syntax import ast
from rulelang.syntax.build import build_file
from rulelang.syntax.loader import SourceFile, load_extended
from rulelang.syntax.scan import game_tokens
from rulelang.syntax.span import Span, source_line

UNTITLED = "untitled.rules"
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#.*')


@attrs.frozen
class Problem:
    """A diagnostic: the message as ``rulelang check`` words it, where it is in this buffer, and its severity.

    ``span`` is None when the error lies in another file (``elsewhere`` then cites it)
    or has no place; the editor shows it at ``anchor`` (the ``extends`` line) or the top.
    """

    message: str
    span: Span | None
    severity: str  # "error" or "warning"
    elsewhere: Span | None = None
    anchor: Span | None = None


@attrs.frozen
class Symbol:
    """A declared name: what it is, where its name is written, its declaration line and its documentation."""

    name: str
    kind: str  # rule, zone, counter, define, option, attribute, face, component, sheet, setup, turn
    span: Span
    declaration: str
    doc: str | None
    comment: str | None


@attrs.frozen
class Analysis:
    """The result of analysing a buffer: its problems and, if every file parsed, its symbols."""

    display: str
    problems: tuple[Problem, ...]
    symbols: dict[str, tuple[Symbol, ...]] | None


def display_path(path: Path | None) -> str:
    """The file name as ``rulelang check`` shows it (relative to the working directory when inside it)."""
    if path is None:
        return UNTITLED
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def analyse(path: Path | None, text: str) -> Analysis:
    """Parse, check and compile ``text`` as the contents of ``path``; index its declarations.

    The buffer and the files it extends are held to the CLI's file policy (:func:`rulelang.safeio.read_rules`).
    Everything is done from scratch; :class:`Analyser` gives the same analysis, reusing its previous work.
    """
    return Analyser(reuse=False).analyse(path, text)


class Analyser:
    """The analyses of one buffer, edit after edit: each is :func:`analyse`'s, reached with less work.

    With ``reuse``, the pieces of the buffer that did not change are not parsed again
    (:class:`rulelang.lsp.incremental.BufferParser`) and the generated functions that compiled before are
    not compiled again (:class:`rulelang.compile.checking.CheckingCompile`); the checker and the code
    generator run on the whole game each time. Not thread-safe: one analysis at a time.
    """

    def __init__(self, reuse: bool = True) -> None:
        self.parser = BufferParser() if reuse else None
        self.compile_source: Callable[[str, str, str], Any] = CheckingCompile() if reuse else compile_python

    def analyse(self, path: Path | None, text: str) -> Analysis:
        """The analysis of ``text`` as the contents of ``path`` (see :func:`analyse`)."""
        display = display_path(path)
        try:
            text = check_rules_buffer(text, display)
            tree = self.parser.build(text, display) if self.parser is not None else build_file(text, display)
        except RulelangError as exc:
            return Analysis(display, (_problem(exc, display, None),), None)
        game = next((d for d in tree.decls if isinstance(d, ast.GameDecl)), None)
        anchor = game.extends_span if game is not None else None
        sources = [SourceFile(display, hashlib.sha256(text.encode("utf-8")).hexdigest(), tree)]
        try:
            tokens = self.parser.tokens if self.parser is not None else None  # (counted as it was built)
            sources = load_extended(path if path is not None else Path.cwd() / UNTITLED, sources[0],
                                    game_tokens(text, display) if tokens is None else tokens)
        except (RulelangError, ErrorList) as exc:
            errors = exc.errors if isinstance(exc, ErrorList) else [exc]
            return Analysis(display, tuple(_problem(e, display, anchor) for e in errors), _index(sources))
        problems: list[Problem] = []
        try:
            program = compile_model(check_sources(sources), compile_source=self.compile_source)
        except ErrorList as exc:
            problems = [_problem(e, display, anchor) for e in exc.errors]
        except RulelangError as exc:
            problems = [_problem(exc, display, anchor)]
        except RecursionError:  # (as load_game says it)
            problems = [_problem(nesting_error(display), display, anchor)]
        else:
            linecache.cache.pop(program.generated.filename, None)  # (kept for tracebacks of a game that runs)
        return Analysis(display, tuple(problems), _index(sources))


def _problem(exc: RulelangError, display: str, anchor: Span | None) -> Problem:
    message = exc.message + (f"\nhint: {exc.hint}" if exc.hint else "")
    severity = "warning" if exc.kind == "warning" else "error"
    if exc.span is not None and exc.span.file == display:
        return Problem(message, exc.span, severity)
    return Problem(message, None, severity, elsewhere=exc.span, anchor=anchor)


# ------------------------------------------------------------------ the index of declarations


def _index(sources: list[SourceFile]) -> dict[str, tuple[Symbol, ...]]:
    """Every declared name of the game, the last file's declarations last (they override the base's)."""
    found: dict[str, list[Symbol]] = {}
    for source in sources:
        for decl in source.tree.decls:
            symbol = _symbol(decl)
            if symbol is not None:
                found.setdefault(symbol.name, []).append(symbol)
    return {name: tuple(symbols) for name, symbols in found.items()}


def _symbol(decl: ast.Decl) -> Symbol | None:
    name: str | None
    doc: str | None = None
    match decl:
        case ast.BlockDecl(kind="rule"):
            kind, name, doc = "rule", decl.name, decl.title
        case ast.BlockDecl():
            kind, name = decl.kind, None
        case ast.ZoneDecl():
            kind, name, doc = "zone", decl.name, decl.display
        case ast.CounterDecl():
            kind, name, doc = "counter", decl.name, decl.doc
        case ast.DefineDecl():
            kind, name = "define", decl.name
        case ast.OptionDecl():
            kind, name, doc = "option", decl.name, decl.doc
        case ast.AttributeDecl():
            kind, name = "attribute", decl.name
        case ast.FaceDecl():
            kind, name, doc = "face", decl.name, decl.display
        case ast.ComponentDecl():
            kind, name, doc = "component", decl.name, decl.display
        case ast.SheetDecl():
            kind, name = "sheet", decl.name
        case _:
            return None
    if name is None:
        return None
    span = decl.span
    first = source_line(span.file, span.line) or ""
    code, trailing = _split_comment(first)
    comments = [c for c in (_comment_above(span), trailing) if c]
    return Symbol(name, kind, _name_span(span, first, name), code.strip(), doc, "\n".join(comments) or None)


def _split_comment(line: str) -> tuple[str, str | None]:
    """A line's code and its trailing comment (without the '#'), if it has one."""
    for m in _STRING_OR_COMMENT.finditer(line):
        if m.group().startswith("#"):
            return line[: m.start()].rstrip(), m.group()[1:].strip()
    return line, None


def _name_span(span: Span, line: str, name: str) -> Span:
    """Where ``name`` is written in its declaration's first line (after the first word)."""
    start = span.col - 1
    first_word = _WORD.match(line, start) or re.compile(r"\S+").match(line, start)
    search_from = first_word.end() if first_word else start
    m = re.compile(rf"\b{re.escape(name)}\b").search(line, search_from)
    if m is None:
        return Span(span.file, span.line, span.col, span.line, span.col + 1)
    return Span(span.file, span.line, m.start() + 1, span.line, m.end() + 1)


def _comment_above(span: Span) -> str | None:
    """The comment lines written directly above a declaration, without their '#'."""
    lines: list[str] = []
    number = span.line - 1
    while number >= 1:
        text = (source_line(span.file, number) or "").strip()
        if not text.startswith("#"):
            break
        lines.append(text[1:].strip())
        number -= 1
    return "\n".join(reversed(lines)) if lines else None


# ------------------------------------------------------------------ words, keywords and positions


def word_at(line: str, col: int) -> str | None:
    """The name under 0-based character ``col`` of ``line``, or None (comments and plain string text excluded).

    Inside a string only the ``{expr}`` holes hold names.
    """
    for m in _STRING_OR_COMMENT.finditer(line):
        if m.start() <= col < m.end():
            if m.group().startswith("#"):
                return None
            inside = col - m.start()
            if not any(h.start() < inside < h.end() for h in re.finditer(r"\{[^{}]*\}", m.group())):
                return None
    for m in _WORD.finditer(line):
        if m.start() <= col <= m.end():
            return m.group()
    return None


def keywords() -> tuple[str, ...]:
    """The language's keywords, read from the grammar (so new ones are known without a change here)."""
    return tuple(sorted(grammar_keywords()))


def functions() -> tuple[str, ...]:
    """The built-in functions an expression may call."""
    return tuple(sorted(set(BUILTINS) | {"max", "min", "total", "count", "any", "sum"}))


# ------------------------------------------------------------------ local names

_BINDINGS = (
    r"\blet\s+(?P<n>NAME)\s*=",  # let x = ...
    r"\bfor\s+(?P<n>NAME)\s+in\b",  # for x in ... (statements, choose options, max(... for x in ...))
    r"\bask\s+(?P<n>NAME)\s+in\b",  # ask p in ...
    r"\bany\s+player\s+(?P<n>NAME)\s+has\b",  # when any player p has ...
    r"\bsheet\s+NAME\s+for\s+(?P<n>NAME)\s*:",  # sheet s for p:
    r"\brank\s+(?P<n>NAME)\s+by\b",  # rank p by ...
    r"^payoff\s+(?P<n>NAME)\s*=",  # payoff p = ...
)
_PARAMETER = r"[(,]\s*(?P<n>NAME)\s*(?::\s*[A-Za-z_]\w*\s*)?(?=[,)])"  # rule r(x: number, y)
_WITH_PARAMETERS = re.compile(r"\s*(?:override\s+)?(?:rule|define)\b")


def _blank_strings_and_comments(line: str) -> str:
    """The line with its strings and comment replaced by spaces (so names in them are not bindings)."""
    return _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group()), line)


def _pattern(template: str, name: str) -> re.Pattern[str]:
    return re.compile(template.replace("(?P<n>NAME)", f"(?P<n>{re.escape(name)})").replace("NAME", r"[A-Za-z_]\w*"))


def local_binding(lines: list[str], line: int, name: str) -> tuple[int, int, int] | None:
    """Where the local ``name`` used on 0-based ``line`` is bound: (line, start, end), 0-based, or None.

    The binding is the nearest one above (or on) the line, within the same top-level
    declaration: a ``let``, a ``for`` or ``ask`` variable, a rule's or definition's parameter,
    or the player variable of a trigger, score sheet, ranking or payoff.
    """
    if not 0 <= line < len(lines):
        return None
    start = line
    while start > 0 and not (lines[start][:1].strip() and not lines[start].startswith("#")):
        start -= 1
    patterns = [_pattern(p, name) for p in _BINDINGS]
    for number in range(line, start - 1, -1):
        text = _blank_strings_and_comments(lines[number])
        candidates = patterns + ([_pattern(_PARAMETER, name)] if number == start and _WITH_PARAMETERS.match(text)
                                 else [])
        hits = [m for pattern in candidates for m in pattern.finditer(text)]
        if hits:
            m = max(hits, key=lambda h: h.start("n"))
            return number, m.start("n"), m.end("n")
    return None
