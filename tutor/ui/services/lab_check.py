"""The lab check at start: the doctor's preflight run in a worker, its findings in the lesson's
panel, said again in the new language when the learner switches."""

from __future__ import annotations

from textual.app import App

from tutor.session import Session
from tutor.ui.messages import DoctorDone
from tutor.ui.step_page import Page
from tutor.ui.widgets.doctor_panel import DoctorPanel


class LabCheck:
    def __init__(self, app: App, session: Session, page: Page):
        self.app, self.session, self.page = app, session, page
        self._client = None  # the API client the preflight ran with, to ask again

    def run(self, api_client, again: bool = False) -> None:
        """The preflight makes a few dozen API calls: in a thread. Its findings are said in the
        language of the moment."""
        from tutor.preflight import run

        self._client = api_client

        def work() -> None:
            s = self.session
            try:
                findings = run(api_client, s.lesson.namespace, s.workspace.workdir, s.lesson.gpu_resource, lang=s.lang,
                               reads=s.lesson.kinds, lab=s.lesson.lab)
            except Exception:  # noqa: BLE001 - the preflight is advice; the watches report real trouble
                return
            self.app.post_message(DoctorDone(findings, again))

        self.app.run_worker(work, name="doctor", group="doctor", thread=True, exit_on_error=False)

    def done(self, panel: DoctorPanel, message: DoctorDone) -> bool:
        """Shows the findings; True when the panel came up (the footer then offers x)."""
        if message.again and not panel.display:  # hidden (x) while it was asked again
            return False
        return panel.show(message.findings, *self.page.doctor_words())

    def relabel(self, panel: DoctorPanel) -> None:
        """The panel in the new language: its border now, its findings once asked again (a notice
        kept in it stays as it was said)."""
        if not panel.display:
            return
        panel.label(*(self.page.doctor_words() if panel.has_findings else self.page.notes_words()))
        if panel.has_findings and self._client is not None:
            self.run(self._client, again=True)
