"""Loads a lesson: lesson.yaml (the step list) plus per-step markdown in each language.

Step markdown is split into sections by its headings (so a `##` inside a code block is not a
heading): the `# Title`, the instructions, each `## Hint`, the `## Solution` (the whole answer,
shown only when the learner asks for it and confirms) and the `## What you just saw` recap.
Heading words per language come from lesson.yaml.

The lesson is loaded before the tutor's first frame, so its step files are read then but split
only when a step's text is first asked for (the step shown first, before that frame; the others
later), and their headings are found by a line scanner (tutor/lesson/headings.py) that leaves
the shapes it does not follow to markdown-it, imported only then. A broken step file therefore
raises its LessonError when its text is first asked for; `Lesson.check_texts` asks for them all
(the commands do, and the tutor does once its first frame is up).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import yaml

from tutor.cluster import kinds as kind_table
from tutor.lesson import lab as lab_block
from tutor.lesson.ending import Finish, parse_finish
from tutor.lesson.headings import Heading, headings

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


class LessonError(ValueError):
    pass


@dataclass(frozen=True)
class StepText:
    title: str
    body: str
    hints: tuple[str, ...]
    recap: str
    solution: str = ""  # the whole answer, apart from the hints (which show part of the way)


@dataclass(frozen=True)
class StoryRef:
    """The episode of one LWS's story a step tells (tutor/cluster/story.py, recap)."""
    lws: str
    episode: str  # "recreation" (of `group`, after a failure), "rollout", "gang-held" or "gang-placed" (of `group`)
    group: int | None
    heads: dict[str, str]  # the line above it in the verdict, per language
    failed: str = ""  # the pod the step fails, whose failure's recreation it tells first

    def head(self, lang: str) -> str:
        return self.heads.get(lang) or next(iter(self.heads.values()), "")


@dataclass(frozen=True)
class Choice:
    """One answer to a prediction question: its id (what its grader says the timeline bore
    out), its words, and why it is not what happened, when it was picked and it was not."""
    id: str
    texts: dict[str, str]
    why: dict[str, str] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        return _in(self.texts, lang)

    def why_not(self, lang: str) -> str:
        return _in(self.why, lang)


@dataclass(frozen=True)
class Question:
    """A question asked before a step's episode (its `story`) happens, graded once it has: by
    `grade`, a function of the step's checker module (episode, story) -> which choice it bore out."""
    id: str
    texts: dict[str, str]
    choices: tuple[Choice, ...]
    grade: str

    def text(self, lang: str) -> str:
        return _in(self.texts, lang)

    def choice(self, choice_id: str) -> Choice | None:
        return next((c for c in self.choices if c.id == choice_id), None)


def _in(texts: dict[str, str], lang: str) -> str:
    return texts.get(lang) or next(iter(texts.values()), "")


class StepFile:
    """A step's markdown in one language, as read from its file, and the words of its sections.
    (A plain class: making a dataclass costs more than the tutor's start-up has for it.)"""
    __slots__ = ("path", "markdown", "hint", "recap", "solution")

    def __init__(self, path: str, markdown: str, hint: str = "Hint", recap: str = "What you just saw",
                 solution: str = "Solution") -> None:
        self.path, self.markdown, self.hint, self.recap, self.solution = path, markdown, hint, recap, solution

    def split(self) -> StepText:
        return split_sections(self.markdown, self.hint, self.recap, self.path, self.solution)


class StepTexts(MutableMapping[str, StepText]):
    """A step's texts by language: each is split from its file the first time it is asked for
    (raising the file's LessonError then, if it is broken) and kept."""

    def __init__(self, files: Mapping[str, StepFile]) -> None:
        self._files = dict(files)
        self._texts: dict[str, StepText] = {}

    def __getitem__(self, lang: str) -> StepText:
        text = self._texts.get(lang)
        if text is None:
            text = self._texts[lang] = self._files[lang].split()
        return text

    def __setitem__(self, lang: str, text: StepText) -> None:
        self._texts[lang] = text

    def __delitem__(self, lang: str) -> None:
        if lang not in self:
            raise KeyError(lang)
        self._files.pop(lang, None)
        self._texts.pop(lang, None)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._files, *self._texts]))

    def __len__(self) -> int:
        return len(self._files.keys() | self._texts.keys())

    def __repr__(self) -> str:
        return f"StepTexts({list(self)}, split={list(self._texts)})"


