"""The class on disk: one SQLite file (WAL, so the instructor's reads never wait on a write).

Learners (their names, and a hash of each one's key: the key itself is never kept), each step's
latest state per learner, the two tokens (so a restart prints the same addresses), and a log of
every report taken. Every write is one transaction: a server killed at any moment keeps all it
answered 200 for.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from tutor.classroom.report import Report

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learners (
  id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, key_hash TEXT NOT NULL,
  lesson TEXT NOT NULL, current INTEGER NOT NULL DEFAULT 1, joined_at REAL NOT NULL, last_seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS steps (
  learner TEXT NOT NULL REFERENCES learners(id), lesson TEXT NOT NULL, step INTEGER NOT NULL,
  status TEXT NOT NULL, message TEXT NOT NULL, hints INTEGER NOT NULL, predictions INTEGER NOT NULL,
  seconds REAL NOT NULL, at REAL NOT NULL, PRIMARY KEY (learner, lesson, step));
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY, learner TEXT NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL);
"""
TOKENS = ("join_token", "instructor_token")
MAX_LEARNERS = 500  # a class, not a crowd: the join token leaked cannot fill the disk with learners


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class Tokens:
    join: str        # in the learners' address
    instructor: str  # in the instructor's


class NameTaken(Exception):
    """Another learner joined under this name (and this join has not their key)."""


class ClassFull(Exception):
    """MAX_LEARNERS have joined."""


class ClassStore:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the transactions are the explicit `with self._db` blocks below
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a 200 means on disk, power loss included
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self.tokens = self._tokens()

    def close(self) -> None:
        self._db.close()

    def _tokens(self) -> Tokens:
        """Made once, with the class; read back on every start after."""
        with self._transaction():
            for name in TOKENS:
                self._db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (name, secrets.token_urlsafe(24)))
        got = dict(self._db.execute("SELECT name, value FROM meta WHERE name IN (?, ?)", TOKENS).fetchall())
        return Tokens(got["join_token"], got["instructor_token"])

    def _transaction(self):
        return _Transaction(self._db)

    # --- learners ------------------------------------------------------------------------------
    def join(self, name: str, lesson: str, key: str = "") -> tuple[str, str]:
        """(learner id, key) for `name`: a new learner, or the one of that name when `key` is
        theirs (a tutor started again). NameTaken when the name is another's."""
        now = time.time()
        with self._transaction():
            row = self._db.execute("SELECT id, key_hash FROM learners WHERE name = ?", (name,)).fetchone()
            if row is not None:
                if not key or not hmac.compare_digest(row[1], _hash(key)):
                    raise NameTaken(name)
                self._db.execute("UPDATE learners SET lesson = ?, last_seen = ? WHERE id = ?", (lesson, now, row[0]))
                self._log(row[0], now, "rejoin", {"lesson": lesson})
                return row[0], key
            if self._db.execute("SELECT count(*) FROM learners").fetchone()[0] >= MAX_LEARNERS:
                raise ClassFull()
            learner, key = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
            self._db.execute("INSERT INTO learners VALUES (?, ?, ?, ?, 1, ?, ?)",
                             (learner, name, _hash(key), lesson, now, now))
            self._log(learner, now, "join", {"name": name, "lesson": lesson})
            return learner, key

    def seconds(self, learner: str, lesson: str) -> dict[int, float]:
        """The seconds a learner spent on each step of a lesson, as last reported."""
        return dict(self._db.execute("SELECT step, seconds FROM steps WHERE learner = ? AND lesson = ?",
                                     (learner, lesson)).fetchall())

    def owns(self, learner: str, key: str) -> bool:
        """Whether `key` is this learner's (a report naming another learner is refused)."""
        row = self._db.execute("SELECT key_hash FROM learners WHERE id = ?", (learner,)).fetchone()
        return row is not None and hmac.compare_digest(row[0], _hash(key))

    # --- reports -------------------------------------------------------------------------------
    def take(self, report: Report) -> None:
        now = time.time()
        with self._transaction():
            self._db.execute("UPDATE learners SET lesson = ?, current = ?, last_seen = ? WHERE id = ?",
                             (report.lesson, report.current, now, report.learner))
            self._db.executemany(
                "INSERT OR REPLACE INTO steps VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(report.learner, report.lesson, s.step, s.status, s.message, s.hints, s.predictions, s.seconds, now)
                 for s in report.steps])
            self._log(report.learner, now, "report" if report.steps else "heartbeat",
                      {"lesson": report.lesson, "current": report.current,
                       "steps": [[s.step, s.status, s.message] for s in report.steps]})

    def _log(self, learner: str, at: float, kind: str, body: dict) -> None:
        self._db.execute("INSERT INTO log (learner, at, kind, body) VALUES (?, ?, ?, ?)",
                         (learner, at, kind, json.dumps(body, ensure_ascii=False)))

    # --- what the instructor reads -------------------------------------------------------------
    def state(self) -> dict:
        """Every learner, in the order they joined, with the steps of the lesson they are on."""
        learners = []
        for lid, name, lesson, current, joined, seen in self._db.execute(
                "SELECT id, name, lesson, current, joined_at, last_seen FROM learners ORDER BY joined_at, id"):
            steps = {str(step): {"status": status, "message": message, "hints": hints, "predictions": predictions,
                                 "seconds": seconds, "at": at}
                     for step, status, message, hints, predictions, seconds, at in self._db.execute(
                         "SELECT step, status, message, hints, predictions, seconds, at FROM steps "
                         "WHERE learner = ? AND lesson = ? ORDER BY step", (lid, lesson))}
            learners.append({"id": lid, "name": name, "lesson": lesson, "current": current,
                             "joined_at": joined, "last_seen": seen, "steps": steps})
        return {"now": time.time(), "learners": learners}

    def log_count(self) -> int:
        return self._db.execute("SELECT count(*) FROM log").fetchone()[0]


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on an error: all of a write or none of it."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, tb) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
