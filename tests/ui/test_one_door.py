"""Each use case is one call into the application layer (ipubench_gui/service),
the same one from the command line and from the window: what one of them
honours (only differences, focus, per chip) the other cannot drop."""

from __future__ import annotations

import csv
import io

import pytest

from ipubench_gui import cli
from ipubench_gui.domain.compare import Comparison
from ipubench_gui.service import compare as service
from ipubench_gui.store.db import Database

# Two BERT Large rows that differ in system size only (tests/store/test_compare).
QUERY = (
    "SELECT result_id FROM results_v WHERE model_as_printed = 'BERT Large' "
    "AND framework_as_printed = 'PopART' "
    "AND variant = 'Ph1 Pre-Training (SL128) - Packed' AND platform_as_printed = $p"
)


@pytest.fixture
def pair(db):
    got = tuple(db.scalar(QUERY, {"p": p}) for p in ("Bow Pod16", "Bow Pod64"))
    assert None not in got
    return got


@pytest.fixture
def calls(monkeypatch):
    """Every call of the service's comparison text: (comparison, per chip,
    format, text)."""
    seen = []
    real = service.Compared.text

    def text(self, fmt):
        out = real(self, fmt)
        seen.append((self.comparison, self.per_chip, fmt, out))
        return out

    monkeypatch.setattr(service.Compared, "text", text)
    return seen


@pytest.fixture
def run(monkeypatch, store_path, capsys):
    """The command line in this process, over the test store."""
    monkeypatch.setattr(
        "ipubench_gui.bootstrap.open_store", lambda *a, **k: Database.open(store_path)
    )

    def run(*args):
        assert cli.main(list(args)) == 0
        return capsys.readouterr().out

    return run


def _rows(text):
    return list(csv.reader(io.StringIO(text)))


def test_compare_csv_only_differences_is_one_call_from_both(
    session, pair, calls, run, tmp_path
):
    a, b = pair
    full = _rows(run("compare", a, b, "--format", "csv"))
    printed = run("compare", a, b, "--format", "csv", "--only-differences")
    only = _rows(printed)
    # the flag is honoured: a row stays when its "differs" cell says it does
    # (yes) or cannot say (unknown), as the full table's own cells show
    assert only[0] == full[0]
    assert only[1:] == [r for r in full[1:] if r[-1] in ("yes", "unknown")]
    assert len(only) < len(full)

    session.state.set_comparison(Comparison((a, b), a, None, True))
    saved = session.compare.save_comparison(tmp_path / "c.csv", "csv")
    assert saved.read_bytes().decode("utf-8") == printed
    (cli_call, window_call) = calls[-2:]
    assert cli_call == window_call
    assert cli_call[:3] == (Comparison((a, b), a, None, True), False, "csv")


def test_markdown_and_focus_alike_from_both(session, pair, calls, run, tmp_path):
    a, b = pair
    printed = run("compare", a, b, "--only-differences")
    session.state.set_comparison(Comparison((a, b), a, None, True))
    md = session.compare.save_comparison(tmp_path / "c.md", "md")
    assert md.read_bytes().decode("utf-8") == printed
    assert calls[-1][2] == calls[-2][2] == "markdown"


def test_counterparts_are_one_call_from_both(session, pair, run, monkeypatch):
    seen = []
    real = service.counterparts

    def counterparts(db, rid):
        seen.append(rid)
        return real(db, rid)

    monkeypatch.setattr(service, "counterparts", counterparts)
    a, _ = pair
    out = run("counterparts", a)
    assert out.startswith(f"{a}: ")
    session.state.set_selection((a,))
    assert seen == [a, a]


def test_the_chart_is_built_by_one_function(session, run, monkeypatch, tmp_path):
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.service import chart

    seen = []
    real = chart.chart_from_rows

    def chart_from_rows(spec, rows, state, universe):
        out = real(spec, rows, state, universe)
        seen.append((spec.kind, state, out.plot.point_ids()))
        return out

    monkeypatch.setattr(chart, "chart_from_rows", chart_from_rows)
    run(
        "export-chart",
        "--kind",
        "scaling",
        "--filter",
        "framework=PyTorch",
        "--out",
        str(tmp_path / "c.png"),
    )
    state = FilterState().with_values("framework", ["PyTorch"])
    session.state.set_chart(ChartSpec(kind="scaling"))
    session.state.set_filters(state)
    window = [s for s in seen[1:] if s[:2] == ("scaling", state)]
    assert seen[0][:2] == ("scaling", state) and seen[0][2] and window
    assert window[-1][2] == seen[0][2]  # the same points


@pytest.fixture
def combined(store_path, tmp_path):
    """``combined(name)``: the test store with a user database of its own
    (one for the command line, one for the window)."""
    import os

    from ipubench_gui.store.bundled.build import fingerprint
    from ipubench_gui.store.user.userdb import open_combined
    from tests.conftest import DATA

    cache = tmp_path / "cache"
    cache.mkdir()
    os.link(store_path, cache / f"results-{fingerprint(DATA)[:16]}.duckdb")
    return lambda name: open_combined(DATA, cache, tmp_path / f"{name}.duckdb")[0]


