"""Loopback ports for the tests' servers, chosen below the kernel's ephemeral range.

A port found free by binding port 0 lies in the ephemeral range, the one every outgoing connection
on the machine draws its local port from. Between that look and the server's own bind (seconds,
for a lab's later components) a client's connection can take the port, and the server fails with
"address already in use": a lab's lws-manager did so once in a loaded run. Outgoing connections
never take a port outside the range, so a port there found free stays free for the server.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

LOOPBACK = "127.0.0.1"
LOWEST = 10_000  # below it, the ports of well-known services
RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
LINUX_DEFAULT = (32768, 60999)

_given: set[int] = set()  # this process's ports: two servers of one run never get the same one


def ephemeral_range() -> tuple[int, int]:
    """The local ports the kernel gives outgoing connections (Linux's default where unreadable)."""
    try:
        low, high = (int(word) for word in RANGE_FILE.read_text().split())
    except (OSError, ValueError):
        return LINUX_DEFAULT
    return low, high


def _spans() -> list[range]:
    low, high = ephemeral_range()
    spans = [range(LOWEST, low), range(high + 1, 65536)]
    return [span for span in spans if len(span) >= 1000]


def free_port() -> int:
    """A loopback port nobody listens on, outside the ephemeral range (the kernel's choice on a
    machine whose range leaves no room outside it)."""
    spans = _spans()
    for _ in range(500 if spans else 0):
        port = random.choice(random.choice(spans))
        if port in _given:
            continue
        with socket.socket() as s:
            try:
                s.bind((LOOPBACK, port))
            except OSError:
                continue
        _given.add(port)
        return port
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]
