"""SQLite's reasons (a sqlite3.Error), in plain words: (English, Korean). The English is SQLite's
own sentence; both name the error (SQLITE_CANTOPEN), the one detail a reader can search for."""

from __future__ import annotations

from tutor.i18n.bilingual import Words

# By SQLite's primary result code's name (an extended one, SQLITE_CANTOPEN_ISDIR, is read as its
# primary): what a Korean writer would say for it.
_KO = {
    "SQLITE_CANTOPEN": "데이터베이스 파일을 열 수 없습니다",
    "SQLITE_NOTADB": "데이터베이스 파일이 아닙니다",
    "SQLITE_READONLY": "읽기 전용이라 쓸 수 없습니다",
    "SQLITE_PERM": "권한이 없습니다",
    "SQLITE_AUTH": "권한이 없습니다",
    "SQLITE_BUSY": "다른 프로그램이 쓰고 있습니다",
    "SQLITE_LOCKED": "잠겨 있습니다",
    "SQLITE_IOERR": "입출력 오류가 났습니다",
    "SQLITE_CORRUPT": "데이터베이스 파일이 손상되었습니다",
    "SQLITE_FULL": "디스크 공간이 없습니다",
    "SQLITE_NOMEM": "메모리가 모자랍니다",
    "SQLITE_NOLFS": "이 시스템에서는 큰 파일을 쓸 수 없습니다",
    "SQLITE_PROTOCOL": "파일 잠금이 맞지 않습니다",
    "SQLITE_SCHEMA": "데이터베이스의 구조가 바뀌었습니다",
    "SQLITE_TOOBIG": "데이터가 너무 큽니다",
}


def primary(name: str) -> str:
    """SQLITE_CANTOPEN_ISDIR -> SQLITE_CANTOPEN."""
    return "_".join(name.split("_")[:2])


def sqlite_reason(exc: BaseException) -> Words:
    """Why SQLite refused, with its error's name: never in Korean SQLite's English sentence."""
    name = getattr(exc, "sqlite_errorname", None) or "SQLITE_ERROR"
    en = f"{exc} ({name})" if str(exc) else name
    ko = _KO.get(primary(name), "데이터베이스 오류가 났습니다")
    return en, f"{ko}({name})"
