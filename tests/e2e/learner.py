"""A scripted learner: does each lab step the way a person would in their shell.

It writes the answer files into the workdir and applies YAML with the lab's own kubectl (built
from the same Kubernetes version as the control plane). Every wait is on a condition read from
the cluster, never a fixed sleep. On the real node (the default lab) steps 3, 4 and 5 run the
lab's literal commands: `kubectl exec ... -- env`, `... -- nslookup NAME`, `... -- touch
/tmp/fail`. Only on the KWOK-only lab (LAB_NODE=kwok), whose pods run no containers, are their
outputs reproduced from the pod spec and the failure imitated by a status patch.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path

import yaml

from tests.e2e.labcluster.lab import Lab, fail_container

NS = "infer"
GPU = "nvidia.com/gpu"
FAIL_LOOP = "while [ ! -f /tmp/fail ]; do sleep 1; done; exit 1"
# The lab's loop ignores SIGTERM, so each old pod waits out its 30 s grace period: what the
# recordings and test_real_node are about, and most of a lab run's time everywhere else. With
# prompt_stop the learner's manifests stop within a second of SIGTERM instead.
PROMPT_FAIL_LOOP = "trap 'exit 0' TERM; " + FAIL_LOOP
KWOK_TOLERATION = {"key": "kwok.x-k8s.io/node", "operator": "Equal", "value": "fake", "effect": "NoSchedule"}
EXCLUSIVE = "leaderworkerset.sigs.k8s.io/exclusive-topology"


def container(name: str, gpus: int | None = 1, env: dict | None = None) -> dict:
    c = {"name": name, "image": "busybox:1.36", "command": ["sh", "-c", FAIL_LOOP]}
    if gpus:
        c["resources"] = {"limits": {GPU: gpus}}
    if env:
        c["env"] = [{"name": k, "value": v} for k, v in env.items()]
    return c


def lws(name: str, replicas: int, leader: dict, worker: dict, annotations: dict | None = None,
        leader_extra: dict | None = None, worker_extra: dict | None = None) -> dict:
    meta = {"name": name, "namespace": NS}
    if annotations:
        meta["annotations"] = annotations
    return {
        "apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "metadata": meta,
        "spec": {"replicas": replicas, "leaderWorkerTemplate": {
            "size": 2, "restartPolicy": "RecreateGroupOnPodRestart",
            "leaderTemplate": {"spec": {"containers": [leader], **(leader_extra or {})}},
            "workerTemplate": {"spec": {"containers": [worker], **(worker_extra or {})}},
        }},
    }


def llm(version: str | None = None) -> dict:
    env = {"VERSION": version} if version else None
    return lws("llm", 2, container("leader", env=env), container("worker", env=env))


def wide(annotation_on_template: bool = False) -> dict:
    extra = {"tolerations": [KWOK_TOLERATION], "nodeSelector": {"type": "kwok"}}
    ann = {EXCLUSIVE: "kubernetes.io/hostname"}
    obj = lws("wide", 2, container("leader"), container("worker"),
              annotations=None if annotation_on_template else ann, leader_extra=extra, worker_extra=extra)
    if annotation_on_template:
        for t in ("leaderTemplate", "workerTemplate"):
            obj["spec"]["leaderWorkerTemplate"][t]["metadata"] = {"annotations": ann}
    return obj


def orphan() -> dict:
    return lws("orphan", 1, container("leader", gpus=None), container("worker"))


LLM_PODS_ALL = ("llm-0", "llm-0-1", "llm-1", "llm-1-1")
# The scale lesson's LWS: one group of three pods, no GPU, a container that stops when told to.
SOLO_CMD = "trap 'exit 0' TERM; while :; do sleep 1 & wait; done"


def solo() -> dict:
    c = {"name": "solo", "image": "busybox:1.36", "command": ["sh", "-c", SOLO_CMD]}
    return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
            "metadata": {"name": "solo", "namespace": NS},
            "spec": {"replicas": 1, "leaderWorkerTemplate": {"size": 3, "workerTemplate": {"spec": {"containers": [c]}}}}}


def stopping_promptly(obj):
    """The same manifest(s) with every container running the lab's loop told to stop on SIGTERM."""
    if isinstance(obj, list):
        return [stopping_promptly(x) for x in obj]
    out = json.loads(json.dumps(obj))
    for t in (out.get("spec", {}).get("leaderWorkerTemplate") or {}).values():
        for c in (t.get("spec", {}).get("containers") or []) if isinstance(t, dict) else []:
            if c.get("command") == ["sh", "-c", FAIL_LOOP]:
                c["command"] = ["sh", "-c", PROMPT_FAIL_LOOP]
    return out


