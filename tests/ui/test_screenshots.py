"""The README's screenshots are made from the recording by `python -m tests.ui.screenshots`;
this fails when the committed SVGs no longer match what that command makes."""

from __future__ import annotations

from tests.ui.screenshots import OUT, SHOTS, shoot


async def test_screenshots_are_fresh():
    for name, moment, lang, size, keys in SHOTS:
        path = OUT / f"{name}.svg"
        assert path.exists(), f"{path} missing: run python -m tests.ui.screenshots"
        assert path.read_text() == await shoot(moment, lang, size, keys), \
            f"{path} is stale: run python -m tests.ui.screenshots"
