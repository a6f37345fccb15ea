"""Property tests for every answer-file parser, at the end state of the real walkthrough.

Whatever bytes a learner saves, the checker that reads the file returns a verdict (never
raises, never `error`) with a message; and where a file has structure, a well-formed answer
written in any layout parses back to what it holds.
"""

from __future__ import annotations

import random
import re
import string
from functools import lru_cache

import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.states import final_file, state
from tutor.checks import run_checker
from tutor.checks.helpers import kv_lines, yaml_docs
from tutor.checks.context import Context
from tutor.lessons.lws.checks.dns import addresses
from tutor.lessons.lws.checks.orphan import clauses, normalise
from tutor.checks.verdict import Status, Stop
from tutor.cluster import objects as o
from tutor.workspace.files import FileRead, decode
from tutor.workspace.watch import Workspace

PROPS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
READERS = {"lws.yaml": [1], "names.txt": [2], "env.txt": [3], "dns.txt": [4], "restart.txt": [5],
           "wide.yaml": [7], "partial.txt": [8], "orphan.yaml": [8]}
FILES = sorted(READERS)
PODS = ["llm-0", "llm-0-1", "llm-1", "llm-1-1"]


@lru_cache(maxsize=None)
def _end():
    return state("walkthrough")


def ctx_with(name: str | None = None, read: FileRead | None = None, lang: str = "en") -> Context:
    """The walkthrough's end state with its own answer files, one of them replaced. The store is
    shared (checkers only read it); the workspace is new each time."""
    base = _end()
    reads = [FileRead.from_content(n, c) for n, c in _final_files().items()]
    ws = Workspace("/root/gsb-lws", reads)
    if read is not None:
        ws.update(read)
    return Context(base.store, ws, base.lesson, lang)


@lru_cache(maxsize=None)
def _final_files() -> dict:
    return {n: final_file("walkthrough", n) for n in FILES if n != "orphan.yaml"}


def verdicts(ctx: Context, steps: list[int]):
    return {n: run_checker(ctx.lesson.step(n), ctx) for n in steps}


def assert_judged(vs) -> None:
    for n, v in vs.items():
        assert v.status in (Status.PASS, Status.FAIL, Status.WAITING), (n, v)
        assert v.message.strip(), (n, v)
        assert all(isinstance(d, str) for d in v.details)


# --- arbitrary content never breaks a checker --------------------------------------------------

@PROPS
@given(name=st.sampled_from(FILES), data=st.binary(max_size=600), lang=st.sampled_from(["en", "ko"]))
def test_arbitrary_bytes_are_judged(name, data, lang):
    read = decode(name, data)
    assert read.ok or (read.problem is not None)
    assert_judged(verdicts(ctx_with(name, read, lang), READERS[name]))


@PROPS
@given(name=st.sampled_from(FILES), text=st.text(max_size=400))
def test_arbitrary_text_is_judged(name, text):
    assert_judged(verdicts(ctx_with(name, FileRead.from_content(name, text)), READERS[name]))


TOKENS = ["pod=", "group=", "worker=", "llm-0", "llm-1-1", "=", " ", "\t", "\n", "\r\n", "0", "1", "-1", "x",
          "LWS_GROUP_SIZE", "LWS_LEADER_ADDRESS=", "group0_before=", "group1_before=", "10.42.0.2", "NXDOMAIN",
          "1 Insufficient nvidia.com/gpu", ", ", ". ", "0/3 nodes are available: ",
          "2a8eab94-64c5-4ad0-9070-083d8ac0fa65", "{", "}", "%s", "{0}", "\\", "\x00", "\u200b", "é"]


@PROPS
@given(name=st.sampled_from(["names.txt", "env.txt", "dns.txt", "restart.txt", "partial.txt"]),
       parts=st.lists(st.sampled_from(TOKENS), max_size=60))
def test_near_miss_text_is_judged(name, parts):
    """Text built from the files' own vocabulary reaches the parsers' inner branches."""
    assert_judged(verdicts(ctx_with(name, FileRead.from_content(name, "".join(parts))), READERS[name]))


