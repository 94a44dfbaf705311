"""A chart that takes long to draw is drawn over several turns of the event
loop (9 panels drawn anew over 1M rows held the GUI thread 270 ms):
the same chart as drawn at once, never shown half drawn, said once whole."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from ipubench_gui.charts.panels import draw_panels
from ipubench_gui.domain.chartspec import ChartSpec
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.domain.plots import build_plot
from ipubench_gui.service import browse

TORCH = FilterState().with_values("framework", ["PyTorch"])
TF = FilterState().with_values("framework", ["TensorFlow 1"])


def _plot(db, state: FilterState):
    spec = ChartSpec(kind="scaling")
    return build_plot(spec, browse.chart_data(db, state, spec))


def _canvas(qtbot, budget_ms: float):
    from ipubench_gui.ui.widgets.chart_canvas import ChartCanvas

    canvas = ChartCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1400, 900)
    canvas.show()
    canvas.steps.budget_ms = budget_ms
    return canvas


def _data(item) -> tuple:
    x, y = item.getData()
    return type(item).__name__, tuple(x), tuple(y)


def _seen(panels) -> list:
    """What each panel shows: its title, its legend's names, its items' data,
    its hits and its ranges."""
    return [
        (
            p.title,
            p.label.text,
            [label.text for _sample, label in p.legend.items],
            [_data(it) for it in p.drawn.series_items],
            [(h.result_id, h.x, h.y, h.tooltip) for h in p.drawn.hits],
            p.pi.getViewBox().targetRange(),
        )
        for p in panels
    ]


class PaintsWhileDrawing(QtCore.QObject):
    """Counts paints of a canvas's panels while its chart is not whole."""

    def __init__(self, canvas):
        super().__init__()
        self.canvas = canvas
        self.count = 0
        canvas.panels_view.viewport().installEventFilter(self)

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 (Qt API)
        if e.type() == QtCore.QEvent.Type.Paint and self.canvas.drawing():
            self.count += 1
        return False


def test_panels_drawn_over_several_turns_are_those_drawn_at_once(qtbot, db):
    """Each step in a turn of its own: the canvas shows the very panels a
    canvas drawing them at once shows, and ``draw_panels`` (exports) draws."""
    plot = _plot(db, TORCH)
    assert len(plot.panels) > 1
    stepped, at_once = _canvas(qtbot, 0.0), _canvas(qtbot, float("inf"))
    with qtbot.waitSignal(at_once.rendered, timeout=0):  # within render
        at_once.render(plot)
    turns = []
    stepped.steps.timer.timeout.connect(lambda: turns.append(stepped.drawing()))
    paints = PaintsWhileDrawing(stepped)
    with qtbot.waitSignal(stepped.rendered, timeout=20_000):
        stepped.render(plot)
        assert stepped.drawing()  # not drawn within render
    # a turn a new cell and a turn a panel's drawing, at least
    assert len(turns) >= 2 * len(plot.panels)
    assert paints.count == 0
    assert stepped.updatesEnabled()
    assert [p.title for p in stepped.panels] == list(plot.panels)
    assert _seen(stepped.panels) == _seen(at_once.panels)
    want = {q.result_id for s in plot.series for q in s.points if q.result_id}
    assert {h.result_id for h in stepped.drawn.hits if h.result_id} == want
    import pyqtgraph as pg

    from ipubench_gui.charts.theme import LIGHT

    grid = pg.GraphicsLayoutWidget()
    qtbot.addWidget(grid)
    exported = draw_panels(grid.ci, plot, LIGHT, 12.0)
    hits = [(h.result_id, h.x, h.y) for p in exported for h in p.drawn.hits]
    assert [(h.result_id, h.x, h.y) for h in stepped.drawn.hits] == hits


def test_a_render_replaced_part_way_leaves_no_step_of_the_old_chart(qtbot, db):
    """A new filter's chart while the last one is half drawn: what remains of
    the old drawing is dropped, the new chart is drawn whole in the same
    cells, said once, and no paint shows a mix of the two."""
    torch, tf = _plot(db, TORCH), _plot(db, TF)
    assert len(torch.panels) == len(tf.panels) > 1
    assert not set(torch.panels) & set(tf.panels)
    canvas, at_once = _canvas(qtbot, 0.0), _canvas(qtbot, float("inf"))
    at_once.render(torch)
    at_once.render(tf)  # the same cells, redrawn in place
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(tf)
    paints = PaintsWhileDrawing(canvas)
    said = []
    canvas.rendered.connect(lambda: said.append(canvas.current))
    canvas.render(torch)
    # some of torch's panels drawn into tf's cells, then tf again
    qtbot.waitUntil(lambda: canvas._cells[0].title == torch.panels[0])
    assert canvas.drawing()
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(tf)
    assert said == [tf]
    assert paints.count == 0
    assert _seen(canvas.panels) == _seen(at_once.panels)
    QtCore.QCoreApplication.processEvents()
    assert said == [tf]  # nothing of torch's drawing is left to run