class Learner:
    def __init__(self, lab: Lab, workdir: Path, prompt_stop: bool = False):
        self.lab = lab
        self.workdir = workdir
        self.prompt_stop = prompt_stop  # the manifests stop on SIGTERM (see PROMPT_FAIL_LOOP)
        workdir.mkdir(parents=True, exist_ok=True)

    # --- shell-like helpers ------------------------------------------------------------------
    def write(self, name: str, text: str) -> Path:
        """Writes an answer file the way an editor does: to a temp name, then renamed."""
        path = self.workdir / name
        tmp = path.with_name(f".{name}.swp")
        tmp.write_text(text)
        tmp.replace(path)
        return path

    def apply(self, obj: dict | list, file: str | None = None) -> None:
        if self.prompt_stop:
            obj = stopping_promptly(obj)
        text = yaml.safe_dump_all(obj if isinstance(obj, list) else [obj], sort_keys=False)
        if file:
            self.lab.kubectl("apply", "-f", str(self.write(file, text)))
        else:
            self.lab.kubectl("apply", "-f", "-", input=text)

    def delete(self, kind: str, name: str) -> None:
        self.lab.kubectl("delete", kind, name, "-n", NS, "--ignore-not-found", "--wait=true", timeout=180)

    def reset(self) -> None:
        """Deletes every LWS and waits until their pods are gone, so GPUs are free again. Between
        tests, not as a learner would: real pods whose `sh -c` loop ignores SIGTERM would each wait
        out their 30 s grace period, so their deletion is shortened to 1 s."""
        self.lab.kubectl("delete", "leaderworkersets", "--all", "-n", NS, "--wait=false", timeout=180)

        def no_pods() -> bool:  # again while the StatefulSets still recreate what was deleted
            pods = self.get("pods")["items"]
            if not pods:
                return True
            self.lab.kubectl("delete", "pods", "--all", "-n", NS, "--grace-period=1", "--wait=false", timeout=60)
            # A pod a test left Terminating (LWS recreating its group, say) keeps the 30 s it was
            # given: the kubelet does not shorten a kill under way. Its object is removed instead;
            # the kubelet still stops its container, and nothing of the next test depends on it.
            dying = [p["metadata"]["name"] for p in pods if p["metadata"].get("deletionTimestamp")]
            if dying:
                self.lab.kubectl("delete", "pods", *dying, "-n", NS, "--grace-period=0", "--force",
                                 "--ignore-not-found", "--wait=false", timeout=60, check=False)
            return False
        self.wait("namespace empty of pods", no_pods)
        self.wait("no LeaderWorkerSet left", lambda: not self.get("leaderworkersets")["items"])

    def get(self, kind: str, name: str | None = None, selector: str | None = None) -> dict | None:
        args = ["get", kind, "-n", NS, "-o", "json"]
        if name:
            args.insert(2, name)
        if selector:
            args += ["-l", selector]
        res = self.lab.kubectl(*args, check=False)
        if res.returncode != 0:
            if "NotFound" in res.stderr or "not found" in res.stderr:
                return None
            raise RuntimeError(res.stderr)
        return json.loads(res.stdout)

    def pod(self, name: str) -> dict | None:
        return self.get("pod", name)

    def wait(self, what: str, cond, timeout: float = 180, seen=None) -> object:
        """Polls a condition on the cluster until it holds."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = cond()
            except RuntimeError:
                last = None
            if last:
                return last
            time.sleep(0.25)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}" + (f"; last seen: {seen()}" if seen else ""))

    def running(self, *names: str):
        def cond():
            pods = [self.pod(n) for n in names]
            ok = all(p and p["status"].get("phase") == "Running" and not p["metadata"].get("deletionTimestamp")
                     for p in pods)
            return pods if ok else None

        def seen() -> str:  # what the pods were, for a failure that says more than "timed out"
            def one(n: str) -> str:
                p = self.pod(n)
                if not p:
                    return f"{n}: absent"
                cond = next((c for c in p["status"].get("conditions", []) if c.get("type") == "PodScheduled"), {})
                return (f"{n}: {p['status'].get('phase')}" + (" terminating" if p["metadata"].get("deletionTimestamp") else "")
                        + f" on {p['spec'].get('nodeName') or 'no node'}"
                        + (f" ({cond.get('reason')}: {cond.get('message')})" if cond.get("status") == "False" else ""))
            return ", ".join(one(n) for n in names)
        return self.wait(f"{', '.join(names)} Running", cond, seen=seen)

    # --- the lab steps -----------------------------------------------------------------------
    LLM_PODS = LLM_PODS_ALL

    def step1(self) -> None:
        self.apply(llm(), "lws.yaml")
        self.running(*self.LLM_PODS)

    def step2(self, swap: bool = False) -> str:
        lines = []
        for name in self.LLM_PODS:
            labels = self.pod(name)["metadata"]["labels"]
            g = labels["leaderworkerset.sigs.k8s.io/group-index"]
            w = labels["leaderworkerset.sigs.k8s.io/worker-index"]
            if swap:
                g, w = w, g
            lines.append(f"pod={name} group={g} worker={w}")
        text = "\n".join(lines) + "\n"
        self.write("names.txt", text)
        return text

    def exec(self, pod: str, *cmd: str, check: bool = True):
        """`kubectl exec -n infer POD -- CMD...` in the pod's real container."""
        return self.lab.kubectl("exec", "-n", NS, pod, "--", *cmd, check=check, timeout=60)

    def exec_env(self, pod: str) -> str:
        """`kubectl exec POD -- env | grep ^LWS_`."""
        if self.lab.real_node:
            return "".join(line + "\n" for line in self.exec(pod, "env").stdout.splitlines()
                           if line.startswith("LWS_"))
        # KWOK-only lab: no container to ask; the same lines from the spec the webhook wrote.
        env = self.pod(pod)["spec"]["containers"][0].get("env") or []
        return "".join(f"{e['name']}={e.get('value', '')}\n" for e in env if e["name"].startswith("LWS_"))

    def step3(self) -> str:
        text = self.exec_env("llm-1-1")
        self.write("env.txt", text)
        return text

    def nslookup(self, name: str, ok: bool = True) -> str:
        """`kubectl exec llm-1-1 -- nslookup NAME`: what busybox prints (both streams, as a
        terminal shows them; a failed lookup exits non-zero)."""
        if self.lab.real_node:
            res = self.exec("llm-1-1", "nslookup", name, check=False)
            return res.stdout + res.stderr
        # KWOK-only lab: busybox's answer as it prints it, from cluster DNS at 10.43.0.10.
        head = "Server:\t\t10.43.0.10\nAddress:\t10.43.0.10:53\n\n"
        if not ok:
            return head + f"** server can't find {name}: NXDOMAIN\n\n"
        ip = self.pod("llm-1")["status"]["podIP"]
        return head + f"\nName:\t{name}\nAddress: {ip}\n\n"

    def step4(self, short: bool = False) -> str:
        name = "llm-1" if short else "llm-1.llm.infer.svc.cluster.local"
        text = self.nslookup(name, ok=not short)
        self.write("dns.txt", text)
        return text

    def uids(self) -> tuple[str, str]:
        return self.pod("llm-0")["metadata"]["uid"], self.pod("llm-1")["metadata"]["uid"]

    def write_restart(self, g0: str, g1: str) -> None:
        self.write("restart.txt", f"group0_before={g0}\ngroup1_before={g1}\n")

    def fail(self, pod: str) -> None:
        """`kubectl exec POD -- touch /tmp/fail`: the container's loop sees the file and exits 1."""
        if self.lab.real_node:
            self.exec(pod, "touch", "/tmp/fail")
        else:  # KWOK-only lab: no container; imitate the restart in the pod status
            fail_container(self.lab, pod, NS)

    def fail_worker(self) -> tuple[str, str]:
        """`kubectl exec llm-0-1 -- touch /tmp/fail`; waits until group 0 is rebuilt and Running
        again (on the real node: the container exits 1, the kubelet restarts it, LWS recreates
        the group, the old pods stay Terminating for their grace period)."""
        g0, g1 = self.uids()
        self.fail("llm-0-1")
        self.wait("llm-0 recreated", lambda: (p := self.pod("llm-0")) and p["metadata"]["uid"] != g0)
        self.running("llm-0", "llm-0-1")
        return g0, g1

    def step5(self) -> None:
        self.write_restart(*self.uids())
        self.fail_worker()

    def step6(self, worker_only: bool = False) -> None:
        obj = llm("v2")
        if worker_only:
            del obj["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"]["containers"][0]["env"]
        self.apply(obj, "lws.yaml")
        if not worker_only:
            self.wait_rolled()

    def wait_rolled(self, env_on: tuple[str, ...] = LLM_PODS_ALL) -> None:
        def done():
            o = self.get("leaderworkerset", "llm")
            st = o.get("status", {})
            avail = any(c["type"] == "Available" and c["status"] == "True" for c in st.get("conditions", []))
            return st.get("updatedReplicas") == 2 and avail
        self.wait("llm rolled out", done, timeout=300)
        self.wait("llm pods on v2", lambda: all(
            (p := self.pod(n)) and p["status"].get("phase") == "Running" and not p["metadata"].get("deletionTimestamp")
            and any(e.get("name") == "VERSION" for e in p["spec"]["containers"][0].get("env", []))
            for n in env_on), timeout=300)
        self.running(*self.LLM_PODS)

    def step7(self, annotation_on_template: bool = False) -> None:
        self.apply(wide(annotation_on_template), "wide.yaml")
        self.running("wide-0", "wide-0-1", "wide-1", "wide-1-1")

    def scheduler_reason(self, pod: str) -> str:
        def cond():
            p = self.pod(pod)
            c = next((c for c in p["status"].get("conditions", []) if c["type"] == "PodScheduled"), None)
            return c and c["status"] == "False" and c.get("message")
        return self.wait(f"{pod} unschedulable", cond)

    def step8(self) -> str:
        self.apply(orphan(), "orphan.yaml")
        self.running("orphan-0")
        msg = self.scheduler_reason("orphan-0-1")
        self.write("partial.txt", msg + "\n")
        return msg


