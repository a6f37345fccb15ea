"""The lab a lesson needs is the lesson's data (lesson.yaml `lab`, tutor/lesson/lab.py): the
loader reads it or says in one line what is malformed, and doctor checks the chosen lesson's
own nodes, GPUs, taints, API versions and feature gates. Doctor's calls are made for real, by
the kubernetes client, to a loopback server that answers as an API server would."""

from __future__ import annotations

import pytest
from kubernetes import client

from tests.test_kinds import ApiServer, _groups
from tutor import preflight
from tutor.lesson.lab import Lab, parse
from tutor.lesson.loader import LessonError, load

LWS_LAB = load("lws").lab
GENERIC_WORKLOAD_FLAGS = [
    "--kube-apiserver-arg=feature-gates=GenericWorkload=true",
    "--kube-apiserver-arg=runtime-config=scheduling.k8s.io/v1beta1=true",
    "--kube-scheduler-arg=feature-gates=GenericWorkload=true",
    "--kube-controller-manager-arg=feature-gates=GenericWorkload=true",
]


@pytest.fixture
def server():
    servers = []

    def make(**kw) -> ApiServer:
        servers.append(ApiServer(**kw))
        return servers[-1]
    yield make
    for s in servers:
        s.close()


def test_the_lws_lessons_lab_is_what_its_steps_use():
    assert LWS_LAB.gpu_node_gpus == 4 and LWS_LAB.fail_file == "/tmp/fail"
    fake = LWS_LAB.fake_nodes
    assert fake.names == ("gpu-a", "gpu-b") and fake.labels == {"type": "kwok"} and fake.gpus == 4
    assert str(fake.taint) == "kwok.x-k8s.io/node=fake:NoSchedule"
    assert (LWS_LAB.feature_gates, LWS_LAB.api_versions) == ((), ())


def test_a_lesson_whose_pods_need_no_gpu_names_no_nodes():
    assert load("scale").lab == Lab()


def _lesson(tmp_path, lab: str):
    (tmp_path / "lesson.yaml").write_text(f"id: t\nlanguages: [en]\nlab:\n{lab}steps: []\n")
    return load("t", tmp_path)


@pytest.mark.parametrize("lab, says", [
    ("  gpu_node: {gpus: many}\n", "lab.gpu_node.gpus is a whole number"),
    ("  gpu_node: {gpus: 0}\n", "lab.gpu_node.gpus is a whole number"),
    ("  gpus: 4\n", "lab: unknown key gpus"),
    ("  fake_nodes: {names: [a], taint: {key: k, value: v, effect: Sometimes}, gpus: 1}\n", "effect is one of"),
    ("  fake_nodes: {names: [a], gpus: 1}\n", "lab.fake_nodes.taint is"),
    ("  fake_nodes: {names: [], taint: {key: k, value: v, effect: NoSchedule}, gpus: 1}\n", "at least one node"),
    ("  api_versions: [scheduling.k8s.io]\n", "is not group/version"),
    ("  feature_gates: GenericWorkload\n", "lab.feature_gates is a list of names"),
    ("  pod_command: {fail_file: tmp/fail}\n", "lab.pod_command is {fail_file: /absolute/path}"),
])
def test_a_malformed_lab_is_one_line(tmp_path, lab, says):
    with pytest.raises(LessonError) as err:
        _lesson(tmp_path, lab)
    assert says in str(err.value) and "\n" not in str(err.value) and "lesson.yaml" in str(err.value)


def test_a_lab_block_reads_back_whole():
    lab = parse({"gpu_node": {"gpus": 2}, "feature_gates": ["GenericWorkload"],
                 "api_versions": ["scheduling.k8s.io/v1beta1"],
                 "fake_nodes": {"names": ["n1"], "labels": {"role": "fake"},
                                "taint": {"key": "fake/node", "value": "yes", "effect": "NoExecute"}, "gpus": 8}})
    assert lab.gpu_node_gpus == 2 and lab.fake_nodes.names == ("n1",) and lab.fake_nodes.gpus == 8
    assert lab.feature_gates == ("GenericWorkload",) and lab.api_versions == ("scheduling.k8s.io/v1beta1",)
    assert lab.fail_file == "" and parse(None) == Lab()