def test_one_plot_replacing_panels_part_way_drops_their_steps(qtbot, db):
    """Panels half drawn, then a chart of one plot (itself drawn in steps,
    then made ready to paint): said once, when whole, and the panels'
    remaining steps never run."""
    torch = _plot(db, TORCH)
    one = _plot(db, FilterState().with_values("model", ["GPT-2"]))
    assert torch.panels and not one.panels
    canvas = _canvas(qtbot, 0.0)
    said = []
    canvas.rendered.connect(lambda: said.append(canvas.current))
    canvas.render(torch)
    qtbot.waitUntil(lambda: len(canvas._cells) > 1)
    assert canvas.drawing()
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(one)
        assert canvas.drawing()  # a step a turn at a budget of 0 ms
    assert said == [one] and not canvas.drawing()
    steps = []
    canvas.steps.timer.timeout.connect(lambda: steps.append(1))
    for _ in range(3 * len(torch.panels)):
        QtCore.QCoreApplication.processEvents()
    assert said == [one] and steps == []
    assert canvas.panels == [] and canvas.plot.isVisible()
    assert not canvas.panels_scroll.isVisible() and canvas.updatesEnabled()


@pytest.mark.parametrize("budget_ms", [0.0, float("inf")])
def test_rendered_once_a_render_and_the_selection_shown_once_whole(
    qtbot, db, budget_ms
):
    """One ``rendered`` for each render, whether drawn at once or not; a
    selection set while drawing is ringed once the chart is whole."""
    plot = _plot(db, TORCH)
    canvas = _canvas(qtbot, budget_ms)
    said = []
    canvas.rendered.connect(lambda: said.append(canvas.current))
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(plot)
    target = next(q.result_id for s in plot.series for q in s.points if q.result_id)
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(plot, afresh=True)
        canvas.set_selection((target,))
        # rings drawn over a half-drawn chart would be of the old one
        assert canvas._highlights == [] or not canvas.drawing()
    assert said == [plot, plot]
    holder = next(
        p for p in canvas.panels if any(h.result_id == target for h in p.drawn.hits)
    )
    hit = next(h for h in holder.drawn.hits if h.result_id == target)
    [(pi, ring)] = canvas._highlights
    assert pi is holder.pi and ring in pi.items
    assert [tuple(a) for a in ring.getData()] == [(hit.x,), (hit.y,)]


def test_a_chart_drawn_over_turns_is_ready_to_paint_as_its_paint_would_make_it(
    qtbot, db
):
    """Drawn over turns, a chart's axes' draw specs are worked out in a step
    before its paint (which then only draws), and are those its paint works
    out itself."""
    canvas = _canvas(qtbot, 0.0)
    for plot in (
        _plot(db, TORCH),
        _plot(db, FilterState().with_values("model", ["GPT-2"])),
    ):
        with qtbot.waitSignal(canvas.rendered, timeout=20_000):
            canvas.render(plot)
        items = [p.pi for p in canvas.panels] or [canvas.item]
        axes = [pi.getAxis(n) for pi in items for n in ("left", "bottom")]
        ahead = [a.picture for a in axes]
        assert all(ahead), "axes left to the paint"
        for a in axes:
            a.picture = None
        canvas.grab()  # painted: each axis works its specs out itself
        assert [a.picture for a in axes] == ahead


@pytest.mark.parametrize("first_panels", [True, False])
def test_a_chart_drawn_over_turns_leaves_its_scenes_nothing_queued_when_whole(
    qtbot, session, first_panels
):
    """In the window, from panels to the one plot and back, drawn over turns:
    when the chart is said whole, both chart scenes have handled their
    changed items (``changed``) within its steps. At d54c032 the one plot's
    scene still held changes then (an axis widened by its new tick labels
    relaid the plot out after the steps), handled after them in one stall
    with the paint: at 1M rows the hidden view's scene painted the window at
    once and the shown one's then worked its items' bounds out again."""
    w = session.window
    panels = FilterState()
    one = FilterState().with_values("model", ["GPT-2"])
    before, after = (panels, one) if first_panels else (one, panels)
    w.canvas.steps.budget_ms = 0.0  # every chart over turns, as at 1M rows
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_chart(session.state.chart.with_(kind="scaling"))
        session.state.set_filters(before)
    assert bool(w.canvas.panels) == first_panels
    for _ in range(5):
        QtCore.QCoreApplication.processEvents()
    scenes = [v.scene() for v in (w.canvas.plot, w.canvas.panels_view)]
    changed: list[int] = []
    for k, scene in enumerate(scenes):
        scene.changed.connect(lambda _rects, k=k: changed.append(k))
    queued: list[int] = []

    def whole() -> None:  # what the scenes still held queued when said whole
        seen = len(changed)
        for scene in scenes:
            QtCore.QCoreApplication.sendPostedEvents(scene, QtCore.QEvent.Type.MetaCall)
        queued.extend(changed[seen:])

    w.canvas.rendered.connect(whole)
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_filters(after)
        assert w.canvas.drawing()
    assert bool(w.canvas.panels) != first_panels
    assert changed  # the new chart's items did change...
    assert queued == []  # ...and were handled within its steps


