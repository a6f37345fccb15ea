"""What a step's recap shows of a story (tutor/cluster/story.py): the episode it is about, named
by the lesson (lesson.yaml's `story`), and that episode as short lines for its verdict."""

from __future__ import annotations

from tutor.cluster.story import Episode, Story


def recap(st: Story, lws: str, episode: str, group: int | None = None, failed: str = "") -> Episode | None:
    """The episode of one LWS's story a step is about (lesson.yaml's `story`): "recreation", the
    newest recreation of `group` after a failure (of the pod `failed` names, when there is one:
    the one the step fails); "rollout", the newest rolling update."""
    if episode == "recreation":
        eps = [e for e in st.of(lws, "failure", group) if any(line.kind == "recreate-group" for line in e.lines)]
        eps = [e for e in eps if e.failed == failed] or eps if failed else eps
    elif episode == "rollout":
        eps = st.of(lws, "rollout")
    else:
        return None
    return eps[-1] if eps else None


# The lines of an episode its brief keeps, by the episode's kind.
BRIEF_KINDS = {"failure": ("restarted", "recreate-group", "garbage-collected", "new-uid", "running-again"),
               "rollout": ("revision", "group-replaced", "mixed-revisions", "recreate-group", "rollout-done")}


def brief(episode: Episode, lang: str) -> list[str]:
    """An episode as short lines for a verdict: offset, what, and the cause of the key link."""
    out = []
    for line in episode.lines:
        if line.kind not in BRIEF_KINDS.get(episode.kind, ()):
            continue
        text = line.text(lang)
        if line.kind in ("recreate-group", "group-replaced") and line.cause:
            text += f" ← {line.because(lang)}"
        out.append(f"+{episode.offset(line):.2f}s {text}")
    return out
