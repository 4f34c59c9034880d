"""What generated blocks return, and what the generator reads back from the lines it wrote.

The block return codes are read by the engine's driver loop; ``slot_unread`` and ``loc_writes``
read generated lines (``(indent, text, span)``) by their text, to leave out stores nothing reads.
"""

from __future__ import annotations

import re

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
