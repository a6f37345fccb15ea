"""One tutoring session: the store and the answer files fed by a source, verdicts, progress.

The UI and `lwstutor check` both drive a Session, so a verdict means the same in both.
"""

from __future__ import annotations

from collections import Counter

from tutor.checks import evaluate, reads_of
from tutor.checks.context import Context
from tutor.checks.reads import inputs
from tutor.checks.verdict import Verdict
from tutor.cluster import kinds as kind_table
from tutor.cluster.source_events import Conn, FileChanged, ObjectEvent, Relisted, SourceState
from tutor.cluster.store import Store
from tutor.lesson.loader import Lesson
from tutor.progress import Progress
from tutor.workspace.files import FileRead
from tutor.workspace.watch import Workspace


class Session:
    def __init__(self, lesson: Lesson, workdir: str, lang: str, progress: Progress | None = None):
        self.lesson = lesson
        self.store = Store(watched=tuple(k.kind for k in lesson.kinds))
        self.workspace = Workspace(workdir)
        self.progress = progress or Progress()
        self.lang = lang
        self.states: dict[str, SourceState] = {}
        self.verdicts: dict[int, Verdict] = {}
        self._inputs: dict[int, tuple | None] = {}  # step -> what its checker read for its verdict
        self.checker_runs: Counter[int] = Counter()  # step -> its checker's runs
        self.incremental = True  # False: every checker runs every time (a baseline, a reference)
        # Live watches whose first list has not come in yet. Each resource lists on its own
        # thread: a check between the pods' list and the events' would judge the pods without the
        # events that could refute an answer, and a pass then is latched for good.
        self.awaiting_lists: set[str] = set()
        self.listed_once = False  # some watch has listed: a lost link after this is "reconnecting"

    def apply(self, item) -> bool:
        """Applies one item from a source; True when the store, the files or a source's state
        changed."""
        if isinstance(item, SourceState):
            if item.state not in (Conn.CONNECTING, Conn.RECONNECTING):  # listed, or a settled refusal
                self.awaiting_lists.discard(item.resource)
            self.listed_once |= item.state is Conn.OK
            old = self.states.get(item.resource)
            self.states[item.resource] = item
            row = kind_table.named(item.resource)
            if row is not None and item.state in (Conn.FORBIDDEN, Conn.CRD_MISSING):
                self.store.refused.add(row.kind)
            elif row is not None and item.state is Conn.OK:
                self.store.refused.discard(row.kind)
            return old is None or (old.state, old.detail) != (item.state, item.detail)
        return bool(self.changes(item))

    def changes(self, item) -> list:
        """Applies a data item and returns what it changed: ObjectEvents (a relist becomes the
        events that turn the old state into the new), or the item itself for an answer file.
        `lwstutor record` writes exactly these."""
        if isinstance(item, ObjectEvent):
            return [item] if self.store.apply(item) else []
        if isinstance(item, Relisted):
            return self.store.replace(item)
        if isinstance(item, FileChanged):
            written = item.written_at
            if written is None and self.store.started_at is not None:
                written = self.store.started_at + item.t  # seen at once: as good as its mtime
            read = FileRead.from_content(item.name, item.content, written)
            return [item] if self.workspace.update(read) else []
        if isinstance(item, FileRead):
            return [item] if self.workspace.update(item) else []
        return []

    def context(self) -> Context:
        return Context(self.store, self.workspace, self.lesson, self.lang)

    def evaluate(self, numbers: list[int] | None = None, explain: set[int] | None = None) -> list[int]:
        """The verdicts of the steps asked for (all by default); returns the steps that passed
        for the first time. `explain`: the steps whose details carry the scheduler explanations
        (all by default). A checker re-runs only when something it reads (its READS) changed
        since its verdict, or the language or the explanations asked for; else its last
        verdict stands, the very one a re-run would give. Nothing is judged while a live watch
        has yet to bring its first list."""
        if self.awaiting_lists:
            return []
        steps = self.lesson.steps if numbers is None else [self.lesson.step(n) for n in numbers]
        stale: dict[int, tuple | None] = {}  # step -> what its checker reads now
        for step in steps:
            explained = explain is None or step.number in explain
            reads = reads_of(step)
            read = None if reads is None else inputs(reads, self.store, self.workspace, explained)
            now = None if read is None else (self.lang, explained, read)  # None: cannot tell, so re-run
            if not self.incremental or now is None or self._inputs.get(step.number) != now \
                    or step.number not in self.verdicts:
                stale[step.number] = now
        self.verdicts.update(evaluate(self.context(), list(stale), explain))
        self._inputs.update(stale)
        self.checker_runs.update(stale.keys())
        asked = sorted({s.number for s in steps})
        return [n for n in asked if self.verdicts[n].passed and self.progress.latch(n, self.verdicts[n].message)]

    def connection(self) -> Conn:
        """The state the header shows: a link in trouble first; a forbidden or missing optional
        resource is shown on its own pane and only then here."""
        order = [Conn.RECONNECTING, Conn.CONNECTING, Conn.FORBIDDEN, Conn.CRD_MISSING, Conn.ENDED, Conn.OK]
        states = {s.state for s in self.states.values()}
        return next((st for st in order if st in states), Conn.CONNECTING)
