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
