"""A loopback TCP relay in front of the lab's API server that can silence the connections it
already carries while it still relays new ones: a watch that stays open and says nothing more, as
behind a proxy that stopped forwarding, with the API server itself answering.

TLS passes through untouched (the API server's certificate names 127.0.0.1, where the relay
listens too)."""

from __future__ import annotations

import socket
import threading


class FreezingProxy:
    def __init__(self, upstream_port: int):
        self.upstream = ("127.0.0.1", upstream_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._conns: list[tuple[socket.socket, socket.socket]] = []
        self._frozen: set[int] = set()  # ids of the client sockets that are silenced
        self._closed = threading.Event()
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()

    def freeze(self) -> int:
        """Silences every connection open now (nothing more reaches their clients); returns how many."""
        with self._lock:
            self._frozen |= {id(client) for client, _ in self._conns}
            return len(self._frozen)

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        with self._lock:
            for pair in self._conns:
                for sock in pair:
                    sock.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            with self._lock:
                self._conns.append((client, server))
            threading.Thread(target=self._relay, args=(client, server, client), daemon=True).start()
            threading.Thread(target=self._relay, args=(server, client, client), daemon=True).start()

    def _relay(self, src: socket.socket, dst: socket.socket, client: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                if id(client) in self._frozen:
                    continue  # swallowed: the client hears nothing more on this connection
                dst.sendall(data)
        except OSError:
            pass
