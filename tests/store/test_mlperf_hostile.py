"""An MLPerf results folder meets the same value rules as a CSV import
(domain/result_rules): whatever its logs and system files hold, a result is
refused (listed with its problem) or scored with a finite positive time and
sane counts, never stored as garbage; and nothing in it crashes or hangs."""

from __future__ import annotations

import json
import math
import os
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipubench_gui.domain import result_rules as rr
from ipubench_gui.domain.import_spec import MLPerfImportError
from ipubench_gui.store.mlperf.mlperf import Names, TreeError
from ipubench_gui.store.mlperf.mlperf_import import plan, resolve_round
from tests.conftest import DATA, REPO, examples, run_cli
from tests.mlperf_trees import SYSTEM, line, tree

NAMES = Names.load(DATA / "entities")

# Values a hostile or broken file may put where a number belongs.
ODD_NUMBERS = st.one_of(
    st.integers(-(10**30), 10**30),
    st.just(10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([True, False, None, "12", "", [], {}]),
)
COUNTS = st.one_of(
    st.integers(-50, 10**25).map(str),
    st.sampled_from(["0", "1.0", "x", "", "99999999999999999999", "-5", "1e400"]),
    st.integers(-3, 10),
)


def _log_text(start: object, stop: object, status: object, junk: str) -> str:
    def raw(key: str, t: object, **meta: object) -> str:
        rec = {"key": key, "time_ms": t, "value": None, "metadata": meta}
        try:
            return ":::MLLOG " + json.dumps(rec)
        except ValueError:  # a number json cannot write: as text
            return f':::MLLOG {{"key": "{key}", "time_ms": {t!s}}}'

    return "\n".join(
        [
            line("submission_division", 1, "closed"),
            junk,
            raw("run_start", start),
            raw("run_stop", stop, status=status),
            "",
        ]
    )


JUNK = st.sampled_from(
    [
        "",
        "plain text",
        ":::MLLOG {not json",
        ":::MLLOG " + "[" * 100_000 + "]" * 100_000,  # RecursionError once
        ":::MLLOG " + json.dumps({"key": "x", "time_ms": 1, "value": "v" * 2_000_000}),
        ':::MLLOG {"key": "run_start"}',
        ":::MLLOG \xff\xfe",
    ]
)
LOGS = st.lists(
    st.tuples(
        ODD_NUMBERS, ODD_NUMBERS, st.sampled_from(["success", "aborted", 5]), JUNK
    ),
    min_size=0,
    max_size=7,
)
SYSTEMS = st.one_of(
    st.fixed_dictionaries(
        {
            "number_of_nodes": COUNTS,
            "accelerators_per_node": COUNTS,
            "host_processors_per_node": COUNTS,
        }
    ).map(lambda d: json.dumps({**SYSTEM, **d})),
    st.sampled_from(
        [
            "[1, 2]",
            "{",
            "[" * 100_000,
            json.dumps({**SYSTEM, "division": 5}),
            json.dumps(
                {
                    **SYSTEM,
                    "accelerator_model_name": "N/A",
                    "accelerators_per_node": "0",
                }
            ),
        ]
    ),
)
SCALING = st.one_of(
    st.none(),
    ODD_NUMBERS.map(lambda v: f'{{"scaling_factor": {v!s}}}'),
    st.sampled_from(['{"scaling_factor": ' + "9" * 400 + "}", "[[[", "nan"]),
)


def _ok_or_refused(r) -> None:
    if r.problems:
        return  # refused: not imported (and, with --skip-bad, not stored)
    assert r.minutes is not None and rr.figure_problem(r.minutes) is None, r
    assert math.isfinite(r.minutes) and r.minutes > 0
    if r.accelerators is not None:
        assert rr.count_problem(r.accelerators, zero=True) is None, r
    if r.nodes is not None:
        assert rr.count_problem(r.nodes) is None, r
    assert rr.scaling_problem(r.scaling_factor) is None, r


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(LOGS, SYSTEMS, SCALING)
def test_any_folder_gives_a_sound_score_or_a_refusal(
    tmp_path_factory, db, logs, system, scaling
):
    tmp = tmp_path_factory.mktemp("fuzz")
    texts = {f"r{i}": _log_text(*parts) for i, parts in enumerate(logs)}
    root = tree(tmp, [1.0] * len(logs), system=system, **texts)
    if scaling is not None:
        (root / "Acme/results/box8/resnet/scaling.json").write_text(scaling)
    p = plan(db.cursor(), root, "9.9", NAMES)
    for r in (*p.new, *p.bad):
        _ok_or_refused(r)
    assert all(not r.problems for r in p.new)


def test_the_issues_garbage_is_refused_by_name(tmp_path, db):
    cases = {
        "reversed": [_log_text(10_000_000, 1_000, "success", "")] * 5,
        "nan": [_log_text(1, math.nan, "success", "")] * 5,
        "inf": [_log_text(1, math.inf, "success", "")] * 5,
        "huge": [_log_text(1, 1e300, "success", "")] * 5,
        "digits": [_log_text(1, 10**400, "success", "")] * 5,
    }
    for name, texts in cases.items():
        root = tree(
            tmp_path / name, [1] * 5, **{f"r{i}": t for i, t in enumerate(texts)}
        )
        p = plan(db.cursor(), root, "9.9", NAMES)
        assert not p.new and len(p.bad) == 1, name
        assert any("run time" in x or "time_ms" in x for x in p.bad[0].problems), name
    for k, (system, says) in enumerate(
        (
            ({**SYSTEM, "accelerators_per_node": "-20"}, "accelerators must be"),
            ({**SYSTEM, "accelerators_per_node": "0"}, "accelerators must be"),
            ({**SYSTEM, "number_of_nodes": "-5"}, "nodes must be"),
            ({**SYSTEM, "number_of_nodes": "99999999999999999999"}, "nodes must be"),
        )
    ):
        root = tree(tmp_path / f"system{k}", [10] * 5, system=system)
        p = plan(db.cursor(), root, "9.9", NAMES)
        assert not p.new and any(says in x for x in p.bad[0].problems), system
    for factor in ("NaN", "Infinity", "1e308", "0", "9" * 400):
        root = tree(tmp_path / f"s{len(factor)}{factor[:3]}", [10] * 5)
        (root / "Acme/results/box8/resnet/scaling.json").write_text(
            f'{{"scaling_factor": {factor}}}'
        )
        p = plan(db.cursor(), root, "9.9", NAMES)
        assert not p.new and "scaling" in " ".join(p.bad[0].problems), factor


def test_a_cpu_only_system_keeps_its_zero_accelerators(tmp_path, db):
    cpu = {**SYSTEM, "accelerator_model_name": "N/A", "accelerators_per_node": "0"}
    p = plan(
        db.cursor(), tree(tmp_path, [10, 20, 30, 40, 50], system=cpu), "9.9", NAMES
    )
    (r,) = p.new
    assert (r.accelerators, r.minutes) == (0, 30.0)


def test_ten_thousand_result_files_are_not_one_result(tmp_path, db):
    root = tree(tmp_path, [10] * 5)
    res = root / "Acme/results/box8/resnet"
    one = (res / "result_0.txt").read_text()
    for i in range(5, 10_000):
        (res / f"result_{i}.txt").write_text(one)
    p = plan(db.cursor(), root, "9.9", NAMES)
    (bad,) = p.bad
    assert "10,000 result files, the rules ask for 5" in bad.problems[0]
    assert not p.new
    # beyond twice the count, but within bounds: scored, with a warning
    root = tree(tmp_path / "w", [10] * 11)
    (r,) = plan(db.cursor(), root, "9.9", NAMES).new
    assert "11 result files where the rules ask for 5" in r.note


@pytest.mark.parametrize("spelling", ["02.0", "2.00", "v2.0", "２.０", "٢.٠"])
def test_a_round_spelt_otherwise_is_the_same_round(spelling, tmp_path):
    assert resolve_round(tmp_path, spelling) == "2.0"


def test_a_round_that_contradicts_the_folders_is_refused(tmp_path):
    folder = tmp_path / "training_results_v2.0" / "Graphcore"
    folder.mkdir(parents=True)
    assert resolve_round(folder, "２.０") == "2.0"
    with pytest.raises(MLPerfImportError) as err:
        resolve_round(folder, "3.00")
    assert str(err.value) == (
        f"{folder}: its folders name round 2.0, but --round says 3.0; leave "
        "--round out, or give 2.0"
    )


def test_the_bundled_folder_is_not_stored_again_as_another_round(_isolated_home):
    graphcore = REPO.parent / "shared/mlperf/training/v2.0/Graphcore"
    p = run_cli("import-mlperf", str(graphcore), "--round", "3.00", home=_isolated_home)
    assert p.returncode != 0
    assert "its folders name round 2.0, but --round says 3.0" in p.stderr
    assert "MLPerf results (source" not in p.stdout


def test_a_folder_already_stored_under_another_spelling_is_not_imported_again(
    _isolated_home,
):
    graphcore = REPO.parent / "shared/mlperf/training/v2.0/Graphcore"
    for spelling in ("02.0", "v2.0", "٢.٠"):
        p = run_cli(
            "import-mlperf", str(graphcore), "--round", spelling, home=_isolated_home
        )
        assert p.returncode == 0, p.stderr
        assert "MLPerf results (source" not in p.stdout
        assert "0 new result(s), 11 already stored" in p.stdout


@pytest.mark.parametrize("kind", ["fifo", "device", "missing-fifo"])
def test_pipes_and_devices_are_refused_without_waiting(tmp_path, db, kind):
    root = tree(tmp_path, [10, 20, 30, 40, 50])
    res = root / "Acme/results/box8/resnet"
    if kind == "fifo":
        (res / "result_2.txt").unlink()
        os.mkfifo(res / "result_2.txt")
    elif kind == "device":
        (res / "result_2.txt").unlink()
        os.symlink("/dev/zero", res / "result_2.txt")
    else:
        os.mkfifo(root / "MISSING.txt")
        (root / "Acme/systems/box8.json").unlink()
        os.mkfifo(root / "Acme/systems/box8.json")
    p = plan(db.cursor(), root, "9.9", NAMES)  # returns: nothing blocks
    (bad,) = p.bad
    text = " ".join(bad.problems)
    assert "named pipe" in text or "a device" in text, text


def test_names_that_are_not_text_and_odd_side_files(tmp_path, db):
    root = tree(tmp_path, [10, 20, 30, 40, 50])
    odd = os.fsdecode(b"box\xe9")
    shutil.copytree(root / "Acme/results/box8", root / "Acme/results" / odd)
    (root / "MISSING.txt").write_bytes(b"caf\xe9/not a path\nAcme/results\n" * 3)
    (root / "SNAPSHOT.txt").write_bytes("commit ça\n".encode("latin-1"))
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_bytes(os.urandom(64))
    p = plan(db.cursor(), root, "9.9", NAMES)
    assert [r.system_id for r in p.new] == ["box8"]
    (bad,) = p.bad
    assert "a folder name is not UTF-8 text" in bad.problems[0]
    assert p.commit == ""


def test_a_tree_error_names_the_folder(tmp_path, db):
    with pytest.raises(TreeError):
        plan(db.cursor(), tmp_path, "9.9", NAMES)
