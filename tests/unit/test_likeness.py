"""Same, differs or unknown: a blank is never the same and never a difference,
and the verdict says like for like only when the workload is known to be the
same (domain/likeness.py, the comparator's table and its CSV)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ipubench_gui.domain import compare
from ipubench_gui.domain.likeness import (
    ATTRIBUTES,
    CANT_TELL,
    DIFFERS,
    LIKE,
    NOT_LIKE,
    SAME,
    UNKNOWN,
    WORKLOAD,
    assess,
    relate,
)
from tests.conftest import examples

BLANKS = st.sampled_from([None, "", " "])


def _text(*values: str) -> st.SearchStrategy:
    return st.one_of(BLANKS, st.sampled_from(values))


ROWS = st.fixed_dictionaries(
    {
        "result_id": st.sampled_from(["a", "b"]),
        "model": _text("BERT-Large", "ResNet-50 v1.5"),
        "variant": _text("Ph1 Pre-Training (SL128)", "SL384", "Fine-Tuning"),
        "task": _text("training", "inference"),
        "dataset": _text("Wikipedia", "ImageNet-1k"),
        "metric": _text("throughput", "latency", "time_to_train"),
        "unit_family": _text("sequences/s", "images/s", "time"),
        "unit": _text("items/s", "min"),
        "precision": _text("16.16", "FP16"),
        "batch_size": st.one_of(st.none(), st.sampled_from([1, 4, 256])),
        "division": _text("closed", "open"),
        "quality_target": _text("0.72 Mask-LM accuracy", "75.90% classification"),
        "mlperf_round": _text("2.0", "2.1"),
        "mlperf_benchmark": _text("bert", "resnet"),
        "accelerators": st.one_of(st.none(), st.sampled_from([8, 16])),
        "generation": _text("Bow", "A100"),
        "platform": _text("Bow Pod16", "DGX A100"),
        "sdk_version": _text("SDK 3.1", "SDK 2.4.0"),
        "framework": _text("PopART", "PyTorch"),
        "value": st.one_of(st.none(), st.sampled_from([100.0, 250.0])),
    }
)


def _blank(v) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _inputs_blank(attr, row) -> bool:
    """Whether what ``attr`` reads from ``row`` is blank."""
    if attr.key == "quality_target":  # printed, or the round's by the rules
        bench = row["model"] if _blank(row["mlperf_benchmark"]) else "known"
        return _blank(row["quality_target"]) and (
            _blank(row["mlperf_round"]) or _blank(bench)
        )
    return _blank(attr.value(row))


@settings(max_examples=examples(150), deadline=None)
@given(ROWS, ROWS)
def test_a_blank_is_never_the_same_nor_a_difference(a, b):
    for attr in ATTRIBUTES:
        if _inputs_blank(attr, a) or _inputs_blank(attr, b):
            assert relate(attr, a, b) not in (SAME, DIFFERS), attr.key
    v = assess(a, b)
    for key in v.keys(SAME) + v.keys(DIFFERS):
        attr = next(x for x in ATTRIBUTES if x.key == key)
        assert not (_inputs_blank(attr, a) or _inputs_blank(attr, b)), key
    # like for like only when every workload attribute is known the same, and
    # the accelerator type known on both sides
    if v.verdict == LIKE:
        assert not v.keys(UNKNOWN, WORKLOAD) and not v.keys(DIFFERS, WORKLOAD)
        assert "generation" not in v.keys(UNKNOWN)
    if v.keys(DIFFERS, WORKLOAD):
        assert v.verdict == NOT_LIKE
    # the table and its CSV say the same of every attribute row
    a, b = dict(a, result_id="a"), dict(b, result_id="b")
    _, body = compare.to_rows([a, b])
    csv = {line[0]: line[-1] for line in body}
    rows = {cr.key: cr for cr in compare.table([a, b])}
    for attr in ATTRIBUTES:
        cr = rows[attr.key]
        if _inputs_blank(attr, a) or _inputs_blank(attr, b):
            assert cr.status not in (SAME, DIFFERS), cr
            assert csv[cr.label] == ("unknown" if cr.status == UNKNOWN else "")
            # shown so (the Metric row shows the metric; its unit is the Figure's)
            if cr.status == UNKNOWN and attr.key != "metric":
                assert "unknown" in (cr.shown(0), cr.shown(1)), cr


def test_verdict_words():
    base = {
        "result_id": "p16",
        "model": "ResNet-50 v1.5",
        "variant": None,
        "metric": "throughput",
        "unit": "items/s",
        "unit_family": "images/s",
        "platform": "Our Bow Pod16",
        "accelerators": 16,
        "value": 40000.0,
    }
    dgx = dict(base, result_id="dgx", platform="Our DGX A100", accelerators=8)
    dgx["value"] = 20000.0
    v = assess(dgx, base)
    assert v.verdict == CANT_TELL
    # 40,000/16 = 2,500 and 20,000/8 = 2,500 images/s per chip, by hand
    assert v.text() == (
        "can't tell: accelerator type, variant, task, dataset, precision, batch "
        "size unknown; compares 8 vs 16 chips (20,000 vs 40,000 images/s; 2,500 vs "
        "2,500 images/s per chip, derived), platform (Our DGX A100 vs Our Bow "
        "Pod16); also unknown: SDK, framework"
    )
    known = {
        "variant": "v",
        "task": "training",
        "dataset": "ImageNet-1k",
        "precision": "FP16",
        "batch_size": 256,
        "sdk_version": "x",
        "framework": "TensorFlow",
    }
    ipu = dict(base, **known, generation="Bow")
    gpu = dict(dgx, **known, generation="A100")
    assert assess(gpu, ipu).text() == (
        "like for like: same workload; compares 8 vs 16 chips (20,000 vs 40,000 "
        "images/s; 2,500 vs 2,500 images/s per chip, derived), accelerator type "
        "(A100 vs Bow), platform (Our DGX A100 vs Our Bow Pod16)"
    )
    # the accelerator type unknown on one side: can't tell, never like for like
    assert (
        assess(dict(gpu, generation=None), ipu)
        .text()
        .startswith("can't tell: accelerator type unknown; compares 8 vs 16 chips")
    )
    # a workload difference first; the chip counts still named, first of the rest
    v = assess(dict(gpu, precision="FP32"), ipu)
    assert v.verdict == NOT_LIKE
    assert v.text().startswith(
        "not like for like: workload differs in precision (FP32 vs FP16); also "
        "compares 8 vs 16 chips ("
    )
    assert v.differences()[0].startswith("8 vs 16 chips")


def test_two_mlperf_results_of_one_round_are_one_workload():
    """Precision, batch size, variant and dataset are the benchmark's or the
    submitter's, and the quality target that of the round."""
    row = {
        "model": "ResNet-50 v1.5",
        "metric": "time_to_train",
        "unit": "min",
        "unit_family": "time",
        "task": "training",
        "division": "closed",
        "mlperf_round": "2.0",
        "mlperf_benchmark": "resnet",
        "generation": "Bow",
        "accelerators": 16,
        "platform": "Bow Pod16",
        "framework": "TensorFlow",
        "value": 19.64,
    }
    other = dict(row, generation="A100", accelerators=8, platform="DGX A100")
    other.update(value=28.0, framework="MXNet")
    v = assess(other, row)
    assert v.verdict == LIKE
    # 28 × 8 = 224 and 19.64 × 16 = 314.24 chip-minutes, by hand
    assert "(28 vs 19.64 min; 224 vs 314.24 chip-minutes, derived)" in v.text()
    assert v.text().endswith("; unknown: SDK")
    # another round: its target is not stored, so it cannot be said the same
    later = assess(dict(other, mlperf_round="2.1"), row)
    assert later.verdict == CANT_TELL
    assert later.text().startswith("can't tell: quality target unknown; compares")
    # a figure outside MLPerf has no division: never like for like with one
    outside = assess(dict(other, division=None, mlperf_round=None), row)
    assert outside.text().startswith("can't tell: variant, dataset, precision, ")