class Resizes(QtCore.QObject):
    """Sizes a widget is given."""

    def __init__(self, widget):
        super().__init__()
        self.sizes: list[tuple[int, int]] = []
        widget.installEventFilter(self)

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 (Qt API)
        if e.type() == QtCore.QEvent.Type.Resize:
            self.sizes.append(e.size().toTuple())
        return False


@pytest.mark.scale
@pytest.mark.parametrize("budget_ms", [0.0, float("inf")])
def test_panels_that_bring_a_scroll_bar_are_drawn_for_the_width_it_leaves(
    qtbot, session, budget_ms
):
    """From the one plot to panels taller than the window (their grid
    scrolls): the panels are drawn for the view's width beside the scroll
    bar, and the view is not resized once they are whole. It was, by the
    bar's width, in a queued call of the scroll area: every axis then worked
    its draw specs out again in the paint."""
    w = session.window
    w.canvas.steps.budget_ms = budget_ms
    bar = w.canvas.panels_scroll.verticalScrollBar()
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_chart(session.state.chart.with_(kind="scaling"))
        session.state.set_filters(TORCH)  # panels that fit: no bar
    for _ in range(5):
        QtCore.QCoreApplication.processEvents()
    assert w.canvas.panels and not bar.isVisible()
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_filters(FilterState().with_values("model", ["GPT-2"]))
    assert not w.canvas.panels
    for _ in range(5):
        QtCore.QCoreApplication.processEvents()
    view = w.canvas.panels_view
    widths: list[int] = []
    after: list[Resizes] = []
    w.canvas.rendered.connect(lambda: widths.append(view.width()))
    w.canvas.rendered.connect(lambda: after.append(Resizes(view)))
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        session.state.set_filters(FilterState())
    for _ in range(5):
        QtCore.QCoreApplication.processEvents()
    assert w.canvas.panels and bar.isVisible()  # the grid scrolls
    viewport = w.canvas.panels_scroll.viewport()
    assert widths == [viewport.width()] == [view.width()]
    assert after[0].sizes == []  # not resized once whole (was: by the bar's 14 px)


GPT2 = FilterState().with_values("model", ["GPT-2"])
BERT = FilterState().with_values("model", ["BERT-Large"])


def _one_plot(canvas) -> tuple:
    """What the one plot shows: its legend's names, its series items' data,
    its hits, its ranges and every item it shows, by type (items hidden are
    spares an earlier drawing left for the next, ``Drawn.spares``)."""
    drawn = canvas.drawn
    return (
        [label.text for _sample, label in canvas.legend.items],
        [_data(it) for it in drawn.series_items],
        [(h.result_id, h.x, h.y, h.tooltip) for h in drawn.hits],
        canvas.item.getViewBox().targetRange(),
        sorted(type(it).__name__ for it in canvas.item.items if it.isVisible()),
    )


def test_one_plot_drawn_a_look_a_turn_is_the_plot_drawn_at_once(qtbot, db):
    """At a budget of 0 ms the one plot is drawn a look (one item) a turn,
    then its legend, labels and axes: the very plot drawn at once."""
    plot = _plot(db, BERT)
    assert not plot.panels
    stepped, at_once = _canvas(qtbot, 0.0), _canvas(qtbot, float("inf"))
    with qtbot.waitSignal(at_once.rendered, timeout=0):  # within render
        at_once.render(plot)
    looks = len(at_once.drawn.series_items)
    assert looks > 8
    turns = []
    stepped.steps.timer.timeout.connect(lambda: turns.append(1))
    with qtbot.waitSignal(stepped.rendered, timeout=20_000):
        stepped.render(plot)
        assert stepped.drawing()
    assert len(turns) > looks
    assert _one_plot(stepped) == _one_plot(at_once)


