"""The command line's own words in the learner's language: argparse's, and the checks of the
numbers the options take.

argparse words its usage line, its help and its errors in English (its strings go through
gettext's default domain, which the tutor does not install). The parser the CLI builds for a
Korean learner says its own words (the usage prefix, the group titles, -h and --version) in
Korean, and an error argparse raises is worded again here from its parts: each of argparse's
error templates that a learner can meet is matched and said in Korean, an unknown one is kept
as argparse said it. The language is known before parsing (peek_lang), so even an error in
parsing --lang itself is said in the learner's language.
"""

from __future__ import annotations

import argparse
import math
import re
import unicodedata

from tutor.i18n.particles import fill, particle
from tutor.i18n.bilingual import pick, say

# argparse's own labels (Python 3.11 to 3.13)
USAGE = ("usage: ", "사용법: ")
POSITIONALS = ("positional arguments", "위치 인자")
OPTIONALS = ("options", "옵션")
HELP = ("show this help message and exit", "이 도움말을 보여 주고 끝냅니다")
VERSION = ("show the version and exit", "버전을 보여 주고 끝냅니다")
SEE_HELP = ("help: {prog} --help", "도움말: {prog} --help")
# What an option's value is, as the help and the usage name it: argparse's capitals in English,
# the word itself in Korean (a Korean reader reads FILE as letters, not as 파일).
METAVARS = {"FILE": "파일", "DIR": "디렉터리", "NAME": "이름", "CONTEXT": "컨텍스트", "NAMESPACE": "네임스페이스",
            "SPEED": "배속", "S": "초", "N": "단계", "LWS_VERSION": "버전", "POD": "파드", "COMMAND": "명령"}


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


# argparse's error templates -> the Korean, from the same parts (a Korean writer's order)
_ERRORS = [
    (r"argument (?P<arg>\S+?)(?:/\S+)?: (?P<rest>.*)", None),  # "argument --pause/-p: <message>": the message first
    (r"unrecognized arguments: (?P<args>.*)", "알 수 없는 인자입니다: {args}"),
    (r"the following arguments are required: (?P<args>.*)", "다음 인자가 필요합니다: {args}"),
    (r"expected one argument", "값이 하나 필요합니다"),
    (r"expected at most one argument", "값은 하나까지만 줄 수 있습니다"),
    (r"expected at least one argument", "값이 하나 이상 필요합니다"),
    (r"expected (?P<n>\d+) arguments?", "값이 {n}개 필요합니다"),
    (r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)",
     "{value:은} 고를 수 없는 값입니다(고를 수 있는 값: {choices})"),
    (r"invalid (?P<type>\S+) value: (?P<value>.*)", "{value:은} 올바른 값이 아닙니다"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", "{option:은} 여러 옵션에 맞습니다: {matches}"),
    (r"ignored explicit argument (?P<value>.*)", "이 옵션은 값을 받지 않습니다({value})"),
    (r"not allowed with argument (?P<arg>.*)", "{arg:과} 함께 쓸 수 없습니다"),
    (r"one of the arguments (?P<args>.*) is required", "다음 중 하나가 필요합니다: {args}"),
]
_ERRORS = [(re.compile(pattern + r"\Z", re.S), ko) for pattern, ko in _ERRORS]


def argparse_error(message: str, lang: str) -> str:
    """argparse's error message in `lang`: English as argparse says it, with the few that read
    poorly said plainly; Korean from its parts."""
    for pattern, ko in _ERRORS:
        m = pattern.match(message)
        if not m:
            continue
        parts = m.groupdict()
        if ko is None:  # "argument X: message": say which option, then its message
            arg, rest = parts["arg"], parts["rest"]
            if arg in ("COMMAND", metavar("COMMAND", lang)) and rest.startswith("invalid choice: "):
                value = re.match(r"invalid choice: (.*?) \(choose from (.*)\)\Z", rest, re.S)
                if value:
                    return say(lang, "invalid choice: {value} is not a command (there are: {choices})",
                               "{value:은} 없는 명령입니다(있는 명령: {choices})",
                               value=value.group(1), choices=value.group(2))
            ignored = re.match(r"ignored explicit argument (.*)\Z", rest, re.S)
            if ignored:
                return say(lang, "{arg} takes no value ({value} was given)", "{arg} 옵션은 값을 받지 않습니다({value})",
                           arg=arg, value=ignored.group(1))
            inner = argparse_error(rest, lang)
            return inner if inner.startswith(arg) else say(lang, "argument {arg}: {rest}", "{arg} 옵션: {rest}",
                                                           arg=arg, rest=inner)
        # argparse's English is its own: only its Korean is written here, filled from its parts
        return fill(ko, **parts) if lang == "ko" else message
    return message


