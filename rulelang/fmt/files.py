"""Formatting files on disk: read as the loader does, compare, write atomically."""

from __future__ import annotations

from pathlib import Path

import attrs

from rulelang.errors import RulelangError
from rulelang.fmt.formatter import format_text
from rulelang.safeio import InputError, read_rules
from rulelang.syntax.span import Span, register_source
from rulelang.trace.format import write_atomic


@attrs.frozen
class Outcome:
    """What formatting one file gives: its text now and in the canonical layout."""

    path: str
    old: str
    new: str

    @property
    def changed(self) -> bool:
        """True if the canonical layout differs from the file as it is (bytes, BOM and line ends included)."""
        return self.old != self.new


def read_rules_text(path: str) -> str:
    """The text of a .rules file (UTF-8, an optional BOM), or a RulelangError saying why it cannot be read."""
    try:  # as the loader reads it: a FIFO, a device or a huge file is refused, never waited on
        data = read_rules(path, path)
    except InputError as exc:
        if exc.message.startswith("no such"):
            raise RulelangError(f"no such file: {path}", hint="check the path of the .rules file") from None
        raise
    return decode_rules(data, path)


def decode_rules(data: bytes, path: str) -> str:
    """``data`` as UTF-8 text, kept as it is (a BOM too); a RulelangError with the place of a bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lossy = data.decode("utf-8", "replace")
        register_source(path, lossy)
        before = data[: exc.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise RulelangError(f"{path} is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                            Span(path, line, col, line, col + 1), hint="save the file as UTF-8") from None


def format_path(path: str) -> Outcome:
    """Format the file at ``path`` in memory; raise RulelangError if it cannot be read, parsed or kept equal."""
    old = read_rules_text(path)
    return Outcome(path, old, format_text(old, path))


def format_data(data: bytes, shown: str) -> Outcome:
    """Format rules text given as bytes (read from standard input), named ``shown`` in messages."""
    old = decode_rules(data, shown)
    return Outcome(shown, old, format_text(old, shown))


def write_outcome(outcome: Outcome) -> None:
    """Replace the file with its canonical layout, atomically (readers see the old or the new file).

    A symbolic link stays a link: the file it points to is the one replaced.
    """
    write_atomic(Path(outcome.path).resolve(), outcome.new)
