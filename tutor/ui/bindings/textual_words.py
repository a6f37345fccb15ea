"""Textual's own bindings, in Korean: the keys of the widgets and screens the tutor is built of
(a scroll, a table, a list, a button, a screen's focus and copy). Nothing shows them but the keys
panel (the palette's "Keys"), which lists every key of the focused widget; registered with
keyed() so localised() says them as it says the tutor's own."""

from __future__ import annotations

from tutor.ui.bindings.key_words import keyed

# A scroll (VerticalScroll, the panes)
keyed("up", "scroll_up", ("Scroll Up", "위로 스크롤"))
keyed("down", "scroll_down", ("Scroll Down", "아래로 스크롤"))
keyed("left", "scroll_left", ("Scroll Left", "왼쪽으로 스크롤"))
keyed("right", "scroll_right", ("Scroll Right", "오른쪽으로 스크롤"))
keyed("home", "scroll_home", ("Scroll Home", "맨 위로"))
keyed("end", "scroll_end", ("Scroll End", "맨 아래로"))
keyed("pageup", "page_up", ("Page Up", "한 쪽 위로"))
keyed("pagedown", "page_down", ("Page Down", "한 쪽 아래로"))
keyed("ctrl+pageup", "page_left", ("Page Left", "한 쪽 왼쪽으로"))
keyed("ctrl+pagedown", "page_right", ("Page Right", "한 쪽 오른쪽으로"))
# A table (DataTable, the pods)
keyed("enter", "select_cursor", ("Select", "고르기"))
keyed("up", "cursor_up", ("Cursor up", "위 칸으로"))
keyed("down", "cursor_down", ("Cursor down", "아래 칸으로"))
keyed("right", "cursor_right", ("Cursor right", "오른쪽 칸으로"))
keyed("left", "cursor_left", ("Cursor left", "왼쪽 칸으로"))
keyed("pageup", "page_up", ("Page up", "한 쪽 위로"))
keyed("pagedown", "page_down", ("Page down", "한 쪽 아래로"))
keyed("ctrl+home", "scroll_top", ("Top", "맨 위로"))
keyed("ctrl+end", "scroll_bottom", ("Bottom", "맨 아래로"))
keyed("home", "scroll_home", ("Home", "줄의 처음으로"))
keyed("end", "scroll_end", ("End", "줄의 끝으로"))
# A list (OptionList, the timeline and the palette's choices)
keyed("down", "cursor_down", ("Down", "아래로"))
keyed("up", "cursor_up", ("Up", "위로"))
keyed("end", "last", ("Last", "마지막 항목으로"))
keyed("home", "first", ("First", "첫 항목으로"))
keyed("enter", "select", ("Select", "고르기"))
keyed("pagedown", "page_down", ("Page Down", "한 쪽 아래로"))
# A button (the confirmations)
keyed("enter", "press", ("Press button", "버튼 누르기"))
# Every screen
keyed("tab", "app.focus_next", ("Focus Next", "다음 창"))
keyed("shift+tab", "app.focus_previous", ("Focus Previous", "이전 창"))
keyed("ctrl+c,super+c", "screen.copy_text", ("Copy selected text", "고른 글자 복사"))
