"""Words above the facts: the one place the cluster's facts (tutor/cluster, which words none of
them) become text, in English or Korean, for the timeline screen, the verdicts and recaps,
`check --json`, the header, doctor and the commands' errors. Nothing reads these words back:
what a program needs to know, it asks the facts.

- story_words.py: a story line, its cause, an episode's title;
- timeline_words.py: the timeline's facts as short lines;
- recap.py: an episode told short (the brief) and as `check --json` entries;
- failures.py: a failed request to the API server, as a sentence and in a few words;
- connecting.py: which kubeconfig is used and why, or why no cluster could be used, and the fixes;
- recording_errors.py: a recording that cannot be read;
- absent_kinds.py: a kind the cluster does not serve.
"""

from tutor.narration.recap import brief, brief_items, entries, offset, with_cause
from tutor.narration.story_words import because, seconds, span, title, what
from tutor.narration.timeline_words import fact, restart_detail, timeline_lines

__all__ = ["because", "brief", "brief_items", "entries", "fact", "offset", "restart_detail", "seconds", "span", "timeline_lines",
           "title", "what", "with_cause"]
