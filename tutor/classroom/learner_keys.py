"""The learner keys a tutor was given, kept beside its progress: a tutor started again rejoins
under its name with its key instead of being refused the name it had. One small JSON file,
{"<class address> <name>": {"learner", "key"}}, written whole (temp file and rename)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


class KeyBook:
    def __init__(self, path: Path | None):
        self.path = path  # None: keys are kept for this run only (tests)
        self._mem: dict[str, dict[str, str]] = {}

    def _read(self) -> dict[str, dict[str, str]]:
        if self.path is None:
            return self._mem
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return raw if isinstance(raw, dict) else {}

    def get(self, address: str, name: str) -> tuple[str, str]:
        """(learner id, key), or ("", "") when this tutor never joined there under that name."""
        entry = self._read().get(f"{address} {name}")
        if not isinstance(entry, dict):
            return "", ""
        return str(entry.get("learner", "")), str(entry.get("key", ""))

    def put(self, address: str, name: str, learner: str, key: str) -> None:
        book = self._read()
        book[f"{address} {name}"] = {"learner": learner, "key": key}
        if self.path is None:
            self._mem = book
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".class-keys-", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(book, fh)
            os.chmod(tmp, 0o600)  # a key speaks for the learner: theirs alone to read
            os.replace(tmp, self.path)
        except OSError:
            pass  # kept for this run; a restart then needs another --name
