"""The one way a test's wait fails (tests/waits.py): it names what it waited for, how long, and
the last value seen; it returns as soon as the condition holds; a negative wait fails at once."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from tests import waits


async def test_a_wait_that_runs_out_says_what_how_long_and_the_last_value():
    looks = []
    with pytest.raises(AssertionError) as exc:
        await waits.until(asyncio.sleep, lambda: looks.append(1), "the answer file", timeout=0.2,
                          seen=lambda: f"{len(looks)} looks")
    said = str(exc.value)
    assert re.fullmatch(r"waited \d+\.\d s for the answer file; the last seen: '\d+ looks'", said), said
    assert float(said.split()[1]) >= 0.2
    assert int(said.rsplit("'", 2)[1].split()[0]) == len(looks) >= 2  # read when the bound ran out


async def test_a_wait_returns_the_value_as_soon_as_it_holds():
    looks = []

    def cond():
        looks.append(1)
        return len(looks) >= 3 and "held"

    start = time.monotonic()
    assert await waits.until(asyncio.sleep, cond, "the third look") == "held"
    assert len(looks) == 3 and time.monotonic() - start < waits.MOMENT / 10


async def test_a_negative_wait_fails_at_the_first_look_that_breaks_it():
    looks = []

    def cond():
        looks.append(1)
        return len(looks) < 2

    with pytest.raises(AssertionError, match="no question asked no longer held"):
        await waits.still(asyncio.sleep, cond, "no question asked", spell=5)
    assert len(looks) == 2
