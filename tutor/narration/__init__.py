"""Words above the facts: the one place the timeline's facts (tutor/cluster, which words none of
them) become text, in English or Korean. Nothing reads these words back: what a program needs
to know, it asks the facts.

- timeline.py: the timeline's facts as short lines.
"""

from tutor.narration.timeline import fact, timeline_lines

__all__ = ["fact", "timeline_lines"]
