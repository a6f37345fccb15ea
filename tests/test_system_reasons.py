"""A system's reason says as much in Korean as in English: for every error number the system
has, and every reason a host name lookup gives (socket.gaierror), the Korean is a sentence of
our own or keeps the system's English words. It said "시스템 오류입니다(오류 번호 -2)" where
English said "Name or service not known" (`serve --host 256.1.1.1`). SQLite's reasons likewise
(`lwstutor class --db`): Korean of our own, with the error's name kept."""

from __future__ import annotations

import errno
import os
import socket
import sqlite3
from pathlib import Path

import pytest

from tests.hostile_cli import assert_one_line_error, lwstutor
from tests.lang_scan import scan
from tutor.i18n.bilingual import os_reason, system_reason
from tutor.i18n.sqlite_reasons import sqlite_reason

HANGUL = range(0xAC00, 0xD7A4)
LOOKUP = {n: getattr(socket, n) for n in dir(socket) if n.startswith("EAI_")}


def _reasons() -> list[tuple[int, str]]:
    out = [(code, os.strerror(code)) for code in sorted(errno.errorcode)]
    out += [(code, f"lookup reason {name}") for name, code in sorted(LOOKUP.items())]
    return out


@pytest.mark.parametrize("code,text", _reasons(), ids=lambda v: str(v))
def test_the_korean_is_ours_or_keeps_the_systems_words(code: int, text: str):
    en, ko = system_reason(code, text)
    assert en == text
    assert any(ord(ch) in HANGUL for ch in ko)
    ours = "시스템 오류입니다" not in ko
    assert ours or text in ko, ko


def test_a_name_that_does_not_resolve_is_said_in_korean():
    # what getaddrinfo raises for `serve --host 256.1.1.1` (no lookup here: the tests stay on loopback)
    en, ko = os_reason(socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
    assert en == "Name or service not known"
    assert ko == "그런 이름이나 서비스를 찾을 수 없습니다"


def test_without_a_number_it_still_keeps_the_words():
    assert system_reason(None, "Something odd") == ("Something odd", "시스템 오류입니다: Something odd")
    assert system_reason(None, None) == ("system error", "시스템 오류입니다: system error")


# --- SQLite's reasons: `lwstutor class --db` ---------------------------------------------------

def _not_a_database(root: Path) -> Path:
    (root / "notes.txt").write_text("my own notes, not a database\n")
    return root / "notes.txt"


def _a_directory(root: Path) -> Path:
    (root / "a-dir").mkdir()
    return root / "a-dir"


def _under_a_file(root: Path) -> Path:
    (root / "a-file").write_text("x\n")
    return root / "a-file" / "class.sqlite3"


BAD_DB = {  # what stands at --db: what each must say, in English and in Korean (SQLite's error name kept)
    "a directory": (_a_directory, "is a directory, not a file", "파일이 아니라 디렉터리입니다"),
    "a file that is not a database": (_not_a_database, "SQLITE_NOTADB", "데이터베이스 파일이 아닙니다(SQLITE_NOTADB)"),
    # its directory cannot be made: the system would say only "File exists"
    "a path under a file": (_under_a_file, "(Not a directory)", "경로 중간에 디렉터리가 아닌 것이 있습니다"),
}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("case", list(BAD_DB))
def test_a_bad_class_db_is_one_line_in_the_learners_language(case, lang, tmp_path):
    make, en, ko = BAD_DB[case]
    db = make(tmp_path)
    run = lwstutor("class", "--db", str(db), "--port", "0", "--lang", lang,
                   env={"XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path / "home")})
    message = assert_one_line_error(run, str(db))
    assert (en if lang == "en" else ko) in message, message
    if lang == "ko":
        assert not [str(f) for f in scan(message, "ko")], message


def _sqlite_error(tmp_path: Path, what) -> sqlite3.Error:
    try:
        what(tmp_path)
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("SQLite took it")


def _write_read_only(tmp_path: Path) -> None:
    sqlite3.connect(tmp_path / "db").execute("CREATE TABLE t (x)")
    sqlite3.connect(f"file:{tmp_path / 'db'}?mode=ro", uri=True).execute("INSERT INTO t VALUES (1)")


@pytest.mark.parametrize("what,name,ko", [
    (_write_read_only, "SQLITE_READONLY", "읽기 전용이라 쓸 수 없습니다"),
    (lambda p: sqlite3.connect(_a_directory(p)).execute("PRAGMA user_version"), "SQLITE_CANTOPEN",
     "데이터베이스 파일을 열 수 없습니다"),
    (lambda p: sqlite3.connect(_not_a_database(p)).execute("PRAGMA user_version"), "SQLITE_NOTADB",
     "데이터베이스 파일이 아닙니다"),
])
def test_sqlites_reason_is_korean_with_its_name(what, name, ko, tmp_path):
    exc = _sqlite_error(tmp_path, what)
    en_said, ko_said = sqlite_reason(exc)
    assert en_said == f"{exc} ({name})"
    assert ko_said == f"{ko}({name})"


def test_a_reason_without_korean_of_ours_still_names_the_error():
    exc = sqlite3.OperationalError("something rare")
    exc.sqlite_errorname = "SQLITE_MISMATCH"  # as SQLite sets it
    assert sqlite_reason(exc) == ("something rare (SQLITE_MISMATCH)", "데이터베이스 오류가 났습니다(SQLITE_MISMATCH)")
