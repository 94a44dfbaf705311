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

Rounds 3.0 – 4.0 add (same files, later versions):

* ``benchmark_meta.py`` (version listing ``gnn``, ``llama2_70b_lora``,
  ``stable_diffusion``): the runs of the new benchmarks; gpt3 needs 3, and the
  olympic mean of 3 with one dropped from each end is the median run.
* ``compliance_checker/mlp_parser/ruleset_*.py``: the text from the last
  ``:::MLLOG `` on a line is parsed; a line whose JSON does not parse, or
  whose ``time_ms`` is not a number, is a failed line, and
  ``result_summarizer.py`` ``_read_result_file`` then raises "Parse error":
  the run is dropped, as an aborted one is.
* ``compliance_checker/training_3.1.0/closed_stable_diffusion.yaml`` (and
  ``training_5.0.0``'s, keyed by ``samples_count`` instead of ``step_num``):
  FID and CLIP lines of one evaluation are joined into one; at least 2 such
  evaluations, and one of them with FID <= 90 and 0.15 <= CLIP <= 1.0 (closed
  division), or the run fails the compliance check and is dropped.
* ``result_summarizer.py`` globs ``result_*.txt``: a ``result_..._raw_NN.txt``
  copy (v4.0 ``smc-ac-power``/``smc-dc-power``) is counted as a run too.

Versions read (via the code index): result_summarizer.py as of the 2.x rulesets
(imports ``get_result_file_counts``; ``max_dropped_scores``) and at commits
014f69d1479e874f09e3b9c8140969eb8fa65803 and d4a66d84e9749021f28e269d3b2e137ffedc2c6b
(same rule, adds power); benchmark_meta.py at
053c5ba29d3bd2d1bac34c52f39b15a65facb8e9 and its later version with
``llama2_70b_lora``; package_checker.py of ruleset 1.0.0; mlp_parser
ruleset_610.py. ``tests/store/test_mlperf.py`` checks the implementation
against every figure of the v2.0, v3.0 and v3.1 ``summary.csv`` files the
submitters published.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ipubench_gui.domain.files import open_regular, read_regular
from ipubench_gui.domain.result_rules import figure_problem, scaling_problem

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
    # rounds 3.0 - 4.0 (benchmark_meta.py, later version)
    "dlrm_dcnv2": 10,
    "gpt3": 3,
    "retinanet": 5,
    "stable_diffusion": 10,
    "gnn": 10,
    "rgat": 10,
    "llama2_70b_lora": 10,
}

# mlp_parser: lines are cut from the last occurrence of the token (its regex
# ".*" + TOKEN is greedy), so a rank prefix that itself holds the token is cut too
_MARK = b":::MLLOG "
_SUBMISSION_KEYS = (
    "submission_benchmark",
    "submission_division",
    "submission_org",
    "submission_platform",
    "submission_status",
    "global_batch_size",
)
# closed_stable_diffusion.yaml (training 3.1.0 onwards): the quality target one
# evaluation must meet, with FID and CLIP from that same evaluation
SD_FID_MAX, SD_CLIP_MIN, SD_CLIP_MAX, SD_MIN_EVALS = 90.0, 0.15, 1.0, 2


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
    malformed: bool = False  # a line the summarizer's parser rejects

    def field(self, key: str) -> object:
        return dict(self.fields).get(key)

    @property
    def not_converged(self) -> bool:
        """Dropped as the summarizer drops a run that did not converge (aborted,
        or short of the quality target): part of a result, not a broken log."""
        return self.problem is not None and self.problem.startswith(_NOT_CONVERGED)


_NOT_CONVERGED = ("run stopped with status", "quality target:")


class LogError(ValueError):
    """A log the reader cannot use at all (unreadable file)."""


def _record(raw: bytes) -> tuple[str, float, dict[str, object]] | None | str:
    """(key, time_ms, record) of a line; None for a line without the token; the
    parser's complaint (a string) for a line it fails."""
    at = raw.rfind(_MARK)
    if at < 0:
        return None
    if len(raw) >= LINE_MAX:
        return f"not a valid MLLOG record (longer than {LINE_MAX:,} bytes)"
    try:
        rec = json.loads(raw[at + len(_MARK) :].decode("latin-1"))
        key = rec["key"]
        for needed in ("value", "metadata"):  # the parser reads both
            if needed not in rec:
                raise KeyError(needed)
        ts = _time_ms(rec["time_ms"])
    except RecursionError:
        return "not a valid MLLOG record (nested too deep)"
    except (ValueError, KeyError, TypeError) as exc:
        return f"not a valid MLLOG record ({exc})"
    if ts is None:
        return "not a valid MLLOG record (time_ms is not a finite number)"
    if not isinstance(key, str):
        return "not a valid MLLOG record (key is not text)"
    return key, ts, rec


def _sd_problem(evals: dict[object, dict[str, object]]) -> str | None:
    """Why a closed stable_diffusion run fails its quality check, or None."""
    joined = [e for e in evals.values() if "FID" in e and "CLIP" in e]
    if len(joined) < SD_MIN_EVALS:
        return (
            f"{len(joined)} evaluation(s) with both FID and CLIP; the closed "
            f"division needs at least {SD_MIN_EVALS}"
        )
    for e in joined:
        fid, clip = e["FID"], e["CLIP"]
        if (
            isinstance(fid, (int, float))
            and isinstance(clip, (int, float))
            and 0.0 <= fid <= SD_FID_MAX
            and SD_CLIP_MIN <= clip <= SD_CLIP_MAX
        ):
            return None
    return (
        f"no evaluation reached FID <= {SD_FID_MAX:g} and CLIP >= {SD_CLIP_MIN:g} "
        "together (did not converge)"
    )


