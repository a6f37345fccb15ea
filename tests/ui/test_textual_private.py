"""No private Textual member is used outside tutor/ui/textual_compat.py.

Textual promises nothing about its underscored members across releases: the notices' list, the
binding map and the palette's internals each broke, or would break, on an upgrade. Two readings
of the code find every use: a class of ours that defines a member Textual's classes above it
define privately (an override), and a read or write of an underscored name that only Textual
defines (tutor/ never does), by attribute or by its name in getattr and its kin."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import textual

import tutor

ROOT = Path(tutor.__file__).parent
COMPAT = "tutor.ui.textual_compat"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_names(tree: ast.AST) -> set[str]:
    """Underscored names a module defines: functions, class attributes, self.<name> = ..."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if _private(n)}


def _trees(root: Path) -> dict[Path, ast.AST]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.py"))}


def _module(path: Path) -> str:
    return ".".join(("tutor", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(".__init__")


def _textual_private() -> set[str]:
    names: set[str] = set()
    for tree in _trees(Path(textual.__file__).parent).values():
        names |= _defined_names(tree)
    return names


def _uses(tree: ast.AST) -> list[tuple[int, str]]:
    """Underscored names read or written by attribute, or named as a string to getattr & co."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            found.append((node.lineno, node.attr))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value)):
            found.append((node.lineno, node.args[1].value))
    return found


def test_no_private_textual_name_is_read_or_written_outside_the_compat_module():
    trees = _trees(ROOT)
    ours: set[str] = set()
    for tree in trees.values():
        ours |= _defined_names(tree)
    textual_only = _textual_private() - ours
    found = [f"{_module(path)}:{line}: {name}" for path, tree in trees.items() if _module(path) != COMPAT
             for line, name in _uses(tree) if name in textual_only]
    assert not found, found


def _tutor_modules():
    for info in pkgutil.walk_packages([str(ROOT)], "tutor."):
        if info.name.startswith(("tutor.ui", "tutor.serve", "tutor.commands")):
            yield importlib.import_module(info.name)


def _overrides(cls: type) -> list[str]:
    """The private members of Textual's classes above `cls` that `cls` defines again."""
    above = [c for c in cls.__mro__[1:] if c.__module__.split(".")[0] == "textual"]
    # Only what the class body defines as code: Textual sets private class attributes of its
    # own on every subclass (its handlers, CSS type names, merged bindings).
    code = (staticmethod, classmethod, property)
    return [name for name, value in vars(cls).items() if _private(name) and (inspect.isfunction(value) or
            isinstance(value, code)) and any(name in vars(c) for c in above)]


def test_no_class_of_ours_overrides_a_private_textual_member_outside_the_compat_module():
    found = []
    for module in _tutor_modules():
        if module.__name__ == COMPAT:
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            found += [f"{module.__name__}.{cls.__name__}.{name}" for name in _overrides(cls)]
    assert not found, found


def test_the_scan_finds_a_private_use_when_there_is_one():
    """The readings above can fail: a use of Textual's notices' list and an override of its
    refresh are both found."""
    tree = ast.parse("app._notifications.add(n)\nx = getattr(view, '_scroll_update', None)\n")
    assert {name for _, name in _uses(tree)} & _textual_private() == {"_notifications", "_scroll_update"}

    from textual.app import App

    class Overrides(App):
        def _refresh_notifications(self) -> None: ...

    assert _overrides(Overrides) == ["_refresh_notifications"]
