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
COLUMN_GAP = 2  # spaces between columns of lines written as a table, at least


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
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")  # line ends as the parser reads them
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
    widths = _column_widths(entries)
    rows: list[_Row | None] = []
    for index, entry in enumerate(entries):
        if entry.kind == "blank":
            rows.append(None)
        elif entry.kind == "comment":
            rows.append(_Row(INDENT * entry.level, entry.lines[0].comment, standalone=True))
        else:
            rows.extend(_render_code(entry, widths.get(index)))
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


def _spacing(tokens: list[Token]) -> list[bool]:
    """For each token of a logical line, whether one space separates it from the token before."""
    out: list[bool] = []
    prev: Token | None = None
    prev_unary = False
    for index, tok in enumerate(tokens):
        nxt = tokens[index + 1] if index + 1 < len(tokens) else None
        out.append(prev is not None and _space(prev, tok, prev_unary))
        prev, prev_unary = tok, _is_unary(prev, tok, nxt)
    return out


@attrs.frozen
class _Cell:
    """Tokens written together (no space between them), with where the first stood in the source."""

    text: str
    col: int
    gap: int  # spaces before it in the source (0 for the first cell)


def _cells(entry: _Entry) -> list[_Cell]:
    """The cells of a one-line entry: its tokens grouped by the spaces the layout puts between them."""
    tokens = entry.lines[0].tokens
    cells: list[_Cell] = []
    end = 0
    for tok, spaced in zip(tokens, _spacing(tokens)):
        if cells and not spaced:
            cells[-1] = attrs.evolve(cells[-1], text=cells[-1].text + tok.text)
        else:
            cells.append(_Cell(tok.text, tok.col, tok.col - end if cells else 0))
        end = tok.col + len(tok.text)
    return cells


def _render_code(entry: _Entry, widths: list[int] | None = None) -> list[_Row]:
    """Lay out one logical line, physical line by physical line (a one-line entry in columns if ``widths``)."""
    base = INDENT * entry.level
    if widths is not None:
        cells = [c.text for c in _cells(entry)]
        code = base + "".join(text.ljust(width) for text, width in zip(cells, widths)) + cells[-1]
        return [_Row(code, entry.lines[0].comment)]
    rows: list[_Row] = []
    tokens = [t for line in entry.lines for t in line.tokens]
    spacing = iter(_spacing(tokens))
    opens: list[int] = []  # output columns of the open brackets
    for number, line in enumerate(entry.lines):
        if number == 0:
            code = base
        elif opens:
            code = " " * (opens[-1] + (0 if line.tokens and line.tokens[0].kind == "CLOSE" else 1))
        else:
            code = base + CONTINUATION
        for index, tok in enumerate(line.tokens):
            if next(spacing) and index > 0:
                code += " "
            if tok.kind == "OPEN":
                opens.append(len(code))
            elif tok.kind == "CLOSE" and opens:
                opens.pop()
            code += tok.text
        if line.continued:
            code += " \\"
        if not line.tokens and line.comment is not None:
            rows.append(_Row(code, line.comment, standalone=True))
        else:
            rows.append(_Row(code, line.comment))
    return rows


def _column_widths(entries: list[_Entry]) -> dict[int, list[int]]:
    """The column widths (spaces after included) of runs of one-line entries written in aligned columns.

    A run is two or more consecutive one-line entries of the same block with the same
    number of cells (two at least); it is laid out in columns if, in the source, some
    column after the first starts at the same place on every line of the run with two
    spaces or more before it somewhere (a table, say). Otherwise cells are one space apart.
    A column is followed by two spaces if its widest cell was in the source, else by one.
    """
    widths: dict[int, list[int]] = {}
    index = 0
    while index < len(entries):
        cells = _single_line_cells(entries[index])
        if cells is None or len(cells) < 2:
            index += 1
            continue
        run = [index]
        rows = [cells]
        while run[-1] + 1 < len(entries):
            nxt = entries[run[-1] + 1]
            more = _single_line_cells(nxt)
            if more is None or len(more) != len(cells) or nxt.level != entries[index].level:
                break
            run.append(run[-1] + 1)
            rows.append(more)
        if len(run) >= 2 and _aligned(rows):
            column = []
            for j in range(len(cells) - 1):
                width = max(len(row[j].text) for row in rows)
                # two spaces after a column if its widest cell had them in the source (a table), else one
                wide = any(row[j + 1].gap >= COLUMN_GAP for row in rows if len(row[j].text) == width)
                column.append(width + (COLUMN_GAP if wide else 1))
            for member in run:
                widths[member] = column
        index = run[-1] + 1
    return widths


def _single_line_cells(entry: _Entry) -> list[_Cell] | None:
    if entry.kind != "code" or len(entry.lines) != 1 or entry.lines[0].continued:
        return None
    return _cells(entry)


def _aligned(rows: list[list[_Cell]]) -> bool:
    for j in range(1, len(rows[0])):
        if len({row[j].col for row in rows}) == 1 and any(row[j].gap >= COLUMN_GAP for row in rows):
            return True
    return False


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

