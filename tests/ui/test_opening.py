"""Files given to the app (``ipubench-gui FILE``, as a desktop passes them), and
the messages around opening and filtering from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipubench_gui.cli import parse_args
from ipubench_gui.domain.filters import FilterState
from tests.conftest import run_cli
from tests.ui.conftest import sql_ids, table_ids


@pytest.mark.parametrize(
    "argv, command, files, view",
    [
        (["my.ipubench-view.json"], None, ["my.ipubench-view.json"], None),
        (["--view", "v.json", "r.csv"], None, ["r.csv"], "v.json"),
        (["--screenshot", "s.png", "results"], None, ["results"], None),
        (["--", "--odd.csv"], None, ["--odd.csv"], None),
        (["export-results", "all.csv"], "export-results", [], None),
        (["compare", "a", "b"], "compare", [], None),
        ([], None, [], None),
    ],
)
def test_files_and_commands_are_told_apart(argv, command, files, view):
    args = parse_args(argv)
    assert args.command == command
    assert args.files == [Path(f) for f in files]
    assert args.view == (Path(view) if view else None)


def saved_view(session, path: Path, f: FilterState) -> Path:
    session.state.set_filters(f)
    session.compare.save_view(path)
    session.state.set_filters(FilterState())
    return path


def test_a_view_given_as_a_file_opens(qtbot, session, db, tmp_path):
    from ipubench_gui.app import open_path

    f = FilterState().with_values("framework", ["PopART"])
    for name in ("mine.ipubench-view.json", "older.json"):
        path = saved_view(session, tmp_path / name, f)
        assert table_ids(session) == sql_ids(db)
        assert open_path(session, path) == "view"
        assert session.state.filters == f
        assert table_ids(session) == sql_ids(db, "r.framework = 'PopART'")


def test_a_csv_given_as_a_file_opens_the_import_dialog(qtbot, session, tmp_path):
    from ipubench_gui.app import open_path

    f = tmp_path / "mine.csv"
    f.write_text("Benchmark,System,Samples/s\nResNet-50,A100 80GB,2500\n")
    assert open_path(session, f) == "import"
    dlg = session.imports.dialog
    assert dlg is not None and dlg.isVisible()
    assert dlg.path == f
    assert [c.currentText() for c in dlg.maps] == ["model", "platform", "value"]


def test_missing_files_and_folders_say_what_is_wrong(qtbot, session, tmp_path):
    from ipubench_gui.app import open_path

    bar = session.window.statusBar()
    assert open_path(session, tmp_path / "nosuch.csv") == "error"
    assert bar.currentMessage() == f"{tmp_path / 'nosuch.csv'} does not exist."
    session.compare.open_view(tmp_path / "nosuch.json")
    msg = bar.currentMessage()
    assert msg == f"The view file {tmp_path / 'nosuch.json'} does not exist."
    kind = open_path(session, tmp_path)
    assert kind == "mlperf-folder"
    # the MLPerf folder import asks which round a folder not named
    # training_results_vX.Y holds
    assert "which MLPerf round is it?" in bar.currentMessage()


def test_saving_a_view_uses_the_registered_name(tmp_path):
    from ipubench_gui.domain.opening import classify, view_path

    assert view_path(tmp_path / "a") == tmp_path / "a.ipubench-view.json"
    assert view_path(tmp_path / "a.json") == tmp_path / "a.json"
    csv = tmp_path / "r.json"
    csv.write_text(json.dumps([{"model": "ResNet-50", "value": 1}]))
    assert classify(csv).kind == "import"


def test_the_app_opens_a_view_given_on_its_command_line(session, tmp_path):
    """As the desktop starts it (Exec=ipubench-gui %F): was exit 2, "invalid
    choice"; now the window opens with the view's filters."""
    f = FilterState().with_values("framework", ["PopART"])
    view = saved_view(session, tmp_path / "v.ipubench-view.json", f)
    home = tmp_path / "home"
    shot = tmp_path / "shot.png"
    p = run_cli(str(view), "--screenshot", str(shot), home=home)
    assert p.returncode == 0, p.stderr[-2000:]
    assert shot.exists()
    ini = (home / "config" / "settings.ini").read_text()
    assert str(view) in ini  # opened, so listed under File > Recent views


def test_cli_filter_messages(tmp_path):
    home = tmp_path / "home"
    # any spelling of a known name is that name (data/entities)
    p = run_cli(
        "export-table",
        str(tmp_path / "t.csv"),
        "--filter",
        "framework=PYTORCH",
        home=home,
    )
    assert p.returncode == 0, p.stderr
    p = run_cli(
        "export-table", str(tmp_path / "t.csv"), "--filter", "variant=sl128", home=home
    )
    assert p.returncode != 0
    assert "did you mean 'SL128'?" in p.stderr
    p = run_cli(
        "export-table",
        str(tmp_path / "t.csv"),
        "--filter",
        "framework=Caffe",
        home=home,
    )
    assert p.returncode != 0 and "known: " in p.stderr
    known = p.stderr.split("known: ", 1)[1]
    assert "PyTorch" in known and "None" not in known
    h = run_cli("export-table", "--help", home=home).stdout
    assert "DIM=LO..HI" in h and "as for export-chart" not in h
    for cmd in ("compare", "counterparts"):
        h = " ".join(run_cli(cmd, "--help", home=home).stdout.split())
        assert h.startswith(f"usage: ipubench-gui {cmd} ")
        assert "RESULT_ID a result's id, as in the result_id column of " in h
