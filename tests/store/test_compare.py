"""The comparator's logic on stored rows, checked against the seed's figures."""

from __future__ import annotations

import pytest

from ipubench_gui.domain import compare
from ipubench_gui.domain.views import View, reconcile
from ipubench_gui.service import browse
from tests.conftest import run_cli, seeds_or_skip
from tests.seedtables import RESULTS_PAGE, read_tables


def _id(db, **where):
    """The one result whose cells are as the seed prints them."""
    printed = {"model", "platform", "framework", "dataset"}
    cond = " AND ".join(
        f'"{k}{"_as_printed" if k in printed else ""}" IS NOT DISTINCT FROM ${k}'
        for k in where
    )
    rows = (
        db.cursor()
        .execute(f"SELECT result_id FROM results_v WHERE {cond}", where)
        .fetchall()
    )
    assert len(rows) == 1, (where, rows)
    return rows[0][0]


def _seed(heading, **match):
    t = {t.heading: t for t in read_tables(seeds_or_skip() / RESULTS_PAGE)}[heading]
    (row,) = [r for r in t.rows if all(r[k] == v for k, v in match.items())]
    return row


def test_bow_over_classic_bert_large_ph1_pytorch(db):
    bow = _seed(
        "Bow Platform - Training",
        Model="BERT Large",
        Platform="Bow Pod16",
        Framework="PyTorch",
        Variant="Ph1 Pre-Training (SL128) - Packed",
    )
    pod = _seed(
        "IPU-POD Classic - Training",
        Model="BERT Large",
        Platform="IPU-POD16",
        Framework="PyTorch",
        Variant="Ph1 Pre-Training (SL128)",
    )
    want = float(bow["Throughput (items/sec)"].replace(",", "")) / float(
        pod["Throughput (items/sec)"].replace(",", "")
    )
    ids = [
        _id(
            db,
            model="BERT Large",
            platform="IPU-POD16",
            framework="PyTorch",
            variant="Ph1 Pre-Training (SL128)",
        ),
        _id(
            db,
            model="BERT Large",
            platform="Bow Pod16",
            framework="PyTorch",
            variant="Ph1 Pre-Training (SL128) - Packed",
        ),
    ]
    base, bow_row = browse.rows_by_ids(db, ids)
    assert (
        compare.ratio_text(bow_row, base)
        == f"{want:.2f}× more throughput (+{(want - 1) * 100:.0f}%)"
        == "1.56× more throughput (+56%)"
    )
    v = compare.verdict(bow_row, base)
    assert not v.like_for_like and v.verdict == "not like for like"
    assert {"batch_size", "variant"} <= set(v.keys("differs", "workload"))
    assert {"generation", "sdk_version"} <= set(v.keys("differs", "system"))


def test_directions_for_time_and_latency(db):
    t16 = _id(db, mlperf_id="2.0-2047")  # ResNet-50, Bow Pod16, 19.64 min
    t64 = _id(db, mlperf_id="2.0-2050")  # Bow Pod64, 6.30 min
    a, b = browse.rows_by_ids(db, [t16, t64])
    # the issue's own example: 6.30 against 19.64 minutes
    assert compare.ratio_text(b, a) == "3.12× less time (−68%)"
    assert f"{19.64 / 6.30:.2f}" == "3.12" and f"{1 - 6.30 / 19.64:.0%}" == "68%"
    assert compare.ratio_text(a, b) == f"3.12× more time (+{19.64 / 6.30 - 1:.0%})"
    lo = _id(
        db, model="ResNet-50v1.5", platform="Bow-2000", variant="lowest latency config"
    )
    hi = _id(
        db,
        model="ResNet-50v1.5",
        platform="Bow-2000",
        variant="higher throughput config",
    )
    low, high = browse.rows_by_ids(db, [lo, hi])
    x, pct = f"{1.66 / 0.58:.2f}", f"{1 - 0.58 / 1.66:.0%}"
    assert compare.latency_text(low, high) == f"{x}× less latency (−{pct})"
    assert (
        compare.latency_text(high, low) == f"{x}× more latency (+{1.66 / 0.58 - 1:.0%})"
    )


