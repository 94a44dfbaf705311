"""The CSV import's SQL rules and the MLPerf readers' Python rules are one
set (domain/result_rules): the same answer for every value."""

from __future__ import annotations

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from ipubench_gui.domain import result_rules as rr
from ipubench_gui.store.user import import_checks
from tests.conftest import examples

VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**40), 2**40).map(float),
    st.sampled_from([0.0, 1.0, 1e15, 1e15 + 1, 2.0**31 - 1, 2.0**31, 1e-300]),
)


# One in-memory database for every example: opening one each time was most
# of the test's time.
CON = duckdb.connect()
SQL = "SELECT ({}), ({})".format(
    import_checks._POSITIVE.format(x="$x"), import_checks._WHOLE.format(x="$x")
)


@settings(max_examples=examples(300), deadline=None)
@given(VALUES)
def test_sql_and_python_refuse_the_same_values(x):
    bad_figure, bad_count = CON.execute(SQL, {"x": x}).fetchone()
    assert bool(bad_figure) == (rr.figure_problem(x) is not None), x
    assert bool(bad_count) == (rr.count_problem(x) is not None), x
