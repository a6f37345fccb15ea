"""Finds the cluster the way the learner's kubectl does, then connects.

The order: --kubeconfig, $KUBECONFIG (a path list, merged), ~/.kube/config, then k3s's own
/etc/rancher/k3s/k3s.yaml (a stock k3s VM has only that, and its kubectl reads it), then the
in-cluster config. Finding the file imports nothing heavy; the kubernetes client (imported in
connect(), lazily, so the first frame of the UI never waits for it) reads and merges the files.

What it found, and why it found nothing usable, are facts (Source, ConnectError's code and
facts); tutor/narration/connecting.py says them to the learner, with the commands that fix them.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import IO

K3S_KUBECONFIG = "/etc/rancher/k3s/k3s.yaml"
# urllib3 retries a request 3 times by default: a server that never answers then keeps a
# one-shot command waiting four timeouts. The watches retry on their own, with backoff.
RETRIES = 1


class ConnectError(Exception):
    """The cluster cannot be found or configured: what is wrong (a code) and its facts, such as
    the file's path. Codes: not-given (--kubeconfig names no file), env-no-file, no-cluster,
    cannot-read, directory, not-a-file, too-large, unreadable, k3s-unreadable, not-yaml,
    not-a-kubeconfig, in-cluster, no-context, client-refused, client-failed."""

    def __init__(self, code: str, **facts: object) -> None:
        super().__init__(code + "".join(f" {k}={v!r}" for k, v in facts.items()))
        self.code, self.facts = code, facts


class NoCluster(ConnectError):
    """Nothing to connect to at all: one line, pointing to the demo."""


@dataclass(frozen=True)
class Where:
    """Where kubectl would look. The tests point it at a temp root."""
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    home: str = field(default_factory=lambda: os.path.expanduser("~"))
    k3s: str = field(default_factory=lambda: K3S_KUBECONFIG)  # read when made, so tests may patch it
    opener: Callable[[str, str], IO[bytes]] = open  # only to try reading a file; injectable because root reads a 0600 file


@dataclass(frozen=True)
class Source:
    """The kubeconfig files used (merged in this order; none = in-cluster) and why those: found
    by --kubeconfig, $KUBECONFIG, home (~/.kube/config), k3s (its file, as `missing` was not
    there) or in-cluster."""
    files: tuple[str, ...]
    found_by: str
    missing: str = ""


@dataclass
class Connection:
    api_client: object  # kubernetes.client.ApiClient
    context: str
    server: str
    source: Source | None = None


def _split(paths: str) -> list[str]:
    return [os.path.expanduser(p) for p in paths.split(os.pathsep) if p]


def find_kubeconfig(kubeconfig: str | None = None, where: Where | None = None) -> Source:
    """kubectl's order, without importing the client. Raises ConnectError with the fix."""
    where = where or Where()
    home_config = os.path.join(where.home, ".kube", "config")
    env = where.environ.get("KUBECONFIG", "")
    if kubeconfig:
        files = [p for p in _split(kubeconfig) if os.path.lexists(p)]  # a loop or dangling link: say so below
        if not files:
            raise ConnectError("not-given", kubeconfig=kubeconfig)
        source = Source(tuple(files), "--kubeconfig")
    elif env:
        files = [p for p in _split(env) if os.path.exists(p)]
        if not files:  # kubectl does not fall back to ~/.kube/config either
            raise ConnectError("env-no-file", env=env)
        source = Source(tuple(files), "$KUBECONFIG")
    elif os.path.exists(home_config):
        source = Source((home_config,), "home")
    elif os.path.exists(where.k3s):
        source = Source((where.k3s,), "k3s", missing=home_config)
    elif where.environ.get("KUBERNETES_SERVICE_HOST"):
        return Source((), "in-cluster")
    else:
        raise NoCluster("no-cluster", home_config=home_config, k3s=where.k3s)
    for path in source.files:
        _check_readable(path, where)
    return source


KUBECONFIG_MAX = 16 << 20  # a kubeconfig is kilobytes; the client reads the whole file


