"""Verdicts say what is wrong and where to look; the commands that solve a step belong to the
hints. Over every recording, in both languages, as the learner would read them while it plays."""

from __future__ import annotations

import re

import pytest

from tests.verdict_lines import ALL, lines

# What solves a step, typed: exec into a pod, a lookup, the failure, reading env or a UID out.
SOLVING = re.compile(r"kubectl |nslookup [a-z0-9-]+\.|touch /tmp/fail|env \| grep|jsonpath")
# Recovery instructions stay: how to do the step again after it was done wrong.
RECOVERY = ("To do the step again", "To prove it again", "다시 하려면", "다시 보이려면", "단계를 다시")


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_with_no_answer_written_no_verdict_names_a_solving_command(path, lang):
    said = [(n, line) for n, line in lines(str(path), lang, empty_workdir=True) if SOLVING.search(line)]
    assert not said, said[:5]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_a_command_in_a_verdict_is_only_a_way_back(path):
    said = [(n, line) for lang in ("en", "ko") for n, line in lines(str(path), lang)
            if SOLVING.search(line) and not any(r in line for r in RECOVERY)]
    assert not said, said[:5]


def test_the_scan_would_catch_one():
    assert SOLVING.search("Copy them from: kubectl exec -n infer llm-1-1 -- env | grep ^LWS_")
    assert SOLVING.search("then run nslookup llm-1.llm.infer.svc.cluster.local")
    assert not SOLVING.search("the whole output of a DNS lookup of llm-1.llm.infer.svc.cluster.local")
