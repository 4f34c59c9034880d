"""A linear-time look at rules text before the parser sees it: sizes that only hostile input reaches.

Parsing costs tens of microseconds a token and the later stages walk the rules recursively, so
a megabyte of ``1+1+...`` or of ``((((...))))`` took a minute to refuse. :func:`scan_text` reads
the text once, with one regular expression, and refuses the first place that passes a limit:
too many tokens in the file or in one statement, a long chain of operators, brackets or blocks
nested deep, a very long line, too many ``{...}`` holes in strings. Every limit is several times
what the shipped games write (see ``benchmarks/refusals.py``), and every refusal says which
limit and what the author can do.
"""

from __future__ import annotations

import re

from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

MAX_FILE_TOKENS = 20_000
"""Tokens in one game, the files it extends included (the biggest shipped game has 1,911).

A game of 9,800 tokens whose every rule is called compiles in 0.86 s on this 2-core machine at load 0.8
(``benchmarks/refusals.py``); the code limits of ``rulelang/compile/expansion.py`` bound what more tokens could cost."""

MAX_STATEMENT_TOKENS = 2_000
"""Tokens in one statement or declaration, continuation lines included (the shipped games: 69)."""

MAX_OPERATORS = 100
"""Operators in one statement (``+ - * / % == != < > <= >= and or not``); the shipped games write 12 at most.

A chain of n operators nests n levels deep for the parser, so this matches MAX_NESTING of the parser."""

MAX_BRACKETS = 32
"""How deeply ``(``, ``[`` and ``{`` may nest (the shipped games: 4)."""

MAX_INDENT_LEVELS = 60
"""How many indented blocks may nest (the shipped games: 5); the parser's MAX_NESTING counts each block too."""

MAX_LINES = 20_000
"""Lines in one file, blank and comment lines included (the shipped games: at most 351). The parser reads
a run of blank lines with a regular expression that costs about a microsecond a line."""

MAX_LINE_CHARS = 10_000
"""Characters on one line (the shipped games: 203)."""

MAX_HOLES = 1_500
"""``{...}`` holes in the strings of one file; each is parsed on its own (the shipped games: 33)."""

_TOKEN = re.compile(
    r"(?P<nl>\n(?:[ \t\f]*(?:#[^\n]*)?\n)*)"  # a line end, then any blank or comment-only lines
    r"|(?P<ws>(?:[ \t\f]+|\\[ \t]*\n)+)"  # spaces and continued lines
    r"|(?P<comment>#[^\n]*)"
    r'|(?P<string>"(?:[^"\\\n]|\\.)*"?)'
    r"|(?P<open>[(\[{])"
    r"|(?P<close>[)\]}])"
    r"|(?P<op>[-+]=|[=!<>]=|[-+*/%<>])"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<other>[0-9]+|.)"
)
_OPERATOR_WORDS = frozenset({"and", "or", "not"})
_HOLE = re.compile(r"\{[^{}]*\}")
_HOLE_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\S")


def _refuse(message: str, hint: str, path: str, line: int, col: int, width: int = 1,
            offset: tuple[int, int] = (0, 0)) -> RulelangError:
    if line == 1:
        col += offset[1]
    return RulelangError(message, Span(path, line + offset[0], col, line + offset[0], col + max(1, width)), hint=hint)


