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
from collections.abc import Callable, Iterable, Sequence

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
        kept = _widest(heads, tails, width, measure, glue)
        if kept is None:
            continue
        i, j = kept
        head, tail = heads[i - 1] if i else "", tails[j - 1] if j else ""
        if gap is _SPACE and not i and len(heads) == j:
            # Only the first word is left out ("dgxa100_n8_pytorch (1)"):
            # a part of it, rather than "… (1)" alone.
            space = text[gaps[0][0] : gaps[0][1]]
            first = _word_cut(heads[0], width - measure(space + tail), measure)
            if first is not None:
                return first + space + tail
        return _joined(head, tail, glue)
    return _word_cut(text, width, measure) or _cut_chars(text, width, measure)


# Where a name of one word (a system id, a file name) may be cut in the
# middle: after these, and before them again ("dgxa100_…_pytorch").
_INNER = re.compile(r"([_./-])")
_MIN_CHARS = 3  # a cut word keeps at least this many of its characters


def _word_cut(word: str, width: float, measure: Callable[[str], float]) -> str | None:
    """One word too wide for ``width``: its first and last parts with "…"
    between (parts end at ``_ . / -``), else its first characters and "…";
    None when fewer than a few characters would show."""
    bits = _INNER.split(word)  # parts and the separators between them
    if len(bits) >= 5:  # three parts or more: a middle to leave out
        heads = ["".join(bits[: k + 2]) for k in range(0, len(bits) - 2, 2)]
        tails = ["".join(bits[k:]) for k in range(len(bits) - 2, 0, -2)]
        kept = _widest(heads, tails, width, measure, "")
        if kept is not None and all(kept):
            return _joined(heads[kept[0] - 1], tails[kept[1] - 1], "")
    cut = _cut_chars(word, width, measure)
    return cut if len(cut) > _MIN_CHARS and measure(cut) <= width else None


def _joined(head: str, tail: str, glue: str = " ") -> str:
    return glue.join(p for p in (head, ELLIPSIS, tail) if p)


def _widest(
    heads: list[str],
    tails: list[str],
    width: float,
    measure: Callable[[str], float],
    glue: str,
) -> tuple[int, int] | None:
    """Grow the kept tail and head a word at a time, the tail first, each as
    long as the result fits and the two do not overlap: how many words of
    the head and of the tail are kept (None: not one fits)."""
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
    return None if i == j == 0 else (i, j)


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


def share_widths(full: list[int], least: list[int], room: int) -> list[int]:
    """Column widths for ``room``: each column's whole text (``full``) when
    all fit, the room left over shared in proportion; else each at least its
    longest word (``least``: text wraps at words, never inside one), the rest
    shared in proportion to what each still lacks.

    >>> share_widths([100, 300], [40, 60], 800)
    [200, 600]
    >>> share_widths([100, 300], [40, 60], 220)
    [64, 156]
    >>> share_widths([100, 300], [40, 60], 50)
    [40, 60]
    """
    least = [min(a, b) for a, b in zip(least, full, strict=True)]
    total = sum(full)
    if total <= room:
        return [w + (room - total) * w // total for w in full] if total else full
    spare = room - sum(least)
    lack = [f - w for f, w in zip(full, least, strict=True)]
    if spare <= 0 or not sum(lack):
        return least
    return [w + spare * d // sum(lack) for w, d in zip(least, lack, strict=True)]


def part_sets(texts: Iterable[str], sep: str = " · ") -> list[frozenset[str]]:
    """Each of ``texts`` as the set of its parts (split at ``sep``), for
    ``elide_parts``."""
    return [frozenset(t.split(sep)) for t in texts if t]


def elide_parts(
    text: str,
    width: float,
    measure: Callable[[str], float],
    among: Sequence[frozenset[str]],
    sep: str = " · ",
) -> str:
    """``text`` (parts joined by ``sep``) cut to ``width`` keeping the parts
    that tell it from the other texts (``among``, as ``part_sets``): first
    the part fewest others carry, then, while others carry all kept, the
    one that leaves fewest; then as many more as fit, in their order; each
    run of parts left out is one "…". Nine bars named "BERT-Large · <system>
    · TensorRT · Offline" keep their systems (and a system's Offline and
    Server figures their scenarios), not the model and framework all share.
    Kept parts still too wide: the widest cut at its words.

    >>> among = part_sets(["BERT · DGX · TRT · Offline", "BERT · DGX · TRT · Server",
    ...                    "BERT · HGX · TRT · Offline"])
    >>> elide_parts("BERT · DGX · TRT · Offline", 21, len, among)
    '… · DGX · … · Offline'
    >>> elide_parts("BERT · HGX · TRT · Offline", 21, len, among)
    'BERT · HGX · TRT · …'
    """
    if measure(text) <= width:
        return text
    parts = text.split(sep)
    mine = frozenset(parts)
    others = list(among)
    if mine in others:  # itself, once
        others.remove(mine)
    kept: list[int] = []
    while len(kept) < len(parts):
        left = [i for i in range(len(parts)) if i not in kept]
        i = min(left, key=lambda i: (sum(parts[i] in o for o in others), i))
        kept.append(i)
        others = [o for o in others if parts[i] in o]
        if not others:
            break
    for i in range(len(parts)):  # more, in order, as room allows
        if i not in kept:
            more = _kept_joined(parts, {*kept, i}, sep)
            if measure(more) <= width:
                kept.append(i)
    while True:
        shown = _kept_joined(parts, set(kept), sep)
        if measure(shown) <= width:
            return shown
        # too wide still: the widest kept part cut at its words, its first
        # kept whole; else one part fewer
        widest = max(kept, key=lambda i: measure(parts[i]))
        cut = [*parts]
        cut[widest] = ""
        room = width - measure(_kept_joined(cut, set(kept), sep))
        cut[widest] = elide_words(parts[widest], room, measure, "right")
        shown = _kept_joined(cut, set(kept), sep)
        first = parts[widest].split()[0]
        if cut[widest].split()[0] == first and measure(shown) <= width:
            return shown
        if len(kept) == 1:  # the one part that tells it apart, cut if it must
            if measure(shown) <= width and cut[widest].rstrip("…").strip():
                return shown
            return elide_words(text, width, measure, sep=sep)
        kept.pop()  # the part that told it apart least


def _kept_joined(parts: Sequence[str], kept: set[int], sep: str) -> str:
    """``parts`` joined, each run of those not ``kept`` as one "…"."""
    out: list[str] = []
    for i, p in enumerate(parts):
        if i in kept:
            out.append(p)
        elif not out or out[-1] != ELLIPSIS:
            out.append(ELLIPSIS)
    return sep.join(out)
