"""How a command ends: its exit code, a usage error for the user to fix, or JSON on stdout.

The commands import these from here (not from tutor.cli), so cli -> commands is the only direction.
"""

from __future__ import annotations

import json
import sys

EXIT_OK, EXIT_NOT_PASSED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad input or an unusable setup: cli.main prints `lwstutor: <message>` and exits 2."""


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