# --- whole scenarios: the walkthrough and the wrong turns (the e2e tests and the recorder) -------

def walkthrough(ln: Learner) -> None:
    ln.step1()
    ln.step2()
    ln.step3()
    ln.step4()
    ln.step5()
    ln.step6()
    ln.step7()
    ln.step8()


def wrong_annotation(ln: Learner) -> None:
    """The exclusive-topology annotation on the pod templates instead of the LWS metadata."""
    ln.step1()
    ln.apply(wide(annotation_on_template=True), "wide.yaml")
    ln.wait("wide pods created", lambda: all(ln.pod(p) for p in ("wide-0", "wide-1")))


def restart_after_failure(ln: Learner) -> None:
    """restart.txt written after the failure: group0_before is already the new UID."""
    ln.step1()
    ln.fail_worker()
    ln.write_restart(*ln.uids())


def dns_short_name(ln: Learner) -> None:
    ln.step1()
    ln.step3()
    ln.step4(short=True)


def names_swapped(ln: Learner) -> None:
    ln.step1()
    ln.step2(swap=True)


def orphan_without_llm(ln: Learner) -> None:
    """orphan created while llm is deleted: the real node has free GPUs and the worker schedules."""
    ln.step1()
    ln.delete("lws", "llm")
    ln.wait("llm pods gone", lambda: not any(ln.pod(p) for p in ln.LLM_PODS))
    ln.apply(orphan(), "orphan.yaml")
    ln.running("orphan-0", "orphan-0-1")