def _cannot_read(path: str, exc: BaseException) -> ConnectError:
    if isinstance(exc, UnicodeDecodeError):
        return ConnectError("cannot-read", path=path, not_utf8=True)
    return ConnectError("cannot-read", path=path, errno=getattr(exc, "errno", None), reason=getattr(exc, "strerror", None))


def _check_readable(path: str, where: Where) -> None:
    """A regular file of sane size that can be opened: a FIFO would block the client's read,
    a device (/dev/zero) would never end, a directory cannot be parsed."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    if stat.S_ISDIR(st.st_mode):
        raise ConnectError("directory", path=path)
    if not stat.S_ISREG(st.st_mode):
        raise ConnectError("not-a-file", path=path)
    if st.st_size > KUBECONFIG_MAX:
        raise ConnectError("too-large", path=path, size=st.st_size)
    try:
        where.opener(path, "rb").close()
    except PermissionError:
        raise _unreadable(path, where) from None
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    _check_is_kubeconfig(path)


def _unreadable(path: str, where: Where) -> ConnectError:
    """Permission denied: the file's mode and owner (None when even they cannot be read)."""
    mode: int | None
    uid: int | None
    try:
        st = os.stat(path)
        mode, uid = stat.S_IMODE(st.st_mode), st.st_uid
    except OSError:
        mode = uid = None
    return ConnectError("k3s-unreadable" if path == where.k3s else "unreadable", path=path, mode=mode, uid=uid)


def _check_is_kubeconfig(path: str) -> None:
    """A file that is not YAML, or not a mapping, gets one line saying so (the client's own
    error would be a parser's three lines, or a TypeError)."""
    import yaml

    try:
        with open(path, "rb") as fh:
            doc = yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConnectError("not-yaml", path=path, line=mark.line + 1 if mark is not None else None,
                           problem=getattr(exc, "problem", None)) from None
    except (OSError, ValueError) as exc:
        raise _cannot_read(path, exc) from None
    if doc is not None and not isinstance(doc, dict):
        raise ConnectError("not-a-kubeconfig", path=path)


def _first_current_context(files: tuple[str, ...]) -> str | None:
    """kubectl takes current-context from the first file that sets it; the client's merge takes
    the last one, so it is read here, file by file, with the client's own loader."""
    from kubernetes.config.kube_config import KubeConfigMerger

    for path in files:
        merged = KubeConfigMerger(path).config
        current: str | None = merged.value.get("current-context") if merged is not None else None  # kubernetes is read as Any
        if current:
            return current
    return None


def connect(kubeconfig: str | None = None, context: str | None = None, where: Where | None = None) -> Connection:
    source = find_kubeconfig(kubeconfig, where)
    from kubernetes import client, config
    from kubernetes.config.config_exception import ConfigException

    if not source.files:
        try:
            cfg = client.Configuration()
            config.load_incluster_config(client_configuration=cfg)
        except ConfigException as exc:
            raise ConnectError("in-cluster", error=str(exc)) from None
        cfg.retries = RETRIES
        return Connection(client.ApiClient(cfg), "in-cluster", cfg.host, source)
    label = ", ".join(source.files)
    merged = os.pathsep.join(source.files)
    try:
        contexts, _ = config.list_kube_config_contexts(config_file=merged)
        name = context or _first_current_context(source.files)
        if context and context not in {c.get("name") for c in contexts or []}:
            raise ConnectError("no-context", label=label, context=context)
        cfg = client.Configuration()
        # persist_config=False: the client would otherwise write refreshed tokens back into the
        # learner's kubeconfig, and the tutor never writes the learner's files.
        config.load_kube_config(config_file=merged, context=name, client_configuration=cfg, persist_config=False)
        cfg.retries = RETRIES
    except ConfigException as exc:
        raise ConnectError("client-refused", label=label, error=str(exc)) from None
    except ConnectError:
        raise
    except Exception as exc:  # noqa: BLE001 - a kubeconfig the client cannot use, for its own reasons
        first = (str(exc).strip().splitlines() or [""])[0]
        raise ConnectError("client-failed", label=label, error=first) from None
    return Connection(client.ApiClient(cfg), name or "", cfg.host, source)
