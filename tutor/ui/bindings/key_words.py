"""The keys' words in the learner's language. A binding is declared with keyed(), its Korean
beside its English where it is declared, as every other message is said (tutor/i18n/bilingual.py: say);
localise_bindings() puts a screen's or the app's bindings in one language for the footer."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

from tutor.ui.textual_compat import bindings_by_key

from tutor.i18n.bilingual import Words

# Each declared binding's Korean (its words, its tooltip), by its action and English words: filled
# by keyed() as the classes are defined, so it cannot fall out of step with the declarations.
_KOREAN: dict[tuple[str, str], Words] = {}


def keyed(keys: str, action: str, words: Words = ("", ""), tip: Words = ("", ""), **kw) -> Binding:
    """A binding whose words (`words`, the footer's; `tip`, the help screen's) are said in both
    languages: (English, Korean)."""
    _KOREAN[(action, words[0])] = (words[1], tip[1])
    return Binding(keys, action, words[0], tooltip=tip[0], **kw)


# Textual's own bindings on the app (its ctrl+q and the palette key the footer shows), in Korean.
keyed("ctrl+q", "quit", ("Quit", "종료"), ("Quit the app and return to the command prompt.", "종료(진행 상황은 저장됨)"))
keyed("ctrl+p", "command_palette", ("palette", "팔레트"), ("Open the command palette", "명령 팔레트 열기"))
keyed("escape", "escape", ("Exit the command palette", "명령 팔레트 닫기"))  # the palette's, in the footer under it


def has_korean(binding: Binding) -> bool:
    """Whether this binding's words were declared with their Korean (a test holds every one)."""
    return not binding.description or (binding.action, binding.description) in _KOREAN


def localised(binding: Binding, lang: str) -> Binding:
    """A key binding with its words (description and tooltip) in `lang`; `binding` is as declared.
    A binding without words (a digit, Textual's copy) has none to say."""
    if lang != "ko" or not has_korean(binding) or not binding.description:
        return binding
    words, tip = _KOREAN[(binding.action, binding.description)]
    return replace(binding, description=words, tooltip=tip)


def localise_bindings(node, lang: str, declared: dict) -> None:
    """Puts a screen's or the app's key words in `lang` (the footer reads them from here).
    `declared` keeps each binding as declared, by (key, action), so switching back is exact."""
    by_key = bindings_by_key(node)
    for key, bindings in by_key.items():
        by_key[key] = [localised(declared.setdefault((key, b.action), b), lang)
                                               for b in bindings]


def localise_stack(app, lesson, lang: str, declared: dict) -> None:
    """The footer's and the help's words in `lang` (the bindings keep their keys and actions; the
    footers read the words from the binding maps): the app's, the lesson's, and those of any screen
    with keys of its own (the timeline's `localise`); every footer is read again, a footer under a
    modal too (the app redraws only the top's)."""
    localise_bindings(app, lang, declared)
    localise_bindings(lesson, lang, declared)
    for screen in app.screen_stack:
        if screen.is_mounted and (own := getattr(screen, "localise", None)) is not None:
            own(lang)
    for screen in app.screen_stack:
        screen.refresh_bindings()


# A key as the help and the keys panel write it: the name a keyboard prints on it, in either language.
KEY_NAMES = {"pageup": "PgUp", "pagedown": "PgDn", "home": "Home", "end": "End", "escape": "esc",
             "up": "↑", "down": "↓", "left": "←", "right": "→", "question_mark": "?"}


def key_name(key: str) -> str:
    """`ctrl+pageup` as ctrl+PgUp: the modifiers spelled out (Textual's ^ reads as a letter's
    mark in Korean), the key as printed on it."""
    *mods, last = key.strip().split("+")
    return "+".join([*mods, KEY_NAMES.get(last, last)])