def version_worker_only(ln: Learner) -> None:
    """VERSION=v2 added to the worker template only."""
    ln.step1()
    ln.step6(worker_only=True)
    ln.wait_rolled(env_on=("llm-0-1", "llm-1-1"))


def one_hex_off(uid: str) -> str:
    """The UID with its last hex digit changed: a typo."""
    return uid[:-1] + ("0" if uid[-1] != "0" else "1")


def uid_typo(ln: Learner) -> None:
    """restart.txt with one hex digit of llm-0's UID mistyped, then the worker failed."""
    ln.step1()
    g0, g1 = ln.uids()
    ln.write_restart(one_hex_off(g0), g1)
    ln.fail_worker()


def uid_made_up(ln: Learner) -> None:
    """restart.txt with a UID llm-0 never had, then the worker failed."""
    ln.step1()
    ln.write_restart(str(uuid.UUID(int=uuid.UUID(ln.uids()[0]).int ^ (1 << 127 | 0xBEEF))), ln.uids()[1])
    ln.fail_worker()


def both_workers_failed(ln: Learner) -> None:
    """restart.txt written right, then both workers failed one right after the other: llm-1-1
    fails while group 0 is still being recreated."""
    ln.step1()
    g0, g1 = ln.uids()
    ln.write_restart(g0, g1)
    # Two shells: llm-1-1 fails while group 0 is still being recreated.
    other = threading.Thread(target=ln.fail, args=("llm-1-1",))
    other.start()
    ln.fail("llm-0-1")
    other.join()

    def both_new():
        now = [ln.pod(n) for n in ("llm-0", "llm-1")]
        return all(now) and now[0]["metadata"]["uid"] != g0 and now[1]["metadata"]["uid"] != g1
    ln.wait("both groups recreated", both_new)
    ln.running(*ln.LLM_PODS)


