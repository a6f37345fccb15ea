"""One Korean word per concept (lessons/glossary.yaml): every lesson text (step markdown, intros,
lesson.yaml) and every Korean string literal of tutor/ and lessons/ (.py) uses the glossary's word,
never a variant it lists, and none of the calques it lists. A term marked `prose` (an English word
a Korean sentence must not keep, such as Kubernetes) is looked for in Korean prose only: a .ko.md
file and the `ko:` texts of a lesson.yaml without their code, links and source notes, and the Korean
strings of the code; an English file, kubectl output in a code block and a URL keep the English."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = yaml.safe_load((ROOT / "lessons" / "glossary.yaml").read_text(encoding="utf-8"))
HANGUL = re.compile(r"[\uac00-\ud7a3]")

# What Korean prose is not: code (a fenced block, `inline`), source notes, link targets, URLs.
NOT_PROSE = [re.compile(r"^(```|~~~)[^\n]*\n.*?^\1[^\n]*$", re.S | re.M), re.compile(r"<!--.*?-->", re.S),
             re.compile(r"`[^`\n]*`"), re.compile(r"\]\([^)\s]*\)"), re.compile(r"https?://\S+")]


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern
    why: str
    prose: bool = False  # looked for in Korean prose only
    allow: tuple[str, ...] = ()  # phrases the variant may stand in

    def hits(self, text: str, korean: str) -> bool:
        where = korean if self.prose else text
        for phrase in self.allow:
            where = where.replace(phrase, " ")
        return self.pattern.search(where) is not None


def rules() -> list[Rule]:
    # a `prose` variant is an English word: not inside a longer one or a path (a Korean particle may follow it)
    out = [Rule(re.compile(re.escape(v) if not t.get("prose") else rf"(?<![A-Za-z0-9_./-]){re.escape(v)}(?![A-Za-z0-9_-])"),
                f"{v} -> {t['ko']} ({t['en']})", bool(t.get("prose")), tuple(t.get("allow") or ()))
           for t in GLOSSARY["terms"] for v in t["avoid"]]
    out += [Rule(re.compile(p["avoid"] if p.get("regex") else re.escape(p["avoid"])), f"{p['avoid']} -> {p['write']}")
            for p in GLOSSARY["phrases"]]
    return out


RULES = rules()


def prose(text: str) -> str:
    """Korean prose without its code, source notes, link targets and URLs."""
    for pattern in NOT_PROSE:
        text = pattern.sub(" ", text)
    return text


def ko_values(node) -> list[str]:
    """Every text under a `ko:` key of a YAML document (a string, or a list of them)."""
    if isinstance(node, dict):
        out = []
        for key, value in node.items():
            if key == "ko":
                out += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
            else:
                out += ko_values(value)
        return out
    if isinstance(node, list):
        return [s for v in node for s in ko_values(v)]
    return []


def korean_strings(path: Path) -> list[str]:
    """The string literals of a module that hold Korean (f-strings' literal parts included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and HANGUL.search(n.value)]


def korean_of(path: Path, text: str) -> str:
    """The Korean prose of a lesson file: all of a .ko.md, the `ko:` texts of a YAML file, nothing
    of an English one."""
    if path.name.endswith(".ko.md"):
        return prose(text)
    if path.suffix == ".yaml":
        return "\n".join(prose(s) for s in ko_values(yaml.safe_load(text)))
    return ""


def texts() -> list[tuple[str, str, str]]:
    """(where, the text, its Korean prose) of every lesson file and Korean string of the code."""
    out = []
    for p in sorted((ROOT / "lessons").rglob("*")):
        if p.name == "glossary.yaml" or not p.is_file():
            continue
        if p.suffix in (".md", ".yaml"):
            text = p.read_text(encoding="utf-8")
            out.append((str(p.relative_to(ROOT)), text, korean_of(p, text)))
        elif p.suffix == ".py":
            out += [(str(p.relative_to(ROOT)), s, prose(s)) for s in korean_strings(p)]
    for p in sorted((ROOT / "tutor").rglob("*.py")):
        out += [(str(p.relative_to(ROOT)), s, prose(s)) for s in korean_strings(p)]
    return out


def offences(text: str, korean: str | None = None) -> list[str]:
    """The glossary's rules a text breaks; `korean` is its Korean prose (the text itself when None)."""
    return [r.why for r in RULES if r.hits(text, text if korean is None else korean)]


def test_every_term_has_one_word_and_its_variants():
    words = [t["ko"] for t in GLOSSARY["terms"]]
    assert len(words) == len(set(words))
    assert all(t["avoid"] and t["ko"] not in t["avoid"] for t in GLOSSARY["terms"])
    # a word is no other term's variant: the glossary does not split a term itself
    assert not {t["ko"] for t in GLOSSARY["terms"]} & {v for t in GLOSSARY["terms"] for v in t["avoid"]}
    assert {"bind", "reason", "object", "rank", "Kubernetes"} <= {t["en"] for t in GLOSSARY["terms"]}


def test_the_lab_pages_words_come_first():
    """A term marked as the lab page's is written so on the lab page (shared wording with it)."""
    lab = ROOT.parent / "shared" / "lab" / "seed-lab-page.ko.txt"
    if not lab.exists():
        pytest.skip("the lab page is not beside this checkout")
    page = lab.read_text(encoding="utf-8")
    assert [t["ko"] for t in GLOSSARY["terms"] if t.get("from") == "lab page" and t["ko"] not in page] == []


def _scanned() -> list:
    seen: dict[str, int] = {}
    out = []
    for where, text, korean in texts():
        seen[where] = seen.get(where, 0) + 1
        out.append(pytest.param(where, text, korean, id=f"{where}-{seen[where]}"))
    return out


@pytest.mark.parametrize("where,text,korean", _scanned())
def test_no_text_uses_a_variant_the_glossary_forbids(where, text, korean):
    assert not offences(text, korean), (where, offences(text, korean), text[:200])


def test_the_scan_would_catch_one():
    assert offences("그룹씩 차례로 롤아웃") and offences("레이블을 보세요") and offences("안티 어피니티")
    assert not offences("한 그룹씩 차례로 롤링 업데이트") and not offences("두 그룹씩") and not offences("라벨을 보세요")


def test_a_split_term_fails_the_scan():
    """Each new term caught in its variant, its own word passing: a text that writes a concept two
    ways breaks the test, whichever way it wrote it second."""
    split = {
        "bind": ("파드가 노드에 바인드됩니다.", "파드가 노드에 바인딩됩니다."),
        "reason": ("파드가 기다리는 까닭을 읽습니다.", "파드가 기다리는 이유를 읽습니다."),
        "reason ": ("갱을 붙잡는 파드에는 자기만의 사유가 있습니다.", "갱을 붙잡는 파드에는 자기만의 이유가 있습니다."),
        "object": ("클러스터의 객체가 파일과 다릅니다.", "클러스터의 오브젝트가 파일과 다릅니다."),
        "rank": ("워커의 순위는 1부터 셉니다.", "워커의 랭크는 1부터 셉니다."),
        "Kubernetes": ("Kubernetes 1.37은 PodGroup을 제공합니다.", "쿠버네티스 1.37은 PodGroup을 제공합니다."),
    }
    for term, (bad, good) in split.items():
        assert offences(bad), term
        assert not offences(good), (term, offences(good))
    # one text, both words: the variant is what fails it
    assert offences("오브젝트 하나와 객체 하나")
    assert not offences("JSON 객체여야 합니다")  # a JSON object is 객체, not a Kubernetes object


def test_kubernetes_is_flagged_in_korean_prose_only():
    md = ("쿠버네티스 문서를 보세요.\n\n```sh\n$ kubectl cluster-info\nKubernetes control plane is running\n```\n\n"
          "[쿠버네티스 문서](https://kubernetes.io/docs/Kubernetes) 와 `Kubernetes` 그리고 "
          "<!-- source: k8s.io/kubernetes@v1.37.2 pkg/a.go «Kubernetes v1» -->\n")
    assert not offences(md, prose(md))
    more = md + "Kubernetes 1.37에는 갱 스케줄링이 있습니다.\n"
    assert offences(more, prose(more))
    en = Path("lessons/gang/steps/01-api.en.md")
    assert korean_of(en, "Kubernetes 1.37 serves PodGroups.") == ""
    lesson = "title: {en: \"Kubernetes: gang scheduling\", ko: \"쿠버네티스 문서: 갱 스케줄링\"}\n"
    assert not offences(lesson, korean_of(Path("lesson.yaml"), lesson))
    bad = "title: {en: \"Kubernetes: gang scheduling\", ko: \"Kubernetes 문서: 갱 스케줄링\"}\n"
    assert offences(bad, korean_of(Path("lesson.yaml"), bad))
    assert offences("Kubernetes 1.37은 PodGroup을 v1beta1 버전으로 제공합니다.")
    assert offences("Kubernetes의 스케줄러") and offences("[Kubernetes 문서](https://kubernetes.io/)", "[Kubernetes 문서] ")
    assert not offences("k8s.io/kubernetes@v1.37.2 의 코드") and not offences("KubernetesCluster 필드")


# The review's sentences with `곧` for "that is" (the gang module as it was), and `곧` that is "soon".
GOT_THAT_IS = [
    "- `s`: 이 단계의 풀이, 곧 답 전체 보기(먼저 묻습니다)",
    "- `t`: 타임라인, 곧 그룹마다 일어난 일을 순서대로 원인과 함께",
    "**PodGroup**(API 그룹 `scheduling.k8s.io`, 버전 `v1beta1`)이 파드 묶음, 곧 갱을 정하면 스케줄러는 그 파드를 모두 "
    "함께 배치하거나 하나도 배치하지 않습니다.",
    "서버가 내놓는 리소스 목록, 곧 디스커버리를 보면 객체를 하나도 쓰기 전에 켜져 있는지 알 수 있습니다.",
    "리더 컨테이너는 SIGTERM을 무시하므로 유예 시간, 곧 30초쯤을 다 기다린 뒤에 지워집니다.",
]
GOT_SOON = [
    "llm-0-1의 컨테이너가 종료되어 kubelet이 다시 띄웠습니다. 곧 LWS가 그룹 0을 다시 만듭니다.",
    "`trap` 덕분에 SIGTERM을 받으면 곧바로 끝납니다.",
    "파드를 지우면, 곧 새 파드가 생깁니다.",
    "유예 시간이 끝나고, 곧 파드가 사라집니다.",
    "`minCount`가 LWS 그룹 하나의 크기인 이유는 갱이 곧 그룹 하나이기 때문입니다.",
]


@pytest.mark.parametrize("text", GOT_THAT_IS)
def test_got_for_that_is_is_caught(text):
    assert any("곧" in why for why in offences(text, prose(text))), text


@pytest.mark.parametrize("text", GOT_SOON)
def test_got_for_soon_is_not(text):
    assert not any("곧" in why for why in offences(text, prose(text))), text
