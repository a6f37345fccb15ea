"""The class's two addresses: the learners' (`lwstutor --join URL`) and the instructor's, each
carrying its token in its path, so one line pasted is all either needs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

JOIN_PATH = re.compile(r"^(?P<prefix>.*)/c/(?P<token>[A-Za-z0-9_-]{16,128})/?$")


def learners(base: str, token: str) -> str:
    return f"{base}/c/{token}"


def instructor(base: str, token: str) -> str:
    return f"{base}/i/{token}"


@dataclass(frozen=True)
class JoinAddress:
    url: str   # the learners' address, as printed: requests go under it
    host: str  # host[:port], as the header names it

    @classmethod
    def parse(cls, url: str) -> "JoinAddress":
        """ValueError unless `url` is an http(s) learners' address (…/c/<token>)."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment \
                or not JOIN_PATH.match(parts.path):
            raise ValueError(url)
        return cls(url.strip().rstrip("/"), parts.netloc)
