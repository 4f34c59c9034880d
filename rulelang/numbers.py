"""Numbers of the rules: whole numbers and exact fractions, kept within a bound.

Values are bounded where they are stored (counters, ``let``, loop ranges, option
values, ranking keys) and when they are written out: an expression has finite size,
so from bounded inputs it computes a value of bounded size in bounded time, and
nothing can grow a number step after step (a counter squared in a loop) until the
machine stalls or Python refuses to print it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

MAX_NUMBER = 10**18  # the largest magnitude a stored number (or a fraction's numerator or denominator) may have
MAX_TEXT = 10_000  # the longest text a name may keep (a string that doubles in a loop must stop)
MAX_DIGITS = 40  # the longest number (in digits) read from a command line, an option value or an agent parameter

# Numbers typed by users: ASCII digits only, with an optional sign. Python's int(), float() and Fraction()
# also read other scripts' digits ("١٢" is 12), underscores ("1_000") and white space inside; these do not.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_FRACTION_TEXT = re.compile(r"[+-]?[0-9]+(?:/[0-9]+)?")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def ascii_whole(text: str) -> int:
    """The whole number ``text`` writes in ASCII digits 0-9 with an optional sign; ValueError saying why otherwise."""
    written = text.strip(" \t")
    if not _WHOLE.fullmatch(written):
        raise ValueError(f"{text[:40]!r} is not a whole number: write it in the digits 0-9, with an optional sign")
    if len(written.lstrip("+-")) > MAX_DIGITS:
        raise ValueError(f"{written[:12]}... is too long a number ({len(written)} characters; at most {MAX_DIGITS} "
                         "digits)")
    return int(written)


def ascii_decimal(text: str) -> float:
    """The number ``text`` writes as ASCII decimals (``0.7``, ``-1``, ``2e-3``); ValueError saying why otherwise."""
    written = text.strip(" \t")
    if not _DECIMAL.fullmatch(written) or len(written) > MAX_DIGITS:
        raise ValueError(f"{text[:40]!r} is not a number: write it in the digits 0-9 with an optional sign and "
                         "decimal point (e.g. 0.7)")
    return float(written)


def ascii_fraction(text: str) -> Any:
    """The exact number ``text`` writes (``"7"``, ``"-7/3"``) in ASCII digits; ValueError otherwise (``/0`` too)."""
    written = text.strip(" \t")
    if not _FRACTION_TEXT.fullmatch(written) or len(written) > 2 * MAX_DIGITS + 2:
        raise ValueError(f"{text[:40]!r} is not a number: write it in the digits 0-9, as 7 or 7/3")
    top, _, bottom = written.partition("/")
    if bottom and int(bottom) == 0:
        raise ValueError(f"{text[:40]!r} divides by zero")
    return normal(Fraction(int(top), int(bottom) if bottom else 1))


def too_big(value: Any) -> bool:
    """Whether a number is beyond what rulelang keeps."""
    if type(value) is int:
        return not -MAX_NUMBER <= value <= MAX_NUMBER
    if isinstance(value, Fraction):
        return abs(value.numerator) > MAX_NUMBER or value.denominator > MAX_NUMBER
    return False


def bounded(value: Any, span: Span | None) -> Any:
    """``value`` if it is within the bound; a RulelangError at ``span`` otherwise."""
    if type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:  # the common case, at once
        return value
    if too_big(value):
        raise RulelangError(
            f"a number grew beyond what rulelang keeps ({_size(value)}; the limit is 10^18)", span,
            hint="a value that grows each time round a loop may never stop growing: check the arithmetic",
        )
    return value


def bounded_text(value: str, span: Span | None) -> str:
    """``value`` if it is at most MAX_TEXT characters long; a RulelangError at ``span`` otherwise."""
    if len(value) > MAX_TEXT:
        raise RulelangError(
            f"a text grew to {len(value)} characters, more than rulelang keeps ({MAX_TEXT})", span,
            hint="a text that grows each time round a loop may never stop growing",
        )
    return value


def whole(value: Any, span: Span | None, what: str) -> int:
    """``value`` as a whole number (for counts and ranges); a fraction there is an error."""
    if type(value) is int:
        return value
    raise RulelangError(f"{what} must be a whole number, not {format_number(value)}", span,
                        hint="round it first: (a / b) is whole-number division, fraction(a, b) is exact")


def fraction(a: Any, b: Any, span: Span | None) -> Any:
    """The exact value of ``a`` divided by ``b`` (a whole number when it divides exactly)."""
    if b == 0:
        raise RulelangError("division by zero", span, hint="guard it with 'if ... != 0'")
    return normal(Fraction(a) / Fraction(b))


def normal(value: Any) -> Any:
    """A fraction with denominator 1 becomes the whole number it is."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def divide(a: Any, b: Any, op: str, span: Span | None) -> Any:
    """``a / b`` or ``a % b``: whole-number (floor) division for whole numbers, exact with a fraction."""
    if b == 0:
        raise RulelangError("division by zero", span, hint="guard it with 'if ... > 0'")
    if type(a) is int and type(b) is int:
        return a // b if op == "/" else a % b
    return normal(Fraction(a) / Fraction(b)) if op == "/" else normal(Fraction(a) % Fraction(b))


def format_number(value: Any) -> str:
    """A number as narration shows it: ``7``, ``-2``, ``7/3``; a huge one by its size only."""
    if too_big(value):
        return f"(a number {_size(value)})"
    return str(value)


def json_number(value: Any) -> Any:
    """A number for JSON output: whole numbers as they are, a fraction as the text ``"7/3"``."""
    if type(value) is int:  # the common case, without isinstance's check of the numbers ABCs
        return value
    if isinstance(value, Fraction):
        return str(value)
    return value


def _size(value: Any) -> str:
    if isinstance(value, Fraction):
        value = max(abs(value.numerator), value.denominator)
    digits = int(abs(value).bit_length() * 0.30103) + 1
    return f"of about {digits} digits"
