"""Importing files: what lands, what is refused, and that nothing is ever lost."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipubench_gui.domain.import_spec import ImportSpec
from ipubench_gui.store.export.export import export_table
from ipubench_gui.store.user import import_read, importer, user_tables
from ipubench_gui.store.user.import_read import ImportFailed
from ipubench_gui.store.user.userdb import LOCKED, open_combined
from tests.conftest import (
    CLI_WITH_PEAK_RSS,
    DATA,
    GPU_STORED,
    INFERENCE_ROWS,
    REPO,
    STORE_ROWS,
    examples,
    write_csv,
)

EXTERNAL = REPO.parent / "shared" / "external" / "summary_results.json"


def _user_rows(db) -> int:
    return db.scalar("SELECT count(*) FROM user_results_v")


def _csv(tmp_path, text: str, name="in.csv", encoding="utf-8") -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode(encoding))
    return p


def _spec(path, **kw):
    cols = kw.pop(
        "columns", {"model": "model", "platform": "platform", "value": "throughput"}
    )
    consts = kw.pop("constants", {"metric": "throughput", "unit": "items/s"})
    return ImportSpec(path, cols, consts, **kw)


def test_number_columns_read_as_numbers_or_as_text_land_the_same(combined, tmp_path):
    """A CSV's number columns are read as numbers first (the cheaper read);
    one cell that is not a plain number, however far down, makes
    the import read the file as text instead. Both land the same figures."""
    body = [
        f"M{i % 7},A100 40GB,{100 + i * 0.25},{1 + i % 5},{1 + i % 16}"
        for i in range(3000)
    ]
    head = "model,platform,throughput,latency,bs\n"
    plain = _csv(tmp_path, head + "\n".join(body) + "\nM9,H100,,,\n", "plain.csv")
    body[-1] = 'M6,A100 40GB,"1,260,000",2 ms,4'
    text = _csv(tmp_path, head + "\n".join(body) + "\nM9,H100,,,\n", "text.csv")
    cols = {
        "model": "model",
        "platform": "platform",
        "value": "throughput",
        "latency_ms": "latency",
        "batch_size": "bs",
    }

    def figures(sid):
        return (
            combined.cursor()
            .execute(
                "SELECT row, model, value, latency_ms, batch_size, value_as_printed "
                "FROM user_results_v WHERE source_id = $s ORDER BY row",
                {"s": sid},
            )
            .fetchall()
        )

    a = importer.import_file(combined.cursor(), _spec(plain, columns=cols))
    fa = figures(a.source_id)
    # Removed first: the same figures again would be refused as already stored.
    importer.remove_source(combined.cursor(), a.source_id)
    b = importer.import_file(combined.cursor(), _spec(text, columns=cols))
    assert (a.landed, a.skipped) == (b.landed, b.skipped) == (3000, 1)
    fb = figures(b.source_id)
    assert fa[:2999] == fb[:2999]
    assert fa[0] == (1, "M0", 100.0, 1.0, 1, None)
    assert fa[2999] == (3000, "M3", 100 + 2999 * 0.25, 5.0, 8, None)
    assert fb[2999] == (3000, "M6", 1260000.0, 2.0, 4, "1,260,000")


def test_a_good_file_lands_and_is_everywhere(combined, tmp_path):
    p = _csv(
        tmp_path,
        "model,platform,throughput,latency,bs\n"
        'M1,A100 40GB,"1,260,000",0.58 ms,4\n'
        "M1,A100 40GB,2500,1.2,8\n"
        "M2,Bow-2000,,,\n",
    )
    spec = _spec(
        p,
        columns={
            "model": "model",
            "platform": "platform",
            "value": "throughput",
            "latency_ms": "latency",
            "batch_size": "bs",
        },
        label="My GPUs",
    )
    res = importer.import_file(combined.cursor(), spec)
    assert (res.landed, res.skipped) == (2, 1)  # the blank figure is skipped, counted
    rows = (
        combined.cursor()
        .execute(
            "SELECT value, latency_ms, batch_size, accelerators, vendor, source_file, "
            "\"table\" FROM results_v WHERE source_title = 'My GPUs' ORDER BY value"
        )
        .fetchall()
    )
    assert rows == [
        (2500.0, 1.2, 8, 1, "NVIDIA", "in.csv", "My GPUs"),
        (1260000.0, 0.58, 4, 1, "NVIDIA", "in.csv", "My GPUs"),
    ]
    facet = (
        combined.cursor()
        .execute("SELECT sum(n) FROM facet_cube WHERE model = 'M1'")
        .fetchone()[0]
    )
    assert facet == 2
    assert combined.scalar("SELECT count(*) FROM results_v") == STORE_ROWS + 2


def test_hours_and_minutes_become_minutes(combined, tmp_path):
    p = _csv(tmp_path, "model,platform,ttt\nGPS,Bow Pod16,23h 43m\n")
    importer.import_file(
        combined.cursor(),
        _spec(
            p,
            columns={"model": "model", "platform": "platform", "value": "ttt"},
            constants={"metric": "time_to_train", "unit": "min"},
        ),
    )
    assert combined.scalar("SELECT value FROM user_results_v") == 23 * 60 + 43


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "the file is empty"),
        ("model,platform,throughput\n", "no data rows"),
        ("model:platform:throughput\nM:P:1\n", "is the delimiter ':'"),
        (
            "model,platform,throughput\nM,P,fast\nM,P,12\n",
            "row 1, column 'throughput': not a number: 'fast'",
        ),
        (
            "model,platform,throughput\nM,P,12\nM,P,-5\n",
            "row 2, column 'throughput': must be a positive finite number below "
            "1e15, got '-5'",
        ),
        (
            "model,platform,throughput\nM,P,0\n",
            "must be a positive finite number below 1e15, got '0'",
        ),
        ("model,platform,throughput\nM,P,12\nM,P,12\n", "row 2: repeats row 1 exactly"),
        ("model,platform,throughput\nM,P,12 ms\n", None),  # a unit in the cell is fine
    ],
)
def test_bad_files_are_refused_with_row_column_reason(combined, tmp_path, text, needle):
    p = _csv(tmp_path, text)
    before = _user_rows(combined)
    if needle is None:
        assert importer.import_file(combined.cursor(), _spec(p)).landed == 1
        return
    with pytest.raises(ImportFailed) as err:
        importer.import_file(combined.cursor(), _spec(p))
    assert needle in str(err.value)
    assert _user_rows(combined) == before


def test_a_semicolon_file_is_read_by_sniffing_its_delimiter(combined, tmp_path):
    p = _csv(tmp_path, "model;platform;throughput\nM;P;1\n")
    assert importer.import_file(combined.cursor(), _spec(p)).landed == 1


def test_non_utf8_bytes_are_refused_with_a_reason(combined, tmp_path):
    p = _csv(tmp_path, "model,platform,throughput\nMüller,P,12\n", encoding="latin-1")
    with pytest.raises(ImportFailed) as err:
        importer.import_file(combined.cursor(), _spec(p))
    assert str(err.value).startswith(
        "in.csv: not utf-8 text (line 2) — choose an encoding"
    )
    assert _user_rows(combined) == 0
    # The encoding it names reads the file.
    spec = replace(_spec(p), encoding="latin-1")
    assert importer.import_file(combined.cursor(), spec).landed == 1
    assert combined.scalar("SELECT model FROM user_results_v") == "Müller"


def test_quoted_newlines_and_mixed_columns(combined, tmp_path):
    p = _csv(tmp_path, 'model,platform,throughput\n"Multi\nline",P,12\nM,P,n/a\n')
    with pytest.raises(ImportFailed) as err:
        importer.import_file(combined.cursor(), _spec(p))
    assert "row 2, column 'throughput': not a number: 'n/a'" in str(err.value)


def test_wide_files_unpivot(combined, tmp_path):
    p = _csv(
        tmp_path, "system,BERT,ResNet-50\nBow Pod16,20.66,19.64\nBow Pod64,6.70,6.30\n"
    )
    spec = ImportSpec(
        p,
        {"platform": "system"},
        {"metric": "time_to_train", "unit": "min"},
        unpivot=("BERT", "ResNet-50"),
        unpivot_into="model",
    )
    res = importer.import_file(combined.cursor(), spec)
    assert res.landed == 4
    got = sorted(
        combined.cursor()
        .execute(
            "SELECT model_as_printed, model, platform, value, accelerators "
            "FROM user_results_v"
        )
        .fetchall()
    )
    # MLPerf's BERT is BERT-Large, its ResNet-50 is v1.5 (canonical names);
    # the file's spelling is kept beside them.
    assert got == [
        ("BERT", "BERT-Large", "Bow Pod16", 20.66, 16),
        ("BERT", "BERT-Large", "Bow Pod64", 6.70, 64),
        ("ResNet-50", "ResNet-50 v1.5", "Bow Pod16", 19.64, 16),
        ("ResNet-50", "ResNet-50 v1.5", "Bow Pod64", 6.30, 64),
    ]
    # Time to train is a training figure, as in the seed's MLPerf table.
    tasks = combined.cursor().execute("SELECT DISTINCT task FROM user_results_v")
    assert tasks.fetchall() == [("training",)]
    # Each figure has its own id and table order, also when rows are unpivoted.
    ids, ords = (
        combined.cursor()
        .execute(
            "SELECT count(DISTINCT result_id), count(DISTINCT ord) FROM results_v "
            "WHERE source_file = $f",
            {"f": p.name},
        )
        .fetchone()
    )
    assert (ids, ords) == (4, 4)


def test_file_that_vanishes_leaves_nothing(combined, tmp_path):
    p = _csv(tmp_path, "model,platform,throughput\nM,P,12\n")
    spec = _spec(p)
    p.unlink()
    with pytest.raises(ImportFailed, match="no such file"):
        importer.import_file(combined.cursor(), spec)
    assert _user_rows(combined) == 0


@pytest.mark.skipif(not EXTERNAL.exists(), reason="shared/external not present")
def test_real_mlperf_file_imports_whole(combined):
    con = combined.cursor()
    pv = import_read.preview(con, EXTERNAL)
    assert pv.constants == {"task": "inference"}  # Offline/Server scenarios
    spec = ImportSpec(EXTERNAL, pv.guessed, pv.constants, label="MLPerf v4.1")
    res = importer.import_file(con, spec)
    import json

    records = json.loads(EXTERNAL.read_text())
    assert res.landed == len(records) == 937
    assert combined.scalar("SELECT count(DISTINCT task) FROM user_results_v") == 1
    assert combined.scalar("SELECT any_value(task) FROM user_results_v") == "inference"
    units = dict(
        combined.cursor()
        .execute("SELECT unit, count(*) FROM user_results_v GROUP BY 1")
        .fetchall()
    )
    want: dict[str, int] = {}
    # units as the file prints them, stored under their canonical names
    canon = {"Tokens/s": "tokens/s", "Samples/s": "samples/s"}
    canon |= {"Queries/s": "queries/s", "Latency (ms)": "ms"}
    for r in records:
        u = canon[r["Performance_Units"]]
        want[u] = want.get(u, 0) + 1
    assert units == want
    n_lat = combined.scalar(
        "SELECT count(*) FROM user_results_v WHERE metric = 'latency'"
    )
    assert n_lat == want["ms"]
    # accelerators = Nodes x a# (a# per node), blank where a# is blank
    r0 = next(r for r in records if r["a#"] not in ("", None) and r["Nodes"] > 1)
    got = combined.scalar(
        "SELECT accelerators FROM user_results_v WHERE mlperf_id "
        "= $i AND variant = $s AND model_as_printed = $m LIMIT 1",
        {"i": r0["ID"], "s": r0["Scenario"], "m": r0["Model"]},
    )
    assert got == int(r0["a#"]) * r0["Nodes"]


def test_sources_rename_and_remove(combined, tmp_path):
    con = combined.cursor()
    p = _csv(tmp_path, "model,platform,throughput\nM,P,12\n")
    sid = importer.import_file(con, _spec(p)).source_id
    importer.rename_source(con, sid, "Renamed")
    assert importer.list_sources(con)[0][1] == "Renamed"
    assert (
        combined.scalar("SELECT count(*) FROM results_v WHERE \"table\" = 'Renamed'")
        == 1
    )
    importer.remove_source(con, sid)
    assert importer.list_sources(con) == [] and _user_rows(combined) == 0
    assert combined.scalar("SELECT count(*) FROM results_v") == STORE_ROWS


# -- property: never crashes, never half-imports --
CELLS = st.one_of(
    st.text(max_size=8),
    st.sampled_from(
        [
            "",
            "12",
            "1,260,000",
            "0.58 ms",
            "-3",
            "0",
            "abc",
            '"',
            "\n",
            "23h 43m",
            "=HYPERLINK(1)",
            "1e3",
            "NaN",
            "  7  ",
        ]
    ),
)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rows=st.lists(st.lists(CELLS, min_size=3, max_size=3), max_size=6))
def test_malformed_csvs_never_crash_or_half_import(combined, tmp_path, rows):
    p = tmp_path / "gen.csv"
    with open(p, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["model", "platform", "throughput"])
        w.writerows(rows)
    before = _user_rows(combined)
    try:
        res = importer.import_file(combined.cursor(), _spec(p))
    except ImportFailed as exc:
        assert str(exc)
        assert _user_rows(combined) == before
    else:
        assert _user_rows(combined) == before + res.landed
        assert res.landed + res.skipped == len(rows)


# -- faults --
@pytest.mark.parametrize(
    "pause, expected",
    [("before", (0, 0)), ("after", (500_000, 1))],
    ids=["killed before COMMIT", "killed after COMMIT"],
)
def test_killed_mid_import_leaves_all_or_nothing(tmp_path, store_path, pause, expected):
    """The import is killed at a known point, not after a guessed delay: the
    child stops just before (or after) its COMMIT, once every row is inserted,
    and waits there to be killed."""
    big = write_csv(
        tmp_path / "big.csv",
        "SELECT 'M' || (i % 97) AS model, 'P' AS platform, "
        "i + 1 AS throughput FROM range(500000) t(i)",
    )
    user = tmp_path / "user.duckdb"
    code = (
        "import sys; from pathlib import Path\n"
        "from ipubench_gui.store.user.userdb import open_combined\n"
        "from ipubench_gui.domain.import_spec import ImportSpec\n"
        "from ipubench_gui.store.user import importer\n"
        "a = [Path(x) for x in sys.argv[1:4]]\n"
        "db, st = open_combined(*a)\n"
        "class Paused:\n"  # the real cursor, stopping at its COMMIT
        "    def __init__(self, cur): self.cur = cur\n"
        "    def __getattr__(self, name): return getattr(self.cur, name)\n"
        "    def execute(self, sql, *args):\n"
        "        if sql == 'COMMIT' and sys.argv[5] == 'before': self.stop()\n"
        "        out = self.cur.execute(sql, *args)\n"
        "        if sql == 'COMMIT' and sys.argv[5] == 'after': self.stop()\n"
        "        return out\n"
        "    def stop(self):\n"
        "        print('paused', flush=True); sys.stdin.readline()\n"
        "importer.import_file(Paused(db.cursor()), ImportSpec("
        "Path(sys.argv[4]), "
        "{'model': 'model', 'platform': 'platform', 'value': 'throughput'}, "
        "{'metric': 'throughput', 'unit': 'items/s'}))\n"
    )
    cache = tmp_path / "cache"
    cache.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(DATA), str(cache), str(user), str(big), pause],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "paused"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    db, status = open_combined(DATA, cache, user)
    n = db.scalar("SELECT count(*) FROM user_results_v")
    m = db.scalar("SELECT count(*) FROM u.imports")
    db.close()
    assert (n, m) == expected


def test_corrupt_user_database_is_set_aside(tmp_path, store_path):
    user = tmp_path / "user.duckdb"
    user.write_bytes(b"this is not a database" * 100)
    cache = tmp_path / "cache"
    cache.mkdir()
    db, status = open_combined(DATA, cache, user)
    assert status.writable and f"{user} is damaged, so it was set aside as" in (
        status.message
    )
    assert status.message.count("(DuckDB said: ") == 1
    aside = list(tmp_path.glob("user.damaged-*.duckdb"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")
    assert db.scalar("SELECT count(*) FROM results_v") == STORE_ROWS
    db.close()


def test_a_second_writer_runs_with_the_bundled_results_and_names_the_first(tmp_path):
    """An import in another process holds the user's database for writing:
    a second writer waits, then runs without the user's results (read-only)
    and names the process that holds them (its pid and command)."""
    user = tmp_path / "user.duckdb"
    cache = tmp_path / "cache"
    cache.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path\n"
            "from ipubench_gui.store.user.userdb import open_combined\n"
            "a = [Path(x) for x in sys.argv[1:4]]\n"
            "db, s = open_combined(*a, mode='write')\n"
            "print('holding', flush=True); time.sleep(30)",
            str(DATA),
            str(cache),
            str(user),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        db, status = open_combined(DATA, cache, user, mode="write", wait_s=1.0)
        assert not status.writable
        assert status.message == LOCKED.format(
            holder=f"process {holder.pid}: {Path(sys.executable).name}"
        )
        assert db.scalar("SELECT count(*) FROM results_v") == STORE_ROWS
        db.close()
    finally:
        holder.kill()
        holder.wait()


# -- export --
def test_exports_never_carry_live_formulas(combined, tmp_path):
    from openpyxl import load_workbook

    from ipubench_gui.domain.filters import FilterState

    p = _csv(
        tmp_path,
        "model,platform,throughput\n"
        '"=HYPERLINK(""http://x"",""y"")",P,12\n'
        "\"+cmd|' /c calc'!A0\",P,13\n",
    )
    importer.import_file(combined.cursor(), _spec(p, label="evil"))
    state = FilterState().with_values("source_file", ["in.csv"])
    n = export_table(combined, state, tmp_path / "o.csv")
    assert n == 2
    text = (tmp_path / "o.csv").read_text()
    assert "'=HYPERLINK" in text and "'+cmd" in text
    export_table(combined, state, tmp_path / "o.xlsx")
    ws = load_workbook(tmp_path / "o.xlsx").active
    models = [row[1].value for row in ws.iter_rows(min_row=2)]
    cells = [row[1] for row in ws.iter_rows(min_row=2)]
    assert all(c.data_type == "s" for c in cells)
    # text cells, shown as typed: no formula, no apostrophe
    assert sorted(models) == ["+cmd|' /c calc'!A0", '=HYPERLINK("http://x","y")']
    export_table(combined, state, tmp_path / "o.parquet")
    got = duckdb.sql(
        f'SELECT "Model", "Value" FROM \'{tmp_path / "o.parquet"}\' ORDER BY 2'
    ).fetchall()
    assert got[0] == ('=HYPERLINK("http://x","y")', 12.0)  # data, not a spreadsheet


def test_export_table_headers_have_units(db, tmp_path):
    from ipubench_gui.domain.filters import FilterState

    export_table(
        db, FilterState().with_values("task", ["inference"]), tmp_path / "i.csv"
    )
    with open(tmp_path / "i.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert "Latency (ms)" in rows[0] and "Source" in rows[0]
    gpu = sum(r["task"] == "inference" for r in GPU_STORED)
    assert len(rows) == gpu + INFERENCE_ROWS + db.scalar(
        "SELECT count(*) FROM results WHERE task = 'inference'"
    )


@pytest.mark.slow
def test_a_1gb_file_imports_within_the_memory_limit(tmp_path):
    """1 GB of CSV (4.5M rows with a wide column the import does not map) lands
    whole, and the process stays near DuckDB's 1 GB limit, spilling the rest."""
    n = 4_500_000
    big = write_csv(
        tmp_path / "big.csv",
        f"""SELECT 'Model ' || (i % 40) AS model,
            ['A100 80GB', 'Bow-2000', 'IPU-POD16', 'H100'][1 + (i % 4)::INT]
                AS platform,
            (1 + i % 512) AS batch_size, 100 + i AS throughput,
            repeat('x', 190) || i AS notes
        FROM range({n}) t(i)""",
    )
    assert big.stat().st_size > 1_000_000_000
    home = tmp_path / "home"
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            CLI_WITH_PEAK_RSS,
            "import",
            str(big),
            "--map",
            "model=model",
            "--map",
            "platform=platform",
            "--map",
            "batch_size=batch_size",
            "--map",
            "throughput=value",
            "--metric",
            "throughput",
            "--unit",
            "items/s",
        ],
        env=dict(os.environ, IPUBENCH_GUI_HOME=str(home)),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert p.returncode == 0, p.stderr
    assert f"imported {n} rows" in p.stdout
    peak_mb = int(p.stdout.split("peak-kb")[1].split()[0]) / 1024
    assert peak_mb < 1700, f"peak {peak_mb:.0f} MB"
    # Counted independently, in the user database file itself (the import's
    # own tables: user_tables).
    user = next((home / "data").glob("*.duckdb"))
    with duckdb.connect(str(user), read_only=True) as u:
        count, lo, hi = u.execute(
            "SELECT count(*), min(value), max(value) FROM figures_1, consts_1"
        ).fetchone()
    assert (count, lo, hi) == (n, 100, 100 + n - 1)