def test_an_import_is_one_call_from_both(
    make_session, combined, tmp_path, monkeypatch, capsys
):
    from ipubench_gui.domain.import_spec import ImportSpec
    from ipubench_gui.service import imports

    seen = []
    real = imports.import_file

    def import_file(db, spec):
        out = real(db, spec)
        seen.append((spec.path, dict(spec.columns), dict(spec.constants), out.landed))
        return out

    monkeypatch.setattr(imports, "import_file", import_file)
    monkeypatch.setattr(
        "ipubench_gui.bootstrap.open_store", lambda *a, **k: combined("cli")
    )
    f = tmp_path / "mine.csv"
    f.write_text("model,platform,value\nResNet-50,A100 80GB,2500\n")
    args = ["--map", "model=model", "--map", "platform=platform"]
    args += ["--map", "value=value", "--metric", "throughput", "--unit", "images/s"]
    assert cli.main(["import", str(f), *args]) == 0
    assert "imported 1 row as" in capsys.readouterr().out

    s = make_session(combined("window"))
    s.imports.start_import(
        ImportSpec(
            f,
            {"model": "model", "platform": "platform", "value": "value"},
            {"metric": "throughput", "unit": "images/s"},
        )
    )
    assert len(seen) == 2 and seen[0] == seen[1]
    assert seen[0][3] == 1


def test_a_table_export_is_one_call_from_both(session, run, monkeypatch, tmp_path):
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.service import exports

    seen = []
    real = exports.export_table

    def export_table(db, state, path, per_accelerator=False):
        n = real(db, state, path, per_accelerator)
        seen.append((state, n, path.read_bytes()))
        return n

    monkeypatch.setattr(exports, "export_table", export_table)
    run("export-table", str(tmp_path / "cli.csv"), "--filter", "framework=PyTorch")
    state = FilterState().with_values("framework", ["PyTorch"])
    session.state.set_filters(state)
    session.imports.export(tmp_path / "window.csv")
    assert [s[0] for s in seen] == [state, state]
    assert seen[0][1] == seen[1][1] > 0 and seen[0][2] == seen[1][2]


def test_the_mlperf_table_is_one_call_from_both(
    qtbot, session, run, monkeypatch, tmp_path
):
    from PySide6.QtCore import Qt

    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.service import mlperf_table

    made, written = [], []
    real_table, real_write = mlperf_table.table, mlperf_table.write

    def table(db, state, per_chip=False):
        out = real_table(db, state, per_chip)
        made.append((state, per_chip, out))
        return out

    def write(table, path, fmt):
        n = real_write(table, path, fmt)
        written.append((table, fmt, n, path.read_bytes()))
        return n

    monkeypatch.setattr(mlperf_table, "table", table)
    monkeypatch.setattr(mlperf_table, "write", write)
    run(
        "mlperf-table",
        "--round",
        "2.0",
        "--format",
        "csv",
        "--out",
        str(tmp_path / "c.csv"),
    )
    state = FilterState().with_values("mlperf_round", ["2.0"])
    session.state.set_filters(state)
    w = session.window
    w.table.setFocus()
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(w.table, Qt.Key.Key_M, ctrl_shift)
    qtbot.waitUntil(lambda: len(made) == 2, timeout=20_000)
    qtbot.waitUntil(lambda: w.mlperf_table.model.rowCount() > 0, timeout=20_000)
    session.mlperf_table.save(tmp_path / "w.csv", "csv")
    assert made[0][:2] == made[1][:2] == (state, False)
    assert made[0][2] == made[1][2] and made[0][2].rows  # the same table
    assert len(written) == 2 and written[0] == written[1]  # the same file


def test_the_claims_audit_is_one_call_from_both(session, run, monkeypatch):
    from ipubench_gui.service import claims

    seen = []
    real = claims.audit

    def audit(db, data_dir):
        out = real(db, data_dir)
        seen.append((data_dir, out.audits))
        return out

    monkeypatch.setattr(claims, "audit", audit)
    printed = run("claims", "--format", "csv")
    session.claims.refresh()
    assert len(seen) == 2 and seen[0] == seen[1] and seen[0][1]
    ids = {a.claim_id for a in seen[0][1]}
    assert ids == set(session.claims.audits)  # the window shows what was audited
    assert all(i in printed for i in ids)  # and the command printed


def test_an_mlperf_folder_is_planned_by_one_call_from_both(
    make_session, combined, tmp_path, monkeypatch, capsys
):
    from ipubench_gui.service import imports
    from tests.mlperf_trees import tree

    seen = []
    real = imports.plan_mlperf

    def plan_mlperf(db, folder, round_, data_dir, *a, **k):
        out = real(db, folder, round_, data_dir, *a, **k)
        seen.append((folder, round_, data_dir, out.summary()))
        return out

    monkeypatch.setattr(imports, "plan_mlperf", plan_mlperf)
    monkeypatch.setattr(
        "ipubench_gui.bootstrap.open_store", lambda *a, **k: combined("cli")
    )
    root = tree(tmp_path, [10, 20, 30, 40, 100])
    assert cli.main(["import-mlperf", str(root), "--check"]) == 0
    assert capsys.readouterr().out.startswith(seen[0][3])
    s = make_session(combined("window"))
    s.mlperf_imports.ask = False
    s.mlperf_imports.open_folder(root)
    assert len(seen) == 2 and seen[0] == seen[1]
    assert "1 new result(s)" in seen[0][3]
