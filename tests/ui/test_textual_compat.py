"""Each private Textual member tutor/ui/textual_compat.py uses is still there, in the Textual the
project allows. A Textual that drops or renames one fails here, by name, not as a screen that
stops drawing: the compat module then needs its use read again against the new source."""

from __future__ import annotations

import inspect

import textual
from textual.command import CommandPalette
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.widget import Widget
from textual.widgets import Footer, Markdown

from tutor.ui import textual_compat
from tutor.ui.textual_compat import READ_AGAINST, SizedInOneLayout, SurePalette

# (class, member) for every private member the compat module reads, writes or overrides.
USED = [
    (Widget, "_size_updated"),
    (Footer, "_bindings_ready"),
    (ScrollView, "_scroll_update"),
    (Markdown, "_parse_markdown"),
    (CommandPalette, "_on_mount"),
    (CommandPalette, "_gather_commands"),
    (CommandPalette, "_GATHER_COMMANDS_GROUP"),
    (CommandPalette, "_start_no_matches_countdown"),
    (CommandPalette, "_stop_no_matches_countdown"),
    (CommandPalette, "_watch__list_visible"),
    (CommandPalette, "_watch__show_busy"),
    (CommandPalette, "_action_command_list"),
    (CommandPalette, "_NO_MATCHES"),
    (CommandPalette, "_NO_MATCHES_COUNTDOWN"),
]
SET_ON_AN_INSTANCE = [  # instance attributes: found in the source of the class's __init__
    (Markdown, "_parser_factory"), (Markdown, "_markdown"), (Markdown, "_table_of_contents"), (Markdown, "_last_parsed_line"),
    (CommandPalette, "_list_visible"), (CommandPalette, "_no_matches_timer"),
]


def test_the_textual_installed_is_the_major_version_the_uses_were_read_against():
    assert textual.__version__.split(".")[0] == READ_AGAINST.split(".")[0], (textual.__version__, READ_AGAINST)


def test_every_private_member_the_compat_module_uses_is_still_there():
    missing = [f"{cls.__name__}.{name}" for cls, name in USED if not hasattr(cls, name)]
    missing += [f"{cls.__name__}.{name}" for cls, name in SET_ON_AN_INSTANCE
                if name not in inspect.getsource(cls)]
    assert not missing, f"gone from textual {textual.__version__}: {missing}"


def test_the_binding_map_is_where_the_compat_module_reads_it():
    from textual.app import App

    class Keys(App):
        BINDINGS = [("x", "quit", "Quit")]

    assert [b.action for b in textual_compat.bindings_by_key(Keys())["x"]] == ["quit"]


def test_the_size_update_a_scrollbar_is_given_still_takes_whether_to_lay_out():
    """scrollbars_sized_in_one_layout calls the size update Textual gave ScrollBar, kept before
    it was replaced, with layout=False, on every scrollbar (importing the compat module replaced
    theirs)."""
    assert "layout" in inspect.signature(textual_compat._TEXTUAL_SCROLLBAR_SIZED).parameters
    assert "layout" in inspect.signature(Widget._size_updated).parameters
    assert ScrollBar._size_updated is not Widget._size_updated


def test_the_overrides_override_something():
    """An override of a member Textual no longer calls would do nothing, silently."""
    for cls in (SizedInOneLayout, SurePalette):
        for name, value in vars(cls).items():
            if name.startswith("_") and not name.startswith("__") and inspect.isfunction(value):
                assert any(hasattr(base, name) for base in (Widget, CommandPalette)), f"{cls.__name__}.{name}"
