"""The data sources: each file of data/ the store loads, one entry each.

An entry says everything the store and the self-test do with a file: the
table it loads into (``data/<table>.csv``; its columns in ``schema.sql``, or
in ``schema`` for a source that brings its own), its key and row checks,
and, for a file whose rows are results, how they read as rows of the results
table (``rows``: SQL over its table giving results columns; they then take
their system, metric and source title from platforms, metrics and sources),
what the "Source kind" facet calls them (``label``), which columns name
models, systems... (``names``, resolved to canonical names) and how many of
its CSV rows the store shows (``shown``, counted with the standard library by
``--self-test``). The build (store/bundled/build.py), the names
(store/bundled/entity_tables.py) and the self-test read this list: a new source
is one entry here, plus its CSV, its row in data/sources.csv and its columns
in data/README.md.

The official MLPerf results are shown through ``mlperf_rows.sql`` (their own
system and source columns; imported ones too), not through ``rows``.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ipubench_gui.domain.claim_checks import CHECKS

# Column of a results row -> kind of entity it names.
NAMED_COLUMNS: dict[str, str] = {
    "model": "model",
    "framework": "framework",
    "dataset": "dataset",
    "platform": "system",
    "unit": "unit",
}
Read = Callable[[str], list[dict[str, str]]]  # table -> its CSV rows


@dataclass(frozen=True)
class Rule:
    """A condition every row must meet: SQL over the staged row, and why."""

    column: str
    holds: str
    reason: str


@dataclass(frozen=True)
class DataSource:
    table: str
    key: str
    rules: tuple[Rule, ...] = ()
    schema: str = ""  # CREATE TABLE, if not in schema.sql
    rows: str = ""  # SQL: its rows as results rows
    label: str = ""  # the Source kind facet's value for those rows
    names: Mapping[str, str] = field(default_factory=dict)  # column -> kind
    shown: Callable[[Read], int] | None = None  # rows of the CSV the store shows


SOURCE_KNOWN = Rule(
    "source_file",
    "source_file IN (SELECT source_file FROM sources)",
    "source missing from data/sources.csv",
)
PLATFORM_KNOWN = Rule(
    "platform",
    "platform IN (SELECT platform FROM platforms)",
    "platform missing from data/platforms.csv",
)
TASK = Rule(
    "task", "task IN ('training', 'inference')", "task must be training or inference"
)
METRIC_KNOWN = Rule(
    "metric", "metric IN (SELECT metric FROM metrics)", "unknown metric"
)


def _vendor_shown(read: Read) -> int:
    # a vendor figure citing an official MLPerf result shares that result's row
    rows = read("results")
    cited = [r for r in rows if r["mlperf_id"] and r["metric"] == "time_to_train"]
    return len(rows) - len(cited)


def _measurements(read: Read) -> int:
    metrics = {r["metric"] for r in read("metrics")}
    return sum(
        1 for r in read("gpu_reference") if r["value"] and r["metric"] in metrics
    )


# In the order they are loaded (a table's checks read the tables before it) and
# their rows shown.
SOURCES: tuple[DataSource, ...] = (
    DataSource("sources", "source_file"),
    DataSource(
        "platforms",
        "platform",
        (
            Rule(
                "accelerators",
                "accelerators IS NULL OR accelerators > 0",
                "accelerator count must be positive",
            ),
        ),
    ),
    DataSource("metrics", "metric"),
    DataSource(
        "results",
        "result_id",
        (
            TASK,
            Rule("value", "value > 0", "value must be a positive number"),
            Rule(
                "batch_size",
                "batch_size IS NULL OR batch_size > 0",
                "batch size must be a positive integer",
            ),
            Rule(
                "latency_ms",
                "latency_ms IS NULL OR latency_ms > 0",
                "latency must be positive",
            ),
            METRIC_KNOWN,
            PLATFORM_KNOWN,
            SOURCE_KNOWN,
            Rule(
                "precision",
                r"precision IS NULL OR regexp_full_match(precision, '\d+\.\d+')",
                "precision must look like 16.16 (activations.weights)",
            ),
        ),
        rows="""
    SELECT * FROM results
    WHERE result_id NOT IN (
        SELECT vendor_result_id FROM mlperf_training
        WHERE vendor_result_id IS NOT NULL
    )""",
        label="Vendor page",
        names=NAMED_COLUMNS,
        shown=_vendor_shown,
    ),
    DataSource(
        "comparisons",
        "comparison_id",
        (
            METRIC_KNOWN,
            SOURCE_KNOWN,
            Rule(
                "ratio_stated",
                "ratio_stated IS NULL OR ratio_stated > 0",
                "ratio must be positive",
            ),
        ),
    ),
    DataSource(
        "claims",
        "claim_id",
        (
            SOURCE_KNOWN,
            Rule(
                "checked_by",
                # our own fixed names (the audit's registry), not user text
                "checked_by IN ("
                + ", ".join(f"'{name}'" for name in sorted(CHECKS))
                + ")",
                "checked_by must be one of " + ", ".join(sorted(CHECKS)),
            ),
        ),
    ),
    DataSource(
        "gpu_reference",
        "result_id",
        (
            SOURCE_KNOWN,
            PLATFORM_KNOWN,
            TASK,
            Rule(
                "role",
                "role IN ('most likely', 'alternative', 'context', "
                "'training scheme', 'not retrieved')",
                "role must be most likely, alternative, context, training scheme "
                "or not retrieved",
            ),
            Rule(
                "value",
                "(role = 'not retrieved') = (value IS NULL) AND "
                "(value IS NULL OR value > 0)",
                "value must be a positive number, and blank exactly when the "
                "figure was not retrieved",
            ),
            Rule(
                "metric",
                "metric = 'training_steps' OR metric IN (SELECT metric FROM metrics)",
                "unknown metric",
            ),
            Rule(
                "result_id",
                "result_id NOT IN (SELECT result_id FROM results)",
                "result id already used in data/results.csv",
            ),
        ),
        # NVIDIA's figures that are measurements (a value in a known metric)
        rows="""
    SELECT
        g.result_id, g.source_file, g.table_caption AS "table",
        CAST(g.rowid + 1 AS INTEGER) AS "row",  -- line in the CSV, header not counted
        g.task, g.model, g.variant, g.platform,
        CAST(NULL AS VARCHAR) AS sdk_version, g.framework, g.dataset, g.batch_size,
        g.precision, g.metric, g.value, g.unit,
        g.value_as_printed || ' ' || g.unit_as_printed AS value_as_printed,
        coalesce(g.latency_ms, CASE WHEN g.metric = 'latency' THEN g.value END)
            AS latency_ms,
        CAST(NULL AS VARCHAR) AS mlperf_id, CAST(NULL AS VARCHAR) AS division,
        CAST(NULL AS VARCHAR) AS quality_target,
        CAST(NULL AS VARCHAR) AS evaluation_metric,
        CAST(NULL AS VARCHAR) AS ranking, g.link,
        'NVIDIA''s own published figure (' || g.role || '): ' || g.measure
            || coalesce('; batch as printed: ' || g.batch_as_printed, '')
            || '; cited for ' || g.comparison_ids AS note,
        g.source_date AS g_date, g.source_repo
    FROM gpu_reference g
    WHERE g.value IS NOT NULL AND g.metric IN (SELECT metric FROM metrics)""",
        label="Published reference (NVIDIA)",
        names=NAMED_COLUMNS,
        shown=_measurements,
    ),
    # When MLCommons published each round (its results are dated by it, not
    # by when the repository was copied), each date with the page it is from.
    DataSource(
        "mlperf_rounds",
        "round_id",
        (
            Rule(
                "round_id",
                "round_id = suite || ' v' || mlperf_round",
                "round_id must read SUITE vROUND",
            ),
            Rule(
                "suite",
                "suite IN ('training', 'inference')",
                "suite must be training or inference",
            ),
            Rule(
                "source",
                "(published IS NULL) = (source IS NULL)",
                "a date needs the page it is from, and a page its date",
            ),
        ),
        schema="""CREATE TABLE mlperf_rounds (
    round_id     VARCHAR NOT NULL,
    suite        VARCHAR NOT NULL,
    mlperf_round VARCHAR NOT NULL,
    published    DATE,
    source       VARCHAR,
    source_says  VARCHAR NOT NULL
)""",
    ),
    DataSource(
        "mlperf_training",
        "result_id",
        (
            Rule(
                "value",
                "coalesce(value > 0, false) = (status = 'scored')",
                "a scored result needs a positive time, an unscored one none",
            ),
            Rule(
                "vendor_result_id",
                "vendor_result_id IS NULL OR vendor_result_id IN "
                "(SELECT result_id FROM results)",
                "vendor_result_id names no row of data/results.csv",
            ),
        ),
        # shown through mlperf_rows.sql, as imported results are
        names={
            "model": "model",
            "framework": "framework",
            "dataset": "dataset",
            "system_name": "system",
            "system_id": "system",
            "unit": "unit",
        },
        shown=lambda read: len(read("mlperf_training")),
    ),
    DataSource(
        "mlperf_inference",
        "result_id",
        (
            Rule(
                "value",
                "coalesce(value > 0, false) = (status = 'valid')",
                "a valid result needs a positive figure, another none",
            ),
            Rule(
                "scenario",
                "scenario IN ('Offline', 'Server')",
                "scenario must be Offline or Server",
            ),
            Rule(
                "inferred",
                "NOT inferred OR scenario = 'Offline'",
                "only an Offline figure is inferred (from a SingleStream log)",
            ),
        ),
        # shown through mlperf_inference_rows.sql, as imported results are;
        # the platform is the system file's name (its folder only when the
        # file cannot be read: kept as printed), so folders need no name rows
        names={
            "model": "model",
            "framework": "framework",
            "dataset": "dataset",
            "system_name": "system",
            "unit": "unit",
        },
        shown=lambda read: len(read("mlperf_inference")),
    ),
)


def by_table() -> dict[str, DataSource]:
    return {s.table: s for s in SOURCES}


def rows_sql() -> str:
    """Every source's rows as results rows (views.sql's ``rows``), in order:
    ``part`` keeps them apart in table order, ``source`` says which it is."""
    parts = [
        "SELECT CAST(NULL AS DATE) AS g_date, CAST(NULL AS VARCHAR) AS source_repo, "
        "CAST(NULL AS VARCHAR) AS source, 0 AS part WHERE false"
    ]
    for i, s in enumerate(s for s in SOURCES if s.rows):
        label = s.label.replace("'", "''")
        parts.append(f"SELECT *, '{label}' AS source, {i} AS part FROM ({s.rows}\n)")
    return "\n    UNION ALL BY NAME\n    ".join(parts)


def shown_rows(data_dir: Path) -> int:
    """How many rows the store should show, counted from the CSV files with the
    standard library (``--self-test``), every source's ``shown``."""

    def read(table: str) -> list[dict[str, str]]:
        with open(data_dir / f"{table}.csv", newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))

    return sum(s.shown(read) for s in SOURCES if s.shown)
