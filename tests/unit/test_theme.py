"""Chart colours against their background: WCAG contrast, and still distinct."""

from __future__ import annotations

import itertools

import pytest

from ipubench_gui.charts.theme import (
    DARK,
    LIGHT,
    MIN_CONTRAST,
    MIN_DIFFERENCE,
    WORKED_OUT,
    contrast_ratio,
    difference,
    palette_for,
    readable,
    relative_luminance,
)
from ipubench_gui.domain.chartrows import PALETTE


def test_contrast_matches_wcag_reference_values():
    # Values from the WCAG 2 definition and WebAIM's contrast checker.
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#0000FF", "#FFFFFF") == pytest.approx(8.59, abs=0.01)
    assert relative_luminance("#FFFFFF") == pytest.approx(1.0)
    # The issue's case: TensorFlow1's black bars on the dark chart.
    assert contrast_ratio("#000000", DARK.background) < 1.3


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_every_palette_colour_is_readable_and_distinct(theme):
    drawn = [theme.series(c) for c in PALETTE]
    for src, out in zip(PALETTE, drawn):
        assert contrast_ratio(out, theme.ground) >= MIN_CONTRAST, (src, out)
        if contrast_ratio(src, theme.ground) >= MIN_CONTRAST:
            assert out == src  # colours that pass are left alone
    closest = min(difference(a, b) for a, b in itertools.combinations(drawn, 2))
    assert closest >= MIN_DIFFERENCE
    assert len(set(drawn)) == len(PALETTE)


def test_readable_moves_lightness_away_from_the_background_only_as_needed():
    out = readable("#000000", "#1E1E1E")
    assert contrast_ratio(out, "#1E1E1E") == pytest.approx(3.0, abs=0.1)
    out = readable("#F0E442", "#FFFFFF")  # yellow on white: darkened
    assert relative_luminance(out) < relative_luminance("#F0E442")
    assert contrast_ratio(out, "#FFFFFF") == pytest.approx(3.0, abs=0.1)
    # Any colour at all reaches it, on any background.
    for bg in ("#FFFFFF", "#1E1E1E", "#808080", "#2B2B2B"):
        for c in ("#123456", "#FEDCBA", "#808080", "#999999"):
            assert contrast_ratio(readable(c, bg), bg) >= MIN_CONTRAST


def test_a_transparent_export_is_drawn_for_white():
    from ipubench_gui.charts.theme import Theme

    clear = Theme(background=None, foreground="#222222")
    assert [clear.series(c) for c in PALETTE] == list(
        palette_for("#FFFFFF", PALETTE).values()
    )


def test_the_palettes_written_out_are_what_palette_for_works_out():
    """Theme.series takes these instead of working them out at every start."""
    assert {ground for ground, _ in WORKED_OUT} == {LIGHT.ground, DARK.ground}
    for (ground, palette), mapped in WORKED_OUT.items():
        assert palette == PALETTE
        assert mapped == palette_for.__wrapped__(ground, palette)
