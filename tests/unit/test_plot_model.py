"""Plot model helpers that need no store or Qt."""

from __future__ import annotations

from ipubench_gui.domain.plot_model import Plot, Point, Series, first_bars


def _bars(colours: str) -> Plot:
    """One bar per letter, in order; the letter says which series it belongs to."""
    series = {
        c: Series(
            c,
            "#000000",
            tuple(Point(10.0 - i, i) for i, x in enumerate(colours) if x == c),
            "bars",
        )
        for c in dict.fromkeys(colours)
    }
    return Plot(
        "throughput",
        "t",
        "x",
        "y",
        series=tuple(series.values()),
        horizontal_bars=True,
        categories=tuple(f"bar {i}" for i in range(len(colours))),
    )


def test_first_bars_keeps_the_first_n_and_drops_series_left_empty():
    plot = _bars("AABACC")
    top = first_bars(plot, 4)
    assert top.categories == ("bar 0", "bar 1", "bar 2", "bar 3")
    assert [s.name for s in top.series] == ["A", "B"]  # C's bars are 4 and 5
    assert [p.y for p in top.series[0].points] == [0, 1, 3]
    assert first_bars(plot, 6) is plot and first_bars(plot, 10) is plot


def test_first_bars_leaves_other_charts_alone():
    line = Plot(
        "scaling", "t", "x", "y", series=(Series("s", "#000000", (Point(9, 9),)),)
    )
    assert first_bars(line, 0) is line
