"""Which episode of a story (tutor/cluster/story.py) a step's recap is about, named by the lesson
(lesson.yaml's `story`). tutor/narration tells that episode as short lines for its verdict."""

from __future__ import annotations

from tutor.cluster.story import Episode, Story


def recap(st: Story, lws: str, episode: str, group: int | None = None, failed: str = "") -> Episode | None:
    """The episode of one LWS's story a step is about (lesson.yaml's `story`): "recreation", the
    newest recreation of `group` after a failure (of the pod `failed` names, when there is one:
    the one the step fails); "rollout", the newest rolling update; "gang-held" and "gang-placed", the
    newest gang of `group` held by the scheduler, and placed whole."""
    if episode == "recreation":
        eps = [e for e in st.of(lws, "failure", group) if any(line.kind == "recreate-group" for line in e.lines)]
        eps = [e for e in eps if e.failed == failed] or eps if failed else eps
    elif episode == "rollout":
        eps = st.of(lws, "rollout")
    elif episode in ("gang-held", "gang-placed"):
        eps = st.of(lws, episode, group)
    else:
        return None
    return eps[-1] if eps else None