def scan_text(text: str, path: str, offset: tuple[int, int] = (0, 0), budget: int = MAX_FILE_TOKENS,
              whole: str = "the file") -> int:
    """The number of tokens in ``text``; raise RulelangError at the first place that passes a limit.

    ``text`` has ``\\n`` line ends (the parser's normalised text); ``offset`` places an expression
    read from a ``{...}`` hole of a string in its file; ``budget`` is the number of tokens left for
    ``whole`` (a game and the files it extends share one budget). Linear in the length of ``text``.
    """
    line, line_start = 1, 0
    tokens = statement_tokens = operators = holes = 0
    brackets: list[tuple[int, int]] = []  # (line, col) of each open bracket
    indents = [0]
    at_line_start = True
    if text.count("\n", 0, len(text) - 1) >= MAX_LINES:
        line = MAX_LINES + 1
        raise _refuse(f"the file is too long to check (more than {MAX_LINES} lines)",
                      "split the game into a base file and variants that extend it, or remove blank lines",
                      path, line, 1, offset=offset)
    _check_line(text, 0, 1, path, offset)
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        start = m.start()
        if kind == "nl":
            line += m.group().count("\n")
            line_start = m.end()
            _check_line(text, line_start, line, path, offset)
            if not brackets:
                at_line_start = True
            continue
        if kind == "ws":
            found = m.group()
            if "\n" in found:
                line += found.count("\n")
                line_start = start + found.rfind("\n") + 1
                _check_line(text, line_start, line, path, offset)
            continue
        if kind == "comment":
            continue
        col = start - line_start + 1
        if at_line_start:
            at_line_start = False
            statement_tokens = operators = 0
            width = len(text[line_start:start].expandtabs(4))
            if width > indents[-1]:
                indents.append(width)
                if len(indents) - 1 > MAX_INDENT_LEVELS:
                    raise _refuse(f"the blocks nest too deeply here (more than {MAX_INDENT_LEVELS} indented levels)",
                                  "move the inner blocks into a rule of their own and call it", path, line, col,
                                  offset=offset)
            else:
                while len(indents) > 1 and width < indents[-1]:
                    indents.pop()
        tokens += 1
        statement_tokens += 1
        if tokens > budget:
            raise _refuse(f"{whole} is too long to check (more than {MAX_FILE_TOKENS} words and symbols)",
                          "split the game into a base file and variants that extend it, or shorten repeated rules "
                          "with definitions", path, line, col, m.end() - start, offset)
        if statement_tokens > MAX_STATEMENT_TOKENS:
            raise _refuse(f"this statement is too long (more than {MAX_STATEMENT_TOKENS} words and symbols)",
                          "split it into several statements, or name its parts with 'let' or 'define'",
                          path, line, col, m.end() - start, offset)
        if kind == "op" or (kind == "word" and m.group() in _OPERATOR_WORDS):
            operators += 1
            if operators > MAX_OPERATORS:
                raise _refuse(f"operators nest too deeply in this statement (more than {MAX_OPERATORS}: "
                              "each operator of a chain is one level for the parser)",
                              "split a long sum or condition into partial ones named with 'let' or 'define'",
                              path, line, col, m.end() - start, offset)
        elif kind == "open":
            brackets.append((line, col))
            if len(brackets) > MAX_BRACKETS:
                raise _refuse(f"brackets nest too deeply here (more than {MAX_BRACKETS} levels of '(', '[' or '{{')",
                              "name the inner part with 'let' or 'define' and use the name", path, line, col,
                              offset=offset)
        elif kind == "close":
            if brackets:
                brackets.pop()
        elif kind == "string":
            body = m.group()
            if "{" in body:
                found = _HOLE.findall(body)
                holes += len(found)
                if holes > MAX_HOLES:
                    raise _refuse(f"the strings of this file hold too many {{...}} holes (more than {MAX_HOLES})",
                                  "say less in each message, or build long texts from several statements",
                                  path, line, col, m.end() - start, offset)
                inner = sum(len(_HOLE_TOKEN.findall(h[1:-1])) for h in found)
                tokens += inner
                statement_tokens += inner
                if tokens > budget or statement_tokens > MAX_STATEMENT_TOKENS:
                    raise _refuse("this string's {...} holes make the statement or the file too long to check "
                                  f"(the limits are {MAX_STATEMENT_TOKENS} and {MAX_FILE_TOKENS} words and symbols)",
                                  "write shorter expressions in the holes, or name them with 'let' first",
                                  path, line, col, m.end() - start, offset)
    return tokens


def _check_line(text: str, start: int, line: int, path: str, offset: tuple[int, int]) -> None:
    """Refuse the line that starts at ``start`` if it is too long (before any of it is read); a comment may be."""
    end = text.find("\n", start, start + MAX_LINE_CHARS + 1)
    if end < 0 and len(text) - start > MAX_LINE_CHARS and not text[start:start + MAX_LINE_CHARS].lstrip(" \t\f"
                                                                                                       ).startswith("#"):
        raise _refuse(f"this line is too long (more than {MAX_LINE_CHARS} characters)",
                      "break it after a ',' or an operator inside brackets, or with a '\\' at the end of the line",
                      path, line, 1, 1, offset)


def game_tokens(text: str, path: str, used: int = 0) -> int:
    """``used`` plus the tokens of the file ``text`` (any line ends); RulelangError past a limit of this module.

    A game and the files it extends share MAX_FILE_TOKENS: pass the tokens of the files read so far as ``used``.
    """
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    whole = "the file" if used == 0 else "this game with the files it extends"
    return used + scan_text(normal, path, budget=MAX_FILE_TOKENS - used, whole=whole)
