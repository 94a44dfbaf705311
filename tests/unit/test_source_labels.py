"""How a source is named in lists: title and date, never its file id."""

from __future__ import annotations

from ipubench_gui.domain.format import source_labels


def test_title_then_date_and_two_imports_of_one_file_name_both_named():
    rows = [
        ("000_a.txt", "Vendor page", "2023-07-04", "last updated"),
        ("001_b.txt", "Blog", None, "not stated"),
        ("mine.csv", "Lab A", "2026-11-26", "imported"),
        ("mine.csv", "Lab B", "2026-11-26", "imported"),
        ("bare.csv", "", None, "imported"),
    ]
    assert source_labels(rows) == {
        "000_a.txt": "Vendor page · 2023-07-04",
        "001_b.txt": "Blog",
        "mine.csv": "Lab A · 2026-11-26 / Lab B · 2026-11-26",
        "bare.csv": "bare.csv",
    }


def test_list_labels_are_the_title_before_its_bracket_dated_where_alike():
    from ipubench_gui.domain.format import source_list_labels

    rows = [
        ("a.txt", "Vendor: Results (Bow Pod)", "2023-07-04", "last updated"),
        ("b.txt", "Vendor: Results (MLPerf edition)", "2022-01-25", "last updated"),
        ("m", "MLPerf Training v1.0 results (MLCommons, official logs)", None, "r"),
        ("n", "NVIDIA figures (DLE, TensorRT), the GPU side", None, ""),
        ("x.txt", "Same (one)", "2020-01-01", ""),
        ("y.txt", "Same (two)", "2020-01-01", ""),
        ("mine.csv", "Lab A", "2026-11-26", "imported"),
        ("mine.csv", "Lab B", "2026-11-26", "imported"),
    ]
    assert source_list_labels(rows) == {
        "a.txt": "Vendor: Results · 2023-07-04",
        "b.txt": "Vendor: Results · 2022-01-25",
        "m": "MLPerf Training v1.0 results",
        "n": "NVIDIA figures",
        "x.txt": "Same (one) · 2020-01-01",  # alike even dated: whole
        "y.txt": "Same (two) · 2020-01-01",
        "mine.csv": "Lab A · 2026-11-26 / Lab B · 2026-11-26",
    }
