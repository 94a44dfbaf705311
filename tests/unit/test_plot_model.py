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


def _sections(layout: str) -> Plot:
    """'H' a section's header row (no bar, no label), any other letter a bar of
    that series, in order."""
    plot = _bars(layout.replace("H", ""))
    ys = [i for i, c in enumerate(layout) if c != "H"]
    series = tuple(
        Series(
            s.name,
            s.color,
            tuple(Point(p.x, ys[int(p.y)]) for p in s.points),
            "bars",
        )
        for s in plot.series
    )
    return Plot(
        "throughput",
        "t",
        "x",
        "y",
        series=series,
        horizontal_bars=True,
        categories=tuple("" if c == "H" else f"row {i}" for i, c in enumerate(layout)),
        sections=tuple((i, f"group {i}") for i, c in enumerate(layout) if c == "H"),
    )


def test_first_bars_never_ends_on_a_header_whose_bars_are_cut_off():
    plot = _sections("HAAHBBHC")  # 8 rows: headers at 0, 3 and 6
    top = first_bars(plot, 4)  # row 3 would be a header with no bar under it
    assert top.categories == ("", "row 1", "row 2")
    assert top.sections == ((0, "group 0"),)
    assert [s.name for s in top.series] == ["A"]
    kept = first_bars(plot, 5)  # the header at 3 keeps its first bar
    assert kept.categories == ("", "row 1", "row 2", "", "row 4")
    assert kept.sections == ((0, "group 0"), (3, "group 3"))


def test_places_are_shared_evenly_and_what_a_part_cannot_take_goes_to_the_rest():
    from ipubench_gui.domain.chartrows import shares

    assert shares([65, 1306], 60) == [30, 30]
    assert shares([5, 1306], 60) == [5, 55]
    assert shares([1306, 5], 60) == [55, 5]
    assert shares([10, 20], 60) == [10, 20]  # room for all
    assert shares([100, 100], 5) == [3, 2]
    assert shares([3, 100, 100], 10) == [3, 4, 3]
    assert sum(shares([7, 8, 9], 13)) == 13


def test_bars_of_several_tasks_share_an_export_s_rows():
    """Two tasks' blocks ('H' headers): the rows that fit are shared between
    the blocks, each keeping its first rows, headers renumbered."""
    plot = _sections("HAAAAHBBBB")  # blocks at rows 0 and 5
    plot = Plot(
        **{
            **plot.__dict__,
            "blocks": ((0, "inference", 40), (5, "training", 4)),
            "sections": ((0, "Task: inference (4 of 40)"), (5, "Task: training (4)")),
        }
    )
    top = first_bars(plot, 6)
    assert top.categories == ("", "row 1", "row 2", "", "row 6", "row 7")
    assert top.sections == (
        (0, "Task: inference (2 of 40)"),
        (3, "Task: training (2 of 4)"),
    )
    assert top.blocks == ((0, "inference", 40), (3, "training", 4))
    assert sorted(p.y for s in top.series for p in s.points) == [1, 2, 4, 5]
    assert (
        top.notes[-1]
        == "the best of each task shown: 2 of 40 inference, 2 of 4 training"
    )
