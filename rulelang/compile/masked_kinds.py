"""The kinds of a sorted zone's components passing a mask, found in a choice's count (a part of the generator,
for ``CountedEmitter.range_listed``): one table read per component instead of two.

The table ``MKO`` holds each component's kind where the mask holds and -1 where it does not. In a zone kept
sorted, components are numbered kind by kind in kind order (checked here: else the table is not made), so the
kinds met going through the zone never decrease: a component's table entry greater than the last kind listed is
exactly a new kind that passes the mask (one failing it reads -1, never greater), the same list, in the same
order, as testing ``k != last and mask[c]``."""

from __future__ import annotations

from typing import Any

MASKED_KINDS = True
"""Whether the count's loop over a sorted zone's components for their kinds with a mask reads one table
(``MKO[c] > last``) instead of the kinds and the mask apart (``KO[c] != last and mask[c]``); the equivalence
tests turn it off to compare."""


def kind_table(gen: Any, mask: str) -> str | None:
    """The name of the table of each component's kind where the mask named ``mask`` (a constant list by
    component) holds, else -1; None where the flag is off, the mask is not such a list or
    the components are not numbered in kind order."""
    if not MASKED_KINDS:
        return None
    values = gen.consts.get(mask)
    kinds = gen.kind_of
    if type(values) is not list or len(values) != len(kinds) or any(a > b for a, b in zip(kinds, kinds[1:])):
        return None
    return gen.table([k if ok else -1 for k, ok in zip(kinds, values)], "mko")


def kinds_loop(L: list, at: int, lst: str, zone: str, table: str, c: str, k: str, seen: str, sp: Any) -> None:
    """Lines (at ``at``) listing into ``lst`` the kinds of ``zone``'s components that pass the mask of
    ``table`` (see ``kind_table``), each once, in kind order."""
    L.append((at, f"{lst} = []", sp))
    L.append((at, f"{seen} = -1", sp))
    L.append((at, f"for {c} in {zone}:", sp))
    L.append((at + 1, f"{k} = {table}[{c}]", sp))
    L.append((at + 1, f"if {k} > {seen}:", sp))
    L.append((at + 2, f"{lst}.append({k})", sp))
    L.append((at + 2, f"{seen} = {k}", sp))
