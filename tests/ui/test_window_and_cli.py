"""Every command works while a window is open, on the data the window shows:
the window reads a copy of the user's database and holds no lock on it, so
a command imports and exports beside it; what a command imports, the window
shows; the window's own import holds the file for that import only."""

from __future__ import annotations

import pytest

from tests.conftest import STORE_ROWS, run_cli


def _csv(path, n: int, model: str = "m"):
    rows = "".join(f"{model}{i},{100 + i},images/s\n" for i in range(n))
    path.write_text("model,throughput,unit\n" + rows)
    return path


@pytest.fixture
def window(make_session, qtbot, _isolated_home, tmp_path):
    """A window over the user's store as the app opens it (a copy of the
    user database; real worker threads), with one import of 2 rows."""
    from ipubench_gui.bootstrap import open_store

    p = run_cli("import", str(_csv(tmp_path / "a.csv", 2)), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    s = make_session(open_store(mode="snapshot"), synchronous=False)
    qtbot.waitUntil(lambda: s.results.universe is not None, timeout=20000)
    assert s.results.universe.total == STORE_ROWS + 2
    return s


def test_commands_read_and_import_while_the_window_is_open(
    window, qtbot, _isolated_home, tmp_path
):
    out = tmp_path / "all.csv"
    p = run_cli("export-results", str(out), home=_isolated_home)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout == f"wrote {STORE_ROWS + 2} results to {out}\n"
    for cmd in (["claims"], ["counterparts", "bowtr-536574"]):
        p = run_cli(*cmd, home=_isolated_home)
        assert p.returncode == 0 and p.stderr == "", (cmd, p.stderr)
    # an import from the command line lands, and the window shows it
    p = run_cli("import", str(_csv(tmp_path / "b.csv", 3, "n")), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert "imported 3 rows" in p.stdout
    qtbot.waitUntil(
        lambda: window.results.universe.total == STORE_ROWS + 5, timeout=20000
    )
    assert "changed" in window.window.statusBar().currentMessage()
    p = run_cli("export-results", str(out), home=_isolated_home)
    assert p.stdout == f"wrote {STORE_ROWS + 5} results to {out}\n"


def test_the_windows_own_import_holds_the_file_for_that_import_only(
    window, qtbot, _isolated_home, tmp_path
):
    from ipubench_gui.domain.import_spec import ImportSpec

    spec = ImportSpec(
        _csv(tmp_path / "c.csv", 4, "w"),
        {"model": "model", "value": "throughput", "unit": "unit"},
        {"metric": "throughput"},
    )
    with qtbot.waitSignal(
        window.runner.finished,
        timeout=30000,
        check_params_cb=lambda slot, _rid, _result: slot == "import",
    ) as got:
        window.imports.start_import(spec)
    slot, _rid, result = got.args
    assert slot == "import" and not isinstance(result, Exception), result
    qtbot.waitUntil(
        lambda: window.results.universe.total == STORE_ROWS + 6, timeout=20000
    )
    # the window holds nothing now: a command imports and reads at once
    p = run_cli("import", str(_csv(tmp_path / "d.csv", 1, "d")), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    p = run_cli("export-results", str(tmp_path / "o.csv"), home=_isolated_home)
    assert p.stdout == f"wrote {STORE_ROWS + 7} results to {tmp_path / 'o.csv'}\n"


def test_a_window_opened_during_an_import_starts_and_shows_it_when_done(
    make_session, qtbot, _isolated_home, tmp_path
):
    """An import from the command line holds the file: a window opened
    meanwhile starts on the bundled results (saying why), keeps importing
    on, and shows the imported results once the import lets go."""
    import os
    import subprocess
    import sys

    from ipubench_gui.bootstrap import open_store
    from ipubench_gui.store.user.userdb import BUSY_AT_START
    from tests.conftest import REPO

    p = run_cli("import", str(_csv(tmp_path / "a.csv", 2)), home=_isolated_home)
    assert p.returncode == 0, p.stderr
    holder = subprocess.Popen(
        [sys.executable, "-m", "ipubench_gui.bootstrap", "write", "60"],
        cwd=REPO,
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(_isolated_home)),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        db = open_store(mode="snapshot")
        assert db.user_status.message == BUSY_AT_START.format(
            holder=f"process {holder.pid}: ipubench-gui write 60"
        )
        s = make_session(db, synchronous=False)
        qtbot.waitUntil(lambda: s.results.universe is not None, timeout=20000)
        assert s.results.universe.total == STORE_ROWS
        assert s.imports.import_action.isEnabled()
    finally:
        holder.kill()
        holder.wait()
    qtbot.waitUntil(lambda: s.results.universe.total == STORE_ROWS + 2, timeout=20000)
    assert "changed" in s.window.statusBar().currentMessage()