def _bert_pod16_pod64(db) -> tuple[str, str]:
    """BERT Large Ph1 packed, PopART, SDK 3.1, on Bow Pod16 and Bow Pod64: a pair
    that differs only in system size."""
    return tuple(
        _id(
            db,
            model="BERT Large",
            platform=p,
            framework="PopART",
            variant="Ph1 Pre-Training (SL128) - Packed",
        )
        for p in ("Bow Pod16", "Bow Pod64")
    )


def test_verdict_only_system_size_is_like_for_like(db):
    a, b = _bert_pod16_pod64(db)
    ra, rb = browse.rows_by_ids(db, [a, b])
    v = compare.verdict(rb, ra)
    assert v.like_for_like and v.keys("differs") == ["accelerators", "platform"]
    # the seed's 22,759 and 6,044 sequences/s on 64 and 16 IPUs
    assert v.text() == (
        "like for like: same workload; compares 64 vs 16 chips (22,759 vs 6,044 "
        f"sequences/s; {22759 / 64:,.2f} vs {6044 / 16:,.2f} sequences/s per chip, "
        "derived), platform (Bow Pod64 vs Bow Pod16)"
    )


def test_verdict_precision_and_batch_size_is_not_like_for_like(db):
    # EfficientNet-B4 on IPU-POD16 SDK 2.4.0: TensorFlow1 bs 6,144 at 16.16
    # against PyTorch bs 1,024 at 16.32.
    a = _id(db, model="EfficientNet-B4", platform="IPU-POD16", framework="TensorFlow1")
    b = _id(db, model="EfficientNet-B4", platform="IPU-POD16", framework="PyTorch")
    ra, rb = browse.rows_by_ids(db, [a, b])
    v = compare.verdict(rb, ra, focus="framework")
    assert not v.like_for_like
    assert v.keys("differs", "workload") == ["precision", "batch_size"]
    assert v.text() == (
        "not like for like: workload differs in precision (16.32 vs 16.16), "
        "batch size (1,024 vs 6,144); also compares framework (PyTorch vs "
        "TensorFlow 1)"
    )


def test_counterparts_equal_an_independent_query(db):
    rid = _id(
        db,
        model="BERT Base",
        platform="IPU-POD16",
        framework="PopART",
        variant="Ph1 Pre-Training (SL128)",
    )
    (row,) = browse.rows_by_ids(db, [rid])
    groups = compare.counterparts(row, browse.family_rows(db, row))
    got = {(a, cp.row["result_id"]) for a, cps in groups.items() for cp in cps}
    # Independently: same model/variant/dataset/precision/metric; exactly one of
    # generation (SDK may follow), system size, framework, SDK, batch size differs.
    cands = (
        db.cursor()
        .execute(
            "SELECT result_id, generation, accelerators, framework, sdk_version, "
            "batch_size FROM results_v WHERE model = $m AND variant = $v AND "
            "dataset = $d AND precision = $p AND metric = $x AND result_id <> $id",
            {
                "m": row["model"],
                "v": row["variant"],
                "d": row["dataset"],
                "p": row["precision"],
                "x": row["metric"],
                "id": rid,
            },
        )
        .fetchall()
    )
    want = set()
    names = ("generation", "accelerators", "framework", "sdk_version", "batch_size")
    for c in cands:
        diffs = [n for n, v in zip(names, c[1:]) if v != row[n]]
        if "generation" in diffs and "sdk_version" in diffs:
            diffs.remove("sdk_version")
        if len(diffs) == 1:
            want.add((diffs[0], c[0]))
    assert (
        got == want
        and (
            "generation",
            _id(
                db,
                model="BERT Base",
                platform="Bow Pod16",
                framework="PopART",
                variant="Ph1 Pre-Training (SL128)",
            ),
        )
        in got
    )


