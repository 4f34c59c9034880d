"""What generated blocks return, what the generator reads back from the lines it wrote, and their comments.

The block return codes are read by the engine's driver loop; ``slot_unread`` and ``loc_writes``
read generated lines (``(indent, text, span)``) by their text, to leave out stores nothing reads;
``with_rules_lines`` adds the ``.rules`` file:line of each block and statement as a comment.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

SOFT_LIMIT = 6  # trigger checks run inline in one block before the rest moves to its own block
STOP, END = -1, -2  # what a block returns to stop the driver: paused at a turn, game over
CHAIN = 32  # at most this many decisions taken in blocks run one inside the other (see CodeGen.taken)
TAKEN = -3  # what a block returns when it took a decision itself: the driver goes on with a new step budget


_LOC_SLOT = re.compile(r"\bloc\[(\d+)\]")
_LOC_NAME = re.compile(r"\bloc\b")


def slot_unread(lines: list, slot: int) -> bool:
    """Whether these generated lines (``(indent, text, span)``, run without leaving their block) never
    read ``loc[slot]``: by their text, ``loc`` appears in them only subscripted by other written numbers
    (never ``loc[slot]``, never ``loc`` passed on whole, as to a helper)."""
    for _ind, text, _sp in lines:
        if "loc" not in text:
            continue
        rest = _LOC_SLOT.sub(lambda mt: "" if int(mt.group(1)) != slot else mt.group(0), text)
        if _LOC_NAME.search(rest):
            return False
    return True


_LOC_WRITE = re.compile(r"\bloc\[(\d+)\] = ")


def loc_writes(helpers: list) -> set[int]:
    """The ``loc`` slots generated functions store into (by their text)."""
    return {int(x) for fn in helpers for _ind, text, _sp in fn for x in _LOC_WRITE.findall(text)}


_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")  # a file name enters a comment of the source with these characters only


def rules_line(span: Any) -> str:
    """A comment naming the ``.rules`` file (its base name, other characters shown as ``?``) and line of a span."""
    return f"# {_UNSAFE.sub('?', PurePath(span.file).name)}:{span.line}"


def with_rules_lines(fn: list) -> list:
    """A generated function's lines ``(indent, text, span)`` with the ``.rules`` file:line of each block and statement
    in a comment line of their own: before its ``def`` (the first line it runs), and before each line where the rules
    line changes."""
    first = next((sp for _ind, _text, sp in fn if sp is not None), None)
    if first is None:
        return fn
    out = [(fn[0][0], rules_line(first), first)]
    last = (first.file, first.line)
    for i, (ind, text, span) in enumerate(fn):
        if i > 0 and span is not None and (span.file, span.line) != last and not fn[i - 1][1].endswith("\\"):
            out.append((ind, rules_line(span), span))
            last = (span.file, span.line)
        out.append((ind, text, span))
    return out
