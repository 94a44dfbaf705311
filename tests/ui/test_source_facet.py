# ruff: noqa: F811  (combined_session is a fixture imported from test_import_ui)
"""The Source facet lists each source by its title and date, not its file id;
the file id is still what the filter, the count and a saved view hold."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt

from ipubench_gui.ui.models.facet_model import NAME_ROLE, VALUE_ROLE
from tests.conftest import DATA
from tests.ui.test_import_ui import combined_session  # noqa: F401 (a fixture)


def _csv(name: str) -> list[dict[str, str]]:
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def listed(box) -> dict[object, str]:
    """Value -> the text its row shows (without the count), as listed."""
    p = box.proxy
    return {
        p.index(r, 0).data(VALUE_ROLE): p.index(r, 0).data(NAME_ROLE)
        for r in range(p.rowCount())
    }


def test_sources_are_listed_by_title_and_date(qtbot, session, db):
    """Each source by its title (before any bracket, so that it fits a narrow
    list whole), its whole title and date in the tooltip; never its file id."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    box = session.window.facets.boxes["source_file"]
    shown = listed(box)
    held = {
        r[0]
        for r in db.cursor().execute("SELECT source_file FROM results_v").fetchall()
    }
    assert set(shown) == held  # one entry per source of the results, by its id
    assert len(set(shown.values())) == len(shown)  # no two read alike

    def row_of(file):
        return next(
            box.proxy.index(r, 0)
            for r in range(box.proxy.rowCount())
            if box.proxy.index(r, 0).data(VALUE_ROLE) == file
        )

    def tip(file) -> str:
        return row_of(file).data(Qt.ItemDataRole.ToolTipRole)

    documents = {r["source_file"]: r for r in _csv("sources.csv")}
    for file, text in shown.items():
        assert file not in text and file not in tip(file)  # the id is never read
        if file in documents:  # the seed's pages and NVIDIA's figures
            row = documents[file]
            short = row["title"].split(" (")[0]  # dated where two read alike
            assert text in (short, f"{short} · {row['date']}")
            whole = f"{row['title']} · {row['date']}" if row["date"] else row["title"]
            assert tip(file).startswith(whole + ": ")
    # the official MLPerf results: their round; the day retrieved in the tooltip
    for row in _csv("mlperf_training.csv"):
        file = row["repository"]
        assert f"MLPerf Training v{row['mlperf_round']}" in shown[file]
        assert f" · {row['retrieved']}: " in tip(file)
    page = "000_74c88246ac92525e.txt"
    # another page of the seed has that title too (its MLPerf v1.1 edition)
    assert shown[page] == "Graphcore: Performance Results · 2023-07-04"
    assert tip(page).startswith(
        "Graphcore: Performance Results (Bow Pod and IPU-POD Classic) · 2023-07-04: "
    )
    # the row reads its name with its count; shortened to the list's width,
    # its start stays, which tells the MLPerf rounds apart
    delegate = box.list.itemDelegate()
    drawn = {}
    for file in shown:
        ix = row_of(file)
        opt = QStyleOptionViewItem()
        box.list.initViewItemOption(opt)
        opt.rect = box.list.visualRect(ix)
        assert ix.data(Qt.ItemDataRole.DisplayRole).startswith(shown[file] + "  (")
        drawn[file] = delegate.shown_text(opt, ix)
    assert len(set(drawn.values())) == len(drawn)
    for row in _csv("mlperf_training.csv"):
        assert f"MLPerf Training v{row['mlperf_round']}" in drawn[row["repository"]]
    # by name: in the order of what is read
    session.window.facets.set_sort("name")
    texts = list(listed(box).values())
    assert texts == sorted(texts, key=lambda t: (t.casefold(), t))


def test_a_source_chosen_by_title_filters_and_is_saved_by_its_id(qtbot, session, db):
    box = session.window.facets.boxes["source_file"]
    page = "000_74c88246ac92525e.txt"
    # found by typing part of its title in the facet's search field
    box.search.setText("graphcore")
    assert list(listed(box)) == [page]
    box.list.setFocus()
    box.list.setCurrentIndex(box.proxy.index(0, 0))
    qtbot.keyClick(box.list, Qt.Key.Key_Space)
    assert session.state.filters.values("source_file") == frozenset({page})
    n = (
        db.cursor()
        .execute("SELECT count(*) FROM results_v WHERE source_file = $f", {"f": page})
        .fetchone()[0]
    )
    assert session.window.model.rowCount() == n
    assert box.model.count(page) == n
    view = session.compare.current_view().to_json()
    assert view["filters"]["selected"] == {"source_file": [page]}


def test_an_imported_file_is_listed_by_its_label_and_day(
    qtbot, combined_session, tmp_path
):
    from ipubench_gui.domain.import_spec import ImportSpec

    make, db = combined_session
    s = make()
    f = tmp_path / "mine.csv"
    f.write_text("model,platform,value\nResNet-50,A100 80GB,2500\n")
    s.imports.start_import(
        ImportSpec(
            f,
            {"model": "model", "platform": "platform", "value": "value"},
            {"metric": "throughput", "unit": "images/s"},
            label="Lab A100",
        )
    )
    day = db.scalar("SELECT CAST(max(imported_at) AS DATE) FROM u.imports")
    box = s.window.facets.boxes["source_file"]
    qtbot.waitUntil(lambda: "mine.csv" in listed(box))
    assert listed(box)["mine.csv"] == "Lab A100"
    tip = box.model.data(
        box.model.index(box.model.values().index("mine.csv"), 0),
        Qt.ItemDataRole.ToolTipRole,
    )
    assert tip.startswith(f"Lab A100 · {day}: ")
    assert box.model.count("mine.csv") == 1


def test_the_chip_and_the_chart_subtitle_name_a_source_by_its_title(qtbot, session, db):
    """Ticked, a source reads the same in the filter chip and in the chart's
    subtitle (window and command line alike: service.chart.make_chart)."""
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.service.chart import make_chart

    page = "000_74c88246ac92525e.txt"
    row = {r["source_file"]: r for r in _csv("sources.csv")}[page]
    named = f"Source: {row['title']} · {row['date']}"
    state = FilterState().with_values("source_file", [page])
    session.state.set_filters(state)
    assert [c.text() for c in session.window.chips.chips] == [f"{named}  ✕"]
    sub = session.controller.chart.subtitle
    assert named in sub and page not in sub
    cli = make_chart(db, state, ChartSpec(kind=session.state.chart.kind))
    assert named in cli.subtitle and page not in cli.subtitle