def _cli(*args, home):
    return run_cli(*args, home=home)


def test_cli_compare_and_counterparts(db, _isolated_home):
    a, b = _bert_pod16_pod64(db)
    p = _cli("compare", a, b, home=_isolated_home)
    assert p.returncode == 0, p.stderr
    assert (
        f"| Against the baseline | baseline | {22759 / 6044:.2f}× more throughput "
        f"(+{(22759 / 6044 - 1) * 100:.0f}%) |" in p.stdout
    )
    assert "like for like: same workload; compares 64 vs 16 chips" in p.stdout
    p = _cli("compare", a, b, "--baseline", b, "--format", "csv", home=_isolated_home)
    assert p.stdout.splitlines()[0] == f"attribute,{a},{b} (baseline),differs"
    ratio_line = next(
        ln for ln in p.stdout.splitlines() if ln.startswith("Against the baseline")
    )
    assert ratio_line.startswith(
        f"Against the baseline,{22759 / 6044:.2f}× less throughput "
        f"(−{(1 - 6044 / 22759) * 100:.0f}%),"
    )
    p = _cli("compare", a, "bogus-1", home=_isolated_home)
    assert p.returncode == 1 and "unknown result id: bogus-1" in p.stderr
    c = _id(
        db,
        model="BERT Base",
        platform="IPU-POD16",
        framework="PopART",
        variant="Ph1 Pre-Training (SL128)",
    )
    p = _cli("counterparts", c, home=_isolated_home)
    assert p.returncode == 0 and "differs in accelerator type:" in p.stdout
    assert "with SDK 3.1 (was SDK 2.4.0)" in p.stdout


def test_view_json_round_trip_and_reconcile(db):
    from ipubench_gui.domain.chartspec import ChartSpec
    from ipubench_gui.domain.compare import Comparison
    from ipubench_gui.domain.filters import FilterState, NumRange

    v = View(
        FilterState()
        .with_values("framework", ["PopART", "Gone"])
        .with_range("latency_ms", NumRange(None, 2.0))
        .with_text("bert"),
        ChartSpec(kind="scaling", log=False),
        Comparison(("podtr-0f234b", "nope"), "nope"),
    )
    assert View.parse(v.to_json()) == (v, [])
    u = browse.universe(db)
    fixed, dropped = reconcile(
        v, u.values, browse.existing_ids(db, list(v.comparison.ids))
    )
    assert fixed.filters.values("framework") == {"PopART"}
    assert fixed.comparison == Comparison(("podtr-0f234b",), "podtr-0f234b")
    assert dropped == ["framework: Gone", "compared results: nope"]
    with pytest.raises(ValueError, match="not an ipubench-gui view"):
        View.parse({"format": "x"})


def test_ratio_words_and_column_labels():
    # two reported comparisons, with figures worked out by hand
    assert compare.ratio_words(10.0, 31.2, "time_to_train") == "3.12× less time (−68%)"
    assert compare.ratio_words(2.10, 1.0, "throughput") == (
        "2.10× more throughput (+110%)"
    )
    assert compare.ratio_words(5.0, 5.0, "latency") == "the same latency (0%)"
    row = {"model": "BERT Large", "platform": "Bow Pod16", "batch_size": 65536}
    assert compare.column_label(row) == "BERT Large · Bow Pod16 · batch 65,536"
    assert compare.column_label({"result_id": "x-1"}) == "x-1"


