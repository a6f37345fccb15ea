"""A gettext catalogue read from its text (a .po file shipped with the tutor), for words that
another library looks up through gettext: argparse's usage, help and errors.

A .po file is read here rather than a compiled .mo (no binary is kept in the repository, and no
gettext tool is needed to build the tutor). What it gives is what gettext.GNUTranslations gives
for a .mo: gettext() and ngettext(), with the catalogue's plural rule, and the text as given when
the catalogue lacks it.

Korean puts a particle after a word, and which one depends on how the word ends ("{pod:은}",
tutor/i18n/particles.py). A translation fills its fields with `%`, as argparse does, so a
particle written right after a field ("%(value)r은") is fitted to what fills it: the text a
catalogue gives is a Template, whose `%` does that. What `%` gives back is Said: the filled text,
knowing which message it is (its msgid) and what filled it.
"""

from __future__ import annotations

import ast
import gettext
import re
from functools import cache
from pathlib import Path
from typing import Any

from tutor.i18n.particles import PAIRS, particle

# A printf field as `%` reads it: %s, %r, %(name)s, %5d, %%.
_FIELD = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<spec>[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%])")
# A particle written right after a field: the longest that ends the word there.
_PARTICLE = re.compile("(" + "|".join(sorted(PAIRS, key=len, reverse=True)) + ")(?![가-힣])")


def fill(template: str, values: Any) -> str:
    """template % values, each particle written right after a field fitted to what fills it."""
    fields = [m for m in _FIELD.finditer(template) if m["spec"] != "%"]
    if not any(_PARTICLE.match(template, m.end()) for m in fields):
        return str.__mod__(template, values)
    args = iter(values if isinstance(values, tuple) else (values,))
    out, at = [], 0
    for m in _FIELD.finditer(template):
        out.append(template[at:m.start()])
        at = m.end()
        if m["spec"] == "%":
            out.append("%")
            continue
        text = ("%" + m["spec"]) % (values[m["key"]] if m["key"] is not None else next(args),)
        out.append(text)
        if fits := _PARTICLE.match(template, at):
            out.append(particle(text, fits[1]))
            at = fits.end()
    out.append(template[at:])
    return "".join(out)


class Said(str):
    """A message as its template was filled: the text, which message it is and what filled it."""

    msgid: str
    values: Any

    def __new__(cls, text: str, msgid: str, values: Any) -> Said:
        said = super().__new__(cls, text)
        said.msgid, said.values = msgid, values
        return said


class Template(str):
    """A catalogue's text for one message; `%` fills it (fitting its particles) and gives Said."""

    msgid: str

    def __new__(cls, text: str, msgid: str) -> Template:
        template = super().__new__(cls, text)
        template.msgid = msgid
        return template

    def __mod__(self, values: Any) -> Said:
        return Said(fill(str(self), values), self.msgid, values)


class Catalogue(gettext.NullTranslations):
    """A .po file's translations (none: the texts as given). Entries marked fuzzy are left out,
    as msgfmt leaves them out of a .mo."""

    def _parse(self, fp) -> None:
        text = fp.read()
        self._parse_text(text.decode("utf-8") if isinstance(text, bytes) else text)

    def _parse_text(self, text: str) -> None:
        self._catalog: dict[Any, str] = {}
        self.plural = lambda n: int(n != 1)
        for entry in _entries(text):
            msgid = entry.get("msgid", "")
            if msgid == "":
                self._read_header(entry.get("msgstr", ""))
            elif "msgid_plural" in entry:
                for key, value in entry.items():
                    if key.startswith("msgstr[") and value:
                        self._catalog[(msgid, int(key[7:-1]))] = value
            elif entry.get("msgstr"):
                self._catalog[msgid] = entry["msgstr"]

    def _read_header(self, header: str) -> None:
        for line in header.splitlines():
            name, _, value = line.partition(":")
            if name.strip().lower() == "plural-forms":
                rule = value.split(";")[1].split("plural=")[1]
                self.plural = gettext.c2py(rule)

    def gettext(self, message):  # noqa: D102 - gettext's
        if not isinstance(message, str):  # argparse asks for a subparsers' description of None
            return message
        return Template(self._catalog.get(message, message), message)

    def ngettext(self, msgid1, msgid2, n):  # noqa: D102 - gettext's
        said = self._catalog.get((msgid1, self.plural(n)))
        return Template(said if said is not None else msgid1 if n == 1 else msgid2, msgid1)

    def messages(self) -> dict[Any, str]:
        """Every message it translates: msgid (or (msgid, plural form)) -> its text."""
        return dict(self._catalog)


_LINE = re.compile(r'^(?P<key>msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(?P<text>".*")\s*$')


def _entries(text: str) -> list[dict[str, str]]:
    """The entries of a .po file, each {keyword: text}; a context (msgctxt) is kept in its key
    as gettext keeps it, "context\\x04msgid"."""
    entries: list[dict[str, str]] = []
    entry: dict[str, str] = {}
    key = ""
    fuzzy = False

    def close() -> None:
        nonlocal entry, fuzzy
        if entry and not fuzzy:
            if "msgctxt" in entry:
                entry["msgid"] = entry.pop("msgctxt") + "\x04" + entry.get("msgid", "")
            entries.append(entry)
        entry, fuzzy = {}, False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            close()
        elif line.startswith("#"):
            if key.startswith("msgstr"):
                close()
            key = ""
            fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
        elif m := _LINE.match(line):
            key = m["key"]
            if key in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in entry):
                close()
            entry[key] = _string(m["text"], number)
        elif line.startswith('"') and key:
            entry[key] += _string(line, number)
        else:
            raise ValueError(f"line {number}: not a .po line: {raw!r}")
    close()
    return entries


def _string(quoted: str, number: int) -> str:
    """A .po string's text: C's escapes, as Python reads them."""
    try:
        text = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        text = None
    if not isinstance(text, str):
        raise ValueError(f"line {number}: not a quoted string: {quoted!r}")
    return text


@cache
def of(domain: str, lang: str) -> Catalogue:
    """The catalogue of `domain` in `lang`, shipped beside this module as `<domain>.<lang>.po`; an
    empty one (the texts as given) for a language it has none in."""
    # Beside this module, which is installed as files: importlib.resources would import its readers
    # (and zipfile) before the tutor's first frame (tests/test_first_frame_imports.py).
    found = Path(__file__).with_name(f"{domain}.{lang}.po")
    catalogue = Catalogue()
    catalogue._parse_text(found.read_text(encoding="utf-8") if found.is_file() else "")
    return catalogue
