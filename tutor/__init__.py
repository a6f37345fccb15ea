"""lwstutor: a terminal tutor for LeaderWorkerSet that watches a real cluster."""

__version__ = "0.1.0"
