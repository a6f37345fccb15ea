"""Where each fact a lesson teaches comes from, pinned to a line of code a test can find.

A fact's source is written where the fact is said:
- in a step's or intro's markdown, an HTML comment the lesson pane does not show:
  `<!-- source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/schedule_one.go (FailedScheduling) «snippet» -->`
- in lesson.yaml, a prediction choice's `source:` (the same citations, without the comment);
- in a lesson's checker, a `# source: …` comment above the message that states the fact;
- in the engine (tutor/), a `# source: …` comment above the code that relies on the fact.

A citation is a Go module at its version, a path in it, optionally a few words in parentheses (the
function), and a short verbatim snippet of that file in «». Several citations may share a note,
separated by `;`. Whitespace is compared collapsed, so a snippet may join lines of the file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
ENGINE = ROOT / "tutor"
GO_MOD = ROOT / "tests" / "e2e" / "labcluster" / "go.mod"

NOTE = re.compile(r"<!--\s*source:(.*?)-->", re.S)
CODE_NOTE = re.compile(r"#\s*source:(.*)$", re.M)
CITATION = re.compile(
    r"(?P<module>[a-z0-9.-]+\.[a-z]+(?:/[A-Za-z0-9._-]+)*)@(?P<version>v[0-9][A-Za-z0-9.+-]*)\s+"
    r"(?P<path>[A-Za-z0-9_./-]+)\s*(?:\((?P<where>[^)]*)\)\s*)?«(?P<snippet>[^»]+)»")
SHORTEST_SNIPPET = 12  # shorter than this could be found anywhere, and pins nothing


@dataclass(frozen=True)
class Citation:
    module: str
    version: str
    path: str
    snippet: str
    where: str = ""

    def __str__(self) -> str:
        return f"{self.module}@{self.version} {self.path} «{self.snippet}»"


@dataclass(frozen=True)
class Note:
    file: str  # relative to the repo root
    line: int
    text: str
    citations: tuple[Citation, ...]

    def leftover(self) -> str:
        """What the note says besides its citations: must be nothing but separators."""
        return re.sub(r"[\s;,]+", "", CITATION.sub("", self.text))


def citations(text: str) -> tuple[Citation, ...]:
    return tuple(Citation(m["module"], m["version"], m["path"], " ".join(m["snippet"].split()), m["where"] or "")
                 for m in CITATION.finditer(text))


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def notes_in_markdown(path: Path) -> list[Note]:
    text = path.read_text(encoding="utf-8")
    rel = str(path.relative_to(ROOT))
    return [Note(rel, _line(text, m.start()), m[1].strip(), citations(m[1])) for m in NOTE.finditer(text)]


def notes_in_code(path: Path) -> list[Note]:
    text = path.read_text(encoding="utf-8")
    rel = str(path.relative_to(ROOT))
    return [Note(rel, _line(text, m.start()), m[1].strip(), citations(m[1])) for m in CODE_NOTE.finditer(text)]


def notes_in_lesson_yaml(path: Path) -> list[Note]:
    """Each prediction choice's `source:` (the fact its `why` tells)."""
    meta = yaml.safe_load(path.read_text(encoding="utf-8"))
    rel = str(path.relative_to(ROOT))
    out = []
    for step in meta.get("steps") or ():
        for q in step.get("predict") or ():
            for c in q.get("choices") or ():
                if c.get("why") or c.get("source"):
                    src = str(c.get("source") or "")
                    out.append(Note(f"{rel} {step['id']}/{q['id']}/{c['id']}", 0, src, citations(src)))
    return out


def all_notes() -> list[Note]:
    """Every lesson's notes, and the engine's: a fact the tutor's own code relies on (how
    Kubernetes orders, names or counts a thing) is pinned the same way, in a `# source:` comment."""
    out: list[Note] = [note for p in sorted(ENGINE.rglob("*.py")) for note in notes_in_code(p)]
    for p in sorted(LESSONS.rglob("*")):
        if p.suffix == ".md":
            out += notes_in_markdown(p)
        elif p.suffix == ".py":
            out += notes_in_code(p)
        elif p.name == "lesson.yaml":
            out += notes_in_lesson_yaml(p)
    return out


def pinned_modules() -> set[str]:
    """module@version of every module the lab's go.mod requires or replaces: the lab's own source."""
    text = GO_MOD.read_text(encoding="utf-8")
    out = {f"{m}@{v}" for m, v in re.findall(r"^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+(?:/[\w.-]+)*) (v\S+)", text, re.M)}
    out |= {f"{m}@{v}" for m, v in re.findall(r"=>\s*([a-z0-9.-]+\.[a-z]+(?:/[\w.-]+)*) (v\S+)", text)}
    return out


def module_cache() -> Path | None:
    """The Go module cache the lab build fills, or None when there is none here."""
    env = os.environ.get("GOMODCACHE")
    if not env and shutil.which("go"):
        env = subprocess.run(["go", "env", "GOMODCACHE"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout.strip()
    if not env:
        env = str(Path.home() / "go" / "pkg" / "mod")
    path = Path(env)
    return path if path.is_dir() else None


def escaped(module: str) -> str:
    """The module cache writes an upper-case letter as ! and its lower case."""
    return re.sub(r"[A-Z]", lambda m: "!" + m[0].lower(), module)


def find(cache: Path, c: Citation) -> str | None:
    """None when the snippet is in the cited file; else what is wrong."""
    path = cache / f"{escaped(c.module)}@{c.version}" / c.path
    if not path.is_file():
        return f"no file {c.module}@{c.version}/{c.path}"
    code = " ".join(path.read_text(encoding="utf-8", errors="replace").split())
    return None if c.snippet in code else f"«{c.snippet}» is not in {c.module}@{c.version}/{c.path}"