def group1_failed_after_step5(ln: Learner) -> None:
    """Step 5 done right, then llm-1-1 failed too as soon as group 0 was back."""
    ln.step1()
    ln.step5()
    g1 = ln.uids()[1]
    ln.fail("llm-1-1")
    ln.wait("llm-1 recreated", lambda: (p := ln.pod("llm-1")) and p["metadata"]["uid"] != g1)
    ln.running(*ln.LLM_PODS)


def leader_failed(ln: Learner) -> None:
    """restart.txt written right, then the leader llm-0 failed instead of the worker llm-0-1
    (`kubectl exec llm-0 -- touch /tmp/fail`): LWS recreates group 0 all the same."""
    ln.step1()
    g0, g1 = ln.uids()
    ln.write_restart(g0, g1)
    ln.fail("llm-0")
    ln.wait("llm-0 recreated", lambda: (p := ln.pod("llm-0")) and p["metadata"]["uid"] != g0)
    ln.running("llm-0", "llm-0-1")


def recreate_events(ln: Learner, group: int) -> list[dict]:
    """RecreateGroup events about the llm that exists now (not one deleted before)."""
    uid = ln.get("leaderworkerset", "llm")["metadata"]["uid"]
    events = ln.get("events")["items"]
    return [e for e in events if e.get("reason") in ("RecreateGroup", "RecreateGroupOnPodRestart")
            and (e.get("involvedObject") or e.get("regarding") or {}).get("uid") == uid
            and f"recreate group {group}" in (e.get("message") or e.get("note") or "")]


def rollout_recreating_group1(ln: Learner, tries: int = 12) -> None:
    """Steps 1, 5 and 6 done right, repeated until LWS itself emits RecreateGroup for group 1
    during the rollout (it does in about 1 of 8 rollouts: lws-facts.md, "Observed")."""
    for attempt in range(tries):
        if attempt:
            ln.reset()
        ln.step1()
        ln.step5()
        ln.step6()
        if recreate_events(ln, 1):
            return
    raise AssertionError(f"no rollout of {tries} emitted RecreateGroup for group 1")


def scale_walkthrough(ln: Learner) -> None:
    """The scale lesson (lessons/scale), both steps, as its hints say."""
    ln.apply(solo(), "solo.yaml")
    ln.running("solo-0", "solo-0-1", "solo-0-2")
    ln.write("group0.txt", f"solo-0={ln.pod('solo-0')['metadata']['uid']}\n")
    ln.lab.kubectl("scale", "lws", "solo", "-n", NS, "--replicas=2")
    ln.running("solo-1", "solo-1-1", "solo-1-2")


