"""How a command ends: its exit code, an error for the user to fix, or JSON on stdout.

The commands import these from here (not from tutor.cli), so cli -> commands is the only direction.
"""

from __future__ import annotations

import json
import sys

EXIT_OK, EXIT_NOT_PASSED, EXIT_USAGE = 0, 1, 2
# `check`: no step asked for failed, waited or broke, but one at least cannot be confirmed (its
# evidence is gone, through no fault of the learner's). Not 0: nothing proved that answer; not
# 1: nothing is wrong with it either. A fresh answer makes it confirmable again.
EXIT_UNCONFIRMED = 3


class UsageError(Exception):
    """Bad input or an unusable setup: cli.main prints `lwstutor: <message>` in the learner's
    language (or, with --json, `{"error": {"kind", "message"}}` on stdout) and exits 2.

    kind names what failed, for a grader to match: usage, path, recording, kubeconfig, terminal, or the
    cluster failure's kind (refused, dns, tls, timeout, closed, unreachable, unauthorized,
    forbidden, http)."""

    def __init__(self, message: str, ko: str = "", kind: str = "usage",
                 fixes: tuple[str | tuple[str, str], ...] = ()):
        super().__init__(message)
        self.ko = ko
        self.kind = kind
        self.fixes = tuple(fixes)  # commands; one with a placeholder is (English, Korean)

    def text(self, lang: str) -> str:
        return self.ko if lang == "ko" and self.ko else str(self)

    def fixes_in(self, lang: str) -> list[str]:
        """The commands that fix it, their placeholders in `lang`."""
        return [f if isinstance(f, str) else f[1] if lang == "ko" else f[0] for f in self.fixes]

    def to_json(self, lang: str) -> dict:
        out: dict[str, object] = {"kind": self.kind, "message": self.text(lang)}
        if self.fixes:
            out["fixes"] = self.fixes_in(lang)
        return {"error": out}


def cluster_error(failure) -> UsageError:
    """A request to the API server failed (tutor.cluster.failure.Failure): exit 2, one line."""
    from tutor.narration.failures import both

    return UsageError(*both(failure), failure.kind)


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
