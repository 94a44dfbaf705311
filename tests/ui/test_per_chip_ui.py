"""The window: per-chip figures from the View menu, one unit family at a time."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ipubench_gui.domain.per_chip import LABEL


def test_per_chip_toggle_from_the_keyboard(qtbot, session, db):
    w = session.window
    assert not session.state.chart.per_accelerator
    w.table.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClick(
        w.table,
        Qt.Key.Key_P,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.state.chart.per_accelerator
    assert w.per_chip_action.isChecked() and w.chart_options.per_chip.isChecked()
    plot = session.controller.plot
    assert LABEL in plot.x_title
    stored = {
        r[0]: r[1] / r[2]
        for r in db.cursor()
        .execute("SELECT result_id, value, accelerators FROM results_v")
        .fetchall()
        if r[2] and r[1] is not None
    }
    bars = {p.result_id: p.x for s in plot.series for p in s.points}
    assert bars and all(abs(v - stored[i]) < 1e-9 for i, v in bars.items())
    # and back
    w.per_chip_action.trigger()
    assert not session.state.chart.per_accelerator


def test_unit_family_one_click_away(qtbot, session):
    w = session.window
    combo = w.chart_options.family
    assert combo.isVisible() and combo.count() > 1
    drawn = {r["unit_family"] for r in session.controller.plot.rows}
    assert drawn == {combo.itemData(0)}
    i = next(i for i in range(combo.count()) if combo.itemData(i) == "nodes/s")
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    assert session.state.chart.unit_family == "nodes/s"
    assert {r["model"] for r in session.controller.plot.rows} == {"Cluster-GCN"}


def test_comparator_follows_the_per_chip_toggle(qtbot, session, db, tmp_path):
    """The comparator dock shows per-chip figures while the window's Per chip
    toggle is on, labelled derived; hand-computed from the seed's text."""
    from ipubench_gui.domain.format import format_number
    from ipubench_gui.domain.per_chip import NOTE
    from tests.conftest import seeds_or_skip
    from tests.seedtables import RESULTS_PAGE, read_tables

    tables = {t.heading: t for t in read_tables(seeds_or_skip() / RESULTS_PAGE)}

    def seed(heading, platform, batch):
        (r,) = [
            r
            for r in tables[heading].rows
            if r["Model"] == "ResNet-50 v1.5"
            and r["Framework"] == "TensorFlow1"
            and r["Platform"] == platform
            and r["Batch Size"] == batch
        ]
        return float(r["Throughput (items/sec)"].replace(",", ""))

    # an IPU-M2000 holds 4 IPUs, a Bow Pod16 16 (data/entities/systems.csv)
    m2000 = seed("IPU-POD Classic - Training", "IPU-M2000", "1,920") / 4  # 7,864/4
    pod16 = seed("Bow Platform - Training", "Bow Pod16", "3,520") / 16  # 44,059/16

    def rid(platform, batch):
        return db.scalar(
            "SELECT result_id FROM results_v WHERE model = 'ResNet-50 v1.5' AND "
            "framework_as_printed = 'TensorFlow1' AND platform = $p AND "
            "batch_size = $b AND metric = 'throughput'",
            {"p": platform, "b": batch},
        )

    from ipubench_gui.domain.compare import Comparison

    a, b = rid("IPU-M2000", 1920), rid("Bow Pod16", 3520)
    session.state.set_comparison(Comparison((a, b), a))
    cmp = session.window.comparator

    def figure_row():
        (row,) = [r for r in cmp.model.rows() if r.key == "value"]
        return row

    assert figure_row().label == "Figure"
    assert NOTE not in cmp.verdicts.text()
    session.window.per_chip_action.trigger()  # Ctrl+Shift+P, View menu
    row = figure_row()
    # the pages print items/sec; shown as what one ResNet-50 item is
    unit = "images/s"  # data/entities/models.csv: ResNet-50 v1.5 counts images
    assert row.label == f"Figure {LABEL}"  # "Figure per accelerator chip (derived)"
    assert row.values == (
        f"{format_number(m2000)} {unit} per chip",
        f"{format_number(pod16)} {unit} per chip",
    )
    (ratio,) = [r for r in cmp.model.rows() if r.key == "ratio"]
    assert ratio.values[1].startswith(f"{pod16 / m2000:.2f}× more throughput")
    assert NOTE in cmp.verdicts.text()
    # a saved comparison says so too
    session.compare.save_comparison(tmp_path / "c.md", "md")
    text = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert f"| Figure {LABEL} |" in text and NOTE in text
    # the Counterparts tab too
    session.state.set_selection((a,))
    title = cmp.counter_title.text()
    assert f"{format_number(m2000)} {unit} per chip" in title and NOTE in title
    tree = cmp.counterparts
    figures = [
        tree.topLevelItem(i).child(j).text(2)
        for i in range(tree.topLevelItemCount())
        for j in range(tree.topLevelItem(i).childCount())
    ]
    assert figures and all(f.endswith(f"{unit} per chip") for f in figures)
    session.window.per_chip_action.trigger()  # and back: as published
    assert figure_row().label == "Figure" and NOTE not in cmp.verdicts.text()
    assert figure_row().values[0] == f"7,864 {unit}"


