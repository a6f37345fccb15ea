"""The engine (tutor/) names no fact of the lab: the nodes, their taint and labels, the GPU count,
the pods' failure file, the workdir, the namespace and the objects' names are each lesson's
data (lesson.yaml, its `lab` block), which doctor and the checkers read from there. An entry of
tests/data/lab_facts_allowed.yaml lets one file name one fact, with the reason it must."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from tests.test_engine_contract import constants
from tutor.lesson.loader import available, load

ROOT = Path(__file__).resolve().parent.parent
TUTOR = ROOT / "tutor"
ALLOWED = yaml.safe_load((ROOT / "tests" / "data" / "lab_facts_allowed.yaml").read_text(encoding="utf-8")) or []
# The lab's real node (tests/e2e/labcluster), which no lesson names: the learner's is their own.
REAL_NODE = "lab-server"


def lab_facts() -> tuple[set[str], set[str], set[int]]:
    """(facts no string may contain, facts no string may be, GPU counts no GPU constant may be)."""
    within, exact, counts = {REAL_NODE}, {"llm"}, set()
    for lesson in map(load, available()):
        lab = lesson.lab
        within |= {lesson.workdir} if lesson.workdir.startswith("/") else set()
        within |= {lab.fail_file} - {""}
        exact |= {lesson.namespace} | {s.story.lws for s in lesson.steps if s.story}
        counts |= {lab.gpu_node_gpus} - {None}
        if lab.fake_nodes:
            fake = lab.fake_nodes
            within |= {*fake.names, fake.taint.key, fake.taint.key.split("/")[0]}
            exact |= set(fake.labels.values())
            counts.add(fake.gpus)
    return within, exact, counts


def strings_of(tree: ast.AST):
    """(line, text) of every string constant but docstrings, f-strings' literal parts included."""
    for node in constants(tree):
        yield node.lineno, node.value


def gpu_counts(tree: ast.AST):
    """(line, value) of each whole number given to a name that speaks of GPUs (GPUS_NEEDED = 4)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, int):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any("GPU" in ast.unparse(t).upper() for t in targets):
                yield node.lineno, node.value.value
        elif isinstance(node, ast.keyword) and node.arg and "gpu" in node.arg.lower() \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, int):
            yield node.lineno, node.value.value


def offenders(path: Path, source: str, within: set[str], exact: set[str], counts: set[int]) -> list[tuple[str, str]]:
    tree = ast.parse(source, str(path))
    out = [(f"{line}", fact) for line, text in strings_of(tree) for fact in within if fact in text]
    out += [(f"{line}", text) for line, text in strings_of(tree) if text in exact]
    out += [(f"{line}", str(n)) for line, n in gpu_counts(tree) if n in counts]
    # a count written quoted inside a manifest or a patch: {"nvidia.com/gpu": "4"}
    out += [(f"{line}", f'"{n}"') for line, text in strings_of(tree) for n in counts if f'"{n}"' in text]
    return out


def allowed(rel: str, fact: str) -> bool:
    return any(a["path"] == rel and a["fact"] == fact for a in ALLOWED)


def test_no_engine_module_names_a_lab_fact():
    within, exact, counts = lab_facts()
    found = []
    for path in sorted(TUTOR.rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        found += [f"{rel}:{line} {fact!r}" for line, fact in offenders(path, path.read_text(encoding="utf-8"),
                                                                        within, exact, counts)
                  if not allowed(rel, fact)]
    assert not found, "\n".join(found)


def test_the_facts_come_from_the_lessons():
    within, exact, counts = lab_facts()
    assert {"gpu-a", "gpu-b", "lab-server", "/tmp/fail", "kwok.x-k8s.io", "/root/gsb-lws"} <= within
    assert {"infer", "llm", "kwok"} <= exact and 4 in counts


def test_each_allowance_is_used_and_says_why():
    within, exact, counts = lab_facts()
    for a in ALLOWED:
        path = ROOT / a["path"]
        assert len(a.get("why", "")) > 20, a
        assert any(fact == a["fact"] for _, fact in offenders(path, path.read_text(encoding="utf-8"),
                                                              within, exact, counts)), f"unused: {a}"


SAMPLE = """\
\"\"\"gpu-a in a docstring is prose\"\"\"
KWOK_NODES = ("gpu-a", "gpu-b")
NS = "infer"
f"kubectl exec -- touch /tmp/fail {x}"
GPUS_NEEDED = 4
patch = '{"nvidia.com/gpu": "4"}'
key = "kwok.x-k8s.io/node"
run(need_gpus=4)
"""


def test_the_scan_would_catch_each_kind():
    within, exact, counts = lab_facts()
    found = {fact for _, fact in offenders(Path("x.py"), SAMPLE, within, exact, counts)}
    assert {"gpu-a", "gpu-b", "infer", "/tmp/fail", "4", '"4"', "kwok.x-k8s.io"} <= found
    quiet = '"""gpu-a, llm and /tmp/fail in a docstring"""\nN = 4\nDIGIT = {"4": ""}\n'
    assert not offenders(Path("x.py"), quiet, within, exact, counts)