def read_log(path: Path, benchmark: str | None = None) -> Run:
    """Read one log in bounded memory (line by line; 100+ MB logs are fine).

    Text before ``:::MLLOG`` on a line (rank prefixes) is ignored, as is every
    line without it. A line the summarizer's parser fails (JSON that does not
    parse, no numeric ``time_ms``) drops the run ("Parse error"); so does a
    closed ``stable_diffusion`` run none of whose evaluations meet the quality
    target with FID and CLIP together. ``benchmark`` (the folder's name) is
    used when the log does not say its own.
    """
    run_start = run_stop = None
    stop_status: str | None = None
    fields: dict[str, object] = {}
    problem: str | None = None
    sd_evals: dict[object, dict[str, object]] = {}
    try:
        with open_regular(path) as fh:
            for lineno, raw in enumerate(_lines(fh), 1):
                got = _record(raw)
                if got is None:
                    continue
                if isinstance(got, str):
                    problem = problem or f"line {lineno}: {got}"
                    continue
                key, ts, rec = got
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
                elif key == "eval_accuracy":
                    meta = rec.get("metadata")
                    if isinstance(meta, dict) and "metric" in meta:
                        at = meta.get("samples_count", meta.get("step_num"))
                        sd_evals.setdefault(repr(at), {})[str(meta["metric"])] = rec[
                            "value"
                        ]
                elif key in _SUBMISSION_KEYS and key not in fields:
                    fields[key] = rec.get("value")
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror or exc})") from None
    malformed = problem is not None
    minutes = None
    bench = fields.get("submission_benchmark") or benchmark
    closed = str(fields.get("submission_division", "closed")).lower() == "closed"
    if problem is None:
        if run_start is None:
            problem = "run_start not recorded"
        elif run_stop is None:
            problem = "run_stop not recorded"
        elif stop_status != "success":
            problem = f"run stopped with status {stop_status!r} (did not converge)"
        elif bench == "stable_diffusion" and closed and _sd_problem(sd_evals):
            problem = f"quality target: {_sd_problem(sd_evals)}"
        else:
            minutes = (run_stop - run_start) / 60 / 1000
            bad = figure_problem(minutes)
            if bad:  # run_stop before run_start, or beyond any real run
                problem, minutes = f"run time {bad}", None
    return Run(path, minutes, stop_status, problem, tuple(fields.items()), malformed)


# A log line longer than this is not an MLLOG record (a record is ~200 bytes;
# a file of one endless line would otherwise be read whole into memory).
LINE_MAX = 1 << 20


def _lines(fh: BinaryIO) -> Iterator[bytes]:
    """The file's lines, each cut at LINE_MAX bytes (the rest of a longer line
    skipped): memory bounded whatever the file holds."""
    while raw := fh.readline(LINE_MAX):
        if len(raw) == LINE_MAX and not raw.endswith(b"\n"):
            while (more := fh.readline(LINE_MAX)) and not more.endswith(b"\n"):
                pass
        yield raw


def _time_ms(ts: object) -> float | None:
    """A record's time_ms as a float, if it is a finite number (not a bool,
    not an integer past a float's range)."""
    if isinstance(ts, bool) or not isinstance(ts, (int, float, str)):
        return None
    try:
        v = float(ts)
    except (OverflowError, ValueError):
        return None
    return v if math.isfinite(v) else None


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


_RAW_COPY = re.compile(r"^result_.*_raw_\d+\.txt$")
_TPU_NAME = re.compile(r"tpu-v\d+\w*-(\d+)", re.IGNORECASE)


def rule_notes(
    benchmark: str,
    log_names: list[str],
    score: Score,
    system_name: str | None = None,
    accelerators: int | None = None,
) -> list[str]:
    """What a reader of a score should know of the rule that made it."""
    notes = []
    if benchmark == "gpt3" and score.minutes is not None and score.runs_found == 3:
        notes.append("median of 3 runs (the olympic mean of 3 runs)")
    raw = sum(1 for n in log_names if _RAW_COPY.match(n))
    if raw:  # result_summarizer.py globs result_*.txt, so it counts them too
        notes.append(
            f"{raw} result_*_raw_*.txt cop{'y' if raw == 1 else 'ies'} of runs "
            "counted as runs, as MLCommons' summarizer counts them"
        )
    m = _TPU_NAME.search(system_name or "")
    if m and accelerators and int(m[1]) != accelerators:
        notes.append(
            f"the system name's {m[1]} counts TensorCores; its system file gives "
            f"{accelerators} chips"
        )
    return notes


# A scaling.json holds one number; a system file a few dozen fields.
JSON_MAX = 1 << 20


def read_json(path: Path) -> object:
    """A small JSON file's value; OSError (not a regular file, too large,
    unreadable) or ValueError (not UTF-8 JSON, nested too deep) saying why."""
    data = read_regular(path, JSON_MAX)
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deep to be a description") from None


def read_scaling(path: Path) -> float:
    """``scaling.json``'s factor (1.0 when the file is absent)."""
    if not path.exists() and not path.is_symlink():
        return 1.0
    try:
        factor = read_json(path)["scaling_factor"]  # type: ignore[index]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LogError(f"{path}: not a scaling file ({exc})") from None
    bad = scaling_problem(factor)
    if bad:
        raise LogError(f"{path}: scaling_factor {bad}")
    return float(factor)