# --- the gang lesson (lessons/gang): native gang scheduling, PodGroup scheduling.k8s.io/v1beta1 ----

PODGROUP_API = "scheduling.k8s.io/v1beta1"
GANG_CONDITION = "PodGroupInitiallyScheduled"


def podgroup(name: str, min_count: int) -> dict:
    return {"apiVersion": PODGROUP_API, "kind": "PodGroup", "metadata": {"name": name, "namespace": NS},
            "spec": {"schedulingPolicy": {"gang": {"minCount": min_count}}}}


def in_gang(obj: dict, leader: str | None, worker: str | None) -> dict:
    """The LWS with its templates' pods put into PodGroups (None: that template names none)."""
    for t, name in (("leaderTemplate", leader), ("workerTemplate", worker)):
        if name:
            obj["spec"]["leaderWorkerTemplate"][t]["spec"]["schedulingGroup"] = {"podGroupName": name}
    return obj


def big() -> dict:
    """One group of three: a leader with no GPU, two workers with one each, no toleration."""
    obj = lws("big", 1, container("leader", gpus=None), container("worker"))
    obj["spec"]["leaderWorkerTemplate"]["size"] = 3
    return in_gang(obj, "big-0", "big-0")


class GangLearner(Learner):
    """The gang lesson's steps, as its hints say, in /root/gsb-gang's stand-in."""

    ORPHAN = ("orphan-0", "orphan-0-1")

    def condition(self, pg: str) -> dict:
        obj = self.get("podgroup", pg) or {}
        return next((c for c in obj.get("status", {}).get("conditions", []) if c.get("type") == GANG_CONDITION), {})

    def message(self, pod: str) -> str:
        p = self.pod(pod) or {}
        c = next((c for c in p.get("status", {}).get("conditions", []) if c.get("type") == "PodScheduled"), {})
        return c.get("message", "") if c.get("status") == "False" else ""

    def api(self) -> None:
        self.write("api.txt", self.lab.kubectl("api-resources", "--api-group=scheduling.k8s.io").stdout)

    def clear(self) -> None:
        self.delete("leaderworkerset", "orphan")
        self.wait("orphan's pods gone", lambda: not self.get("pods", selector="leaderworkerset.sigs.k8s.io/name=orphan")["items"])

    def make_podgroup(self, min_count: int = 2) -> None:
        self.apply(podgroup("orphan-0", min_count), "orphan-pg.yaml")

    def gang(self, leader: str | None = "orphan-0", worker: str | None = "orphan-0") -> None:
        self.apply(in_gang(orphan(), leader, worker), "orphan.yaml")
        self.wait("orphan's pods", lambda: all(self.pod(n) for n in self.ORPHAN))

    def held(self) -> None:
        """Waits for the scheduler's verdict on the gang, then saves its condition's message."""
        msg = self.wait("orphan-0 unschedulable", lambda: (c := self.condition("orphan-0")).get("status") == "False"
                        and c.get("message"))
        self.wait("each pod's reason", lambda: all(self.message(n) for n in self.ORPHAN))
        self.write("gang.txt", msg)

    def blocker(self) -> None:
        group = self.condition("orphan-0").get("message", "")
        pod = next(n for n in self.ORPHAN if group not in self.message(n))
        self.write("blocker.txt", f"{pod}\n{self.message(pod)}")

    def make_room(self) -> None:
        """Scales llm to one group; orphan lands once llm-1's GPU is free, and llm-1-1 (which waits
        out its grace period) gives back the last GPU a little later: step 7 counts on that one."""
        self.lab.kubectl("scale", "lws", "llm", "-n", NS, "--replicas=1")
        self.running(*self.ORPHAN)
        self.wait("orphan-0 scheduled", lambda: self.condition("orphan-0").get("status") == "True")
        self.wait("llm's group 1 gone", lambda: not any(self.pod(n) for n in ("llm-1", "llm-1-1")), timeout=120)

    def no_fit(self) -> None:
        self.apply([podgroup("big-0", 3), big()], "big.yaml")
        self.wait("big-0 unschedulable", lambda: self.condition("big-0").get("status") == "False")

    # --- what the verdicts' advice asks for, one move each (tests/e2e/test_gang_advice.py) ------
    def outside_gang(self) -> list[dict]:
        """orphan's pods that name no PodGroup (the LWS lab's half group), Terminating or not."""
        pods = self.get("pods", selector="leaderworkerset.sigs.k8s.io/name=orphan")["items"]
        return [p for p in pods if not p["spec"].get("schedulingGroup")]

    def rolled_into_gang(self) -> None:
        """After orphan.yaml is applied over the LWS lab's orphan (an edit in place): waits until
        LWS's group rolling update has made both pods again, each in the gang. The old ones may
        still be Terminating."""
        self.wait("orphan's pods remade in the gang", lambda: all(
            (p := self.pod(n)) and p["spec"].get("schedulingGroup") and not p["metadata"].get("deletionTimestamp")
            for n in self.ORPHAN), timeout=120)

    def reapply(self, file: str) -> None:
        """`kubectl apply -f FILE` on the answer file as it is now."""
        self.lab.kubectl("apply", "-f", str(self.workdir / file))

    def delete_podgroup(self, name: str = "orphan-0") -> None:
        """`kubectl delete podgroup NAME`: returns once it is gone (its finalizer waits for the
        pods that name it)."""
        self.delete("podgroup", name)
        self.wait(f"PodGroup {name} gone", lambda: self.get("podgroup", name) is None)

    def scale_llm(self, groups: int) -> None:
        """`kubectl scale lws llm --replicas=N`, then waits for llm's pods to be all Running (or
        the removed group's pods gone)."""
        self.lab.kubectl("scale", "lws", "llm", "-n", NS, f"--replicas={groups}")
        if groups >= 2:
            self.running(*self.LLM_PODS)
        else:
            self.wait("llm's group 1 gone", lambda: not any(self.pod(n) for n in ("llm-1", "llm-1-1")), timeout=120)


