"""What a lesson says when every step has passed (lesson.yaml `finish`): the module that comes
next, in words, the lesson id that teaches it (named only when that lesson is installed), and
links to read on. The engine draws it (tutor/ui/screens/finish.py); the words are the lesson's."""

from __future__ import annotations

from dataclasses import dataclass


def _in(texts: dict[str, str], lang: str) -> str:
    return texts.get(lang) or next(iter(texts.values()), "")


@dataclass(frozen=True)
class Link:
    url: str
    titles: dict[str, str]

    def title(self, lang: str) -> str:
        return _in(self.titles, lang)


@dataclass(frozen=True)
class Finish:
    next_words: dict[str, str]  # the next module, in words, per language
    next_lesson: str = ""  # its lesson id: the command to start it is shown only once it is installed
    links: tuple[Link, ...] = ()

    def next_module(self, lang: str) -> str:
        return _in(self.next_words, lang)


def parse_finish(raw: object, langs: tuple[str, ...], where: str) -> Finish | None:
    """The `finish` block, or None when the lesson has none. Raises ValueError when it is
    malformed or lacks one of the lesson's languages (every learner-visible text has both)."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("next"), dict):
        raise ValueError(f"{where}: finish needs `next` (the next module: words per language, optional lesson)")
    nxt = raw["next"]
    words = {lang: str(nxt[lang]).strip() for lang in langs if nxt.get(lang)}
    links = []
    for link in raw.get("links") or []:
        if not isinstance(link, dict) or not str(link.get("url", "")).startswith("https://") \
                or not isinstance(link.get("title"), dict):
            raise ValueError(f"{where}: a finish link needs an https url and a title per language")
        links.append(Link(str(link["url"]), {k: str(v) for k, v in link["title"].items()}))
    for lang in langs:
        if lang not in words or any(lang not in link.titles for link in links):
            raise ValueError(f"{where}: finish has no {lang} text")
    return Finish(words, str(nxt.get("lesson") or ""), tuple(links))
