"""Generated source read the way the shape tests expect it (for tests that look for patterns in it)."""

from __future__ import annotations

import re


def zones_read_plainly(source: str) -> str:
    """``source`` with each zone table kept in a local (``Z_n``, see ``source_text.zone_locals``) read as
    ``Z[n]`` again, so that a pattern written for ``Z[n]`` finds (or rightly misses) what it looks for."""
    return re.sub(r"\bZ_([0-9]+)\b", r"Z[\1]", source)
