"""A time with its precision, and the comparisons that allow for it.

The cluster keeps some times to the microsecond (an LWS event's eventTime, what the tutor saw on
its own clock) and some only to the second (creationTimestamp, deletionTimestamp, a core Event's
lastTimestamp, a recording's started_at). A time known to the second may be off by up to SLACK
either way against a precise one, so "before" and "after" have a sure and a maybe form. Every
comparison that allows for the second is one of these, instead of a slack added at each site.
"""

from __future__ import annotations

from dataclasses import dataclass

SLACK = 1.0  # seconds: the resolution of the cluster's whole-second timestamps


class Timed:
    """For anything with `at` (wall-clock seconds since the epoch) and `precise`."""

    __slots__ = ()
    at: float
    precise: bool

    @property
    def slack(self) -> float:
        return 0.0 if self.precise else SLACK

    @property
    def earliest(self) -> float:
        return self.at - self.slack

    @property
    def latest(self) -> float:
        return self.at + self.slack

    def maybe_before(self, t: float) -> bool:
        """It may have happened at or before t."""
        return self.earliest <= t

    def maybe_after(self, t: float) -> bool:
        """It may have happened at or after t."""
        return self.latest >= t

    def surely_after(self, t: float) -> bool:
        return self.earliest > t

    def surely_before(self, t: float) -> bool:
        return self.latest < t

    def within(self, start: float, end: float | None) -> bool:
        """It may have happened between start and end (None: still open)."""
        return self.maybe_after(start) and (end is None or self.maybe_before(end))


def maybe_in_order(first: Timed, then: Timed) -> bool:
    """`first` may have come at or before `then`: a second of slack when either is known only to
    the second (not two when both are: each is within the same whole second of the truth)."""
    return first.at <= then.at + (0.0 if first.precise and then.precise else SLACK)


@dataclass(frozen=True)
class Instant(Timed):
    at: float
    precise: bool = True
