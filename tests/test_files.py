"""Answer-file reads never block, never blow up memory and say what is wrong."""

from __future__ import annotations

import os
import threading

import pytest

from tutor.workspace.files import SIZE_CAP, FileRead, Problem, read_answer


def read(path) -> FileRead:
    return read_answer(str(path))


def test_plain_file(tmp_path):
    (tmp_path / "a.txt").write_text("pod=llm-0 group=0 worker=0\n")
    r = read(tmp_path / "a.txt")
    assert r.ok and r.text == "pod=llm-0 group=0 worker=0\n" and r.problem is None


def test_missing(tmp_path):
    assert read(tmp_path / "nope.txt").problem is Problem.MISSING


def test_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "names.txt"
    os.mkfifo(fifo)
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("r", read(fifo)), daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "reading a FIFO blocked"
    assert result["r"].problem is Problem.NOT_REGULAR and result["r"].detail == "FIFO"


def test_symlink_to_dev_zero(tmp_path):
    (tmp_path / "env.txt").symlink_to("/dev/zero")
    r = read(tmp_path / "env.txt")
    assert r.problem is Problem.NOT_REGULAR and "device" in r.detail


def test_symlink_loop(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert read(tmp_path / "a").problem is Problem.LOOP


def test_symlink_to_regular_file_is_followed(tmp_path):
    (tmp_path / "real.txt").write_text("x=1\n")
    (tmp_path / "dns.txt").symlink_to(tmp_path / "real.txt")
    assert read(tmp_path / "dns.txt").text == "x=1\n"


def test_sparse_gigabyte_is_refused_without_reading(tmp_path):
    big = tmp_path / "dns.txt"
    with open(big, "wb") as fh:
        fh.truncate(1 << 30)
    r = read(big)
    assert r.problem is Problem.TOO_LARGE and r.detail == str(1 << 30)


def test_just_over_the_cap(tmp_path):
    (tmp_path / "f").write_bytes(b"a" * (SIZE_CAP + 1))
    assert read(tmp_path / "f").problem is Problem.TOO_LARGE


def test_directory(tmp_path):
    (tmp_path / "names.txt").mkdir()
    assert read(tmp_path / "names.txt").problem is Problem.DIRECTORY


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file regardless of its mode")
def test_no_permission(tmp_path):
    f = tmp_path / "env.txt"
    f.write_text("LWS_X=1\n")
    f.chmod(0)
    assert read(f).problem is Problem.DENIED


def test_not_utf8(tmp_path):
    (tmp_path / "f").write_bytes(b"pod=llm-0 \xff\xfe group\n")
    r = read(tmp_path / "f")
    assert r.problem is Problem.NOT_UTF8 and r.detail == "byte 10"


def test_utf16_with_bom_is_decoded(tmp_path):
    (tmp_path / "f").write_bytes("LWS_GROUP_SIZE=2\r\n".encode("utf-16"))
    r = read(tmp_path / "f")
    assert r.text == "LWS_GROUP_SIZE=2\n" and r.note == "utf-16"


def test_crlf_is_normalised(tmp_path):
    (tmp_path / "f").write_bytes(b"a=1\r\nb=2\r\n")
    r = read(tmp_path / "f")
    assert r.text == "a=1\nb=2\n" and r.note == "crlf"


def test_utf8_bom_is_stripped(tmp_path):
    (tmp_path / "f").write_bytes(b"\xef\xbb\xbfa=1\n")
    assert read(tmp_path / "f").text == "a=1\n"


def test_binary(tmp_path):
    (tmp_path / "f").write_bytes(b"ELF\x00\x01")
    assert read(tmp_path / "f").problem is Problem.BINARY


def test_empty_file_reads_as_empty_text(tmp_path):
    (tmp_path / "f").write_text("")
    assert read(tmp_path / "f").text == ""


def test_from_recording_content():
    assert FileRead.from_content("a", None).problem is Problem.MISSING
    assert FileRead.from_content("a", "x\r\n").text == "x\n"
