"""The served tutor's Textual driver: textual's own web driver, which also notes that the app
started (so tutor/served_tab.py knows whether a failure came before the tutor's first frame) and clears the
server's record of a tutor that could not start (this one did).

tutor/served_tab.py names it in TEXTUAL_DRIVER, the variable textual-serve sets to pick textual's web driver.
"""

from __future__ import annotations

import os

from textual.drivers.web_driver import WebDriver

started = False
failure_file = ""  # set by tutor/served_tab.py: where a tutor that cannot start says why


class ServedDriver(WebDriver):
    def start_application_mode(self) -> None:
        global started
        started = True
        if failure_file:
            try:
                os.unlink(failure_file)
            except OSError:
                pass
        super().start_application_mode()
