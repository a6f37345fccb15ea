"""Words in two languages, and the one way the tutor picks one: every English/Korean pair, in
the checkers, the narration of the story and the timeline (tutor/narration), doctor and the
screens, goes through say() (or pick() for a pair kept as a value), and a Korean field may name
the particle that follows it ("{pod:은}", tutor/korean.py)."""

from __future__ import annotations

from tutor.korean import fill

Words = tuple[str, str]  # (English, Korean)


def say(lang: str, en: str, ko: str, **fields) -> str:
    """The text in `lang` ("ko", else English), its fields filled in."""
    text = ko if lang == "ko" else en
    return fill(text, **fields) if fields else text


def pick(words: Words, lang: str, **fields) -> str:
    """One of a pair kept as a value (what a prediction's grader saw), in `lang`."""
    return say(lang, words[0], words[1], **fields)
