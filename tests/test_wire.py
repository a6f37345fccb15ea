"""The live path's JSON decoder reads what the stdlib json reads, the same way."""

from __future__ import annotations

import json

from hypothesis import given, strategies as st

from tutor.cluster.wire import decode
from tutor.demo import walkthrough

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


def test_the_walkthrough_decodes_as_with_the_stdlib():
    for line in walkthrough().read_text(encoding="utf-8").splitlines():
        if line.strip():
            assert decode(line) == json.loads(line)
            assert decode(line.encode()) == json.loads(line)


@given(json_values)
def test_any_json_value_decodes_as_with_the_stdlib(value):
    text = json.dumps(value)
    assert decode(text) == json.loads(text)


def test_what_the_fast_decoder_refuses_is_read_by_the_stdlib():
    for text in ('{"c": "\\ud800"}', '{"b": 1e400}', '{"a": 123456789012345678901234567890}'):
        assert decode(text) == json.loads(text)
