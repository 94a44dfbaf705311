"""Edit → Undo and Redo over AppState's history, and what the status line says
of a step: what was done or undone, and the key that goes back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow, QMenu

    from ipubench_gui.ui.state import AppState

REDO_KEYS = ("Ctrl+Shift+Z",)  # beside the platform's own (Ctrl+Y on Windows)
SHOWN_MS = 10000


def _keys(act: QAction) -> str:
    return act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)


def add_undo_actions(
    window: QMainWindow, state: AppState, menu: QMenu
) -> tuple[QAction, QAction]:
    """Undo and Redo at the top of ``menu``: Qt's own actions over the stack
    (named after the step, disabled when there is none)."""
    stack = state.undo_stack
    undo = stack.createUndoAction(window, "&Undo")
    undo.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
    redo = stack.createRedoAction(window, "&Redo")
    keys = [QKeySequence(k) for k in REDO_KEYS]
    keys += [
        k
        for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        if k not in keys
    ]
    redo.setShortcuts(keys)
    first = menu.actions()[0] if menu.actions() else None
    menu.insertActions(first, [undo, redo])
    menu.insertSeparator(first)
    bar = window.statusBar()

    # after Qt's own slot (connected first): the stack has moved by then
    undo.triggered.connect(
        lambda: bar.showMessage(
            f"Undone: {stack.redoText()} — {_keys(redo)} redoes it", SHOWN_MS
        )
    )
    redo.triggered.connect(
        lambda: bar.showMessage(
            f"Redone: {stack.undoText()} — {_keys(undo)} undoes it", SHOWN_MS
        )
    )
    state.stepAnnounced.connect(
        lambda said: bar.showMessage(
            f"{said} — {_keys(undo)} (Edit → Undo) goes back", SHOWN_MS
        )
    )
    return undo, redo
