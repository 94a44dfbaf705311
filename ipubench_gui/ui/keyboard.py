"""Keyboard use of the main window: app shortcuts from text fields, a focus ring,
and F6 between panels (a common desktop convention)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QWidget

# Keys a text field keeps even when an app action has the same shortcut.
EDITING_KEYS = (
    QKeySequence.StandardKey.Copy,
    QKeySequence.StandardKey.Cut,
    QKeySequence.StandardKey.Paste,
    QKeySequence.StandardKey.Undo,
    QKeySequence.StandardKey.Redo,
    QKeySequence.StandardKey.SelectAll,
    QKeySequence.StandardKey.Delete,
)


class AppShortcuts(QObject):
    """Lets the window's shortcuts through text fields.

    On Linux a line edit claims Ctrl+E (end of line), Ctrl+K, Ctrl+U and more as
    editing keys (a ShortcutOverride it accepts), so Ctrl+E did nothing while
    the search box had focus, which it has at start. For a key that is one of
    ``actions()``'s shortcuts and not a copy/paste/undo kind of key, this
    filter declines the override and the app's action runs.
    """

    def __init__(self, actions: Callable[[], Sequence], parent: QObject):
        super().__init__(parent)
        self._actions = actions

    def watch(self, root: QWidget) -> None:
        """Filter every text field under ``root`` (spin boxes hold one too)."""
        for w in root.findChildren(QLineEdit) + root.findChildren(QAbstractSpinBox):
            w.installEventFilter(self)

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:  # noqa: N802 (Qt API)
        if e.type() == QEvent.Type.ShortcutOverride and self.is_app_key(e):  # type: ignore[arg-type]
            e.ignore()  # not the field's: the shortcut map gets it
            return True
        return False

    def is_app_key(self, e: QKeyEvent) -> bool:
        if (
            e.modifiers()
            & ~(Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier)
            == Qt.KeyboardModifier.NoModifier
        ):
            return False  # typing, arrows, Home/End: the field's
        if any(e.matches(k) for k in EDITING_KEYS):
            return False
        seq = QKeySequence(e.keyCombination())
        return any(
            act.isEnabled()
            and any(
                s.matches(seq) == s.SequenceMatch.ExactMatch for s in act.shortcuts()
            )
            for act in self._actions()
        )


class FocusRing(QWidget):
    """A ring in the highlight colour around whichever widget of the window has
    keyboard focus. Styles mark focus on line edits and buttons but not on a
    table, a chart or a text pane; this marks every stop alike."""

    WIDTH = 2

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.target: QWidget | None = None
        self._watched: list[QWidget] = []
        self.hide()
        QApplication.instance().focusChanged.connect(self._on_focus_changed)  # type: ignore[union-attr]

    def _on_focus_changed(self, _old, new: QWidget | None) -> None:
        for w in self._watched:
            try:
                w.removeEventFilter(self)
            except RuntimeError:  # already deleted
                pass
        self._watched = []
        window = self.parentWidget()
        if new is None or window is None or new.window() is not window:
            self.target = None
            self.hide()
            return
        self.target = new
        # The target and its ancestors: a scroll area moves its content, not
        # the focused widget itself.
        w: QWidget | None = new
        while w is not None and w is not window:
            w.installEventFilter(self)
            self._watched.append(w)
            w = w.parentWidget()
        self.follow()

    def follow(self) -> None:
        t = self.target
        window = self.parentWidget()
        if t is None or window is None or not t.isVisible():
            self.hide()
            return
        r = self.WIDTH
        ring = QRect(t.mapTo(window, QPoint(0, 0)), t.size()).adjusted(-r, -r, r, r)
        # Cut to what the ancestors show (a list scrolled half out of view).
        a = t.parentWidget()
        while a is not None and a is not window:
            ring &= QRect(a.mapTo(window, QPoint(0, 0)), a.size())
            a = a.parentWidget()
        if ring.isEmpty():
            self.hide()
            return
        self.setGeometry(ring)
        self.show()
        self.raise_()
        self.update()

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:  # noqa: N802 (Qt API)
        if e.type() in (
            QEvent.Type.Move,
            QEvent.Type.Resize,
            QEvent.Type.Show,
            QEvent.Type.Hide,
        ):
            self.follow()
        return False

    def paintEvent(self, _e) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), self.WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        p.setPen(pen)
        half = self.WIDTH // 2
        p.drawRect(self.rect().adjusted(half, half, -half, -half))


def reading_order(widgets: list[QWidget], root: QWidget) -> list[QWidget]:
    """``widgets`` as read: rows top to bottom, each row left to right. Widgets
    whose vertical centres are within half a height of each other share a row
    (a layout centres a check box and a combo box of one row alike)."""
    boxes = []
    for w in widgets:
        top_left = w.mapTo(root, QPoint(0, 0))
        boxes.append((top_left.y() + w.height() / 2, top_left.x(), w.height(), w))
    boxes.sort(key=lambda b: (b[0], b[1]))
    rows: list[list[tuple]] = []
    for b in boxes:
        last = rows[-1][-1] if rows else None
        if last is not None and abs(b[0] - last[0]) < min(b[2], last[2]) / 2:
            rows[-1].append(b)
        else:
            rows.append([b])
    return [b[3] for row in rows for b in sorted(row, key=lambda b: b[1])]


def _takes_tab(w: QWidget) -> bool:
    return (
        w.isVisible()
        and w.isEnabled()
        and w.focusProxy() is None
        and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)
    )


class PanelFocus:
    """Tab goes through the window's panels in a fixed order, each panel's
    stops in reading order; F6 jumps to the next panel.

    ``panels``: (name, root widgets) in order. Asked afresh on every key, so
    chips, facet search fields and the comparison dock come and go freely.
    """

    def __init__(
        self, window: QWidget, panels: Sequence[tuple[str, Sequence[QWidget]]]
    ):
        self.window = window
        self.panels = panels

    def stops(self) -> list[tuple[str, QWidget]]:
        out = []
        for name, roots in self.panels:
            for root in roots:
                if not root.isVisible():
                    continue
                found = [w for w in root.findChildren(QWidget) if _takes_tab(w)]
                if _takes_tab(root):
                    found.insert(0, root)
                out += [(name, w) for w in reading_order(found, root)]
        return out

    def _index(self, stops: list[tuple[str, QWidget]], w: QWidget | None) -> int:
        widgets = [s[1] for s in stops]
        while w is not None:
            if w in widgets:
                return widgets.index(w)
            w = w.parentWidget()
        return -1

    def panel_of(self, w: QWidget | None) -> str | None:
        stops = self.stops()
        i = self._index(stops, w)
        return stops[i][0] if i >= 0 else None

    def tab(self, forward: bool) -> bool:
        """Move to the next (or previous) stop; False if there is none."""
        stops = self.stops()
        if not stops:
            return False
        i = self._index(stops, QApplication.focusWidget())
        if i < 0:
            i = -1 if forward else 0
        _name, w = stops[(i + (1 if forward else -1)) % len(stops)]
        self._focus(w, forward)
        return True

    def cycle(self, forward: bool = True) -> None:
        """F6: the first stop of the next panel that has one."""
        stops = self.stops()
        if not stops:
            return
        names = list(dict.fromkeys(n for n, _ in stops))
        here = self._index(stops, QApplication.focusWidget())
        at = names.index(stops[here][0]) if here >= 0 else -1
        if here < 0 and not forward:
            at = 0
        target = names[(at + (1 if forward else -1)) % len(names)]
        self._focus(next(w for n, w in stops if n == target), True)

    @staticmethod
    def _focus(w: QWidget, forward: bool) -> None:
        reason = (
            Qt.FocusReason.TabFocusReason
            if forward
            else Qt.FocusReason.BacktabFocusReason
        )
        w.setFocus(reason)
        # In a scroll area (the filters), bring the stop into view.
        from PySide6.QtWidgets import QScrollArea

        a = w.parentWidget()
        while a is not None:
            if isinstance(a, QScrollArea):
                a.ensureWidgetVisible(w)
            a = a.parentWidget()
