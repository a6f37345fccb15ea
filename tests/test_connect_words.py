"""Korean says as much as English about a kubeconfig that cannot be used: every fact the English
names (the path, the key, the entry, the line, the size, the system's reason) is in the Korean too.
A kubeconfig with no current-context said only "쿠버네티스 클라이언트가 이 설정을 쓰지 못했습니다"
in Korean, where English said which key was missing in which file."""

from __future__ import annotations

import re

import pytest

from tutor.cluster.connect import ConnectError
from tutor.narration.connecting import fixes, sentence

# What the kubernetes client says when it refuses a kubeconfig (kubernetes/config/kube_config.py),
# as it says it for a file named lab.yaml.
CLIENT_SAYS = [
    "Invalid kube-config file. Expected key current-context in lab.yaml",
    "Invalid kube-config file. Expected key server in lab.yaml/clusters/lab/cluster",
    "Invalid kube-config file. Expected object with name lab2 in lab.yaml/contexts list",
    "Invalid kube-config file. Expected only one object with name lab in lab.yaml/users list",
    "Invalid kube-config file. Expected all values in lab.yaml/clusters list to have 'name' key",
    "Invalid kube-config file. Expected lab.yaml/contexts to be a list",
    "Invalid kube-config file. No configuration found.",
    "Invalid kube-config. lab.yaml file is empty",
    "Service host/port is not set.",  # one it has no Korean of ours for: kept as it is
]

ERRORS = [
    ConnectError("not-given", kubeconfig="/srv/lab/config"),
    ConnectError("env-no-file", env="/srv/lab/config"),
    ConnectError("cannot-read", path="/srv/lab/config", errno=5, reason="Input/output error"),
    ConnectError("cannot-read", path="/srv/lab/config", errno=-2, reason="Name or service not known"),
    ConnectError("cannot-read", path="/srv/lab/config", errno=None, reason="odd failure"),
    ConnectError("directory", path="/srv/lab"),
    ConnectError("not-a-file", path="/srv/lab/fifo"),
    ConnectError("too-large", path="/srv/lab/config", size=123456789),
    ConnectError("unreadable", path="/srv/lab/config", mode=0o600, uid=0),
    ConnectError("k3s-unreadable", path="/etc/rancher/k3s/k3s.yaml", mode=0o600, uid=0),
    ConnectError("not-yaml", path="/srv/lab/config", line=7, problem="mapping values are not allowed here"),
    ConnectError("not-a-kubeconfig", path="/srv/lab/config"),
    ConnectError("no-context", label="/srv/lab/config", context="lab2"),
    ConnectError("client-failed", label="/srv/lab/config", error="bad certificate data"),
    *(ConnectError("client-refused", label="lab.yaml", error=said) for said in CLIENT_SAYS),
]
# A fact as the English names it: a word with a slash, a digit, an underscore or a $, or a dot
# or a dash inside it (a path, a key, a name, a number); the rest are the sentence's own words.
_FACT = re.compile(r"[/0-9_$]|\w[.-]\w")
# Words of the sentence that have such a sign and Korean says in Korean.
_NOT_FACTS = {"kube-config", "in-cluster", "UTF-8", "host/port", "Input/output"}


def english_facts(text: str) -> set[str]:
    words = (w.strip(".,;:()'\"").removesuffix("'s") for w in text.split())
    return {w for w in words if _FACT.search(w)} - _NOT_FACTS


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: f"{e.code}:{str(e.facts)[:60]}")
def test_the_korean_names_every_fact_the_english_names(error: ConnectError):
    en, ko = sentence(error, "en"), sentence(error, "ko")
    assert re.search("[가-힣]", ko), ko
    missing = sorted(f for f in english_facts(en) if f not in ko)
    assert not missing, f"{missing} are in {en!r} but not in {ko!r}"


@pytest.mark.parametrize("error", [e for e in ERRORS if fixes(e)], ids=lambda e: e.code)
def test_a_fix_is_a_command_whose_placeholder_is_in_the_learners_language(error: ConnectError):
    for fix in fixes(error):
        en, ko = (fix, fix) if isinstance(fix, str) else fix
        assert "<" not in en or re.search(r"<[^>]*[가-힣][^>]*>", ko), f"{ko!r}: its placeholder is English"