def test_counterparts_count_no_blank_as_a_difference():
    row = {
        "result_id": "r",
        "model": "ResNet-50 v1.5",
        "variant": None,
        "task": "inference",
        "metric": "throughput",
        "unit": "items/s",
        "unit_family": "images/s",
        "dataset": "ImageNet-1k",
        "precision": "16.16",
        "generation": "Bow",
        "accelerators": 4,
        "framework": "TensorFlow 1",
        "sdk_version": "SDK 3.1",
        "batch_size": 4,
    }
    bigger = dict(row, result_id="b", batch_size=8)
    no_sdk = dict(row, result_id="s", batch_size=16, sdk_version=None)
    blank_batch = dict(row, result_id="n", batch_size=None)
    groups = compare.counterparts(row, [bigger, no_sdk, blank_batch])
    assert list(groups) == ["batch_size"]
    notes = {cp.row["result_id"]: cp.note for cp in groups["batch_size"]}
    # the blank variant is unknown on both sides; a blank SDK is no difference
    assert notes == {"b": "unknown: variant", "s": "unknown: variant, SDK version"}


def test_no_ratio_across_a_blank_metric_or_an_unknown_item():
    """items/s of a model nobody named count unknown things: no ratio."""
    a = {"result_id": "a", "metric": "throughput", "unit": "items/s", "value": 2.0}
    b = dict(a, result_id="b", value=1.0)
    assert compare.ratio_text(a, b) == (
        "not comparable: model unknown, so what an item is"
    )
    assert compare.ratio_text(dict(a, model="X"), dict(b, model="X")).startswith(
        "2.00× more throughput"
    )
    assert compare.ratio_text(dict(a, metric=None), b) == (
        "not comparable: metric unknown"
    )
