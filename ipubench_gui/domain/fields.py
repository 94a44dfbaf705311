"""The fields a user filters, sorts and reads: names, labels, units and kinds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """One column of the results view as the user sees it.

    Parameters
    ----------
    name
        Column name in ``results_v`` (also the key used in filters and views).
    label
        Human label for headers and panels.
    unit
        Unit shown in headers ("" when unitless or varying by row).
    numeric
        Whether values are numbers (right-aligned, thousands separators).
    """

    name: str
    label: str
    unit: str = ""
    numeric: bool = False

    def parse(self, text: str | None) -> str | int | None:
        """Turn a value that went through SQL as text back into its type."""
        if text is None or not self.numeric:
            return text
        return int(text) if text.lstrip("-").isdigit() else float(text)  # type: ignore[return-value]

    @property
    def header(self) -> str:
        """Header text with the unit, e.g. ``"Latency (ms)"``."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


# Facet dimensions, in panel order.
FACETS: tuple[Field, ...] = (
    Field("task", "Task"),
    Field("metric", "Metric"),
    # what a figure counts: images/s, sequences/s, ..., "time" (store/bundled/names.py)
    Field("unit_family", "Unit family"),
    Field("model", "Model"),
    Field("variant", "Variant"),
    Field("platform", "Platform"),
    Field("generation", "Generation"),
    Field("accelerators", "Accelerators", numeric=True),
    Field("sdk_version", "SDK version"),
    Field("framework", "Framework"),
    Field("dataset", "Dataset"),
    Field("precision", "Precision"),
    Field("source_file", "Source"),
    Field("source", "Source kind"),
    Field("mlperf_round", "MLPerf round"),
    Field("division", "Division"),
    Field("category", "Availability"),
    Field("submitter", "Submitter"),
    # MLPerf Inference: Offline, Server; datacenter, edge
    Field("scenario", "Scenario"),
    Field("system_type", "System type"),
)

# Numeric range filters.
RANGES: tuple[Field, ...] = (
    Field("batch_size", "Batch size", numeric=True),
    # its unit: the unit family of the rows shown (FacetPanel names it)
    Field("throughput", "Throughput", numeric=True),
    Field("latency_ms", "Latency", "ms", numeric=True),
)

# Columns searched by the free-text box (other_names: every spelling of the
# row's model and dataset, so any alias finds the entity).
TEXT_SEARCH: tuple[str, ...] = ("model", "variant", "dataset", "other_names")

# Names shown canonical everywhere; ``<name>_as_printed`` keeps the source's.
AS_PRINTED: tuple[str, ...] = ("model", "framework", "dataset", "platform")

# Columns of the results table, in default order.
TABLE_COLUMNS: tuple[Field, ...] = (
    Field("result_id", "ID"),
    Field("model", "Model"),
    Field("variant", "Variant"),
    Field("platform", "Platform"),
    Field("generation", "Generation"),
    Field("accelerators", "Accelerators", numeric=True),
    Field("sdk_version", "SDK"),
    Field("framework", "Framework"),
    Field("dataset", "Dataset"),
    Field("batch_size", "Batch size", numeric=True),
    Field("precision", "Precision"),
    Field("task", "Task"),
    Field("metric", "Metric"),
    Field("value", "Value", numeric=True),
    Field("unit", "Unit"),
    Field("latency_ms", "Latency", "ms", numeric=True),
    # its unit: what the rows shown count, per chip (ResultsModel.set_unit)
    Field("throughput_per_accelerator", "Throughput per chip", "derived", numeric=True),
    Field("mlperf_id", "MLPerf ID"),
    Field("submitter", "Submitter"),
    Field("mlperf_round", "MLPerf round"),
    Field("scenario", "Scenario"),
    Field("system_type", "System type"),
    Field("division", "Division"),
    Field("category", "Availability"),
    Field("sources_agree", "Sources agree"),
    Field("table", "Table"),
    Field("source_title", "Source"),
    # The document's file id: a column for exports, hidden in the window.
    Field("source_file", "Source file"),
)

# Where an MLPerf row comes from: the results repository, its commit and the
# result's folder; the vendor-page figure that shares the row, and whether the
# two agree.
MLPERF_PROVENANCE: tuple[str, ...] = (
    "repository",
    "commit",
    "path",
    "vendor_source_file",
    "vendor_value_as_printed",
    "sources_agree",
    "retrieved",  # when the copy read was retrieved (source_date: published)
)

# Provenance columns fetched with every row (for tooltips and detail panes).
PROVENANCE: tuple[str, ...] = (
    "source_file",
    "table",
    "row",
    "source_date",
    "source_date_kind",
    "source_title",
    "source_links",
    "mlperf_id",
    "division",
    "quality_target",
    "evaluation_metric",
    "ranking",
    "link",
    "note",
    "value_as_printed",
    "source",
    "mlperf_status",
    "runs_found",
    "runs_used",
    "inferred_offline",
    *MLPERF_PROVENANCE,
    *(f"{c}_as_printed" for c in AS_PRINTED),
    "unit_family",
)

# MLPerf columns of results_v (empty for vendor rows); export-results writes
# them, the first six under names fixed by contract.
MLPERF_COLUMNS: tuple[str, ...] = (
    "mlperf_round",
    "submitter",
    "system_id",
    "mlperf_benchmark",
    "division",
    "availability",
    "category",
    "system_name",
    "accelerator_model",
    "accelerator_type",
    "accelerator_form_factor",
    "accelerator_memory_gb",
    "framework_version",
    "source",
    "mlperf_status",
    "runs_found",
    "runs_required",
    "runs_used",
    "runs_dropped",
    "scaling_factor",
    *MLPERF_PROVENANCE,
    # MLPerf Inference (empty for other rows), after the older columns
    "scenario",
    "system_type",
    "inferred_offline",
)

# Names of a result's own fields as export-results writes them (a contract):
# also the fields an imported column can be mapped to.
RESULT_FIELDS: tuple[str, ...] = (
    "model",
    "variant",
    "platform",
    "sdk_version",
    "framework",
    "dataset",
    "batch_size",
    "precision",
    "metric",
    "value",
    "unit",
    "latency_ms",
    "mlperf_id",
)

_ALL = {f.name: f for f in (*FACETS, *RANGES, *TABLE_COLUMNS)}
_FILTERS = {f.name: f for f in (*FACETS, *RANGES)}


def field(name: str) -> Field:
    """Return the field called ``name``; raise ``KeyError`` listing known names."""
    try:
        return _ALL[name]
    except KeyError:
        raise KeyError(f"unknown field {name!r}; known: {sorted(_ALL)}") from None


def filter_field(name: str) -> Field:
    """The field as a filter names it (the Source facet, not the table's
    Source file column); else as ``field``."""
    return _FILTERS.get(name) or field(name)