def end_of_lws_lab(ln: Learner, orphan_grace: bool = False) -> None:
    """Where the gang lesson starts: llm (2 groups of 2) holds lab-server's 4 GPUs and orphan is
    half placed, as at the end of the LWS lab (its steps 1 and 8, in its own workdir). With
    orphan_grace, orphan runs the lab's own loop, which ignores SIGTERM: its leader waits out its
    30 s grace period when deleted, as a learner's does."""
    lws_lab = Learner(ln.lab, ln.workdir.parent / "lws-lab", ln.prompt_stop)
    lws_lab.step1()
    (Learner(ln.lab, lws_lab.workdir, prompt_stop=False) if orphan_grace else lws_lab).step8()


def gang_walkthrough(ln: Learner) -> None:
    """The gang lesson, all seven steps, as its hints say."""
    g = GangLearner(ln.lab, ln.workdir, ln.prompt_stop)
    g.api()
    g.clear()
    g.make_podgroup()
    g.gang()
    g.held()
    g.blocker()
    g.make_room()
    g.no_fit()


def gang_no_podgroup(ln: Learner) -> None:
    """Step 3 skipped: orphan made a gang of a PodGroup that does not exist (held with no event)."""
    g = GangLearner(ln.lab, ln.workdir, ln.prompt_stop)
    g.api()
    g.clear()
    g.gang()
    g.wait("the scheduler's first look", lambda: all(g.pod(n) for n in g.ORPHAN))


def gang_min_count(ln: Learner) -> None:
    """minCount 3 for a group of 2: the gang waits for a pod that never comes, silently."""
    g = GangLearner(ln.lab, ln.workdir, ln.prompt_stop)
    g.api()
    g.clear()
    g.make_podgroup(min_count=3)
    g.gang()


def gang_name_typo(ln: Learner) -> None:
    """podGroupName orpahn-0 (two letters swapped) in both templates."""
    g = GangLearner(ln.lab, ln.workdir, ln.prompt_stop)
    g.api()
    g.clear()
    g.make_podgroup()
    g.gang(leader="orpahn-0", worker="orpahn-0")


