"""The Textual UI: the app, its screens and widgets, fed by the session's store and verdicts.

Frames: Textual draws at most TEXTUAL_FPS frames a second (60 unless set) and reads that once,
when it is first imported. A refresh that lands just after a frame waits for the next one, up to
1/60 s, on top of drawing it: 120 halves that wait (at 1,000 pods the reaction's p99 went from
about 76 to 57-60 ms; BENCHMARKS.md). Frames are still drawn only when something changed, so an
idle tutor draws none. A TEXTUAL_FPS the learner set wins.
"""

import os

os.environ.setdefault("TEXTUAL_FPS", "120")