@dataclass(frozen=True)
class Step:
    number: int
    id: str
    files: tuple[str, ...]
    titles: dict[str, str]
    texts: Mapping[str, StepText] = field(default_factory=dict, compare=False)  # split when first asked for
    ledger: bool = False  # the node ledger in the groups pane's place: a step about where pods land
    nodes: tuple[str, ...] = ()  # the nodes the step is about (the ledger shows them first)
    story: StoryRef | None = None
    predict: tuple[Question, ...] = ()  # asked before the story's episode, graded by it
    package: str = ""  # the lesson's checkers (<package>.<id with _ for ->)

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or next(iter(self.titles.values()), self.id)

    def text(self, lang: str) -> StepText:
        return self.texts.get(lang) or next(iter(self.texts.values()))

    @property
    def checker(self) -> str:
        """The checker's module, by the step's one name."""
        return f"{self.package}.{self.id.replace('-', '_')}"

    def checks(self) -> ModuleType:
        """The checker's module (check(ctx) and READS), imported when a step first runs: no
        checker runs before the tutor's first frame, so none is imported before it."""
        return importlib.import_module(self.checker)


@dataclass(frozen=True)
class Lesson:
    id: str
    titles: dict[str, str]
    namespace: str
    workdir: str
    gpu_resource: str
    languages: tuple[str, ...]
    steps: tuple[Step, ...]
    intro: dict[str, str]
    # The kinds it watches (lesson.yaml `kinds`, rows of tutor/cluster/kinds.py): only these are
    # listed and watched, and asked for by doctor. A lesson that names none watches the default.
    kinds: tuple[kind_table.Kind, ...] = kind_table.DEFAULT
    # The lab it needs (lesson.yaml `lab`, tutor/lesson/lab.py): what doctor checks, and the lab's
    # names and conventions its checkers read.
    lab: lab_block.Lab = lab_block.NONE
    finish: Finish | None = None  # what it says once every step passed (the next module, links)

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.id

    def step(self, number: int) -> Step:
        return self.steps[number - 1]

    def in_workdir(self, text: str, workdir: str) -> str:
        """The lesson's text with its default workdir's paths (/root/gsb-lws/lws.yaml) written in
        the one in use (--workdir), so instructions, hints and commands name the files checked."""
        default = self.workdir.rstrip("/")
        return text.replace(default, workdir.rstrip("/")) if default and workdir.rstrip("/") != default else text

    def check_texts(self, numbers: Iterable[int] | None = None) -> None:
        """Splits the text of these steps (every step by default) in every language now: a broken
        step file raises its LessonError here, not when the step is first shown."""
        for n in numbers if numbers is not None else range(1, len(self.steps) + 1):
            for _ in self.step(n).texts.values():
                pass

    @property
    def answer_files(self) -> list[str]:
        return sorted({f for s in self.steps for f in s.files})


DEFAULT = "lws"


def lessons_root() -> Path:
    """The directory of the package tutor.lessons, which is installed as files. Asked of the
    package itself: importlib.resources would import its readers (and zipfile) for it, before the
    tutor's first frame."""
    init = importlib.import_module("tutor.lessons").__file__
    assert init is not None  # a regular package (lessons/__init__.py), not a namespace one
    return Path(init).parent


def lesson_dir(lesson_id: str = DEFAULT) -> Path:
    return lessons_root() / lesson_id


