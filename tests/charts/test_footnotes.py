"""Footnotes state only what holds for the plotted rows: the vendor's
precision notation note under the vendor's own figures, never under MLPerf
results or imported rows."""

from __future__ import annotations

from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.domain.plots import PRECISION_NOTE, build_plot, footnote
from ipubench_gui.service import browse
from ipubench_gui.store.user import importer
from tests.store.conftest import combined  # noqa: F401  (fixture)


def _note(db, kind, state=None):
    spec = ChartSpec(kind=kind)
    plot = build_plot(spec, browse.chart_data(db, state or FilterState(), spec))
    assert not plot.empty
    return plot, footnote(plot)


def test_the_precision_note_goes_with_the_vendors_figures_only(db):
    # The vendor's tables print precision as 16.16: the note explains it.
    plot, note = _note(db, "scaling")
    assert {r["source"] for r in plot.rows} == {"Vendor page"}
    assert PRECISION_NOTE in note
    # MLPerf results, 11 of them cited by a vendor page (which prints 16.16):
    # still MLPerf figures, whose footnote is MLPerf's.
    plot, note = _note(db, "mlperf")
    assert any(r.get("precision") == "16.16" for r in plot.rows)
    assert PRECISION_NOTE not in note and "MLPerf™ is a trademark" in note


def test_imported_rows_never_get_the_vendors_precision_note(combined, tmp_path):  # noqa: F811
    p = tmp_path / "mine.csv"
    p.write_text(
        "model,platform,throughput,precision,chips\n"
        "ResNet-50 v1.5,A100 40GB,2500,16.16,8\n"
        "ResNet-50 v1.5,A100 40GB,4900,16.16,16\n"
    )
    spec = ImportSpec(
        p,
        {
            "model": "model",
            "platform": "platform",
            "value": "throughput",
            "precision": "precision",
            "accelerators": "chips",
        },
        {"metric": "throughput", "unit": "images/s", "task": "training"},
        label="My runs",
    )
    assert importer.import_file(combined.cursor(), spec).landed == 2
    mine = FilterState().with_values("source_file", ["mine.csv"])
    plot, note = _note(combined, "throughput", mine)
    assert [r["precision"] for r in plot.rows] == ["16.16", "16.16"]
    assert PRECISION_NOTE not in note
    assert "My runs" in note  # the source it does state is the import's
    # Mixed with the vendor's figures, the note is back (it holds for them).
    both = mine.with_values("source_file", ["mine.csv", "000_74c88246ac92525e.txt"])
    assert PRECISION_NOTE in _note(combined, "throughput", both)[1]
