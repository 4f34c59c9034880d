"""The canonical layout of a .rules file, checked to keep the file's meaning.

The layout is computed from the token stream and the indentation structure only:
blocks are indented two spaces a level, tokens are spaced by their types, runs of
blank lines shrink to one, trailing comments in consecutive lines are aligned, and
every comment is kept. No rule of the grammar is known here, so new constructs need
no change to the formatter; the parse-and-compare check in :func:`format_text` is what
guarantees that a layout never changes what a file says.
"""

from __future__ import annotations

import attrs

from rulelang.errors import RulelangError
from rulelang.fmt.meaning import same_meaning
from rulelang.fmt.tokens import PhysicalLine, Token, physical_lines
from rulelang.fmt.words import call_keywords, keywords
from rulelang.syntax.build import build_file
from rulelang.syntax.span import Span, register_source

INDENT = "  "
CONTINUATION = "    "  # extra indentation of a line continued by a trailing backslash
COMMENT_GAP = 2  # spaces between code and a trailing comment, at least


class FormatError(RulelangError):
    """The formatter could not lay a file out without changing its meaning (a bug, never the user's)."""


@attrs.define
class _Entry:
    kind: str  # "code", "comment" or "blank"
    lines: list[PhysicalLine]
    level: int = 0

    @property
    def width(self) -> int:
        return self.lines[0].width if self.lines else 0


@attrs.define
class _Row:
    code: str
    comment: str | None = None
    standalone: bool = False


def format_text(text: str, path: str) -> str:
    """Return ``text`` (a .rules file shown as ``path``) in the canonical layout.

    Raises RulelangError if the file does not parse, and FormatError if the new layout
    would parse differently (then nothing should be written).
    """
    text = text.removeprefix("\ufeff")
    before = build_file(text, path)
    result = layout(text)
    try:
        after = build_file(result, path)
    except RulelangError as exc:
        raise FormatError(f"the canonical layout of {path} would not parse ({exc.message}); the file is left unchanged",
                          Span(path, 1, 1, 1, 2), hint="this is a bug in 'rulelang fmt': please report it") from None
    finally:
        register_source(path, text)
    if not same_meaning(before, after):
        raise FormatError(f"the canonical layout of {path} would change its meaning; the file is left unchanged",
                          Span(path, 1, 1, 1, 2), hint="this is a bug in 'rulelang fmt': please report it")
    return result


def layout(text: str) -> str:
    """Lay ``text`` out canonically, without checking that its meaning is kept."""
    entries = _entries(physical_lines(text))
    _assign_levels(entries)
    entries = _tidy_blanks(entries)
    rows: list[_Row | None] = []
    for entry in entries:
        if entry.kind == "blank":
            rows.append(None)
        elif entry.kind == "comment":
            rows.append(_Row(INDENT * entry.level, entry.lines[0].comment, standalone=True))
        else:
            rows.extend(_render_code(entry))
    _align_comments(rows)
    out = []
    for row in rows:
        if row is None:
            out.append("")
        else:
            out.append(row.code + (row.comment or ""))
    return "".join(line.rstrip() + "\n" for line in out)


def _entries(lines: list[PhysicalLine]) -> list[_Entry]:
    """Group physical lines into logical code lines, comment lines and blank lines."""
    entries: list[_Entry] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.tokens:
            if line.comment is not None:
                entries.append(_Entry("comment", [line]))
            else:
                entries.append(_Entry("blank", []))
            i += 1
            continue
        group = [line]
        i += 1
        while i < len(lines) and (group[-1].continued or lines[i].depth > 0):
            if lines[i].blank and lines[i].depth == 0:
                break  # a '\' before a blank line continues nothing: the blank line ends the statement
            if not lines[i].blank:
                group.append(lines[i])
            i += 1
        if group[-1].continued and (i >= len(lines) or lines[i].blank):
            group[-1].continued = False
        entries.append(_Entry("code", group))
    return entries


