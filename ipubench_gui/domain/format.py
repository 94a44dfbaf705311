"""Number and value formatting shared by the table, charts and exports."""

from __future__ import annotations


def format_number(v: float | int | None, digits: int = 3) -> str:
    """Thousands separators; up to ``digits`` significant decimals for fractions.

    >>> format_number(1260000), format_number(0.58), format_number(19.64)
    ('1,260,000', '0.58', '19.64')
    """
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v)
    f = float(v)
    if f.is_integer() and abs(f) < 1e15:
        return f"{int(f):,}"
    if abs(f) >= 1000:
        return f"{f:,.0f}"
    text = f"{f:.{digits}g}" if abs(f) < 1 else f"{f:,.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
