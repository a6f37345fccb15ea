"""What the app owns beside its screens: the notices up, the lab check's worker, and where a
screenshot is saved."""
