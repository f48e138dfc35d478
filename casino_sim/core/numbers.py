"""The one formatter of every number a user reads (report.md, the page, the terminal): a value shows one text.

A mean summed two ways differs in its last bits (0.9975 and 0.9974999999999999), and Python's formatting of the
binary value then rounds it two ways (+0.998 and +0.997). Here the value is first rounded to 12 significant
digits (far below any digit shown, far above float noise), then rounded half up to the digits asked for.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

_SPEC = re.compile(r"^(?P<head>[+ -]?,?)\.(?P<digits>\d+)(?P<kind>[f%])$")


def number(x: float, spec: str) -> str:
    """`x` formatted by the format spec `spec` ("+.3f", ".1%", ",.0f", ...), rounded half up on its decimal value;
    a spec without fixed digits (or a value not finite) as Python formats it."""
    match = _SPEC.match(spec)
    if match is None or not math.isfinite(x):
        return format(x, spec)
    digits = int(match["digits"]) + (2 if match["kind"] == "%" else 0)
    exact = Decimal(f"{x:.12g}").quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return format(exact, spec)
