"""What an evidence source gives the claims audit: lines of nearest evidence,
and optionally a recomputation of a claim its own rule could not make.

Pure Python. Sources are registered in one place, ``store.query.claims.SOURCES``
(each a query for its rows and a ``nearest`` function of this shape); the
audit then judges a recomputation from any of them by the same rule
(``domain.verdicts.judge``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ipubench_gui.domain.claims import Figure
from ipubench_gui.domain.entities import Catalogue
from ipubench_gui.domain.verdicts import Difference

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Reading:
    """A recomputation of a claim's stated figure from some source's figures.

    ``differences`` must name every way the figures differ from what the
    claim states (``Difference.setup``), or the verdict would be drawn from
    evidence that is not like for like.
    """

    recomputed: float
    figures: tuple[Figure, ...]
    arithmetic: tuple[str, ...]
    differences: tuple[Difference, ...]
    recomputed_text: str = ""
    derived: bool = True

    def fields(self) -> dict[str, Any]:
        return dict(
            recomputed=self.recomputed,
            recomputed_text=self.recomputed_text,
            figures=list(self.figures),
            arithmetic=list(self.arithmetic),
            differences=list(self.differences),
            derived=self.derived,
        )


@dataclass(frozen=True)
class Evidence:
    """One source's evidence for one claim or comparison: lines shown under
    "Nearest independent evidence", and a :class:`Reading` when the source
    can recompute the claim."""

    lines: tuple[str, ...] = ()
    reading: Reading | None = None


# An evidence source's judgement-free part: given a comparison or claim row
# (``kind``: "comparison" or "claim"), the vendor's rows for it, the source's
# own rows and the entity tables, what it offers.
Nearest = Callable[[Row, str, Sequence[Row], Sequence[Row], Catalogue], Evidence]