YAML_TOKENS = ["[", "]", "{", "}", ": ", "- ", "\n", "  ", "&a ", "*a", "!!str ", "!!python/object:x ", "? ",
               "kind: LeaderWorkerSet\n", "metadata:\n  name: llm\n", "apiVersion: leaderworkerset.x-k8s.io/v1\n",
               "spec:\n", "  replicas: ", "2", "two", "null", "~", "---\n", "...\n", "'", '"', "#", "<<: *a\n",
               "%YAML 1.1\n", "leaderWorkerTemplate:", "\t", "1e999", ".nan", "!!binary AAA=", "|\n"]


@PROPS
@given(name=st.sampled_from(["lws.yaml", "wide.yaml"]), parts=st.lists(st.sampled_from(YAML_TOKENS), max_size=50))
def test_near_miss_yaml_is_judged(name, parts):
    assert_judged(verdicts(ctx_with(name, FileRead.from_content(name, "".join(parts))), READERS[name]))


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)


def _damaged_manifest(draw_path, value, lws: str) -> dict:
    doc = yaml.safe_load(final_file("walkthrough", f"{'lws' if lws == 'llm' else 'wide'}.yaml"))
    cur = doc
    for key in draw_path[:-1]:
        if not isinstance(cur, dict) or not isinstance(cur.get(key), dict):
            break
        cur = cur[key]
    if isinstance(cur, dict):
        cur[draw_path[-1]] = value
    return doc


@PROPS
@given(lws=st.sampled_from(["llm", "wide"]),
       path=st.sampled_from([("spec",), ("spec", "replicas"), ("spec", "leaderWorkerTemplate"),
                             ("spec", "leaderWorkerTemplate", "size"),
                             ("spec", "leaderWorkerTemplate", "workerTemplate"),
                             ("spec", "leaderWorkerTemplate", "leaderTemplate"),
                             ("spec", "leaderWorkerTemplate", "restartPolicy"), ("metadata",),
                             ("metadata", "annotations"), ("metadata", "namespace"), ("apiVersion",)]),
       value=JSONISH)
def test_a_manifest_with_any_value_anywhere_is_judged(lws, path, value):
    """The right manifest with one field replaced by any YAML value: judged, never raised."""
    name = "lws.yaml" if lws == "llm" else "wide.yaml"
    text = yaml.safe_dump(_damaged_manifest(path, value, lws), allow_unicode=True)
    assert_judged(verdicts(ctx_with(name, FileRead.from_content(name, text)), READERS[name]))


@PROPS
@given(text=st.text(max_size=300))
def test_orphan_yaml_is_never_read(text):
    """The lab names no file for orphan: whatever orphan.yaml holds, step 8 is the same."""
    assert verdicts(ctx_with("orphan.yaml", FileRead.from_content("orphan.yaml", text)), [8]) == \
        verdicts(ctx_with(), [8])


# --- layouts ------------------------------------------------------------------------------------

SPACE = st.text(alphabet=" \t", min_size=1, max_size=3)
EOL = st.sampled_from(["\n", "\r\n"])


def _layout(draw, lines: list[list[str]]) -> str:
    """Lines of tokens in any order of lines and tokens, any spacing, LF or CRLF, blank lines."""
    eol = draw(EOL)
    out = []
    for tokens in draw(st.permutations(lines)):
        toks = draw(st.permutations(tokens))
        line = draw(st.sampled_from(["", " ", "\t"]))
        for t in toks:
            line += t + draw(SPACE)
        out.append(line)
        if draw(st.booleans()):
            out.append(draw(st.sampled_from(["", "  ", "\t"])))
    return eol.join(out) + eol


@PROPS
@given(st.data())
def test_names_round_trip(data):
    """A names.txt built from any pod -> (group, worker) mapping parses back to that mapping."""
    mapping = data.draw(st.dictionaries(st.from_regex(r"\A[a-z][a-z0-9-]{0,12}\Z"),
                                        st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=8))
    lines = [[f"{data.draw(st.sampled_from(['pod', 'POD', 'Pod']))}={p}", f"group={g}", f"worker={w}"]
             for p, (g, w) in mapping.items()]
    text = decode("names.txt", _layout(data.draw, lines).encode()).text
    parsed = {kv["pod"]: (int(kv["group"]), int(kv["worker"])) for _, kv, _ in kv_lines(text)}
    assert parsed == mapping


def _live_names() -> dict[str, tuple[str, str]]:
    ctx = ctx_with()
    return {n: (o.labels(ctx.pod(n))[o.GROUP_INDEX_LABEL], o.labels(ctx.pod(n))[o.WORKER_INDEX_LABEL]) for n in PODS}


