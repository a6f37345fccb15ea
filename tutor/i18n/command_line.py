"""The command line's own words in the learner's language: argparse's, the option values' names,
and the checks of the numbers the options take.

argparse words its usage line, its help and its errors in English, each looked up through
gettext as it is said (`from gettext import gettext as _, ngettext` in argparse). A parser in
Korean lends argparse the catalogue of its words in Korean (argparse.ko.po) while it speaks
(`speaking`), and puts back what argparse had. Two of argparse's errors the tutor words its own
way, in both languages, from their parts: an option that takes no value, and a command there is
not. The language is known before parsing (peek_lang), so even an error in parsing --lang itself
is said in the learner's language.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from contextlib import contextmanager

from tutor.i18n import catalogue
from tutor.i18n.bilingual import say
from tutor.i18n.particles import particle

VERSION = ("show the version and exit", "버전을 보여 주고 끝냅니다")
SEE_HELP = ("help: {prog} --help", "도움말: {prog} --help")
# What an option's value is, as the help and the usage name it: argparse's capitals in English,
# the word itself in Korean (a Korean reader reads FILE as letters, not as 파일). N is not here: a
# number means what its option counts, so an option taking one names it in Korean itself.
METAVARS = {"FILE": "파일", "DIR": "디렉터리", "NAME": "이름", "CONTEXT": "컨텍스트", "NAMESPACE": "네임스페이스",
            "SPEED": "배율", "S": "초", "LWS_VERSION": "버전", "POD": "파드", "COMMAND": "명령",
            "ADDR": "주소", "PORT": "포트", "URL": "주소"}


def metavar(name: str, lang: str) -> str:
    return METAVARS.get(name, name) if lang == "ko" else name


def peek_lang(argv: list) -> str | None:
    """The --lang argparse will read from argv, before it parses: the last one given (--lang ko,
    --lang=ko, or an abbreviation argparse accepts such as --la ko), none after a lone "--";
    None when there is none or its value is neither ko nor en. Never fails on odd argv."""
    found = None
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if not isinstance(token, str):
            continue
        if token == "--":
            break
        name, eq, value = token.partition("=")
        if len(name) < 4 or not "--lang".startswith(name):
            continue
        if not eq:
            value = argv[i] if i < len(argv) and isinstance(argv[i], str) else ""
            i += 1
        if value in ("ko", "en"):
            found = value
    return found


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """argparse says its own words in `lang` while the block runs: the two names it looks its
    words up with are bound to the catalogue's, and put back after (nested blocks put back
    theirs). The command line is parsed on one thread."""
    words = catalogue.of("argparse", lang)
    names = vars(argparse)
    before = {name: names[name] for name in ("_", "ngettext")}
    names.update(_=words.gettext, ngettext=words.ngettext)
    try:
        yield
    finally:
        names.update(before)


# argparse's errors the tutor words from their parts (their msgid, the catalogue's key)
_NO_VALUE = "ignored explicit argument %r"
_NOT_A_CHOICE = "invalid choice: %(value)r (choose from %(choices)s)"


def argument_error(error: argparse.ArgumentError, lang: str) -> str:
    """argparse's error about one argument, said while the parser speaks `lang`: the option first
    (the first of its names: --step, not --step/-s), then what is wrong with it."""
    name, message = error.argument_name, error.message or ""
    if name is None:
        return message
    arg = name.split("/")[0]
    said = message if isinstance(message, catalogue.Said) else None  # one of argparse's own
    if said and said.msgid == _NO_VALUE:
        return say(lang, "{arg} takes no value ({value} was given)", "{arg} 옵션은 값을 받지 않습니다({value})",
                   arg=arg, value=repr(said.values))
    if said and said.msgid == _NOT_A_CHOICE and arg == metavar("COMMAND", lang):
        return say(lang, "invalid choice: {value} is not a command (there are: {choices})",
                   "{value:은} 없는 명령입니다(있는 명령: {choices})",
                   value=repr(said.values["value"]), choices=said.values["choices"])
    if message.startswith(arg):  # a message of the tutor's that names the option itself
        return message
    return catalogue.of("argparse", lang).gettext("argument %(argument_name)s: %(message)s") % {
        "argument_name": arg, "message": message}


# --- numbers ---------------------------------------------------------------------------------

def number(lang: str, *, positive: bool = False, integer: bool = False, what: tuple[str, str] = ("", "")):
    """An argparse `type` for a number an option takes: finite (no nan, no inf), 0 or more (more
    than 0 with `positive`); or with `integer`, a whole number (its range is the command's to
    judge). Else a line in `lang` naming the value (argparse puts the option before it)."""
    def convert(text: str):
        try:
            value = int(text) if integer else float(text)
        except ValueError:
            value = None
        if value is None or integer:  # a whole number's range is the command's to judge (check: the steps there are)
            if value is None:
                raise argparse.ArgumentTypeError(_bad_number(text, lang, positive, integer, what))
            return value
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(_bad_number(text, lang, positive, integer, what))
        return value
    return convert


def _bad_number(text, lang, positive, integer, what) -> str:
    unit_en, unit_ko = (f" of {what[0]}", f"{what[1]} 단위 ") if what[0] else ("", "")
    if integer:
        en, ko = "'{value}' is not a whole number", "'{value}'{p} 정수가 아닙니다"
    elif positive:
        en = "'{value}' cannot be used: give a number{unit} more than 0"
        ko = "'{value}'{p} 쓸 수 없습니다. 0보다 큰 {unit_ko}숫자를 주세요"
    else:
        en = "'{value}' cannot be used: give a number{unit}, 0 or more"
        ko = "'{value}'{p} 쓸 수 없습니다. 0 이상의 {unit_ko}숫자를 주세요"
    return say(lang, en, ko, value=text, p=particle(text, "는"), unit=unit_en, unit_ko=unit_ko)
