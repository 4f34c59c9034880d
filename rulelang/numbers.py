"""Numbers of the rules: whole numbers and exact fractions, kept within a bound.

Values are bounded where they are stored (counters, ``let``, loop ranges, option
values, ranking keys) and when they are written out: an expression has finite size,
so from bounded inputs it computes a value of bounded size in bounded time, and
nothing can grow a number step after step (a counter squared in a loop) until the
machine stalls or Python refuses to print it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

MAX_NUMBER = 10**18  # the largest magnitude a stored number (or a fraction's numerator or denominator) may have
MAX_TEXT = 10_000  # the longest text a name may keep (a string that doubles in a loop must stop)


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
    if type(value) is int:  # the common case, without the abstract base class's instance check
        return value
    if isinstance(value, Fraction):
        return str(value)
    return value


def _size(value: Any) -> str:
    if isinstance(value, Fraction):
        value = max(abs(value.numerator), value.denominator)
    digits = int(abs(value).bit_length() * 0.30103) + 1
    return f"of about {digits} digits"
