"""Source positions, and the registry of source texts used to quote them."""

from __future__ import annotations

import attrs

_SOURCES: dict[str, list[str]] = {}


@attrs.frozen
class Span:
    """A region of a source file: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def to_json(self) -> str:
        """The ``file:line:col`` citation of this span."""
        return str(self)


def register_source(file: str, text: str) -> None:
    """Remember ``text`` as the contents of ``file`` so errors can quote it."""
    _SOURCES[file] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def source_line(file: str, line: int) -> str | None:
    """Return line ``line`` of a registered source, or None if unknown."""
    lines = _SOURCES.get(file)
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]