def test_only_differences_hides_identical_provenance(db):
    a, b = _bert_pod16_pod64(db)
    rows = browse.rows_by_ids(db, [a, b])
    t = compare.table(rows)
    same = {cr.key for cr in t if any(cr.values) and not cr.differs}
    assert {"source_title", "table", "source_date"} <= same  # one vendor table
    kept = {cr.key for cr in compare.shown(t, only_differences=True)}
    assert not kept & same
    assert {"platform", "accelerators", "ratio", "result_id"} <= kept
    md = compare.to_markdown(rows, 0, only_differences=True)
    assert "| Source |" not in md and "| Date |" not in md
    assert md.splitlines()[0].startswith(f"|  | {compare.column_label(rows[0])}")


def test_ratios_only_between_the_same_metric_in_one_unit_family(db):
    """The issue: BERT training against ResNet inference was "7.64× slower"."""
    bert = _id(
        db,
        model="BERT Large",
        platform="Bow Pod16",
        framework="PopART",
        variant="Ph1 Pre-Training (SL128) - Packed",
    )
    rn50 = _id(
        db, model="ResNet-50v1.5", platform="Bow-2000", variant="lowest latency config"
    )
    a, b = browse.rows_by_ids(db, [bert, rn50])
    want = "not comparable: different model (BERT-Large vs ResNet-50 v1.5) and task"
    assert compare.ratio_text(a, b) == want
    text = compare.verdict(a, b).text()
    assert text.startswith(
        "not like for like: workload differs in model (BERT-Large vs ResNet-50 "
        "v1.5), variant ("
    )
    assert "task (training vs inference)" in text
    assert "sequence length" not in text  # images have none: not unknown
    assert compare.latency_text(a, b) == ""
    # same model, another metric: GPS++ throughput against its time to train
    ids = db.cursor().execute("SELECT result_id FROM results WHERE model = 'GPS++'")
    t, tt = sorted(
        browse.rows_by_ids(db, [i for (i,) in ids.fetchall()]),
        key=lambda r: r["metric"],
    )
    assert compare.ratio_text(t, tt) == (
        "not comparable: different metric (Throughput vs Time to train)"
    )
    # Cluster-GCN counts nodes, ResNet-50 images: both printed "items/s"
    (gcn,) = browse.rows_by_ids(
        db,
        [
            db.scalar(
                "SELECT result_id FROM results WHERE model = 'Cluster-GCN' LIMIT 1"
            )
        ],
    )
    assert (gcn["unit"], b["unit"]) == ("items/s", "items/s")
    assert compare.ratio_text(gcn, b).startswith(
        "not comparable: different model (Cluster-GCN vs ResNet-50 v1.5)"
    )
    # and counterparts never cross unit families
    for cps in compare.counterparts(a, browse.family_rows(db, a)).values():
        assert all(cp.row["unit_family"] == a["unit_family"] for cp in cps)


def test_markdown_notes_name_columns_as_their_headers(db):
    """The copied/saved Markdown's notes say which column, as its header does
    ('BERT-Large · Bow Pod64 · batch …'), not by result id."""
    a, b = _bert_pod16_pod64(db)
    rows = browse.rows_by_ids(db, [a, b])
    md = compare.to_markdown(rows, 0)
    notes = [line for line in md.splitlines() if line.startswith("- ")]
    want = f"- {rows[1]['model']} · {rows[1]['platform']} · batch "
    assert len(notes) == 1 and notes[0].startswith(want), notes
    assert " against the baseline: " in notes[0]
    assert a not in notes[0] and b not in notes[0]


