"""One way to word a message: say(lang, english, korean, **fields), both texts side by side where
the message is said (tutor/i18n/bilingual.py), or a pair (english, korean) kept as a value and said the same
way. No table of Korean keyed by English (it falls back to English, silently, for a text it lacks),
no second name for say, and every key declared with its Korean (tutor/ui/bindings/key_words.py: keyed)."""

from __future__ import annotations

import ast
import re

import pytest

from tests.said import Said, _name, _text, said, trees
from tests.ui.harness import empty_recording, make_app
from tutor.i18n import catalogue

FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")
LANG_CODES = {"en", "ko"}
SAYS_BY_ANOTHER_NAME = {"t", "tr", "translate", "text", "_", "gettext"}
# Tables from words the tutor does not write to Korean: they match text from elsewhere, and what
# they lack is said in Korean, not left in English.
NOT_OURS = {
    "tutor/narration/failures.py": "OpenSSL's reasons a certificate is refused, matched in its message; "
                                "another reads 인증서 검증 실패",
}
# argparse's own words, looked up by their English as gettext does, in the catalogue that holds
# each one's Korean (tutor/i18n/argparse.ko.po; tests/test_argparse_catalogue.py holds it to argparse).
ARGPARSE_MSGIDS = frozenset(k for k in catalogue.of("argparse", "ko").messages() if isinstance(k, str))


def field_mismatch(s: Said) -> str:
    """The fields one text fills and the other does not (a Korean text that drops {pod} shows the
    learner less than the English does, or a KeyError at the call)."""
    if s.en is None or s.ko is None or "{}" in s.en or "{}" in s.ko:  # an f-string: its fields are code
        return ""
    en, ko = set(FIELD.findall(s.en)), set(FIELD.findall(s.ko))
    return f"{s}: English fills {sorted(en)}, Korean {sorted(ko)}" if en != ko else ""


def tables_keyed_by_english(path: str, tree: ast.AST) -> list[str]:
    """Dicts from English texts to Korean ones, and any name KO."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and len(node.keys) >= 2:
            keys = [_text(k) if k is not None else None for k in node.keys]
            values = [_text(v) for v in node.values]
            # English texts as keys (an argparse value name such as FILE is a name, not a text)
            if all(k is not None and not re.search("[가-힣]", k) and re.search("[a-z]{2}", k) for k in keys) \
                    and all(v is not None and re.search("[가-힣]", v) for v in values) and path not in NOT_OURS:
                out.append(f"{path}:{node.lineno}: a table of Korean keyed by English")
        if isinstance(node, ast.Name) and node.id == "KO":
            out.append(f"{path}:{node.lineno}: KO")
    return out


def other_ways(path: str, tree: ast.AST) -> list[str]:
    """A second name for say (an alias, a wrapper), or a call that gives English alone to be
    looked up."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == "say":
            out.append(f"{path}:{node.lineno}: say under another name")
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [ast.Return(node.body)]
            params = {a.arg for a in node.args.args}
            if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Call) \
                    and _name(body[0].value.func) == "say" and {"en", "ko"} <= params:
                out.append(f"{path}:{node.lineno}: a wrapper of say")
        texts = {_text(node.body), _text(node.orelse)} if isinstance(node, ast.IfExp) else {None}
        if None not in texts and texts - LANG_CODES \
                and any(isinstance(c, ast.Constant) and c.value in LANG_CODES for c in ast.walk(node.test)):
            out.append(f"{path}:{node.lineno}: the language chosen by hand between two texts")
        if isinstance(node, ast.Call) and _name(node.func) in SAYS_BY_ANOTHER_NAME and node.args:
            text = _text(node.args[0])
            if text is not None and text not in LANG_CODES and text not in ARGPARSE_MSGIDS \
                    and re.search(r"[A-Za-z]{3}", text) and not any(re.search("[가-힣]", _text(a) or "") for a in node.args[1:]):
                out.append(f"{path}:{node.lineno}: English alone, to be looked up: {text!r}")
    return out