def test_one_plot_replaced_part_way_holds_the_new_chart_only(qtbot, db):
    """A chart replaced while the one plot is half drawn over another (some
    items of the last chart updated, some made anew): the new chart is drawn
    over it, holding what a plot drawn at once holds, not one item more."""
    gpt, bert = _plot(db, GPT2), _plot(db, BERT)
    at_once = _canvas(qtbot, float("inf"))
    for plot in (gpt, bert, gpt):
        at_once.render(plot)
    canvas = _canvas(qtbot, 0.0)
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(gpt)
    gpt_looks = len(canvas.drawn.series_items)
    assert len(_plot_looks(bert)) > gpt_looks + 2
    said, part_way = [], []

    def replace_on(turn: int) -> None:
        if len(part_way) < turn and canvas.current is bert:
            part_way.append(len(canvas._plot_drawn.series_items))
            if len(part_way) == turn:  # more items placed than gpt had
                canvas.render(gpt)

    canvas.steps.timer.timeout.connect(lambda: replace_on(gpt_looks + 2))
    canvas.rendered.connect(lambda: said.append(canvas.current))
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(bert)
    assert said == [gpt]
    assert part_way[-1] > gpt_looks  # items made anew for bert, then dropped
    assert _one_plot(canvas) == _one_plot(at_once)


def _plot_looks(plot) -> set:
    from ipubench_gui.charts.builders import _look

    return {_look(s) for s in plot.series if s.points}


def test_one_plot_drawn_over_turns_is_painted_once_when_whole(session, qtbot):
    """In the window, a filter change whose one plot is drawn over many turns:
    the plot is not painted until it is whole, then painted once."""
    from functools import partial

    from PySide6.QtWidgets import QApplication

    w = session.window
    session.state.set_chart(session.state.chart.with_(kind="scaling"))
    session.state.set_filters(GPT2)
    qtbot.waitUntil(lambda: not w.canvas.drawing())
    QApplication.processEvents()  # painted
    w.canvas.steps.budget_ms = 0.0
    paints = {"drawing": 0, "whole": 0}

    class Paints(QtCore.QObject):
        def eventFilter(self, obj, e) -> bool:  # noqa: N802 (Qt API)
            if e.type() == QtCore.QEvent.Type.Paint:
                paints["drawing" if w.canvas.drawing() else "whole"] += 1
            return False

    counter = Paints()
    w.canvas.plot.viewport().installEventFilter(counter)
    turns = []
    w.canvas.steps.timer.timeout.connect(lambda: turns.append(1))
    with qtbot.waitSignal(w.canvas.rendered, timeout=20_000):
        QtCore.QTimer.singleShot(0, partial(session.state.set_filters, BERT))
    QApplication.processEvents()  # and painted
    assert len(turns) > len(_plot_looks(w.canvas.current))
    assert paints == {"drawing": 0, "whole": 1}
    assert [label.text for _s, label in w.canvas.legend.items]  # BERT's


def test_panels_stay_shown_until_the_one_plot_replacing_them_is_drawn(qtbot, db):
    """From panels to the one plot drawn over turns: at every turn one of the
    two is shown, the panels until the plot is drawn. Hidden in the first
    step, the panels left the window's background in their place while the
    plot was drawn (seen frame by frame under Xvfb over a large store)."""
    torch, one = _plot(db, TORCH), _plot(db, BERT)
    canvas = _canvas(qtbot, 0.0)
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(torch)
    shown = []

    def note() -> None:
        if canvas.drawing():
            shown.append((canvas.panels_scroll.isVisible(), canvas.plot.isVisible()))

    canvas.steps.timer.timeout.connect(note)
    with qtbot.waitSignal(canvas.rendered, timeout=20_000):
        canvas.render(one)
    panels, plot = (True, False), (False, True)
    # a step a look, then the axes (the legend is placed once it is laid out)
    assert shown.count(panels) >= len(_plot_looks(one))  # while it is drawn
    assert shown == [panels] * shown.count(panels) + [plot] * shown.count(plot)


def test_steps_resume_the_widget_even_if_their_end_raises(qtbot):
    """TurnSteps runs ``on_done`` while the widget is still held, then
    resumes it: an ``on_done`` that raises must not leave it held (it would
    show its last picture for good)."""
    from PySide6.QtWidgets import QWidget

    from ipubench_gui.ui.widgets.turns import TurnSteps

    w = QWidget()
    qtbot.addWidget(w)
    steps = TurnSteps(w, budget_ms=0.0)
    held: list[bool] = []

    def done() -> None:
        held.append(not w.updatesEnabled())
        raise RuntimeError("on_done failed")

    steps.start(iter([1, 2]), lambda _v: None, done)
    assert steps.running() and not w.updatesEnabled()  # over turns, held
    with pytest.raises(RuntimeError, match="on_done failed"):
        steps.finish()
    assert held == [True]  # on_done ran while held...
    assert w.updatesEnabled() and not steps.running()  # ...and it was resumed
