"""The lab a lesson needs (lesson.yaml `lab:`): the facts doctor checks and the checkers read,
kept with the lesson so the engine names none of them. Shape:

    lab:
      gpu_node: {gpus: 4}                  # an untainted schedulable node with at least this many GPUs
      fake_nodes:                          # KWOK nodes the lesson needs (may be absent)
        names: [gpu-a, gpu-b]
        labels: {type: kwok}
        taint: {key: kwok.x-k8s.io/node, value: fake, effect: NoSchedule}
        gpus: 4
      feature_gates: []                    # doctor says which k3s flags turn them on
      api_versions: []                     # doctor asks discovery for them
      pod_command: {fail_file: /tmp/fail}  # the lesson's convention for failing a pod, if it has one
"""

from __future__ import annotations

from dataclasses import dataclass

EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str

    def __str__(self) -> str:  # as kubectl taint writes it
        return f"{self.key}={self.value}:{self.effect}"

    def on(self, node) -> bool:
        """Whether a node (the client's V1Node, as doctor reads it) carries this taint."""
        return any((t.key, t.value, t.effect) == (self.key, self.value, self.effect) for t in node.spec.taints or [])


@dataclass(frozen=True)
class FakeNodes:
    names: tuple[str, ...]
    labels: dict[str, str]
    taint: Taint
    gpus: int


@dataclass(frozen=True)
class Lab:
    gpu_node_gpus: int | None = None  # gpu_node.gpus: None when the lesson needs no GPU node
    fake_nodes: FakeNodes | None = None
    feature_gates: tuple[str, ...] = ()
    api_versions: tuple[str, ...] = ()
    fail_file: str = ""  # pod_command.fail_file: "" when the lesson has no such convention


NONE = Lab()


def parse(raw: object) -> Lab:
    """The `lab:` block, or ValueError with one line saying what is malformed."""
    if raw is None:
        return NONE
    if not isinstance(raw, dict):
        raise ValueError("lab is a mapping (gpu_node, fake_nodes, feature_gates, api_versions, pod_command)")
    unknown = set(raw) - {"gpu_node", "fake_nodes", "feature_gates", "api_versions", "pod_command"}
    if unknown:
        raise ValueError(f"lab: unknown key {', '.join(sorted(unknown))}")
    gpu_node = raw.get("gpu_node")
    gpus = None
    if gpu_node is not None:
        if not isinstance(gpu_node, dict):
            raise ValueError("lab.gpu_node is {gpus: N}")
        gpus = _count(gpu_node.get("gpus"), "lab.gpu_node.gpus")
    command = raw.get("pod_command")
    if command is not None and (not isinstance(command, dict) or not isinstance(command.get("fail_file"), str)
                                or not command["fail_file"].startswith("/")):
        raise ValueError("lab.pod_command is {fail_file: /absolute/path}")
    return Lab(gpu_node_gpus=gpus, fake_nodes=_fake_nodes(raw.get("fake_nodes")),
               feature_gates=_words(raw.get("feature_gates"), "lab.feature_gates"),
               api_versions=_api_versions(raw.get("api_versions")),
               fail_file=command["fail_file"] if command else "")


def _count(raw: object, where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
        raise ValueError(f"{where} is a whole number of GPUs, at least 1")
    return raw


def _words(raw: object, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) and x and " " not in x for x in raw):
        raise ValueError(f"{where} is a list of names")
    return tuple(raw)


def _api_versions(raw: object) -> tuple[str, ...]:
    out = _words(raw, "lab.api_versions")
    bad = [gv for gv in out if gv.count("/") != 1]
    if bad:
        raise ValueError(f"lab.api_versions: {bad[0]} is not group/version (scheduling.k8s.io/v1beta1)")
    return out


def _fake_nodes(raw: object) -> FakeNodes | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValueError("lab.fake_nodes is a mapping (names, labels, taint, gpus)")
    names = _words(raw.get("names"), "lab.fake_nodes.names")
    if not names:
        raise ValueError("lab.fake_nodes.names lists at least one node")
    labels = raw.get("labels") or {}
    if not isinstance(labels, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
        raise ValueError("lab.fake_nodes.labels is a mapping of label to value")
    taint = raw.get("taint")
    if not isinstance(taint, dict) or not all(isinstance(taint.get(k), str) and taint.get(k)
                                              for k in ("key", "value", "effect")):
        raise ValueError("lab.fake_nodes.taint is {key: K, value: V, effect: NoSchedule}")
    if taint["effect"] not in EFFECTS:
        raise ValueError(f"lab.fake_nodes.taint.effect is one of {', '.join(EFFECTS)}")
    return FakeNodes(names, dict(labels), Taint(taint["key"], taint["value"], taint["effect"]),
                     _count(raw.get("gpus"), "lab.fake_nodes.gpus"))