class KoreanHelpFormatter(argparse.HelpFormatter):
    """The help's usage line with the learner's prefix, and its text wrapped by the columns it
    takes on the terminal: argparse counts characters, and a Korean syllable takes two columns
    (Korean help wrapped at 78 characters ran over an 80-column terminal)."""

    lang = "en"

    def add_usage(self, usage, actions, groups, prefix=None):  # noqa: D102 - argparse's
        return super().add_usage(usage, actions, groups, prefix if prefix is not None else pick(USAGE, self.lang))

    def _format_usage(self, usage, actions, groups, prefix):  # noqa: D102 - argparse's, wrapped in cells
        # argparse wraps the usage by characters: a Korean prefix (사용법:) and value names (파일)
        # take two columns a syllable, so its lines ran past the terminal. It is laid out on one
        # line, then wrapped here by the columns each part takes.
        width = self._width
        self._width = 10**6
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width = width
        line = " ".join(text.split())
        head = f"{prefix}{self._prog}"
        if not line.startswith(head) or cells(line) <= width:
            return text
        parts = re.findall(r"\[[^\[\]]*\]|\([^()]*\)|\S+", line[len(head):])
        indent = " " * (cells(head) + 1)
        out, cur = [], head
        for part in parts:
            if cells(cur) + 1 + cells(part) > width and cur.strip() and cur != head:
                out.append(cur)
                cur = indent + part
            else:
                cur = f"{cur} {part}"
        out.append(cur)
        return "\n".join(out) + "\n\n"

    # argparse lines the help up by characters; a Korean value name (파일) takes two columns per
    # syllable, so the column where the help starts is measured in cells here.
    def add_argument(self, action):  # noqa: D102 - argparse's, measured in cells
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            shown = [self._format_action_invocation(a) for a in (action, *self._iter_indented_subactions(action))]
            self._action_max_length = max(self._action_max_length, max(map(cells, shown)) + self._current_indent)

    def _format_action(self, action):  # noqa: D102 - argparse's, measured in cells
        help_position = min(self._action_max_length + 2, self._max_help_position)
        header = self._format_action_invocation(action)
        fits = cells(header) <= help_position - self._current_indent - 2
        lines = self._split_lines(self._expand_help(action), max(self._width - help_position, 11)) \
            if action.help and action.help.strip() else []
        indent = " " * self._current_indent
        if lines and fits:
            pad = " " * (help_position - self._current_indent - cells(header))
            parts = [f"{indent}{header}{pad}{lines[0]}\n"] + [" " * help_position + line + "\n" for line in lines[1:]]
        else:
            parts = [f"{indent}{header}\n"] + [" " * help_position + line + "\n" for line in lines]
        parts += [self._format_action(sub) for sub in self._iter_indented_subactions(action)]
        return self._join_parts(parts)

    def _split_lines(self, text, width):  # noqa: D102 - argparse's
        return wrap_cells(" ".join(text.split()), width)

    def _fill_text(self, text, width, indent):  # noqa: D102 - argparse's
        return "\n".join(indent + line for line in wrap_cells(" ".join(text.split()), width - len(indent)))


def cells(text: str) -> int:
    """The columns `text` takes on a terminal (East Asian wide and full-width characters: two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_cells(text: str, width: int) -> list[str]:
    """Words into lines of at most `width` columns (a word wider than that on a line of its own,
    cut)."""
    width = max(width, 10)
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        while cells(word) > width:  # a path longer than the line: cut it
            cut = next(i for i in range(len(word), 0, -1) if cells(word[:i]) <= width)
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:cut])
            word = word[cut:]
        if line and cells(line) + 1 + cells(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def formatter_for(lang: str) -> type[argparse.HelpFormatter]:
    return type("HelpFormatter", (KoreanHelpFormatter,), {"lang": lang})


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