# --- doctor on the lesson's nodes -----------------------------------------------------------------
def _node(name: str, gpus: int, taints=(), labels=None, ready=True) -> dict:
    return {"metadata": {"name": name, "labels": labels or {}},
            "spec": {"taints": [dict(zip(("key", "value", "effect"), t)) for t in taints]},
            "status": {"allocatable": {"nvidia.com/gpu": str(gpus)},
                       "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}


def _nodes(api, lab: Lab, lang: str = "en"):
    return preflight._nodes(client.CoreV1Api(api.api_client), "nvidia.com/gpu", (2, 2), lang, lab)


def _node_list(*nodes) -> dict:
    return {"/api/v1/nodes": {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": list(nodes)}}


KWOK = ("kwok.x-k8s.io/node", "fake", "NoSchedule")


def test_doctor_checks_the_lessons_own_nodes_and_says_the_fix_with_its_facts(server):
    api = server(bodies=_node_list(_node("lab-server", 2), _node("gpu-a", 4, [KWOK], {"type": "kwok"}),
                                   _node("gpu-b", 1, [("other", "x", "NoSchedule")], {"type": "real"})))
    found = {f.id: f for f in _nodes(api, LWS_LAB)}
    assert list(found) == ["gpu-node", "node-gpu-a", "node-gpu-b"]
    assert not found["gpu-node"].ok and found["gpu-node"].title == "no untainted schedulable node with 4 nvidia.com/gpu"
    assert '"nvidia.com/gpu":"4"' in found["gpu-node"].fix[0] and "lab-server" in found["gpu-node"].fix[0]
    assert found["node-gpu-a"].ok and found["node-gpu-a"].title == "KWOK node gpu-a is ready"
    b = found["node-gpu-b"]
    assert not b.ok and b.detail == ("no label type=kwok; no taint kwok.x-k8s.io/node=fake:NoSchedule; "
                                     "1 nvidia.com/gpu allocatable, needs 4")
    assert b.fix[:2] == ["kubectl label node gpu-b type=kwok --overwrite",
                         "kubectl taint node gpu-b kwok.x-k8s.io/node=fake:NoSchedule"]


def test_a_missing_fake_node_gets_the_lessons_node_to_apply(server):
    lab = parse({"fake_nodes": {"names": ["n1"], "labels": {"role": "fake"},
                                "taint": {"key": "fake/node", "value": "yes", "effect": "NoExecute"}, "gpus": 8}})
    [missing] = _nodes(server(bodies=_node_list(_node("real", 8))), lab, "ko")
    assert not missing.ok and missing.title == "KWOK 노드 없음: n1"
    manifest = missing.fix[0]
    assert "labels: {role: fake, kubernetes.io/hostname: n1}" in manifest and "annotations: {fake/node: yes}" in manifest
    assert "taints: [{key: fake/node, value: yes, effect: NoExecute}]" in manifest and 'nvidia.com/gpu: "8"' in manifest


def test_a_lesson_that_needs_no_nodes_does_not_list_them(server):
    api = server()
    assert _nodes(api, load("scale").lab) == [] and api.asked == []


# --- doctor on the lesson's API versions and feature gates ---------------------------------------
GANG_LAB = parse({"feature_gates": ["GenericWorkload"], "api_versions": ["scheduling.k8s.io/v1beta1"]})


def _gated(api, lab: Lab, lang: str = "en"):
    return preflight._gated(api.api_client, (), (2, 2), lang, lab)


def test_an_api_version_not_served_gets_the_k3s_flags_that_turn_it_on(server):
    api = server(bodies={"/apis/": _groups("apps/v1", "scheduling.k8s.io/v1")})
    [off] = _gated(api, GANG_LAB)
    assert off.id == "served-scheduling.k8s.io/v1beta1" and not off.ok
    assert off.title == ("the API server does not serve scheduling.k8s.io/v1beta1: the GenericWorkload feature gate "
                         "and --runtime-config=scheduling.k8s.io/v1beta1=true are needed")
    assert off.fix[0].startswith("# start the k3s server with these flags") and off.fix[1:5] == GENERIC_WORKLOAD_FLAGS
    assert off.detail == ""  # no kind of the lesson to name: the title says it all
    [ko] = _gated(api, GANG_LAB, "ko")
    assert ko.title.startswith("API 서버가 제공하지 않음: scheduling.k8s.io/v1beta1.") and ko.fix[0].startswith("# k3s 서버를")
    assert ko.fix[1:5] == GENERIC_WORKLOAD_FLAGS


def test_a_served_api_version_leaves_the_gates_no_api_shows_marked(server):
    api = server(bodies={"/apis/": _groups("apps/v1", "scheduling.k8s.io/v1beta1")})
    served, gates = _gated(api, GANG_LAB)
    assert served.ok and served.title == "scheduling.k8s.io/v1beta1 is served"
    assert gates.ok and gates.warn and gates.mark == "!" and "GenericWorkload" in gates.title
    assert gates.fix[1:] == [GENERIC_WORKLOAD_FLAGS[0], *GENERIC_WORKLOAD_FLAGS[2:]]


def test_a_lesson_with_no_gates_asks_discovery_nothing(server):
    api = server()
    assert _gated(api, LWS_LAB) == [] and api.asked == []


def test_doctor_runs_the_chosen_lessons_own_checks(server, tmp_path):
    version = {"major": "1", "minor": "37", "gitVersion": "v1.37.2", "gitCommit": "0", "gitTreeState": "clean",
               "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.25", "compiler": "gc", "platform": "linux/amd64"}
    bodies = {"/version/": version, "/apis/": _groups("apps/v1"),
              **_node_list(_node("lab-server", 4), _node("gpu-a", 4, [KWOK], {"type": "kwok"}))}
    for lesson_id, want, unwanted in (("lws", {"gpu-node", "node-gpu-a", "node-gpu-b"}, {"feature-gates"}),
                                      ("scale", set(), {"gpu-node", "node-gpu-a", "node-gpu-b"})):
        lesson = load(lesson_id)
        api = server(bodies=bodies)
        found = {f.id: f for f in preflight.run(api.api_client, lesson.namespace, str(tmp_path), lesson.gpu_resource,
                                             reads=lesson.kinds, lab=lesson.lab)}
        assert found["cluster"].ok and want <= set(found) and not unwanted & set(found), (lesson_id, list(found))
        assert ("GET", "/api/v1/nodes") in api.asked if want else ("GET", "/api/v1/nodes") not in api.asked
    assert found["workdir"].ok