def test_the_two_reported_compare_cases(tmp_path, _isolated_home):
    """The issue: two imported rows (an IPU and a GPU system, no accelerator
    type known) were "like-for-like: only the system size differs", and an
    imported row's every blank counted as a difference against bowtr-536574."""
    import csv
    import io

    ours = tmp_path / "ours.csv"
    ours.write_text(
        "Benchmark,System,Chips,Samples/s\n"
        "ResNet-50 v1.5,Our Bow Pod16,16,40000\n"
        "ResNet-50 v1.5,Our DGX A100,8,20000\n"
        "BERT-Large,Bow Pod16,16,6000\n",
        encoding="utf-8",
    )
    p = _cli(
        "import", str(ours), "--map", "Benchmark=model", "--map", "System=platform",
        "--map", "Chips=accelerators", "--map", "Samples/s=value",
        "--metric", "throughput", "--unit", "items/s", home=_isolated_home,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    ids = "usr1-0000001", "usr1-0000002", "usr1-0000003"
    p = _cli("compare", ids[0], ids[1], home=_isolated_home)
    assert p.returncode == 0, p.stderr
    # 40,000 / 16 and 20,000 / 8 = 2,500 images/s per chip, by hand
    want = (
        "can't tell: accelerator type, variant, task, dataset, precision, batch "
        "size unknown; compares 8 vs 16 chips (20,000 vs 40,000 images/s; 2,500 "
        "vs 2,500 images/s per chip, derived), platform (Our DGX A100 vs Our Bow "
        "Pod16); also unknown: SDK, framework"
    )
    assert f"- ResNet-50 v1.5 · Our DGX A100 against the baseline: {want}" in (p.stdout)
    assert "like-for-like" not in p.stdout
    assert "| Accelerator type | *unknown* | *unknown* |" in p.stdout
    # the imported BERT-Large row against the vendor's: blanks are unknown
    p = _cli("compare", ids[2], "bowtr-536574", "--format", "csv", home=_isolated_home)
    assert p.returncode == 0, p.stderr
    lines = list(csv.reader(io.StringIO(p.stdout)))
    assert lines[0] == ["attribute", f"{ids[2]} (baseline)", "bowtr-536574", "differs"]
    differs = {line[0]: line[-1] for line in lines[1:]}
    for label in ("Variant", "Task", "SDK", "Framework", "Dataset", "Data"):
        assert differs[label] == "unknown", label
    for label in ("Batch size", "Precision", "Sequence length"):
        assert differs[label] == "unknown", label
    for label in ("Model", "Platform", "Accelerator type", "Accelerators", "Metric"):
        assert differs[label] == "", label  # known, and the same
    verdict = next(line for line in lines if line[0] == "Like for like?")
    assert verdict[2] == (
        "can't tell: variant, task, dataset, precision, sequence length, batch "
        "size unknown; also unknown: SDK, framework"
    )


def test_a_quality_target_the_rules_make_the_same_does_not_read_unknown(db):
    """Bow Pod16 ResNet-50 (2.0-2047; the page prints its target) against
    NVIDIA's DGX A100 of the same round (no page prints one): the verdict
    counts the target the same by the benchmark's rules, so its cell says so
    rather than 'unknown' (with a tooltip saying 'the same as the baseline')."""
    target = _seed("MLPerf v2.0 Training Performance", **{"MLPerf ID": "2.0-2047"})[
        "MLPerf Quality Target"
    ]
    assert target == "75.90% classification"
    bow = _id(db, mlperf_id="2.0-2047")
    dgx = db.scalar(
        "SELECT result_id FROM results_v WHERE mlperf_round = '2.0' AND "
        "submitter = 'NVIDIA' AND system_id = 'dgxa100_ngc22.04_mxnet' AND "
        "mlperf_benchmark = 'resnet'"
    )
    rows = browse.rows_by_ids(db, [bow, dgx])
    (q,) = [cr for cr in compare.table(rows) if cr.key == "quality_target"]
    assert q.values == (target, "") and q.cells[1] == "same"
    assert q.shown(0) == target
    assert q.shown(1) == "not printed; the same by the benchmark's rules"
    assert compare.verdict(rows[1], rows[0]).verdict == "like for like"
    # a vendor table row is no MLPerf result: its blank target stays unknown
    tput = _id(db, model="ResNet-50 v1.5", platform="IPU-M2000", batch_size=1920)
    rows = browse.rows_by_ids(db, [bow, tput])
    (q,) = [cr for cr in compare.table(rows) if cr.key == "quality_target"]
    assert q.shown(1) == "unknown"
