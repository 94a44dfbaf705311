"""The throughput range names what the rows shown count (domain/ranges.py)."""

from __future__ import annotations


def test_counted_unit_names_one_family_or_says_mixed():
    from ipubench_gui.domain.ranges import counted_unit

    counts = {"images/s": 12, "sequences/s": 3, "time": 40, None: 2, "nodes/s": 0}
    assert counted_unit(counts, frozenset()) == "mixed units"
    assert counted_unit({"images/s": 5, "time": 9}, frozenset()) == "images/s"
    assert counted_unit(counts, frozenset({"sequences/s"})) == "sequences/s"
    assert counted_unit({"time": 9}, frozenset()) == ""  # no throughput shown
