"""The text of string literals: quotes off, escapes read (``\\n``, ``\\t``, and a backslash before any
other character stands for that character)."""

from __future__ import annotations

import re


def unescape(body: str) -> str:
    """The text of a string literal's body, its escapes read."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def unquote(raw: str) -> str:
    """The text of a string literal, written with its quotes."""
    return unescape(raw[1:-1])
