"""ClaimsController: the claims audit, run off the GUI thread (it takes longer
than a frame), shown in
the Claims dock; choosing a claim selects the results it used in the table."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject

from ipubench_gui import paths
from ipubench_gui.domain.claims import Audit
from ipubench_gui.domain.filters import FilterState
from ipubench_gui.service import claims
from ipubench_gui.ui.controller import Controller
from ipubench_gui.ui.messages import Message

SLOT = "claims-audit"  # ("claims" is the comparator's vendor-claims tab)


class Say:
    """What the claims audit says (ui/messages.py): an undo step's name, and
    the status line when choosing a claim cleared the filters."""

    CHOOSE = Message("", "Choose claim {claim_id}")
    FILTERS_CLEARED = Message(
        "", "Filters cleared to show the results this claim was checked against"
    )


class ClaimsController(QObject):
    def __init__(self, main: Controller):
        super().__init__(main)
        self.main = main
        self.state, self.runner = main.state, main.runner
        self.port, self.results = main.port, main.results
        self.view = main.window.claims  # the Claims dock: this controller's
        self.audits: dict[str, Audit] = {}
        self.stored: frozenset[str] = frozenset()  # result ids the store holds
        self._asked = False
        self.view.claimChosen.connect(self.show_claim)
        main.window.claims_dock.visibilityChanged.connect(self._on_dock_visibility)

    def _on_dock_visibility(self, visible: bool) -> None:
        if visible:
            self.view.setFocus()  # reached from the keyboard: go there
            if not self._asked:
                self.refresh()

    def refresh(self) -> None:
        """Audit every claim on a worker thread; the view fills when done."""
        self._asked = True
        job = partial(claims.audit, data_dir=paths.data_dir())
        self.runner.submit(
            SLOT, job, on_done=self._on_audited, on_error=self._on_failed
        )

    def _on_failed(self, _slot: str, exc: Exception) -> None:
        self.view.show_error(str(exc))

    def _on_audited(self, result: claims.Audited) -> None:
        self.stored = result.stored
        self.audits = {a.claim_id: a for a in result.audits}
        self.view.show_audits(list(self.audits.values()))

    def show_claim(self, claim_id: str) -> None:
        """Explain the claim and select the stored results it used."""
        a = self.audits[claim_id]
        self.view.show_explanation(a.explain())
        ids = tuple(i for i in a.result_ids if i in self.stored)
        hidden = not all(self.results.holds(i) for i in ids)
        clear = hidden and not self.state.filters.is_empty()
        # one undo step: the user's filters come back with Ctrl+Z (said so)
        said = Say.FILTERS_CLEARED.text if clear else ""
        with self.state.step(Say.CHOOSE.with_(claim_id=claim_id).text, said):
            if clear:
                self.state.set_filters(FilterState())
        self.state.set_selection(ids)
        self.port.select(ids)
