"""The only two paths between the machine's root network namespace and the lab node's.

The control plane runs in the root namespace on 127.0.0.1; the node (containerd, kubelet,
kube-proxy, CoreDNS and every pod) runs in the lab's own namespace, where all the 10.x addresses
live. This one process holds sockets in both namespaces (a socket stays in the namespace it was
created in) and joins them:

- node -> API server: it listens on 127.0.0.1:PORT inside the lab namespace and relays each
  connection to 127.0.0.1:PORT in the root namespace, so one kubeconfig serves both sides;
- API server -> kubelet (exec, logs, port-forward): the API server's egress selector sends its
  "cluster" traffic as HTTP CONNECT over a unix socket; this process dials the requested
  address from inside the lab namespace. Nothing in the root namespace ever dials a 10.x address.

Run: python -m tests.e2e.labnode.netbridge --netns PATH --api-port N --egress-uds PATH
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import socket
import sys
import threading
from contextlib import contextmanager

CLONE_NEWNET = 0x40000000
LOOPBACK = "127.0.0.1"
_libc = ctypes.CDLL(None, use_errno=True)
_ns_lock = threading.Lock()


def _setns(fd: int) -> None:
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@contextmanager
def inside(netns_fd: int, home_fd: int):
    """Runs the block with this thread in another network namespace; sockets made there stay
    there after the thread comes back."""
    with _ns_lock:
        _setns(netns_fd)
        try:
            yield
        finally:
            _setns(home_fd)


def pipe(a: socket.socket, b: socket.socket) -> None:
    """Copies both ways until both sides have closed."""
    def one_way(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    t = threading.Thread(target=one_way, args=(b, a), daemon=True)
    t.start()
    one_way(a, b)
    t.join()
    a.close()
    b.close()


def serve(listener: socket.socket, handle) -> None:
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def to_api_server(port: int):
    def handle(conn: socket.socket) -> None:
        try:
            upstream = socket.create_connection((LOOPBACK, port), timeout=10)
            upstream.settimeout(None)
        except OSError:
            conn.close()
            return
        pipe(conn, upstream)
    return handle


def http_connect(netns_fd: int, home_fd: int):
    def handle(conn: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 8192:
            chunk = conn.recv(4096)
            if not chunk:
                conn.close()
                return
            head += chunk
        header, _, rest = head.partition(b"\r\n\r\n")
        parts = header.split(b"\r\n", 1)[0].split()
        if len(parts) != 3 or parts[0] != b"CONNECT":
            conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\n\r\n")
            conn.close()
            return
        host, _, port = parts[1].decode().rpartition(":")
        host = host.strip("[]")
        try:
            with inside(netns_fd, home_fd):
                upstream = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
            upstream.settimeout(10)
            upstream.connect((host, int(port)))
            upstream.settimeout(None)
        except (OSError, ValueError) as exc:
            conn.sendall(f"HTTP/1.1 502 Bad Gateway\r\n\r\n{exc}".encode())
            conn.close()
            return
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        if rest:
            upstream.sendall(rest)
        pipe(conn, upstream)
    return handle


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.e2e.labnode.netbridge")
    p.add_argument("--netns", required=True, help="the lab namespace's file, e.g. /run/netns/NAME")
    p.add_argument("--api-port", type=int, required=True)
    p.add_argument("--egress-uds", required=True)
    args = p.parse_args(argv)
    netns_fd = os.open(args.netns, os.O_RDONLY)
    home_fd = os.open("/proc/self/ns/net", os.O_RDONLY)
    with inside(netns_fd, home_fd):
        api = socket.socket()
        api.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        api.bind((LOOPBACK, args.api_port))
        api.listen(128)
    if os.path.exists(args.egress_uds):
        os.unlink(args.egress_uds)
    egress = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    egress.bind(args.egress_uds)
    os.chmod(args.egress_uds, 0o600)
    egress.listen(128)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    threading.Thread(target=serve, args=(api, to_api_server(args.api_port)), daemon=True).start()
    print("netbridge ready", flush=True)
    serve(egress, http_connect(netns_fd, home_fd))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
