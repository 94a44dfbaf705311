"""Chart colours for screen (following the app palette) and for export (light)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Theme:
    background: str | None  # None: transparent
    foreground: str
    grid_alpha: float = 0.25
    highlight: str = "#D55E00"

    @property
    def muted(self) -> str:
        return self.foreground + "99"  # same colour, ~60% opaque


LIGHT = Theme(background="#FFFFFF", foreground="#222222")
DARK = Theme(background="#1E1E1E", foreground="#E6E6E6", highlight="#F0E442")
