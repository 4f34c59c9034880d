"""``rulelang fmt``: the canonical layout of .rules files."""

from rulelang.fmt.formatter import FormatError, format_text, layout
from rulelang.fmt.meaning import same_meaning

__all__ = ["FormatError", "format_text", "layout", "same_meaning"]
