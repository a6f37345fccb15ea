"""The tests' servers get ports outside the ephemeral range (tests/ports.py), and no test picks
one any other way: a port picked by binding port 0 and letting it go can be taken by any outgoing
connection before the server binds it."""

from __future__ import annotations

import ast
import socket
from pathlib import Path

from tests import ports

TESTS = Path(__file__).resolve().parent


def test_a_free_port_is_outside_the_ephemeral_range_and_bindable():
    low, high = ports.ephemeral_range()
    given = [ports.free_port() for _ in range(20)]
    assert len(set(given)) == len(given)
    for port in given:
        assert not low <= port <= high, (port, low, high)
        with socket.socket() as s:
            s.bind((ports.LOOPBACK, port))


def _binds_port_zero(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "bind"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Tuple) and len(node.args[0].elts) == 2
            and isinstance(node.args[0].elts[1], ast.Constant) and node.args[0].elts[1].value == 0)


def _calls(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name


def test_no_test_lets_go_of_a_port_it_bound_to_find_it_free():
    """A socket bound to port 0 inside a `with` is closed at its end: the port it found is only
    a guess, for a server started later (a socket kept open, listening, is no such guess)."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == TESTS / "ports.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.With) and any(_binds_port_zero(n) for n in ast.walk(node)) \
                    and not any(_calls(n, "listen") for n in ast.walk(node)):
                found.append(f"{path.relative_to(TESTS.parent)}:{node.lineno}")
    assert not found, f"use tests.ports.free_port(): {found}"
