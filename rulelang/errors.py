"""One family of user-facing errors, printed like a compiler's.

Every error that bad input can cause (a broken .rules file, a bad trace, an illegal
action, a runaway rule) is a :class:`RulelangError` carrying where it happened, what
went wrong and a hint; the CLI prints it with the source line and a caret.
"""

from __future__ import annotations

import attrs

from rulelang.syntax.span import Span, source_line


@attrs.define(eq=False)
class RulelangError(Exception):
    """An error in user input, with its place in the source and a hint."""

    message: str
    span: Span | None = None
    hint: str | None = None
    kind: str = "error"

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        """Render as ``file:line:col: error: message``, the source line, a caret and the hint."""
        where = f"{self.span}: " if self.span is not None else ""
        out = [f"{where}{self.kind}: {self.message}"]
        if self.span is not None:
            text = source_line(self.span.file, self.span.line)
            if text is not None:
                shown = text.rstrip("\n").expandtabs(1)
                if len(shown) > 140 and self.span.col < 100:
                    shown = shown[:120] + " ..."
                out.append(f"    {shown}")
                width = 1
                if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                    width = self.span.end_col - self.span.col
                width = max(1, min(width, len(shown) - self.span.col + 1))
                out.append("    " + " " * (self.span.col - 1) + "^" * width)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class ErrorList(Exception):
    """Several errors found in one pass (a checker reports all it finds)."""

    def __init__(self, errors: list[RulelangError]) -> None:
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors

    def format(self) -> str:
        """Render every error, then a count."""
        body = "\n".join(e.format() for e in self.errors)
        n = len(self.errors)
        return f"{body}\n{n} error{'s' if n != 1 else ''}"
