"""Generated source with a line table: every generated line knows the rule text it came from.

Like Jinja's debug support: when something goes wrong inside generated code, the
traceback's line in the generated module is mapped back to the ``.rules`` file:line.
"""

from __future__ import annotations

from types import TracebackType

import attrs

from rulelang.syntax.span import Span


@attrs.define
class SourceWriter:
    """Python source being written, one line at a time, each with its span."""

    lines: list[str] = attrs.field(factory=list)
    spans: list[Span | None] = attrs.field(factory=list)

    def add(self, indent: int, text: str, span: Span | None) -> None:
        """Append a line at ``indent`` levels."""
        self.lines.append("    " * indent + text)
        self.spans.append(span)

    def text(self) -> str:
        """The whole source."""
        return "\n".join(self.lines) + "\n"


@attrs.define
class LineTable:
    """Maps lines of one generated module (named ``filename``) to rule spans."""

    filename: str
    spans: list[Span | None]

    def span_at(self, lineno: int | None) -> Span | None:
        """The span of generated line ``lineno`` (1-based), or the nearest one above it (None where
        Python knows no line: a traceback entry can lack one)."""
        if lineno is None:
            return None
        i = min(lineno, len(self.spans)) - 1
        while i >= 0:
            if self.spans[i] is not None:
                return self.spans[i]
            i -= 1
        return None

    def span_of(self, tb: TracebackType | None) -> Span | None:
        """The span of the innermost generated line in a traceback, or None."""
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                found = self.span_at(tb.tb_lineno)
            tb = tb.tb_next
        return found
