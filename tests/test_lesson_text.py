"""What every lesson's text owes the learner besides the steps: an intro that names every key of
the tutor (the app's BINDINGS), and, in each step's recap, a link to the LWS or Kubernetes page
that says more, and the source of what it says LWS, the scheduler or the kubelet does (an HTML
comment citing the code, which the lesson pane does not show; tests/test_fact_sources.py finds it)."""

from __future__ import annotations

import re

import pytest

from tutor.lesson.loader import available, load

SHOWN = {"question_mark": "?", "escape": "esc", "right": "→", "left": "←"}
DOCS = re.compile(r"\]\((https://(?:lws\.sigs\.k8s\.io/docs/|kubernetes\.io/(?:[a-z]{2}/)?docs/)[^)]*)\)")
SOURCE = re.compile(r"<!-- source: [a-z0-9.-]+\.[a-z]+(?:/[\w.-]+)*@v\S+ [\w./-]+ ")  # tests/fact_sources.py


def keys() -> set[str]:
    """Every key the app binds, as an intro writes it (`?`, `esc`, `→`), the digits as one."""
    from tutor.ui.bindings.keys import KEYS

    out = set()
    for b in KEYS:
        for key in b.key.split(","):
            out.add("digit" if key.isdigit() else SHOWN.get(key, key))
    return out | {"ctrl+p"}


def missing_keys(intro: str) -> set[str]:
    named = set(re.findall(r"`([^`]+)`", intro))
    return {k for k in keys() if (k == "digit" and "1" not in named) or (k != "digit" and k not in named)}


@pytest.mark.parametrize("name", available())
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_intro_names_every_key(name, lang):
    assert not missing_keys(load(name).intro[lang]), sorted(missing_keys(load(name).intro[lang]))


@pytest.mark.parametrize("name,step,lang", [(n, s, lang) for n in available() for s in load(n).steps
                                            for lang in load(n).languages], ids=lambda v: getattr(v, "id", v))
def test_each_recap_links_its_docs_and_notes_its_sources(name, step, lang):
    recap = step.text(lang).recap
    assert DOCS.search(recap), f"{name} {step.id} ({lang}): no link to an LWS or Kubernetes doc"
    assert SOURCE.search(recap), f"{name} {step.id} ({lang}): no source noted"


def test_the_scans_would_catch_one():
    old_intro = "- `n` / `p` or arrows\n- `1`–`8`\n- `h`\n- `r`\n- `tab`; `z` (`esc`)\n- `g`\n- `t`\n- `l`\n- `?`\n" \
                "- `ctrl+p`\n- `q`"
    assert {"s", "w", "x"} <= missing_keys(old_intro)
    assert not DOCS.search("See [the docs](https://example.com/docs/).")
    assert DOCS.search("See [DNS](https://kubernetes.io/ko/docs/concepts/services-networking/dns-pod-service/).")
    assert not SOURCE.search("LWS deletes the leader.") and SOURCE.search(
        "LWS deletes the leader.<!-- source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/pod_controller.go «x» -->")
    assert not SOURCE.search("LWS deletes the leader.<!-- source: kubernetes-sigs/lws pkg/controllers/pod_controller.go -->")
