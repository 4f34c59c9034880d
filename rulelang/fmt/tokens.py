"""The lexical level of a .rules file, for layout: tokens grouped into physical lines.

This knows only token *types* (names, numbers, strings, operators, brackets, comments),
never the grammar's rules; the operators are read from the grammar's text, so constructs
and operators added to the grammar need no change here.
"""

from __future__ import annotations

import re
from functools import lru_cache

import attrs

from rulelang.fmt.words import symbols

OPEN = "([{"
CLOSE = ")]}"
DEPTH_OPEN = "(["  # the brackets inside which the parser's indenter ignores line ends
DEPTH_CLOSE = ")]"
_PUNCTUATION = {"(": "OPEN", "[": "OPEN", "{": "OPEN", ")": "CLOSE", "]": "CLOSE", "}": "CLOSE", ",": "COMMA",
                ":": "COLON"}


@lru_cache(maxsize=1)
def _token_pattern() -> re.Pattern[str]:
    """The lexical pattern; operators are the grammar's own (so a new operator is one token at once)."""
    operators = [s for s in symbols() if s not in _PUNCTUATION]
    op = "|".join(re.escape(s) for s in operators) or r"(?!)"
    return re.compile(
        r"""
        (?P<NEWLINE>\r?\n)
      | (?P<CONT>\\[ \t]*\r?\n)
      | (?P<WS>[ \t]+)
      | (?P<COMMENT>\#[^\r\n]*)
      | (?P<STRING>"(?:[^"\\\r\n]|\\.)*")
      | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<INT>[0-9]+)
      | (?P<OP>""" + op + r""")
      | (?P<PUNCT>[()\[\]{},:])
      | (?P<OTHER>.)
        """,
        re.VERBOSE,
    )


@attrs.frozen
class Token:
    """One token: its type, its text, whether white space preceded it on its line, and its column there."""

    kind: str  # NAME, INT, STRING, OP, OPEN, CLOSE, COMMA, COLON, OTHER
    text: str
    gap: bool
    col: int = 0  # characters from the start of its line (0-based)


@attrs.define
class PhysicalLine:
    """One line of the source: its indentation width, tokens, trailing comment, and a trailing ``\\``."""

    width: int
    tokens: list[Token] = attrs.field(factory=list)
    comment: str | None = None
    continued: bool = False
    depth: int = 0  # open brackets before the line's first token

    @property
    def blank(self) -> bool:
        """True if the line holds neither code nor a comment."""
        return not self.tokens and self.comment is None and not self.continued


def indent_width(indent: str) -> int:
    """The width of leading white space as the parser's indenter counts it (a tab is 4)."""
    return indent.count(" ") + 4 * indent.count("\t")


def physical_lines(text: str) -> list[PhysicalLine]:
    """Split ``text`` into physical lines of tokens; brackets are tracked across lines."""
    lines: list[PhysicalLine] = []
    depth = 0
    current: PhysicalLine | None = None
    gap = False
    pos = 0
    line_start = 0
    pattern = _token_pattern()
    while pos < len(text):
        m = pattern.match(text, pos)
        assert m is not None  # OTHER matches any character but a newline, NEWLINE the rest
        kind, value = m.lastgroup or "OTHER", m.group()
        if kind == "PUNCT":
            kind = _PUNCTUATION[value]
        if current is None:
            line_start = m.start()
            if kind == "WS":
                current = PhysicalLine(indent_width(value), depth=depth)
                pos = m.end()
                gap = True
                continue
            current = PhysicalLine(0, depth=depth)
            gap = False
        pos = m.end()
        if kind == "WS":
            gap = True
            continue
        if kind in ("NEWLINE", "CONT"):
            current.continued = kind == "CONT"
            lines.append(current)
            current = None
            continue
        if kind == "COMMENT":
            current.comment = value.rstrip()
            continue
        if value in DEPTH_OPEN:
            depth += 1
        elif value in DEPTH_CLOSE:
            depth = max(0, depth - 1)
        current.tokens.append(Token(kind, value, gap, m.start() - line_start))
        gap = False
    if current is not None:
        lines.append(current)
    return lines