def test_every_message_is_said_with_both_texts_at_the_call():
    found = said()
    assert len(found) > 500  # the scan reads the checkers, doctor and the screens
    half = [str(s) for s in found if (s.en is None) != (s.ko is None) or "" in (s.en, s.ko)]
    assert half == [], half  # one language alone: the other is written elsewhere, or nowhere
    # a text written at the call has its Korean, not the English again
    same = [f"{s}: {s.en!r}" for s in found if s.en and s.en == s.ko and re.search(r"[a-z]{3,} [a-z]{3,}", s.en)]
    assert same == [], same


def test_both_texts_fill_the_same_fields():
    bad = [m for s in said() if (m := field_mismatch(s))]
    assert bad == [], "\n".join(bad)


def test_no_table_of_korean_keyed_by_english():
    found = [hit for path, tree in trees() for hit in tables_keyed_by_english(path, tree)]
    assert found == [], "\n".join(found)


def test_say_has_no_other_name():
    found = [hit for path, tree in trees() for hit in other_ways(path, tree)]
    assert found == [], "\n".join(found)


def test_each_scan_would_catch_its_defect():
    bad = ast.parse('KO = {"Hello": "안녕", "Bye": "잘 가"}\nTABLE = {"Quit": "종료", "Help": "도움말"}\ntr = say\n'
                    'def t(en, ko, **kw):\n    return say(lang, en, ko, **kw)\n'
                    'x = app.text("Show the timeline")\ny = step.text("en")\nz = "해결" if lang == "ko" else "fix"\n')
    assert len(tables_keyed_by_english("m.py", bad)) == 3  # the dicts, and the name KO
    assert [h.split(": ", 1)[1] for h in other_ways("m.py", bad)] == \
        ["say under another name", "a wrapper of say", "English alone, to be looked up: 'Show the timeline'",
         "the language chosen by hand between two texts"]
    assert field_mismatch(Said("m.py", 1, "{pod} is gone", "파드가 없습니다"))
    assert not field_mismatch(Said("m.py", 1, "{pod} is gone", "{pod:이} 없습니다"))


def test_every_key_is_declared_with_its_korean():
    """No Binding( but through keyed(), in the screens; each class's keys have their Korean."""
    from tutor.ui.app import TutorApp
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.screens.finish import FinishScreen
    from tutor.ui.bindings.key_words import has_korean
    from tutor.ui.panes.pods import PodList
    from tutor.ui.screens.predict import PredictScreen
    from tutor.ui.screens.confirm import ConfirmScreen
    from tutor.ui.screens.help import HelpScreen
    from tutor.ui.screens.timeline_view import TimelineScreen

    direct = [f"{path}:{node.lineno}" for path, tree in trees() if path.startswith("tutor/ui")
              and not path.endswith("ui/bindings/key_words.py")
              for node in ast.walk(tree) if isinstance(node, ast.Call) and _name(node.func) == "Binding"]
    assert direct == [], direct
    classes = (TutorApp, LessonScreen, FinishScreen, PodList, PredictScreen, ConfirmScreen, HelpScreen, TimelineScreen)
    lacking = [f"{cls.__name__}: {b.key} {b.description}" for cls in classes for b in cls.BINDINGS if not has_korean(b)]
    assert lacking == [], lacking


@pytest.mark.parametrize("lang", ["ko"])
def test_the_apps_own_and_textuals_keys_have_their_korean(lang, tmp_path):
    """The app's bindings as Textual holds them: its own, and Textual's (ctrl+q, the palette)."""
    from tutor.ui.bindings.key_words import has_korean, localised

    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    bindings = [b for _, b in app._bindings]
    assert any(b.action == "command_palette" for b in bindings)
    lacking = [f"{b.key} {b.description}" for b in bindings if not has_korean(b)]
    assert lacking == [], lacking
    english_left = [b.description for b in bindings
                    if b.description and re.search(r"[a-z]{3}", localised(b, lang).description)]
    assert english_left == [], english_left