def gang_worker_only(ln: Learner) -> None:
    """schedulingGroup in the worker template only: the leader is placed alone."""
    g = GangLearner(ln.lab, ln.workdir, ln.prompt_stop)
    g.api()
    g.clear()
    g.make_podgroup()
    g.gang(leader=None)
    g.running("orphan-0")


def gang_orphan_kept(ln: Learner) -> None:
    """Step 2 skipped: the old orphan changed in place (applied over) rather than deleted first."""
    g = GangLearner(ln.lab, ln.workdir, ln.prompt_stop)
    g.api()
    g.make_podgroup()
    g.gang()
    g.wait("orphan's pods in the gang", lambda: all((p := g.pod(n)) and p["spec"].get("schedulingGroup")
                                                    and not p["metadata"].get("deletionTimestamp") for n in g.ORPHAN),
           timeout=120)
    g.held()


# name -> (what the learner did before the recorder starts, what while it records): the gang
# lesson starts where the LWS lab ends.
GANG_SCENARIOS = {
    "lesson-gang": (end_of_lws_lab, gang_walkthrough),
    "lesson-gang-no-podgroup": (end_of_lws_lab, gang_no_podgroup),
    "lesson-gang-min-count": (end_of_lws_lab, gang_min_count),
    "lesson-gang-name-typo": (end_of_lws_lab, gang_name_typo),
    "lesson-gang-worker-only": (end_of_lws_lab, gang_worker_only),
    "lesson-gang-orphan-kept": (end_of_lws_lab, gang_orphan_kept),
}


# The other lessons' scenarios: name -> (lesson, what the learner does while it records).
OTHER_LESSONS = {"lesson-scale": ("scale", scale_walkthrough),
                 **{name: ("gang", during) for name, (_, during) in GANG_SCENARIOS.items()}}


WRONG_TURNS = {f.__name__.replace("_", "-"): f for f in (wrong_annotation, restart_after_failure, dns_short_name,
                                                          names_swapped, orphan_without_llm, version_worker_only,
                                                          uid_typo, uid_made_up, both_workers_failed,
                                                          group1_failed_after_step5, leader_failed)}


# --- late starts: what the learner did before the tutor (or `check`) started, and what after --

def steps_up_to(n: int):
    def before(ln: Learner) -> None:
        for step in (ln.step1, ln.step2, ln.step3, ln.step4, ln.step5, ln.step6, ln.step7, ln.step8)[:n]:
            step()
    before.__name__ = f"steps_1_to_{n}"
    return before


def nothing(ln: Learner) -> None:
    """The tutor only looks: the recording holds what the cluster shows when it starts."""


PARTITION = "/spec/rolloutStrategy/rollingUpdateConfiguration/partition"


def set_partition(ln: Learner, n: int) -> None:
    ln.lab.kubectl("patch", "leaderworkerset", "llm", "-n", NS, "--type=json",
                   "-p", json.dumps([{"op": "replace", "path": PARTITION, "value": n}]))


def rollout_started(ln: Learner) -> None:
    """Steps 1 to 5, then step 6's change applied while the rollout is held after group 1 (a
    partition of 1, set with kubectl patch beside the file): the tutor starts in the middle."""
    steps_up_to(5)(ln)
    set_partition(ln, 1)
    ln.apply(llm("v2"), "lws.yaml")
    ln.wait("group 1 on the new template", lambda: all(
        (p := ln.pod(n)) and p["status"].get("phase") == "Running" and not p["metadata"].get("deletionTimestamp")
        and any(e.get("name") == "VERSION" for e in p["spec"]["containers"][0].get("env", []))
        for n in ("llm-1", "llm-1-1")), timeout=120)


def finish_rollout(ln: Learner) -> None:
    set_partition(ln, 0)
    ln.wait_rolled()


# name -> (done before the tutor starts, done while it records)
LATE_STARTS = {
    "late-after-step5": (steps_up_to(5), nothing),
    "late-after-step6": (steps_up_to(6), nothing),
    "late-after-step8": (steps_up_to(8), nothing),
    "late-mid-rollout": (rollout_started, finish_rollout),
    "late-after-rollout-recreated-group1": (rollout_recreating_group1, nothing),
}
