"""argparse's own words in Korean come from a gettext catalogue (tutor/i18n/argparse.ko.po), read
as text by tutor/i18n/catalogue.py: each message there is one argparse says, keeps its fields and
fits its particles; a parser in Korean lends argparse the catalogue only while it speaks."""

from __future__ import annotations

import argparse
import gettext
import inspect
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tutor.cli import build_parser
from tutor.i18n import catalogue, command_line

PO = Path(catalogue.__file__).with_name("argparse.ko.po")
FIELD = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def korean() -> dict:
    return catalogue.of("argparse", "ko").messages()


def test_each_message_is_one_argparse_says():
    """A msgid that argparse does not say (a typo, a message reworded in a later Python) would
    leave its message in English: each is in argparse's source, as the text it looks up."""
    source = inspect.getsource(argparse)
    msgids = {k if isinstance(k, str) else k[0] for k in korean()}
    assert len(msgids) >= 15
    missing = [m for m in msgids if f"'{m}'" not in source and f'"{m}"' not in source]
    assert missing == [], missing


def test_each_korean_keeps_the_fields_argparse_fills():
    """A Korean text may leave a field out (the value's type, a program's word), never add one
    argparse does not fill, and keeps the positional ones (argparse fills them in order)."""
    for key, ko in korean().items():
        msgid = key if isinstance(key, str) else key[0]
        en_fields, ko_fields = FIELD.findall(msgid), FIELD.findall(ko)
        named = {f for f in ko_fields if f}
        assert named <= {f for f in en_fields if f}, (msgid, ko)
        assert ko_fields.count("") == en_fields.count(""), (msgid, ko)


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="GNU gettext's msgfmt is not installed")
def test_msgfmt_reads_the_catalogue():
    res = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(PO)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_a_particle_after_a_field_fits_what_fills_it():
    assert catalogue.fill("%(v)r은 %(w)s과", {"v": "llm-0", "w": "리더"}) == "'llm-0'은 리더와"
    assert catalogue.fill("%(v)r은 %(w)s과", {"v": "names.txt", "w": "llm-1-1"}) == "'names.txt'는 llm-1-1과"
    assert catalogue.fill("%s을 %d%%", ("파일", 5)) == "파일을 5%"
    assert catalogue.fill("%s을 %d%%", ("UID", 5)) == "UID를 5%"
    assert catalogue.fill("%s이름", ("리더",)) == "리더이름"  # a word, not a particle: left as written
    assert catalogue.fill("plain %s", ("x",)) == "plain x"


def test_a_filled_message_knows_which_it_is():
    words = catalogue.of("argparse", "ko")
    said = words.gettext("ignored explicit argument %r") % "yes"
    assert said == "이 옵션은 값을 받지 않습니다('yes')"
    assert (said.msgid, said.values) == ("ignored explicit argument %r", "yes")
    english = catalogue.of("argparse", "en")
    assert english.gettext("usage: ") == "usage: " and english.gettext(None) is None
    assert english.ngettext("expected %s argument", "expected %s arguments", 2) % 2 == "expected 2 arguments"
    assert words.ngettext("expected %s argument", "expected %s arguments", 2) % 2 == "값이 2개 필요합니다"


def test_the_reader_reads_what_a_po_file_may_hold():
    po = catalogue.Catalogue()
    po._parse_text('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                   '#, fuzzy\nmsgid "draft"\nmsgstr "초안"\n\n'
                   '# a comment\nmsgid "two "\n"lines"\nmsgstr "두 "\n"줄 \\"따옴표\\""\n\n'
                   'msgctxt "menu"\nmsgid "Open"\nmsgstr "열기"\n\n'
                   'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "파일 %d개"\nmsgstr[1] "파일들 %d개"\n')
    assert po.gettext("draft") == "draft"  # fuzzy: not used, as msgfmt leaves it out
    assert po.gettext("two lines") == '두 줄 "따옴표"'
    assert po.messages()["menu\x04Open"] == "열기"
    assert po.ngettext("%d file", "%d files", 1) % 1 == "파일 1개"
    assert po.ngettext("%d file", "%d files", 3) % 3 == "파일들 3개"
    with pytest.raises(ValueError, match="line 1"):
        catalogue.Catalogue()._parse_text("msgid unquoted\n")


def test_argparse_speaks_the_learners_language_only_while_a_parser_speaks(capsys):
    before = vars(argparse)["_"], vars(argparse)["ngettext"]
    assert before == (gettext.gettext, gettext.ngettext)
    for lang, said in (("ko", "알 수 없는 인자입니다: --bogus"), ("en", "unrecognized arguments: --bogus")):
        with pytest.raises(SystemExit):
            build_parser(lang=lang).parse_args(["--bogus"])
        assert said in capsys.readouterr().err
        assert (vars(argparse)["_"], vars(argparse)["ngettext"]) == before
    with command_line.speaking("ko"), command_line.speaking("en"):
        assert argparse.ArgumentParser(prog="x").format_usage() == "usage: x [-h]\n"
    assert argparse.ArgumentParser(prog="x").format_usage() == "usage: x [-h]\n"
    assert build_parser(lang="ko").format_usage().startswith("사용법: lwstutor")
