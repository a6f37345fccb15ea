"""Key moments of the walkthrough recording, found from its content (not hard-coded times)."""

from __future__ import annotations

from tests.states import event, file_written, recording, running
from tutor.cluster import objects as o


def first_t(pred, name: str = "walkthrough") -> float:
    return next(it.t for it in recording(name).items if pred(it))


def moments() -> dict[str, float]:
    rollout_started = first_t(event("Pod", "llm-1", "DELETED"))
    return {
        "start": first_t(file_written("lws.yaml")) - 0.001,
        "group0-recreated": first_t(file_written("lws.yaml", "VERSION")) - 0.001,
        "rollout-underway": first_t(lambda it: it.t > rollout_started and event(
            "Pod", "llm-1", where=lambda p: o.phase(p) == "Running")(it)),
        "wide-placed": first_t(running("wide-1-1")),
        "orphan-pending": recording("walkthrough").duration,
    }


STEP_OF = {"start": 1, "group0-recreated": 5, "rollout-underway": 6, "wide-placed": 7, "orphan-pending": 8}


async def show_moment(pilot, moment: str) -> None:
    """Once the replay has settled, shows the step the moment is about with its first hint,
    as a learner would, and clears the toasts so the picture is stable."""
    from tests.ui.settle import hint_in_view, settled

    await settled(pilot)
    await pilot.press(str(STEP_OF[moment]), "h")
    await hint_in_view(pilot, STEP_OF[moment], 1)
    pilot.app.clear_notifications()
    await pilot.pause()