@PROPS
@given(st.data())
def test_names_in_any_layout_pass_and_one_wrong_index_fails(data):
    live = _live_names()
    lines = [[f"pod={p}", f"group={g}", f"worker={w}"] for p, (g, w) in live.items()]
    text = _layout(data.draw, lines)
    assert verdicts(ctx_with("names.txt", decode("names.txt", text.encode())), [2])[2].status is Status.PASS
    bad = data.draw(st.sampled_from(PODS))
    g, w = live[bad]
    wrong = [[f"pod={p}", f"group={gg}", f"worker={(int(ww) + 1) % 2 if p == bad else ww}"]
             for p, (gg, ww) in live.items()]
    v = verdicts(ctx_with("names.txt", decode("names.txt", _layout(data.draw, wrong).encode())), [2])[2]
    assert v.status is Status.FAIL and bad in v.message, v


def _live_env() -> dict[str, str]:
    from tutor.lessons.lws.checks.env import pod_lws_env
    return pod_lws_env(ctx_with().pod("llm-1-1"))


OTHER_ENV = st.from_regex(r"\A[A-Z][A-Z0-9_]{0,10}=[ -~]{0,20}\Z").filter(lambda s: not s.startswith("LWS_"))


@PROPS
@given(others=st.lists(OTHER_ENV, max_size=6), data=st.data())
def test_env_in_any_order_with_other_variables(others, data):
    """`env` output in any order, with any other variables, passes; a missing or changed LWS_
    variable fails and is named."""
    want = _live_env()
    lines = [f"{k}={v}" for k, v in want.items()] + others
    text = data.draw(EOL).join(data.draw(st.permutations(lines))) + "\n"
    assert verdicts(ctx_with("env.txt", FileRead.from_content("env.txt", text)), [3])[3].status is Status.PASS
    victim = data.draw(st.sampled_from(sorted(want)))
    drop = data.draw(st.booleans())
    lines = [ln for ln in lines if not ln.startswith(victim + "=")] if drop else \
        [f"{victim}=wrong" if ln.startswith(victim + "=") else ln for ln in lines]
    v = verdicts(ctx_with("env.txt", FileRead.from_content("env.txt", "\n".join(lines))), [3])[3]
    assert v.status is Status.FAIL and victim in v.message, v


IPV4 = st.tuples(*[st.integers(0, 255)] * 4).map(lambda t: ".".join(map(str, t)))
NOT_ADDRESSY = st.text(alphabet=string.ascii_letters + " \t\n:#()[]/-_,", max_size=30)


@PROPS
@given(ip=IPV4, before=NOT_ADDRESSY, after=NOT_ADDRESSY, digit=st.integers(0, 9))
def test_dns_addresses_are_whole(ip, before, after, digit):
    assert ip in addresses(before + ip + after)
    assert ip in addresses(f"{before}Address: {ip}:53{after}")
    assert ip not in addresses(before + ip + str(digit) + after)  # 10.42.0.1 is not in 10.42.0.15
    assert ip not in addresses(before + str(digit) + ip + after)  # nor in 110.42.0.1


@PROPS
@given(before=NOT_ADDRESSY, after=NOT_ADDRESSY)
def test_dns_passes_with_the_leader_ip_anywhere(before, after):
    ip = o.pod_ip(ctx_with().pod("llm-1"))
    text = f"{before} {ip} {after}"
    assert verdicts(ctx_with("dns.txt", FileRead.from_content("dns.txt", text)), [4])[4].status is Status.PASS


@PROPS
@given(st.data())
def test_restart_round_trip(data):
    uids = {"group0_before": str(data.draw(st.uuids())), "group1_before": str(data.draw(st.uuids()))}
    text = _layout(data.draw, [[f"{k}={v}"] for k, v in uids.items()])
    got = {k: v for _, kv, _ in kv_lines(decode("restart.txt", text.encode()).text) for k, v in kv.items()}
    assert got == uids


@PROPS
@given(st.data())
def test_restart_in_any_layout_passes(data):
    real = final_file("walkthrough", "restart.txt").split()
    text = _layout(data.draw, [[t] for t in real])
    upper = data.draw(st.booleans())
    text = text.upper().replace("GROUP0_BEFORE", "group0_before").replace("GROUP1_BEFORE", "group1_before") \
        if upper else text
    v = verdicts(ctx_with("restart.txt", FileRead.from_content("restart.txt", text)), [5])[5]
    assert v.status is Status.PASS, v