def test_imported_ids_read_like_printf_and_stay_unique_past_seven_digits():
    ns = [1, 42, 9_999_999, 10_000_000, 12_345_678]
    got = (
        duckdb.connect()
        .execute(
            f"SELECT {user_tables.result_id_sql('$sid', 'n')} "
            "FROM unnest($ns) t(n) ORDER BY n",
            {"sid": 3, "ns": ns},
        )
        .fetchall()
    )
    assert [g for (g,) in got] == [f"usr3-{n:07d}" for n in ns]


def test_cli_unit_given_with_a_unit_column_mapped_is_an_error(tmp_path, _isolated_home):
    from tests.conftest import run_cli

    f = _csv(
        tmp_path,
        "model,platform,batch_size,value,unit,metric\n"
        "ResNet-50,DGX A100,256,2500,images/s,throughput\n",
    )
    p = run_cli(
        "import", str(f), "--map", "unit=unit", "--unit", "samples/s",
        home=_isolated_home,
    )  # fmt: skip
    assert p.returncode == 2, p.stdout + p.stderr
    assert "--unit 'samples/s'" in p.stderr and "column 'unit'" in p.stderr
    assert "Traceback" not in p.stderr
    # --unit with the column only guessed: what was said wins, and is told
    p = run_cli("import", str(f), "--unit", "samples/s", "--check", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert (
        "left out: 'unit': looks like unit, which is given by --unit 'samples/s'"
        in p.stdout
    )
    # without --unit the same file is read: the unit column is the one used
    p = run_cli("import", str(f), "--check", home=_isolated_home)
    assert p.returncode == 0 and "1 row would land" in p.stdout, p.stderr
    assert "guessed: 'unit' -> unit" in p.stdout


def test_cli_guesses_from_the_first_rows_and_reads_the_whole_file(
    tmp_path, _isolated_home
):
    """Without --map the mapping is guessed from the first rows only; the
    import then reads every row, and a bad line past the guess is still
    found and named."""
    from ipubench_gui.service.imports import GUESS_ROWS
    from tests.conftest import run_cli

    n = GUESS_ROWS + 5
    good = "".join(f"M{i % 9},A100 40GB,{100 + i}\n" for i in range(n))

    def check(name, text):
        f = _csv(tmp_path, "model,platform,throughput\n" + text, name)
        args = ("--set", "metric=throughput", "--set", "unit=items/s", "--check")
        return run_cli("import", str(f), *args, home=_isolated_home)

    p = check("good.csv", good)
    assert p.returncode == 0, p.stderr
    assert f"{n} rows would land" in p.stdout
    assert "guessed: 'throughput' -> value" in p.stdout
    p = check("bad.csv", good + "M,P,1,2\n")
    assert p.returncode == 1
    said = f"cannot be read: more columns on line {n + 2} than the 3 in the header"
    assert said in p.stderr, p.stderr


def test_an_exported_table_imports_back_by_its_value_column(tmp_path, _isolated_home):
    """The table's own export, imported without --map, takes its figures from
    'Value', not from the derived 'Throughput per chip (derived)' column that
    also contains a word for a figure (seen re-importing an export-table CSV)."""
    import csv

    from tests.conftest import run_cli

    out = tmp_path / "bert.csv"
    p = run_cli(
        "export-table",
        str(out),
        "--filter",
        "model=BERT-Large",
        "--filter",
        "metric=throughput",
        "--filter",
        "source=Vendor page",
        home=_isolated_home,
    )
    assert p.returncode == 0, p.stderr
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and "Throughput per chip (derived)" in rows[0]
    p = run_cli("import", str(out), "--check", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert "guessed: 'Value' -> value" in p.stdout, p.stdout
    assert "Throughput per chip (derived)' -> value" not in p.stdout
    assert f"{len(rows)} rows would land" in p.stdout
