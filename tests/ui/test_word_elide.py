"""Labels cut at word boundaries in the facet lists and the table, with the
full text in the tooltip."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QToolTip

from ipubench_gui.domain.text import ELLIPSIS
from ipubench_gui.ui.models.facet_model import VALUE_ROLE
from tests.ui.conftest import sql_ids

PACKED = "Ph1 Pre-Training (SL128) - Packed"  # a variant in data/results.csv


def _shown(view, index) -> tuple[str, str, int]:
    """(text drawn, tooltip, width available) for ``index`` as ``view`` lays it out."""
    opt = QStyleOptionViewItem()
    view.initViewItemOption(opt)
    opt.rect = view.visualRect(index)
    d = view.itemDelegateForIndex(index)
    return d.shown_text(opt, index), d.tooltip(opt, index), opt.rect.width()


def _whole_words(shown: str, full: str) -> None:
    """Every word drawn is a word of the full text, in its order; only the
    words between the kept head and tail are left out."""
    assert ELLIPSIS in shown and shown != full, shown
    head, _, tail = shown.partition(ELLIPSIS)
    assert full.startswith(head.strip()) and full.endswith(tail.strip()), shown
    for part in (head.split(), tail.split()):
        assert all(w in full.split() for w in part), (shown, full)


def _whole_parts(shown: str, full: str) -> None:
    """A bar's name cut by whole parts: every part drawn is a part of the
    full name, in its order, each run left out an "…"; or, where no part
    fits, whole words (``_whole_words``)."""
    assert ELLIPSIS in shown and shown != full, shown
    parts = full.split(" · ")
    kept = [p for p in shown.split(" · ") if p != ELLIPSIS]
    assert kept, (shown, full)  # something of its own, not "… · … · …"
    if all(p in parts for p in kept):
        assert [p for p in parts if p in kept] == kept, (shown, full)
    else:
        (word_cut,) = [p for p in kept if p not in parts]
        assert ELLIPSIS in word_cut, (shown, full)
        assert all(w in full.split() for w in word_cut.split() if w != ELLIPSIS)


def _tooltip_event(view, index) -> str:
    """The tooltip the view shows when the pointer rests on ``index``."""
    pos = view.visualRect(index).center()
    vp = view.viewport()
    QApplication.sendEvent(
        vp, QHelpEvent(QEvent.Type.ToolTip, pos, vp.mapToGlobal(QPoint(pos)))
    )
    return QToolTip.text()


# the offscreen platform cannot raise the tooltip's window; it shows all the same
@pytest.mark.scale
@pytest.mark.qt_log_ignore("does not support raise", extend=True)
def test_long_facet_values_show_whole_words_and_stay_apart(qtbot, session, db):
    """Three Lenovo A100 servers differ only at the end of their names: each
    keeps its last words and count, so the three read differently."""
    w = session.window
    w.resizeDocks([w.facet_dock], [1], Qt.Orientation.Horizontal)  # narrowest
    qtbot.waitUntil(lambda: w.facet_dock.width() < 300)
    box = w.facets.boxes["platform"]
    box.search.setText("SR670 V2 Server with")
    proxy = box.list.model()
    qtbot.waitUntil(lambda: proxy.rowCount() >= 3)
    seen = set()
    for r in range(proxy.rowCount()):
        ix = proxy.index(r, 0)
        platform, full = ix.data(VALUE_ROLE), ix.data()
        n = len(sql_ids(db, "platform = $p", {"p": platform}))
        assert full.endswith(f"({n})")
        shown, tip, width = _shown(box.list, ix)
        assert box.list.fontMetrics().horizontalAdvance(full) > width
        _whole_words(shown, full)
        assert shown.endswith(f"{platform.split()[-1]}  ({n})"), shown
        assert box.list.fontMetrics().horizontalAdvance(shown) <= width
        seen.add(shown)
        # the tooltip names the value whole, with its count explained
        assert tip.startswith(f"{platform}: {n} result(s)"), tip
        box.list.scrollTo(ix)
        assert _tooltip_event(box.list, ix) == tip
    assert len(seen) == proxy.rowCount()  # Qt's own elision made them one text


@pytest.mark.scale
@pytest.mark.qt_log_ignore("does not support raise", extend=True)
def test_a_long_table_cell_shows_whole_words_and_the_tooltip_all(qtbot, session, db):
    w = session.window
    table, m = w.table, w.model
    col = next(i for i, f in enumerate(m.fields) if f.name == "variant")
    table.setColumnWidth(col, table.fontMetrics().horizontalAdvance(PACKED) * 2 // 3)
    rid = sorted(sql_ids(db, "variant = $v", {"v": PACKED}))[0]
    row = m.row_of(rid)
    assert row is not None
    ix = m.index(row, col)
    table.scrollTo(ix)
    shown, tip, width = _shown(table, ix)
    _whole_words(shown, PACKED)
    assert shown.endswith("Packed"), shown  # what tells it from the unpacked row
    assert table.fontMetrics().horizontalAdvance(shown) <= width
    assert tip.splitlines()[0] == PACKED
    assert "Source" in tip or len(tip.splitlines()) > 1  # provenance still follows
    assert _tooltip_event(table, ix) == tip
    # wide enough, the cell is whole and the tooltip is the model's own
    table.setColumnWidth(col, table.fontMetrics().horizontalAdvance(PACKED) * 2)
    shown, tip, _ = _shown(table, ix)
    assert shown == PACKED and tip == ix.data(Qt.ItemDataRole.ToolTipRole)


def _bar_ticks(pi) -> list[tuple[int, str]]:
    return [(round(v), t) for level in pi.getAxis("left")._tickLevels for v, t in level]


@pytest.mark.scale
def test_chart_bar_labels_drop_whole_words(qtbot, session):
    """The window's bar labels, in a narrow window: shortened by whole parts,
    those most bars share first (was "EfficientNet-B4 · G16-Efficie…256 · …",
    then "BERT-Large · … · TensorRT · Offline" on nine bars)."""
    w = session.window
    w.resize(1280, 720)
    canvas = w.canvas
    qtbot.waitUntil(lambda: canvas.width() < 900)
    canvas._layout_categories()
    cats = canvas.drawn.categories
    ticks = _bar_ticks(canvas.item)
    cut = [(cats[i], t) for i, t in ticks if t != cats[i]]
    assert cut  # the narrow window shortens some
    for full, shown in cut:
        _whole_parts(shown, full)


@pytest.mark.scale
def test_exported_bar_labels_drop_whole_words(qapp, db):
    from ipubench_gui.charts.export import ExportOptions, bars_that_fit, compose
    from ipubench_gui.domain.plot_model import first_bars
    from tests.charts.test_export import _plot

    opts = ExportOptions(900, 720)
    # the rows the slide draws (cut to the bars that fit, rows renumbered)
    plot = first_bars(_plot(db, "throughput"), bars_that_fit(opts))
    # narrow: the labels do not fit even at the smallest body size (0.8x),
    # which an export tries before leaving words out
    w = compose(plot, opts)
    ticks = _bar_ticks(w.ci.getItem(2, 0))
    cut = [(plot.categories[i], t) for i, t in ticks if t != plot.categories[i]]
    assert cut
    for full, shown in cut:
        _whole_parts(shown, full)
    w.close()
