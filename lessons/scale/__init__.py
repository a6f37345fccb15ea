"""A second, small lesson: scaling a LeaderWorkerSet adds whole groups and leaves the others alone."""
