"""One MLPerf Training log read line by line, and a result's runs scored as the
MLCommons result summarizer scores them.

The scoring rule is MLCommons' own, read from the ``mlperf-logging`` package
(repository ``mlcommons/logging``, Apache-2.0), the same for rulesets 1.0.0,
1.1.0, 2.0.0 and 2.1.0 (the rounds stored here):

* ``mlperf_logging/result_summarizer/result_summarizer.py``,
  ``_query_run_start_stop`` / ``_query_mlperf_strong_scaling_score``: a run's
  time is ``run_stop.time_ms - run_start.time_ms`` in minutes; the loop keeps
  overwriting ``run_start`` and ``run_stop`` until both are set, so it is the
  last ``run_start`` before the first ``run_stop``. A log that lacks either, or
  fails the compliance check (``_read_result_file`` raises ``ValueError``,
  e.g. the run stopped with status ``aborted`` without reaching the quality
  target), is a *dropped* run.
* same file, ``_compute_strong_scaling_scores``: ``max_dropped_scores = 4 if
  benchmark == 'unet3d' else 1``; more dropped runs than that gives no score
  ("Too many non-converging runs"); otherwise the olympic mean.
* same file, ``_compute_olympic_average(scores, dropped_scores,
  max_dropped_scores)``: sort the good scores, drop ``max_dropped_scores`` from
  the bottom and ``max_dropped_scores - dropped_scores`` from the top (the
  dropped runs count as the slowest), average the rest.
* same file, ``_get_scaling_factor``: ``scaling.json``'s ``scaling_factor``
  multiplies the mean (1.0 without the file).
* ``mlperf_logging/benchmark_meta.py``, ``_ALL_RESULT_FILE_COUNTS['training']``
  (v1.0: ``package_checker/package_checker.py``,
  ``_EXPECTED_RESULT_FILE_COUNTS``): runs each benchmark needs.

Versions read (via the code index): result_summarizer.py as of the 2.x rulesets
(imports ``get_result_file_counts``; ``max_dropped_scores``) and at commit
014f69d1479e874f09e3b9c8140969eb8fa65803 (same rule, adds power);
benchmark_meta.py at 053c5ba29d3bd2d1bac34c52f39b15a65facb8e9; package_checker.py
of ruleset 1.0.0. ``tests/store/test_mlperf.py`` checks the implementation
against every figure of the seven v2.0 ``summary.csv`` files the submitters
published.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

#: Runs each benchmark needs (benchmark_meta.py / package_checker 1.0.0).
RESULT_FILE_COUNTS: dict[str, int] = {
    "bert": 10,
    "dlrm": 5,
    "gnmt": 10,
    "maskrcnn": 5,
    "minigo": 10,
    "resnet": 5,
    "ssd": 5,
    "transformer": 10,
    "ncf": 10,
    "rnnt": 10,
    "unet3d": 40,
}

_MARK = b":::MLLOG"
_SUBMISSION_KEYS = (
    "submission_benchmark",
    "submission_division",
    "submission_org",
    "submission_platform",
    "submission_status",
    "global_batch_size",
)


def max_dropped(benchmark: str) -> int:
    """Runs the olympic mean drops from each end (result_summarizer.py)."""
    return 4 if benchmark == "unet3d" else 1


@dataclass(frozen=True)
class Run:
    """What one ``result_N.txt`` says about its run."""

    path: Path
    minutes: float | None  # None: a dropped run (see ``problem``)
    status: str | None  # run_stop's metadata status
    problem: str | None  # why the run does not count; None when it does
    fields: tuple[tuple[str, object], ...] = ()  # submission_*, batch size

    def field(self, key: str) -> object:
        return dict(self.fields).get(key)


class LogError(ValueError):
    """A log the reader cannot use at all (unreadable file)."""


def read_log(path: Path) -> Run:
    """Read one log in bounded memory (line by line; 100+ MB logs are fine).

    Text before ``:::MLLOG`` on a line (rank prefixes) is ignored, as is every
    line without it. A line whose JSON does not parse makes the run unusable
    (the summarizer's parser fails the file: "Parse error").
    """
    run_start = run_stop = None
    stop_status: str | None = None
    fields: dict[str, object] = {}
    problem: str | None = None
    try:
        with open(path, "rb") as fh:
            for lineno, raw in enumerate(fh, 1):
                at = raw.find(_MARK)
                if at < 0:
                    continue
                try:
                    rec = json.loads(raw[at + len(_MARK) :])
                    key = rec["key"]
                    ts = rec.get("time_ms")
                except (ValueError, KeyError, TypeError) as exc:
                    if problem is None:
                        problem = f"line {lineno}: not a valid MLLOG record ({exc})"
                    continue
                if key == "run_start":
                    if run_stop is None or run_start is None:
                        run_start = ts
                elif key == "run_stop":
                    if run_stop is None or run_start is None:
                        run_stop = ts
                        meta = rec.get("metadata") or {}
                        stop_status = (
                            meta.get("status") if isinstance(meta, dict) else None
                        )
                elif key in _SUBMISSION_KEYS and key not in fields:
                    fields[key] = rec.get("value")
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror or exc})") from None
    minutes = None
    if problem is None:
        if run_start is None:
            problem = "run_start not recorded"
        elif run_stop is None:
            problem = "run_stop not recorded"
        elif not isinstance(run_start, (int, float)) or not isinstance(
            run_stop, (int, float)
        ):
            problem = "run_start or run_stop has no time_ms"
        elif stop_status != "success":
            problem = f"run stopped with status {stop_status!r} (did not converge)"
        else:
            minutes = (float(run_stop) - float(run_start)) / 60 / 1000
    return Run(path, minutes, stop_status, problem, tuple(fields.items()))


@dataclass(frozen=True)
class Score:
    """A result's official time to train and how it was reached."""

    minutes: float | None  # None: no score (see ``reason``)
    runs_found: int
    runs_required: int | None  # None for a benchmark the summarizer does not know
    runs_used: int  # runs averaged
    runs_dropped: int  # runs that did not count (aborted, no run_stop, ...)
    scaling_factor: float
    reason: str | None  # why there is no score


def olympic_mean(scores: list[float], dropped: int, max_drop: int) -> float | None:
    """``_compute_olympic_average`` of result_summarizer.py; None if nothing is left."""
    ordered = sorted(scores)
    kept = ordered[max_drop : len(ordered) - (max_drop - dropped)]
    return sum(kept) / len(kept) if kept else None


def score_runs(benchmark: str, runs: list[Run], scaling_factor: float = 1.0) -> Score:
    """Score a result's runs as ``_compute_strong_scaling_scores`` does."""
    good = [r.minutes for r in runs if r.minutes is not None]
    dropped = len(runs) - len(good)
    max_drop = max_dropped(benchmark)
    required = RESULT_FILE_COUNTS.get(benchmark)
    kept = len(good) - max_drop - max(max_drop - dropped, 0)
    if not runs:
        return Score(None, 0, required, 0, 0, scaling_factor, "no runs")
    if dropped > max_drop:
        return Score(
            None,
            len(runs),
            required,
            0,
            dropped,
            scaling_factor,
            f"too many runs did not count ({dropped}; at most {max_drop})",
        )
    mean = olympic_mean(good, dropped, max_drop)
    if mean is None:
        return Score(
            None, len(runs), required, 0, dropped, scaling_factor, "too few runs"
        )
    return Score(
        mean * scaling_factor,
        len(runs),
        required,
        max(kept, 0),
        dropped,
        scaling_factor,
        None,
    )


def read_scaling(path: Path) -> float:
    """``scaling.json``'s factor (1.0 when the file is absent)."""
    if not path.is_file():
        return 1.0
    try:
        factor = json.loads(path.read_text(encoding="utf-8"))["scaling_factor"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LogError(f"{path}: not a scaling file ({exc})") from None
    if not isinstance(factor, (int, float)) or factor <= 0:
        raise LogError(f"{path}: scaling_factor must be a positive number")
    return float(factor)
