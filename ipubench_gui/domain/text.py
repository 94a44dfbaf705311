"""Shortening a label to a width without cutting inside a word.

Qt's ``elidedText`` cuts wherever the width runs out ("Ph1 Pre-Trai…ed"),
which hides the words that tell two labels apart: "Packed", a framework's
suffix, a count at the end. ``elide_words`` drops whole words instead, from
the middle by default so the first and the last words both stay
("BERT-Large … PyTorch (12)"). Widths come from a ``measure`` callable (a
font's ``horizontalAdvance`` in the window, an export's font metrics in a
chart), so this module stays free of Qt and is shared by the table, the facet
lists and the chart legends.
"""

from __future__ import annotations

import re
from collections.abc import Callable

ELLIPSIS = "…"
_SPACE = re.compile(r"\s+")


def elide_words(
    text: str,
    width: float,
    measure: Callable[[str], float],
    where: str = "middle",
    sep: str = "",
) -> str:
    """``text`` if it fits in ``width``; else whole words with "…" for the rest.

    ``sep``: the text's parts are joined by it (a chart label's " · "): whole
    parts go first ("EfficientNet-B4 · … · bs 6,144", not "… 1 · bs 6,144"),
    then whole words if no part fits.

    ``where`` is "middle" (keep leading and trailing words, the last word
    first), "head" (the last word, then as many leading words as fit: a
    title's start and a list's count) or "right" (keep leading words). A
    first or last word wider than the width on its own is the one case cut
    inside a word (there is nothing else to show).

    >>> w = len  # one unit per character
    >>> elide_words("BERT-Large Ph1 Pre-Training Packed", 20, w)
    'BERT-Large … Packed'
    >>> elide_words("BERT-Large Ph1 Pre-Training Packed", 24, w, "right")
    'BERT-Large Ph1 …'
    >>> elide_words("MLPerf Training v2.0 results  (261)", 30, w, "head")
    'MLPerf Training v2.0 … (261)'
    >>> elide_words("short", 24, w)
    'short'
    """
    if measure(text) <= width:
        return text
    text = text.strip()
    for gap in ([re.compile(re.escape(sep))] if sep and sep in text else []) + [_SPACE]:
        gaps = [(m.start(), m.end()) for m in gap.finditer(text)]
        heads = [text[:a] for a, _ in gaps]  # shortest first
        tails = [text[b:] for _, b in reversed(gaps)] if where != "right" else []
        if where == "head":
            tails = tails[:1]
        glue = sep if gap is not _SPACE else " "
        best = _widest(heads, tails, width, measure, glue)
        if best is not None:
            return best
    return _cut_chars(text, width, measure)


def _joined(head: str, tail: str, glue: str = " ") -> str:
    return glue.join(p for p in (head, ELLIPSIS, tail) if p)


def _widest(
    heads: list[str],
    tails: list[str],
    width: float,
    measure: Callable[[str], float],
    glue: str,
) -> str | None:
    """Grow the kept tail and head a word at a time, the tail first, each as
    long as the result fits and the two do not overlap."""
    i = j = 0  # words kept at the head / the tail
    total = len(heads) + 1  # words in the text
    grew = True
    while grew:
        grew = False
        for side in ("tail", "head"):
            ni, nj = (i, j + 1) if side == "tail" else (i + 1, j)
            if nj > len(tails) or ni > len(heads) or ni + nj >= total:
                continue
            head = heads[ni - 1] if ni else ""
            tail = tails[nj - 1] if nj else ""
            if measure(_joined(head, tail, glue)) <= width:
                i, j, grew = ni, nj, True
    if i == j == 0:
        return None
    return _joined(heads[i - 1] if i else "", tails[j - 1] if j else "", glue)


def _cut_chars(text: str, width: float, measure: Callable[[str], float]) -> str:
    """The last resort: as many leading characters as fit, then "…"."""
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS
