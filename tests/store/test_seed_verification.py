"""data/ against the source documents, cell by cell (skipped when they are absent)."""

from __future__ import annotations

import csv
import re
from collections import defaultdict

import pytest

from tests.conftest import DATA, seeds_or_skip
from tests.seedtables import RESULTS_PAGE, read_tables


def _n(text: str | None) -> float | None:
    """A printed number: thousands separators dropped."""
    return None if text is None else float(text.replace(",", ""))


def _minutes(text: str) -> float:
    h, m = re.fullmatch(r"(\d+)h (\d+)m", text).groups()
    return int(h) * 60 + int(m)


def _expected(table) -> list[dict]:
    """What data/results.csv must hold for one seed table, one dict per figure."""
    out = []
    for i, r in enumerate(table.rows, 1):
        base = {
            "table": table.heading,
            "row": str(i),
            "model": r["Model"],
            "variant": r.get("Variant"),
            "platform": r["Platform"],
            "sdk_version": r["SDK Version"],
            "framework": r["Framework"],
            "dataset": r.get("Dataset") or r.get("Dataset Challenge"),
            "batch_size": _n(r.get("Batch Size")),
            "precision": r.get("Precision"),
            "latency_ms": _n(r.get("Latency (ms)")),
            "mlperf_id": r.get("MLPerf ID"),
            "division": r.get("Division"),
            "quality_target": r.get("MLPerf Quality Target"),
            "evaluation_metric": r.get("Evaluation Metric"),
            "ranking": r.get("OGB-LSC 2022 Ranking"),
        }
        if "Throughput (items/sec)" in r:
            out.append(
                base
                | {"metric": "throughput", "value": _n(r["Throughput (items/sec)"])}
            )
        if "Time to Train" in r:
            out.append(
                base
                | {"metric": "time_to_train", "value": _minutes(r["Time to Train"])}
            )
        if "Time to Train (mins)" in r:
            out.append(
                base
                | {"metric": "time_to_train", "value": _n(r["Time to Train (mins)"])}
            )
        if "Time To Result (secs)" in r:
            out.append(
                base
                | {"metric": "time_to_result", "value": _n(r["Time To Result (secs)"])}
            )
    return out


def _actual() -> dict:
    with open(DATA / "results.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_table = defaultdict(list)
    for r in rows:
        got = {k: (v if v != "" else None) for k, v in r.items()}
        for k in ("batch_size", "latency_ms", "value"):
            got[k] = _n(got[k])
        by_table[got["table"]].append(got)
    return by_table


def test_every_seed_table_matches_data_cell_by_cell():
    seeds = seeds_or_skip()
    tables = read_tables(seeds / RESULTS_PAGE)
    actual = _actual()
    assert set(actual) == {t.heading for t in tables}, "tables differ"
    for table in tables:
        expected = _expected(table)
        got = sorted(actual[table.heading], key=lambda r: (int(r["row"]), r["metric"]))
        assert len(got) == len(expected), f"{table.heading}: figure count differs"
        for exp, row in zip(
            sorted(expected, key=lambda r: (int(r["row"]), r["metric"])), got
        ):
            for key, want in exp.items():
                assert row[key] == want, (
                    f"{table.heading} row {exp['row']} {key}: data has {row[key]!r}, "
                    f"source prints {want!r}"
                )
            assert row["source_file"] == RESULTS_PAGE


def test_seed_row_count_is_what_the_page_prints():
    tables = read_tables(seeds_or_skip() / RESULTS_PAGE)
    counts = {t.heading: len(t.rows) for t in tables}
    # Counted by hand in the page: OGB 2, Bow training 64, Bow inference 37,
    # MLPerf 11, Classic training 62, time to result 1, Classic inference 71.
    assert counts == {
        "OGB-LSC 2022": 2,
        "Bow Platform - Training": 64,
        "Bow Platform - Inference": 37,
        "MLPerf v2.0 Training Performance": 11,
        "IPU-POD Classic - Training": 62,
        "IPU-POD Classic - Time to Result": 1,
        "IPU-POD Classic - Inference": 71,
    }


@pytest.mark.parametrize("name", ["comparisons", "claims"])
def test_curated_figures_are_printed_in_their_source(name):
    """Every ratio, value and MLPerf ID we recorded appears in the document cited."""
    seeds = seeds_or_skip()
    with open(DATA / f"{name}.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    texts = {p.name: p.read_text(encoding="utf-8") for p in seeds.glob("*.txt")}
    everything = "\n".join(texts.values())
    for r in rows:
        text = texts[r["source_file"]]
        if name == "comparisons":
            if r["ratio_as_printed"]:
                assert r["ratio_as_printed"] in text, r["comparison_id"]
            if r["ratio_stated"]:
                ratio = r["ratio_stated"].removesuffix(".0")
                assert f"{ratio}x" in text, r["comparison_id"]
            for col in ("ipu_value", "ipu_value_alt", "gpu_value"):
                if r[col]:
                    v = float(r[col])
                    assert f"{v:,.0f}" in everything or f"{v:.0f}" in everything, (
                        r["comparison_id"],
                        col,
                    )
        else:
            for mid in re.findall(r"\d\.\d-\d{4}", r["mlperf_ids"]):
                assert mid in everything, (r["claim_id"], mid)
            if r["stated_as_printed"]:
                assert r["stated_as_printed"] in text, r["claim_id"]
            num = r["stated_change"] and f"{float(r['stated_change']):,g}"
            if num and num not in r["stated_as_printed"]:
                # a reading of words ("orders of magnitude"): our note says so
                assert "read as" in r["note"], r["claim_id"]
