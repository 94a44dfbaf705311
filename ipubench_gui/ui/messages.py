"""What the window says, as values: a Message is a title, a line saying what
is wrong and, under it, what to do. Each controller declares its messages in
one class (as Orange's widgets declare their Error and Warning groups), so
they can be reviewed together and tests can assert on the declared message
rather than on free text."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePath

MAX_VALUE = 80  # a value (a path, a name) shown in a message, at most


class Whole(str):
    """Text of ours said whole in a message (a summary, an explanation),
    where a plain value would be cut."""


def _cut(value: object) -> str:
    # A path is shown whole (it is to be found), and so is an error's own
    # text (it says what to do); a name or a value from a file is cut.
    if isinstance(value, PurePath | BaseException | Whole):
        return str(value)
    text = str(value)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


@dataclass(frozen=True)
class Message:
    title: str
    text: str  # what is wrong; {names} filled in by ``with_``
    todo: str = ""  # what to do about it

    def with_(self, **values: object) -> Message:
        """The message with its {names} filled in, each value but a path or
        an error cut to MAX_VALUE characters."""
        cut = {k: _cut(v) for k, v in values.items()}
        return replace(self, text=self.text.format(**cut), todo=self.todo.format(**cut))
