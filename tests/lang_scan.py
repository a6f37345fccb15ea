"""Reads text the way the learner does and says what a Korean or an English reader would trip on.

Rules (each finding names one):
  latin            in Korean, a Latin word that is not the learner's to type or kubectl's to print
                   (tests/data/latin_allowlist.yaml says which are, and why)
  hangul           in English, any Hangul
  particle         a Korean particle that does not fit the sound its word ends in, read as Korean
                   reads Hangul, digits and Latin letters (tutor/i18n/particles.py's final_sound)
  particle-apart   a particle standing apart from its word ("worker-index=1 인데")
  both-forms       both particles written for the writer to choose ("을(를)")
  raw-error        a program's error text: Errno, Traceback, an exception's class name
  placeholder      in Korean, a placeholder in English (`<your kubeconfig>`), even in a command: it is
                   the one part of a command the learner reads as words, to put their own value there

Identifiers are the learner's to type and never judged as words: anything in backticks, the rest
of a line from a command (kubectl, lwstutor, ...), flags, paths, file names, key=value, names with
digits, dots, slashes, dashes or underscores, and camelCase field and kind names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from tutor.i18n.particles import PAIRS, choose

ALLOWLIST = Path(__file__).parent / "data" / "latin_allowlist.yaml"


@dataclass(frozen=True)
class Finding:
    rule: str
    text: str  # what is wrong, as shown
    line: str  # the line it is on (stripped)

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text!r} in {self.line!r}"


@dataclass(frozen=True)
class Allowlist:
    words: frozenset[str]  # as written; a lower-case one matches in any case
    commands: frozenset[str]  # a line's rest after one of these is a command the learner types


@lru_cache(maxsize=1)
def allowlist() -> Allowlist:
    data = yaml.safe_load(ALLOWLIST.read_text())
    words, commands = set(), set()
    for entry in data["words"]:
        if not str(entry.get("why", "")).strip():
            raise ValueError(f"allowlist entry without a why: {entry}")
        words.update(str(w) for w in entry["words"])
    for entry in data["commands"]:
        if not str(entry.get("why", "")).strip():
            raise ValueError(f"allowlist entry without a why: {entry}")
        commands.update(entry["words"])
    return Allowlist(frozenset(words), frozenset(commands))


HANGUL = "가-힣ᄀ-ᇿ㄰-㆏"
_HANGUL_CHAR = re.compile(f"[{HANGUL}]")
# code, and a value or key quoted as typed ('nope', "format")
_CODE = re.compile(r"`[^`\n]*`|(?<![A-Za-z])'[^'\s]+'|(?<![A-Za-z])\"[^\"\s]+\"")
# A run of what an identifier, a path, a flag or a word is made of (no spaces, quotes, brackets)
_TOKEN = re.compile(r"[A-Za-z0-9_.\-/=:@$~*+%#&]+")
_IDENT_CHARS = re.compile(r"[0-9_./=:@$~*+%#&-]")
_CAMEL = re.compile(r"[a-z][A-Z]|^[A-Z][a-z]+[A-Z]")
_SENTENCE_END = re.compile(r"[.:,;]+$")


def _blank(text: str, spans) -> str:
    out = list(text)
    for start, end in spans:
        out[start:end] = " " * (end - start)
    return "".join(out)


def _command_spans(line: str, commands: frozenset[str]) -> list[tuple[int, int]]:
    """From a command word to the next Hangul (or the line's end): the learner's to type."""
    spans = []
    for m in re.finditer(r"(?<![\w./-])([a-z][\w-]*)(?=\s|$)", line):
        if m.group(1) in commands:
            rest = _HANGUL_CHAR.search(line, m.end())
            spans.append((m.start(), rest.start() if rest else len(line)))
    return spans


_BOX = "\u2500-\u259f"  # box drawing and blocks: pane borders, scrollbars, a toast's edge
_RUN = re.compile(f"[^\\s{HANGUL}{_BOX}]+(?: [^\\s{HANGUL}{_BOX}]+)*")


def _verbatim_spans(line: str, verbatim: tuple[str, ...]) -> list[tuple[int, int]]:
    """Stretches of two or more words, between Hangul and borders, that the cluster or the learner
    wrote (an event's message, a file's line) and the screen quotes as they are, wrapped or not."""
    spans = []
    for run in _RUN.finditer(line):
        words = [m for m in re.finditer(r"\S+", run.group(0))]
        i = 0
        while i < len(words) - 1:
            for j in range(len(words), i + 1, -1):
                piece = run.group(0)[words[i].start():words[j - 1].end()]
                if any(piece in v for v in verbatim):
                    spans.append((run.start() + words[i].start(), run.start() + words[j - 1].end()))
                    i = j - 1
                    break
            i += 1
    return spans


def _is_identifier(token: str) -> bool:
    return bool(_IDENT_CHARS.search(token) or _CAMEL.search(token))


def latin_words(line: str, verbatim: tuple[str, ...] = (), code: frozenset[str] = frozenset()) -> list[str]:
    """The plain Latin words of a Korean line that are not the learner's to type (nor allowed).
    `code`: words the text around it writes as code (a lesson's backticks, lost once rendered)."""
    allowed = allowlist()
    if verbatim:  # first: a quote may hold quotes of its own (Container image "busybox:1.36" already ...)
        line = _blank(line, _verbatim_spans(line, verbatim))
    line = _blank(line, [m.span() for m in _CODE.finditer(line)])
    line = _blank(line, _command_spans(line, allowed.commands))
    out = []
    after_flag = False
    for m in _TOKEN.finditer(line):
        raw = m.group(0)
        token = _SENTENCE_END.sub("", raw)
        flag_value, after_flag = after_flag, raw.startswith("-") and len(raw) > 1
        if not re.search("[A-Za-z]", token) or raw.startswith("-") or _is_identifier(token) or flag_value:
            continue  # a flag, its value, an identifier
        if line[m.end():m.end() + 1] == "…":
            continue  # a word cut by its column: the column checks tell that
        if token not in code and token not in allowed.words and token.lower() not in allowed.words:
            out.append(token)
    return out


# --- particles ---------------------------------------------------------------------------------

# (after a consonant, after a vowel) beyond tutor/i18n/particles.py's pairs: the copula's past tense, and
# the vowel forms its pairs hold only as values
EXTRA = {"이었": ("이었", "였"), "였": ("이었", "였"), "예요": ("이에요", "예요"), "라는": ("이라는", "라는")}
_CHOICE = {**PAIRS, **EXTRA}
# Longest first, so 이에요 is read before 이 and 으로 before 로.
_PARTICLES = sorted(_CHOICE, key=len, reverse=True)
_P = "|".join(_PARTICLES)
# What ends a particle: the line's end, a space or punctuation. 였/이었 are followed by their ending.
_AFTER = r"(?:(?<=였)|(?<=이었))(?=[가-힣])|(?=$|[\s.,:;!?)\]}>\"'`…·/])"
# A word the particle may follow: it ends in a Latin letter, a digit or a closing mark, or it is
# Hangul between quotes or brackets ("통과"를); plain Hangul is not read (사이, 다음 end like particles).
_WORD = r"(?:[^\s가-힣]*[A-Za-z0-9]|[^\s]*[)\]}>\"'`]|[\"'「(][가-힣]+[\"'」)])"
_ATTACHED = re.compile(rf"(?P<word>{_WORD})(?P<space> ?)(?P<p>{_P})(?:{_AFTER})")
# Particles (and copula forms) that are never a word of their own: apart from a word, a slip.
_APART_ONLY = ("이에요", "예요", "이었습니다", "였습니다", "이었다", "였다", "이었고", "였고", "으로", "로", "은", "는",
               "을", "를", "과", "와", "인데", "입니다", "이다", "의", "에서", "에게", "까지", "부터", "처럼",
               "이라는", "라는")
_APART = re.compile(r"(?P<word>[A-Za-z0-9)\]}>\"'`]) (?P<p>"
                    + "|".join(sorted(_APART_ONLY, key=len, reverse=True)) + r")(?=$|[\s.,:;!?)\]}\"'…])")
_BOTH = re.compile(r"[은는이가을를과와]\((?:[은는이가을를과와]|으)\)|\(으\)로|\(이\)[가-힣]|\(와\)|\(과\)")


def expected(word: str, p: str) -> str:
    """The form of particle p that fits after word, by tutor/i18n/particles.py's reading of its last sound."""
    return choose(word, *_CHOICE[p], ro=p in ("으로", "로"))


def _fits(word: str, p: str) -> bool:
    want = expected(word, p)
    if p == want:
        return True
    return p == "이었" and want == "였"  # 이었 after a vowel is long but right


def _with_its_bracket(line: str, end: int, word: str) -> str | None:
    """A word that ends in a closing bracket, read back to its opening one and the word that the
    bracket follows ("템플릿(리비전 557f644bdf)", "llm-1 (557f644b)"): Korean reads the particle
    after the word, the bracket being an aside. None when the bracket opened on another line.
    Other brackets ("{type: kwok}") are read by what they hold."""
    if not word.endswith(")"):
        return word
    start = line.rfind("(", 0, end - 1)
    if start < 0:
        return None
    before = re.search(r"(\S+ ?)$", line[:start])
    return (before.group(1) if before else "") + line[start:end]


def particle_findings(line: str) -> list[Finding]:
    out = []
    stripped = line.strip()
    for m in _ATTACHED.finditer(line):
        word, p = m.group("word"), m.group("p")
        if m.group("space") and _HANGUL_CHAR.search(word[-1:]):
            continue
        word = _with_its_bracket(line, m.end("word"), word)
        if word is None:
            continue
        if not _fits(word, p):
            out.append(Finding("particle", f"{word}{m.group('space')}{p} (wants {expected(word, p)})", stripped))
    for m in _APART.finditer(line):
        out.append(Finding("particle-apart", line[max(0, m.start() - 20):m.end()].strip(), stripped))
    for m in _BOTH.finditer(line):
        out.append(Finding("both-forms", m.group(0), stripped))
    return out


# --- raw exception text ------------------------------------------------------------------------

_RAW = re.compile(r"\bErrno\b|\bTraceback\b|\b[A-Z]\w*Error:|\b[A-Z]\w*Exception\b|\bHTTPS?ConnectionPool\b|"
                  r"\b(?:OS|Value|Key|Type|FileNotFound|Permission|IsADirectory|NotADirectory|UnicodeDecode|"
                  r"JSONDecode|Runtime|Attribute|Index|Connection|Timeout|Import|Assertion|Lookup|Name|"
                  r"MaxRetry|Protocol|Validation|Scanner|Parser|Constructor)Error\b")


def raw_errors(line: str) -> list[Finding]:
    return [Finding("raw-error", m.group(0), line.strip()) for m in _RAW.finditer(line)]


# --- placeholders ------------------------------------------------------------------------------

KUBECTL_BRACKETS = {"none", "unknown", "invalid", "unset", "pending"}  # kubectl get's own words for no value
_PLACEHOLDER = re.compile(r"<([^<>\n]*[A-Za-z][^<>\n]*)>")


def placeholders(line: str) -> list[Finding]:
    """In Korean, a `<…>` of Latin words and no Hangul: `<your kubeconfig>` where `<내 kubeconfig 파일>`
    is meant. What kubectl itself prints in brackets (`<none>`) is not one."""
    out = []
    for m in _PLACEHOLDER.finditer(line):
        inner = m.group(1)
        if _HANGUL_CHAR.search(inner) or inner in KUBECTL_BRACKETS or not re.search("[a-z]{2,}", inner):
            continue  # Korean words, kubectl's, or a symbol the text defines (<G>: 그룹 번호)
        out.append(Finding("placeholder", m.group(0), line.strip()))
    return out


# --- the whole ---------------------------------------------------------------------------------

_EDGE = re.compile(f"^[\\s{_BOX}]+|[\\s{_BOX}]+$")  # a pane's border and padding around a line


def _wrapped(word: str, line: str, before: str, after: str, verbatim: tuple[str, ...],
             code: frozenset[str]) -> bool:
    """True when `word`, first or last on its line of a wrapped pane, is a piece the wrap cut
    from a word or a quote the learner reads whole across the two lines: a name cut between its
    letters ("topolo|gy", "progress.js|on"), or an event message's last word alone on its line."""
    inner = _EDGE.sub("", line)
    prev, nxt = _EDGE.sub("", before), _EDGE.sub("", after)
    if inner.startswith(word) and prev:
        tail = _TOKEN.search(prev[::-1])
        glued = (tail.group(0)[::-1] if tail and prev.endswith(tail.group(0)[::-1]) else "") + word
        if glued != word and not latin_words(glued, verbatim, code):
            return True
        quote = " ".join(prev.split()[-3:] + [word])
        if any(quote in v for v in verbatim):
            return True
    if _SENTENCE_END.sub("", inner).endswith(word) and nxt:
        head = _TOKEN.match(nxt)
        if head and not latin_words(word + head.group(0), verbatim, code):
            return True
    return False


def scan(text: str, lang: str, verbatim: tuple[str, ...] = (), code: frozenset[str] = frozenset(),
         wrapped: bool = False) -> list[Finding]:
    """Every finding in the text, line by line, for a reader of `lang` ("ko" or "en").
    `verbatim`: texts the screen quotes as their authors wrote them (the cluster's event messages,
    the learner's files): runs of words from them are not judged as the tutor's words.
    `wrapped`: the lines are one pane's, wrapped by its width, so a word cut at a line's edge is
    read with its other piece, as the learner reads it."""
    out: list[Finding] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        if lang == "ko":
            words = latin_words(line, verbatim, code)
            if wrapped:
                before, after = lines[i - 1] if i else "", lines[i + 1] if i + 1 < len(lines) else ""
                words = [w for w in words if not _wrapped(w, line, before, after, verbatim, code)]
            out += [Finding("latin", w, line.strip()) for w in words]
            out += particle_findings(line)
            out += placeholders(line)
        else:
            out += [Finding("hangul", m.group(0), line.strip())
                    for m in re.finditer(f"[{HANGUL}]+", line)]
        out += raw_errors(line)
    return out