def available() -> list[str]:
    """The lessons installed: each directory of tutor.lessons with a lesson.yaml."""
    return sorted(p.name for p in lessons_root().iterdir() if (p / "lesson.yaml").is_file())


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    """One parser for every step: building one costs more than parsing a step's markdown.
    Only the block structure: headings and their text come from the block parser (the inline
    pass, emphasis, code spans and links of every paragraph, would double its time)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable("inline")


def markdown_it_headings(md: str) -> list[Heading]:
    """The h1 and h2 headings of `md`, by markdown-it: (tag, title, first line, line after)."""
    tokens = _markdown().parse(md)
    return [(tok.tag, tokens[i + 1].content.strip(), tok.map[0], tok.map[1]) for i, tok in enumerate(tokens)
            if tok.type == "heading_open" and tok.tag in ("h1", "h2") and tok.map]


def split_sections(md: str, hint_word: str, recap_word: str, where: str,
                   solution_word: str = "Solution") -> StepText:
    lines = md.splitlines()
    heads = headings(md)  # (level, title, first line, line after the heading)
    if heads is None:  # a shape the line scanner leaves to markdown-it
        heads = markdown_it_headings(md)
    if not heads or heads[0][0] != "h1":
        raise LessonError(f"{where}: must start with a '# Title' heading")

    def section(n: int) -> str:
        end = heads[n + 1][2] if n + 1 < len(heads) else len(lines)
        return "\n".join(lines[heads[n][3]:end]).strip()

    body, hints, recap, solution = section(0), [], "", None
    for n, (tag, title, _, _) in enumerate(heads[1:], start=1):
        if tag == "h1":
            raise LessonError(f"{where}: only one '# Title' heading is allowed")
        if title.lower().startswith(hint_word.lower()):
            if solution is not None:
                raise LessonError(f"{where}: '## {hint_word}' after '## {solution_word}' (the solution is the last rung)")
            hints.append(section(n))
        elif title.lower().startswith(solution_word.lower()):
            if solution is not None:
                raise LessonError(f"{where}: only one '## {solution_word}' section is allowed")
            solution = section(n)
        elif title.lower().startswith(recap_word.lower()):
            recap = section(n)
        else:
            raise LessonError(f"{where}: unknown section '## {title}' "
                              f"(expected '## {hint_word}', '## {solution_word}' or '## {recap_word}')")
    if not hints:
        raise LessonError(f"{where}: needs at least one '## {hint_word}' section")
    return StepText(heads[0][1], body, tuple(hints), recap, solution or "")


# The episodes a step's story may name (Story.step_episode, tutor/cluster/story.py).
EPISODES = ("recreation", "rollout", "gang-held", "gang-placed")


def _story(raw: object, where: str) -> StoryRef | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw.get("lws") or raw.get("episode") not in EPISODES:
        raise LessonError(f"{where}: story needs lws and an episode ({', '.join(EPISODES)})")
    group = raw.get("group")
    return StoryRef(str(raw["lws"]), raw["episode"], int(group) if group is not None else None,
                    dict(raw.get("head") or {}), str(raw.get("failed") or ""))


def _predict(raw: object, story: StoryRef | None, where: str) -> tuple[Question, ...]:
    if raw is None:
        return ()
    if story is None:
        raise LessonError(f"{where}: predict needs the step's story (the episode that grades it)")
    if not isinstance(raw, list):
        raise LessonError(f"{where}: predict is a list of questions")
    questions = []
    for q in raw:
        choices = q.get("choices") if isinstance(q, dict) else None
        if not isinstance(choices, list) or not 2 <= len(choices) <= 9 or not q.get("id") or not q.get("grade") \
                or not isinstance(q.get("question"), dict) or not all(isinstance(c, dict) and c.get("id") for c in choices):
            raise LessonError(f"{where}: a predict question needs an id, a question, a grade and 2 to 9 choices with ids")
        questions.append(Question(str(q["id"]), dict(q["question"]), tuple(
            Choice(str(c["id"]), dict(c.get("text") or {}), dict(c.get("why") or {})) for c in choices), str(q["grade"])))
    return tuple(questions)


@lru_cache(maxsize=8)
def load(lesson_id: str = DEFAULT, root: Path | None = None) -> Lesson:
    """Loads (once per process: the CLI's defaults and the command both need it) a lesson."""
    base = root or lesson_dir(lesson_id)
    try:
        # libyaml's loader when PyYAML has it (ten times faster; the lesson is read before the first frame)
        meta = yaml.load((base / "lesson.yaml").read_text(encoding="utf-8"),
                         Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError) as exc:
        raise LessonError(f"{base / 'lesson.yaml'}: {exc}") from None
    langs = tuple(meta.get("languages") or ("en",))
    words = meta.get("sections") or {}
    steps = []
    for number, raw in enumerate(meta.get("steps") or [], start=1):
        stem = f"{number:02d}-{raw['id']}"
        files = {}
        for lang in langs:
            path = base / "steps" / f"{stem}.{lang}.md"
            try:
                md = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise LessonError(f"{path}: {exc.strerror or exc}") from None
            files[lang] = StepFile(str(path), md, words.get("hint", {}).get(lang, "Hint"),
                                   words.get("recap", {}).get(lang, "What you just saw"),
                                   words.get("solution", {}).get(lang, "Solution"))
        story = _story(raw.get("story"), where=stem)
        steps.append(Step(number, raw["id"], tuple(raw.get("files") or ()), dict(raw.get("title") or {}), StepTexts(files),
                          ledger=bool(raw.get("ledger")), nodes=_node_names(raw.get("nodes"), stem),
                          story=story, predict=_predict(raw.get("predict"), story, stem),
                          package=f"tutor.lessons.{lesson_id}.checks"))
    try:
        watched = kind_table.chosen(_names(meta.get("kinds"), "kinds"))
        lab = lab_block.parse(meta.get("lab"))
        finish = parse_finish(meta.get("finish"), langs, "finish")
    except ValueError as exc:
        raise LessonError(f"{base / 'lesson.yaml'}: {exc}") from None
    intro = {}
    for lang in langs:
        p = base / f"intro.{lang}.md"
        intro[lang] = p.read_text(encoding="utf-8") if p.exists() else ""
    return Lesson(
        id=meta.get("id", lesson_id),
        titles=dict(meta.get("title") or {}),
        namespace=meta.get("namespace", "default"),
        workdir=meta.get("workdir", "."),
        gpu_resource=meta.get("gpu_resource", "nvidia.com/gpu"),
        languages=langs,
        steps=tuple(steps),
        intro=intro,
        kinds=watched,
        lab=lab,
        finish=finish,
    )


def _node_names(raw: object, stem: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) and x for x in raw):
        raise LessonError(f"step {stem}: nodes is a list of node names")
    return tuple(raw)


def _names(raw: object, key: str) -> tuple[str, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        raise ValueError(f"{key} is a list of kinds (Pod, LeaderWorkerSet, ...)")
    return tuple(raw)