def _assign_levels(entries: list[_Entry]) -> None:
    """Give every code line its block depth (as the parser's indenter sees it) and every comment line one."""
    stack = [0]
    stacks: list[list[int]] = []
    for entry in entries:
        stacks.append(list(stack))
        if entry.kind != "code":
            continue
        width = entry.width
        if width > stack[-1]:
            stack.append(width)
        else:
            while width < stack[-1]:
                stack.pop()
        entry.level = len(stack) - 1
    following: _Entry | None = None
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if entry.kind == "code":
            following = entry
        elif entry.kind == "comment":
            candidates = list(enumerate(stacks[index]))
            if following is not None:
                candidates.append((following.level, following.width))
            fitting = [(width, level) for level, width in candidates if width <= entry.width]
            entry.level = max(fitting)[1] if fitting else 0


def _tidy_blanks(entries: list[_Entry]) -> list[_Entry]:
    """One blank line at most in a row; none at the ends of the file or right after a line that opens a block."""
    out: list[_Entry] = []
    for index, entry in enumerate(entries):
        if entry.kind != "blank":
            out.append(entry)
            continue
        if not out or out[-1].kind == "blank":
            continue
        if out[-1].kind == "code":
            nxt = next((e for e in entries[index + 1:] if e.kind == "code"), None)
            if nxt is not None and nxt.level > out[-1].level:
                continue
        out.append(entry)
    while out and out[-1].kind == "blank":
        out.pop()
    return out


def _render_code(entry: _Entry) -> list[_Row]:
    """Lay out one logical line, physical line by physical line."""
    rows: list[_Row] = []
    tokens = [t for line in entry.lines for t in line.tokens]
    position = 0
    prev: Token | None = None
    prev_unary = False
    opens: list[int] = []  # output columns of the open brackets
    base = INDENT * entry.level
    for number, line in enumerate(entry.lines):
        if number == 0:
            code = base
        elif opens:
            code = " " * (opens[-1] + (0 if line.tokens and line.tokens[0].kind == "CLOSE" else 1))
        else:
            code = base + CONTINUATION
        first = True
        for tok in line.tokens:
            nxt = tokens[position + 1] if position + 1 < len(tokens) else None
            unary = _is_unary(prev, tok, nxt)
            if not first and _space(prev, tok, prev_unary):
                code += " "
            if tok.kind == "OPEN":
                opens.append(len(code))
            elif tok.kind == "CLOSE" and opens:
                opens.pop()
            code += tok.text
            prev, prev_unary, first = tok, unary, False
            position += 1
        if line.continued:
            code += " \\"
        if not line.tokens and line.comment is not None:
            rows.append(_Row(code, line.comment, standalone=True))
        else:
            rows.append(_Row(code, line.comment))
    return rows


def _is_unary(prev: Token | None, tok: Token, nxt: Token | None) -> bool:
    """Whether a ``-`` or ``+`` is a sign rather than an operator between two values."""
    if tok.kind != "OP" or tok.text not in "+-":
        return False
    if prev is None or prev.kind in ("OP", "OPEN", "COMMA", "COLON"):
        return True
    # After a value or a word: a sign if written like one ("lowest -x", "to -1").
    return tok.gap and nxt is not None and not nxt.gap


def _space(prev: Token | None, tok: Token, prev_unary: bool) -> bool:
    """Whether one space separates two tokens of a line."""
    if prev is None:
        return False
    if prev.kind == "OPEN" or tok.kind == "CLOSE" or tok.kind in ("COMMA", "COLON"):
        return False
    if prev_unary:
        return False
    if prev.kind in ("COMMA", "COLON"):
        return True
    if tok.kind == "OPEN" and prev.kind == "NAME":
        # a call is written f(x) and so is count(...); any other keyword is a word before a bracket
        return prev.text in keywords() and prev.text not in call_keywords()
    if tok.kind == "OPEN":
        return tok.gap if prev.kind == "CLOSE" else True
    if tok.kind == "OTHER" or prev.kind == "OTHER":
        return tok.gap
    return True


def _align_comments(rows: list[_Row | None]) -> None:
    """Align the trailing comments of consecutive lines two spaces after the longest code."""
    run: list[_Row] = []

    def flush() -> None:
        if run:
            column = max(len(r.code) for r in run) + COMMENT_GAP
            for r in run:
                r.code = r.code.ljust(column)
            run.clear()

    for row in rows:
        if row is not None and not row.standalone and row.comment is not None:
            run.append(row)
        else:
            flush()
    flush()

