"""The LeaderWorkerSet lab: lesson.yaml, the steps in markdown, and the checkers (checks/)."""
