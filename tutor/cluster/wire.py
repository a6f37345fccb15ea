"""JSON as the API server sends it (watch lines, list bodies), decoded on the source threads.

msgspec decodes a watched pod about 2.5 times faster than the stdlib json, and that decoding
shares one GIL with the UI while a burst of watch events arrives. It gives the same dicts,
lists, strings and numbers (integers of any size stay exact). Text it refuses (a lone surrogate
escape, a number beyond a double) goes to the stdlib json, which reads such lines as before.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_decoder = msgspec.json.Decoder()


def decode(data: bytes | str) -> Any:
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        return json.loads(data)
