"""Chart colours per background: screen (light or dark, following the app) and
export (light, or transparent over a slide).

Every series colour is checked against the background it is drawn on: WCAG 2's
non-text contrast (1.4.11) asks for at least 3:1, measured with its relative
luminance. The domain picks colours from ``chartspec.PALETTE`` (Okabe & Ito,
then Paul Tol); ``Theme.series`` gives the colour to draw instead: the same hue,
lightened on a dark background or darkened on a light one just enough to reach
3:1 (black bars on #1E1E1E were invisible; navy was faint). This module is the
one place for that rule; it is pure Python (no Qt) and tested as such.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field
from functools import lru_cache

MIN_CONTRAST = 3.0  # WCAG 2.1, 1.4.11 non-text contrast


def _rgb(color: str) -> tuple[float, float, float]:
    """'#RRGGBB' (or '#RRGGBBAA', alpha ignored) as 0..1 floats."""
    c = color.lstrip("#")
    if len(c) not in (6, 8):
        raise ValueError(f"not a #RRGGBB colour: {color!r}")
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02X}" for v in rgb)


def relative_luminance(color: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0 black .. 1 white)."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in _rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (same) .. 21 (black on white)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


@lru_cache(maxsize=512)
def readable(color: str, background: str, minimum: float = MIN_CONTRAST) -> str:
    """``color`` itself if it has ``minimum`` contrast against ``background``;
    else the same hue and saturation, moved in lightness (away from the
    background) by the least amount that reaches it."""
    if contrast_ratio(color, background) >= minimum:
        return _hex(_rgb(color))
    h, light, s = colorsys.rgb_to_hls(*_rgb(color))
    dark_bg = relative_luminance(background) < 0.18
    lo, hi = (light, 1.0) if dark_bg else (0.0, light)
    for _ in range(30):  # bisect on lightness
        mid = (lo + hi) / 2
        ok = contrast_ratio(_hex(colorsys.hls_to_rgb(h, mid, s)), background)
        if (ok >= minimum) == dark_bg:
            hi = mid
        else:
            lo = mid
    out = _hex(colorsys.hls_to_rgb(h, hi if dark_bg else lo, s))
    if contrast_ratio(out, background) < minimum:  # rounding: one more step
        out = _hex(colorsys.hls_to_rgb(h, 1.0 if dark_bg else 0.0, s))
    return out


def _lab(color: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour, for telling colours apart."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    r, g, b = (lin(v) for v in _rgb(color))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def difference(a: str, b: str) -> float:
    """CIE76 colour difference (Delta E): about 2.3 is just noticeable; the
    closest pair of the palette as designed is 14 apart."""
    la, lb = _lab(a), _lab(b)
    return sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5


MIN_DIFFERENCE = 12.0  # between any two series colours on one background
HUE_STEPS = (0, 10, -10, 20, -20, 30, -30, 40, -40, 50, -50, 60, -60)


def _rotated(color: str, degrees: float) -> str:
    h, light, s = colorsys.rgb_to_hls(*_rgb(color))
    return _hex(colorsys.hls_to_rgb((h + degrees / 360) % 1.0, light, s))


@lru_cache(maxsize=8)
def palette_for(background: str, colors: tuple[str, ...]) -> dict[str, str]:
    """Each of ``colors`` (a palette, in order) as drawn on ``background``:
    readable (3:1), and at least MIN_DIFFERENCE from the colours before it.
    Darkening for a light background can make two colours meet (sky blue and
    pale cyan both become mid blue): the later one then turns its hue by the
    least amount, up to 60 degrees, that keeps it apart (or the best found)."""
    out: dict[str, str] = {}
    for c in colors:
        best, best_d = "", -1.0
        for step in HUE_STEPS:
            cand = readable(_rotated(c, step) if step else c, background)
            d = min((difference(cand, o) for o in out.values()), default=99.0)
            if d >= MIN_DIFFERENCE:
                best = cand
                break
            if d > best_d:
                best, best_d = cand, d
        out[c] = best
    return out


# ``palette_for`` of the app's palette (domain.chartrows.PALETTE, its colours
# in order as the key) on the two screen backgrounds, written out: worked out
# (a bisection of each colour's lightness) it delayed the first chart of every
# start. tests/unit/test_theme.py checks each against palette_for; a
# palette changed since is not found here and is worked out as before.
WORKED_OUT: dict[tuple[str, tuple[str, ...]], dict[str, str]] = {
    (ground, tuple(mapped)): mapped
    for ground, mapped in (
        (
            "#FFFFFF",
            {
                "#0072B2": "#0072B2",
                "#E69F00": "#C68900",
                "#009E73": "#009E73",
                "#CC79A7": "#CC79A7",
                "#56B4E9": "#239DE2",
                "#D55E00": "#D55E00",
                "#F0E442": "#A2970D",
                "#000000": "#000000",
                "#332288": "#332288",
                "#88CCEE": "#1BA2BE",
                "#44AA99": "#42A494",
                "#117733": "#117733",
                "#999933": "#999933",
                "#DDCC77": "#BC8D2F",
                "#CC6677": "#CC6677",
                "#882255": "#882255",
                "#AA4499": "#AA4499",
                "#DDDDDD": "#949494",
            },
        ),
        (
            "#1E1E1E",
            {
                "#0072B2": "#0072B2",
                "#E69F00": "#E69F00",
                "#009E73": "#009E73",
                "#CC79A7": "#CC79A7",
                "#56B4E9": "#56B4E9",
                "#D55E00": "#D55E00",
                "#F0E442": "#F0E442",
                "#000000": "#696969",
                "#332288": "#6953D4",
                "#88CCEE": "#88CCEE",
                "#44AA99": "#44AA99",
                "#117733": "#117934",
                "#999933": "#999933",
                "#DDCC77": "#DDCC77",
                "#CC6677": "#CC6677",
                "#882255": "#BC2F75",
                "#AA4499": "#AA4499",
                "#DDDDDD": "#DDDDDD",
            },
        ),
    )
}


@dataclass(frozen=True)
class Theme:
    background: str | None  # None: transparent (drawn for a light slide)
    foreground: str
    grid_alpha: float = 0.25
    highlight: str = "#D55E00"
    caption: str = "#555555"  # subtitles and footnotes: >= 4.5:1 (WCAG AA)
    # Each series colour the domain chose, as drawn on this background.
    _series: dict[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @property
    def muted(self) -> str:
        return self.foreground + "99"  # same colour, ~60% opaque

    @property
    def ground(self) -> str:
        """The colour series are drawn on (white under a transparent export)."""
        return self.background or "#FFFFFF"

    def series(self, color: str) -> str:
        """``color`` as drawn here: at least 3:1 against the background, and
        the palette's colours still apart from each other."""
        out = self._series.get(color)
        if out is None:
            from ipubench_gui.domain.chartrows import PALETTE

            mapped = WORKED_OUT.get((self.ground, PALETTE)) or palette_for(
                self.ground, PALETTE
            )
            out = mapped.get(color) or readable(color, self.ground)
            self._series[color] = out
        return out


LIGHT = Theme(background="#FFFFFF", foreground="#222222")
DARK = Theme(
    background="#1E1E1E", foreground="#E6E6E6", highlight="#F0E442", caption="#B4B4B4"
)
