"""Standard output of the commands: a reader that went away (``| head``) or a
full disk (``> /dev/full``) ends the command with one line on stderr, never
a traceback."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import TextIO

# What is said, by cause (the first line a user reads).
CLOSED = "the output was closed before everything was written (broken pipe)"
CANNOT_WRITE = "cannot write the output: {why}"


class OutputFailed(Exception):
    """Writing to standard output failed; the message says why, in words."""


def _words(exc: OSError) -> str:
    if exc.errno == errno.EPIPE:
        return CLOSED
    why = os.strerror(exc.errno) if exc.errno else str(exc)
    return CANNOT_WRITE.format(why=why)


class _Guarded:
    """Standard output whose write errors become :class:`OutputFailed`."""

    def __init__(self, inner: TextIO):
        self._inner = inner

    def write(self, text: str) -> int:
        try:
            return self._inner.write(text)
        except OSError as exc:
            raise OutputFailed(_words(exc)) from None

    def flush(self) -> None:
        try:
            self._inner.flush()
        except OSError as exc:
            raise OutputFailed(_words(exc)) from None

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def write_file_out(path: str) -> None:
    """The bytes of the file at ``path`` to standard output, as they are (an
    export asked to write to ``-``); a failed write is :class:`OutputFailed`."""
    try:
        sys.stdout.flush()
        out = sys.stdout.buffer
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                out.write(block)
        out.flush()
    except OSError as exc:
        raise OutputFailed(_words(exc)) from None


def run_guarded(command: Callable[[], int]) -> int:
    """``command()``'s exit code, its output flushed (also when it exits
    through SystemExit, as ``--help`` does); a failed write to standard output
    is said in one line on stderr (exit code 1), and the rest of the output
    dropped so the interpreter's last flush is quiet."""
    real = sys.stdout
    sys.stdout = _Guarded(real)  # type: ignore[assignment]
    try:
        try:
            return command()
        finally:
            sys.stdout.flush()
    except OutputFailed as exc:
        _drop(real)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        sys.stdout = real


def _drop(stream: TextIO) -> None:
    """Point ``stream``'s descriptor at the null device: what Python still
    holds for it is written nowhere at exit (the Python docs' advice for a
    closed pipe)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