def test_throughput_range_names_what_is_counted(qtbot, session, db):
    """The throughput range's title names the unit family of the rows shown
    ("mixed units" when several), and the Unit family facet picks one."""
    from ipubench_gui.domain.filters import FilterState

    rng = session.window.facets.ranges["throughput"]
    families = {
        f
        for (f,) in db.cursor()
        .execute(
            "SELECT DISTINCT unit_family FROM results_v WHERE metric = 'throughput'"
        )
        .fetchall()
    }
    assert {"images/s", "sequences/s", "nodes/s"} <= families
    assert rng.title.text() == "<b>Throughput (mixed units)</b>"
    # ResNet-50's items are images (data/entities/models.csv; the issue)
    session.state.set_filters(FilterState().with_values("model", ["ResNet-50 v1.5"]))
    assert rng.title.text() == "<b>Throughput (images/s)</b>"
    state = FilterState().with_values("unit_family", ["sequences/s"])
    session.state.set_filters(state)
    assert rng.title.text() == "<b>Throughput (sequences/s)</b>"
    m = session.window.model
    want = db.scalar("SELECT count(*) FROM results_v WHERE unit_family = 'sequences/s'")
    assert m.rowCount() == want > 0
    box = session.window.facets.boxes["unit_family"].model
    assert box.count("images/s") > 0  # other families stay one click away


def test_the_per_chip_column_names_what_it_counts(qtbot, session, db):
    """The table's per-chip throughput column says what its figures count
    (the unit family of the rows shown) and that they are derived; never the
    'items/s' of every row alike."""
    from PySide6.QtCore import Qt

    from ipubench_gui.domain.filters import FilterState

    m, table = session.window.model, session.window.table
    col = [f.name for f in m.fields].index("throughput_per_accelerator")

    def title() -> str:
        return m.headerData(col, Qt.Orientation.Horizontal)

    assert title() == "Throughput per chip (mixed units, derived)"
    # ResNet-50's items are images (data/entities/models.csv)
    session.state.set_filters(FilterState().with_values("model", ["ResNet-50 v1.5"]))
    assert title() == "Throughput per chip (images/s, derived)"
    table.setColumnHidden(col, False)
    table.selectRow(0)
    header = table.selection_tsv().splitlines()[0].split("\t")
    assert "Throughput per chip (images/s, derived)" in header
    session.state.set_filters(FilterState().with_values("unit_family", ["nodes/s"]))
    assert title() == "Throughput per chip (nodes/s, derived)"
    # only times to train: no throughput is shown, nothing is counted
    session.state.set_filters(FilterState().with_values("metric", ["time_to_train"]))
    assert (
        db.scalar(
            "SELECT count(*) FROM results_v WHERE metric = 'time_to_train' "
            "AND throughput_per_accelerator IS NOT NULL"
        )
        == 0
    )
    assert title() == "Throughput per chip (derived)"


def test_the_unit_column_says_what_a_throughput_counts(qtbot, session, db):
    """The vendor prints every throughput as items/sec and MLPerf Inference as
    samples; the table's Unit cell says what one item of the row's model is
    (data/entities/models.csv: images for ResNet-50 v1.5), and times keep
    their unit."""
    from ipubench_gui.domain.filters import FilterState

    m = session.window.model
    col = [f.name for f in m.fields].index("unit")
    printed = db.scalar(
        "SELECT DISTINCT unit FROM results_v WHERE model = 'ResNet-50 v1.5' "
        "AND metric = 'throughput' AND source = 'Vendor page'"
    )
    assert printed == "items/s"  # as the page prints it
    logged = db.scalar(
        "SELECT DISTINCT unit FROM results_v WHERE model = 'ResNet-50 v1.5' "
        "AND metric = 'throughput' AND source = 'MLPerf Inference'"
    )
    assert logged == "samples/s"  # as the logs count it ("Samples per second")
    session.state.set_filters(
        FilterState()
        .with_values("model", ["ResNet-50 v1.5"])
        .with_values("metric", ["throughput"])
    )
    qtbot.waitUntil(lambda: m.rowCount() > 0)
    assert {m.data(m.index(r, col)) for r in range(m.rowCount())} == {"images/s"}
    session.state.set_filters(FilterState().with_values("metric", ["time_to_train"]))
    qtbot.waitUntil(lambda: m.rowCount() > 0 and m.data(m.index(0, col)) != "images/s")
    assert {m.data(m.index(r, col)) for r in range(m.rowCount())} == {"min"}
