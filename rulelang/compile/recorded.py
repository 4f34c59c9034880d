"""Generated code that tells a recorder the option or answer a block takes (``Picking.record``).

With ``TOOK_INLINE`` the block appends the action's event to the list recorder's list itself where the
recorder says it can take it so (``ListRecorder.inline``: a list recorder that tests for a new turn or
look at every action) and no turn or private look has begun since its last test: the same dict, keys in
the same order, that ``ListRecorder.took`` appends; any other recorder, or a new turn or look, is told
through ``took`` as before. Nothing here reads a game: every block that takes a decision is written so.

With ``KINDS_DIFFER_KEPT`` a recording block's test that the kinds of a range read apart (made where the
labels' proof needs it, ``label_proof.kinds_alike``) is looked up by the kinds listed once it was made.
"""

from __future__ import annotations

from typing import Any

# The recorder's append written in the blocks where a list recorder records (see the module's docstring).
TOOK_INLINE = True
# A recording's test that the kinds a counted choice's range lists read apart in its labels
# (``runtime.kinds_differ``) answered from the answers kept by classes and kinds (``runtime.kinds_differ_kept``).
KINDS_DIFFER_KEPT = True


def took_lines(L: list, at: int, R: str, who: str, label: str, sp: Any) -> None:
    """Lines at indent ``at`` telling the recorder ``R`` (a name holding it, known not None) that ``who``
    takes the option or answer whose label is the source ``label`` (read once)."""
    if not TOOK_INLINE:
        L.append((at, f"{R}.took(st, {who}, {label})", sp))
        return
    L.append((at, f"if {R}.inline and st.turn == {R}.turn and st.looks == {R}.looks:", sp))
    L.append((at + 1, f"{R}.add({{'type': 'action', 'step': st.step + 1, 'player': {R}.labels[{who}], "
                      f"'action': {label}}})", sp))
    L.append((at, "else:", sp))
    L.append((at + 1, f"{R}.took(st, {who}, {label})", sp))

