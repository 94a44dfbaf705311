"""The MLPerf results table out of the store: DuckDB's PIVOT turns the
filtered official results into one row per system and framework with one
column per benchmark (domain/mlperf_table.py says what the table holds).

Benchmarks are pivoted on their position in a bound list (``IN (1, 2, ...)``
are numbers this module makes), so no value ever enters the SQL text: a PIVOT
whose columns are read from the data cannot take bound parameters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipubench_gui.domain.mlperf_table import KEY_COLUMNS, MLPerfTable, build
from ipubench_gui.store.db import Query
from ipubench_gui.store.query.queries import VIEW, where
from ipubench_gui.store.schema import quote_ident

if TYPE_CHECKING:
    from ipubench_gui.domain.filters import FilterState
    from ipubench_gui.store.db import Database

# Official results (bundled and imported): those with a round.
OFFICIAL = "mlperf_round IS NOT NULL AND metric = 'time_to_train'"
_KEYS = ", ".join(quote_ident(k) for k in KEY_COLUMNS)


def benchmarks_query(state: FilterState) -> Query:
    """The benchmarks (canonical model names) among the filtered results,
    in the order of the round that first has them, then by name."""
    cond, params = where(state)
    return Query(
        f"SELECT model FROM {VIEW} WHERE {OFFICIAL} AND ({cond}) "
        # MLCommons' own order within a round: by benchmark folder
        "GROUP BY model ORDER BY min(mlperf_round), min(mlperf_benchmark), model",
        params,
    )


def table_query(state: FilterState, benchmarks: list[str]) -> Query:
    """The pivot: KEY_COLUMNS, then per benchmark a struct (result_id, value,
    status, accelerators, mlperf_id) or NULL."""
    cond, params = where(state)
    cols = ", ".join(str(i + 1) for i in range(len(benchmarks)))
    return Query(
        f"""
PIVOT (
    SELECT {_KEYS}, list_position($benchmarks, model) AS col, result_id, value,
        mlperf_status, mlperf_id
    FROM {VIEW}
    WHERE {OFFICIAL} AND ({cond})
)
ON col IN ({cols})
USING first({{'result_id': result_id, 'value': value, 'status': mlperf_status,
               'accelerators': accelerators, 'mlperf_id': mlperf_id}})
GROUP BY {_KEYS}
ORDER BY {_KEYS}
""",
        {**params, "benchmarks": benchmarks},
    )


def mlperf_table(
    db: Database, state: FilterState, per_chip: bool = False
) -> MLPerfTable:
    """The table of the results ``state`` selects (on the calling thread:
    from the window, through the QueryRunner)."""
    cur = db.cursor()
    q = benchmarks_query(state)
    benchmarks = [m for (m,) in cur.execute(q.sql, q.params).fetchall()]
    if not benchmarks:
        return MLPerfTable((), (), per_chip)
    q = table_query(state, benchmarks)
    rows = cur.execute(q.sql, q.params).fetchall()
    return build(benchmarks, rows, per_chip)