CLAUSE = st.from_regex(r"\A[1-9][0-9]? [A-Za-z][A-Za-z0-9/()_-]{0,12}( [A-Za-z0-9/()_-]{1,10}){0,3}\Z")


@PROPS
@given(n=st.integers(1, 20), parts=st.lists(CLAUSE, min_size=1, max_size=5, unique=True),
       tail=st.sampled_from(["", " preemption: 0/3 nodes are available: 3 Preemption is not helpful."]))
def test_partial_clauses_round_trip(n, parts, tail):
    msg = f"0/{n} nodes are available: {', '.join(parts)}.{tail}"
    assert clauses(msg) == parts


@PROPS
@given(st.data())
def test_partial_with_the_clauses_in_any_order_and_spacing_passes(data):
    ctx = ctx_with()
    real = final_file("walkthrough", "partial.txt")
    cls = clauses(real)
    assume(len(cls) >= 1)
    shuffled = data.draw(st.permutations(cls))
    text = "".join(c.replace(" ", data.draw(SPACE)) + data.draw(st.sampled_from([", ", "\n", "; ", "\r\n"]))
                   for c in shuffled)
    assert normalise(text) != "" and all(c in normalise(text) for c in cls)
    v = verdicts(ctx_with("partial.txt", FileRead.from_content("partial.txt", text)), [8])[8]
    assert v.status is Status.PASS, v
    assert ctx.lesson  # the shared context is untouched


@PROPS
@given(lws=st.sampled_from(["llm", "wide"]), flow=st.sampled_from([None, True, False]), indent=st.integers(2, 6),
       width=st.integers(20, 200), sort=st.booleans(), start=st.booleans(), seed=st.integers(0, 2**16))
def test_the_right_manifest_in_any_yaml_style_passes(lws, flow, indent, width, sort, start, seed):
    name = "lws.yaml" if lws == "llm" else "wide.yaml"
    doc = yaml.safe_load(final_file("walkthrough", name))
    if not sort:  # any key order
        rnd = random.Random(seed)

        def shuffle(x):
            if isinstance(x, dict):
                items = list(x.items())
                rnd.shuffle(items)
                return {k: shuffle(v) for k, v in items}
            return [shuffle(i) for i in x] if isinstance(x, list) else x
        doc = shuffle(doc)
    text = yaml.safe_dump(doc, default_flow_style=flow, indent=indent, width=width, sort_keys=sort,
                          explicit_start=start)
    v = verdicts(ctx_with(name, FileRead.from_content(name, text)), READERS[name])[READERS[name][0]]
    assert v.status is Status.PASS, (v, text)


# Plain text for the round trip: YAML 1.1 itself folds its extra line breaks (NEL, U+2028/9)
# and PyYAML escapes control characters, which is the library's business, not the tutor's.
YAML_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85\ufeff"),
                    max_size=10)
PLAIN_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | YAML_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(YAML_TEXT, inner, max_size=3),
    max_leaves=12,
)


@PROPS
@given(doc=st.dictionaries(st.text(alphabet=string.ascii_letters, min_size=1, max_size=8), PLAIN_DATA, max_size=5),
       flow=st.sampled_from([None, True, False]))
def test_yaml_docs_round_trip(doc, flow):
    """What safe_dump writes, the bounded loader reads back unchanged (it refuses only aliases
    beyond the limit and absurd nesting, which a dump of plain data never has)."""
    text = yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True)
    try:
        got = yaml_docs(ctx_with(), "lws.yaml", text)
    except Stop as stop:  # only a document too large for an answer file may be refused
        assert "too large" in stop.verdict.message
        return
    assert got == [doc]


def test_layout_helper_really_varies():
    """A guard on the generator above: the layouts differ in order, spacing and line ends."""
    seen = set()

    @settings(max_examples=30, deadline=None)
    @given(st.data())
    def collect(data):
        seen.add(_layout(data.draw, [["a=1", "b=2"], ["c=3"]]))

    collect()
    assert len(seen) > 5 and any("\r\n" in s for s in seen) and any("\t" in s for s in seen)
    assert all(re.search(r"a=1", s) for s in seen)
