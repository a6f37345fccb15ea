"""Finds the cluster the way the learner's kubectl does, then connects.

The order: --kubeconfig, $KUBECONFIG (a path list, merged), ~/.kube/config, then k3s's own
/etc/rancher/k3s/k3s.yaml (a stock k3s VM has only that, and its kubectl reads it), then the
in-cluster config. Finding the file imports nothing heavy; the kubernetes client (imported in
connect(), lazily, so the first frame of the UI never waits for it) reads and merges the files.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tutor.i18n.bilingual import both, os_reason, say

K3S_KUBECONFIG = "/etc/rancher/k3s/k3s.yaml"
# urllib3 retries a request 3 times by default: a server that never answers then keeps a
# one-shot command waiting four timeouts. The watches retry on their own, with backoff.
RETRIES = 1


class ConnectError(Exception):
    """The cluster cannot be found or configured; the message (and the fixes) say what to do.
    The learner sees it first, so it is in English and Korean; the fixes are commands."""

    def __init__(self, en: str, ko: str, fixes: tuple[str, ...] = ()):
        super().__init__(en)
        self.texts = {"en": en, "ko": ko}
        self.fixes = fixes

    def text(self, lang: str = "en") -> str:
        label = say(lang, "fix", "해결")
        return "\n".join([self.texts.get(lang, self.texts["en"]), *(f"  {label}: {f}" for f in self.fixes)])

    def __str__(self) -> str:
        return self.text("en")


class NoCluster(ConnectError):
    """Nothing to connect to at all: one line, pointing to the demo."""


@dataclass(frozen=True)
class Where:
    """Where kubectl would look. The tests point it at a temp root."""
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    home: str = field(default_factory=lambda: os.path.expanduser("~"))
    k3s: str = field(default_factory=lambda: K3S_KUBECONFIG)  # read when made, so tests may patch it
    opener: Callable = open  # only to try reading a file; injectable because root reads a 0600 file


@dataclass(frozen=True)
class Source:
    """The kubeconfig files used (merged in this order; none = in-cluster) and why those."""
    files: tuple[str, ...]
    why: str
    why_ko: str = ""

    def describe(self, lang: str = "en") -> str:
        where = ", ".join(self.files) or say(lang, "in-cluster config", "클러스터 내부 설정")
        return f"{where} ({self.why_in(lang)})"

    def why_in(self, lang: str) -> str:
        return self.why_ko if lang == "ko" and self.why_ko else self.why


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
            raise ConnectError(f"no kubeconfig at {kubeconfig} (given with --kubeconfig)",
                               f"{kubeconfig}에 kubeconfig가 없습니다(--kubeconfig로 지정됨)")
        source = Source(tuple(files), "given with --kubeconfig", "--kubeconfig로 지정함")
    elif env:
        files = [p for p in _split(env) if os.path.exists(p)]
        if not files:  # kubectl does not fall back to ~/.kube/config either
            raise ConnectError(f"$KUBECONFIG is {env}, and no such file exists",
                               f"$KUBECONFIG가 {env}인데, 그런 파일이 없습니다",
                               ("unset KUBECONFIG", "export KUBECONFIG=<your kubeconfig>"))
        source = Source(tuple(files), "from $KUBECONFIG" + (", merged" if len(files) > 1 else ""),
                        "$KUBECONFIG에서" + (", 합쳐서" if len(files) > 1 else ""))
    elif os.path.exists(home_config):
        source = Source((home_config,), "kubectl's default: $KUBECONFIG is unset",
                        "kubectl의 기본값: $KUBECONFIG가 설정되지 않음")
    elif os.path.exists(where.k3s):
        source = Source((where.k3s,), f"k3s's kubeconfig: $KUBECONFIG is unset and {home_config} does not exist",
                        f"k3s의 kubeconfig: $KUBECONFIG가 설정되지 않았고 {home_config} 파일도 없음")
    elif where.environ.get("KUBERNETES_SERVICE_HOST"):
        return Source((), "running in a pod: no kubeconfig file found", "파드 안에서 실행 중: kubeconfig 파일이 없음")
    else:
        looked = f"--kubeconfig, $KUBECONFIG, {home_config}, {where.k3s}"
        raise NoCluster(f"no cluster found: no {looked} or in-cluster config. "
                        "To watch the lab being done without a cluster: lwstutor demo",
                        f"클러스터를 찾지 못했습니다: {looked}, 클러스터 내부 설정이 모두 없습니다. "
                        "클러스터 없이 실습 과정을 보려면: lwstutor demo")
    for path in source.files:
        _check_readable(path, where)
    return source


KUBECONFIG_MAX = 16 << 20  # a kubeconfig is kilobytes; the client reads the whole file


def _cannot_read(path: str, exc: BaseException) -> ConnectError:
    if isinstance(exc, UnicodeDecodeError):
        en, ko = "not UTF-8 text", "UTF-8 텍스트가 아닙니다"
    else:
        en, ko = os_reason(exc)
    return ConnectError(f"cannot read the kubeconfig {path}: {en}", f"kubeconfig {path}: 읽을 수 없습니다({ko})")


def _check_readable(path: str, where: Where) -> None:
    """A regular file of sane size that can be opened: a FIFO would block the client's read,
    a device (/dev/zero) would never end, a directory cannot be parsed."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    if stat.S_ISDIR(st.st_mode):
        raise ConnectError(f"the kubeconfig {path} is a directory, not a file",
                           f"kubeconfig {path}: 파일이 아니라 디렉터리입니다")
    if not stat.S_ISREG(st.st_mode):
        raise ConnectError(f"the kubeconfig {path} is not a regular file (a FIFO, socket or device)",
                           f"kubeconfig {path}: 일반 파일이 아닙니다 (FIFO, 소켓 또는 장치 파일)")
    if st.st_size > KUBECONFIG_MAX:
        raise ConnectError(f"the kubeconfig {path} is {st.st_size} bytes, too large for a kubeconfig",
                           f"kubeconfig {path}: 크기가 {st.st_size}바이트로, kubeconfig로 보기에 너무 큽니다")
    try:
        where.opener(path, "rb").close()
    except PermissionError:
        raise _unreadable(path, where) from None
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    _check_is_kubeconfig(path)


def _unreadable(path: str, where: Where) -> ConnectError:
    try:
        st = os.stat(path)
        owner = "root" if st.st_uid == 0 else f"uid {st.st_uid}"
        mode = f"mode {stat.S_IMODE(st.st_mode):04o}, owner {owner}"
        mode_ko = f"권한 {stat.S_IMODE(st.st_mode):04o}, 소유자 {owner}"
    except OSError:
        mode, mode_ko = "mode ?", "권한 ?"
    copy_to = "~/.kube/config"
    if path != where.k3s:
        return ConnectError(f"cannot read the kubeconfig {path}: permission denied ({mode})",
                            f"kubeconfig {path}: 읽을 권한이 없습니다 ({mode_ko})",
                            (f"sudo chown $USER {path}", "lwstutor --kubeconfig <a file you can read>"))
    return ConnectError(
        f"cannot read {path}, k3s's kubeconfig: permission denied ({mode}). "
        "Run lwstutor as root, or copy the file for yourself (one of these):",
        f"k3s의 kubeconfig {path}: 읽을 권한이 없습니다 ({mode_ko}). "
        "lwstutor를 root로 실행하거나, 파일을 내 것으로 복사하세요 (아래 중 하나):",
        ("sudo $(command -v lwstutor)",
         f"mkdir -p ~/.kube && sudo cp {path} {copy_to} && sudo chown $USER {copy_to}",
         f"mkdir -p ~/.kube && sudo k3s kubectl config view --raw > {copy_to}"))


def _check_is_kubeconfig(path: str) -> None:
    """A file that is not YAML, or not a mapping, gets one line saying so (the client's own
    error would be a parser's three lines, or a TypeError)."""
    import yaml

    try:
        with open(path, "rb") as fh:
            doc = yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        where_ko = f"({mark.line + 1}번째 줄)" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "a YAML error"
        raise ConnectError(f"the kubeconfig {path} is not valid YAML ({where}{problem})",
                           f"kubeconfig {path}: 올바른 YAML이 아닙니다{where_ko}") from None
    except (OSError, ValueError) as exc:
        raise _cannot_read(path, exc) from None
    if doc is not None and not isinstance(doc, dict):
        raise ConnectError(f"the kubeconfig {path} is not a kubeconfig (expected a mapping with clusters, "
                           "users and contexts)",
                           f"kubeconfig {path}: kubeconfig 형식이 아닙니다 (clusters, users, contexts가 있는 매핑이어야 합니다)")


def _first_current_context(files: tuple[str, ...]) -> str | None:
    """kubectl takes current-context from the first file that sets it; the client's merge takes
    the last one, so it is read here, file by file, with the client's own loader."""
    from kubernetes.config.kube_config import KubeConfigMerger

    for path in files:
        merged = KubeConfigMerger(path).config
        current = merged.value.get("current-context") if merged is not None else None
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
            raise ConnectError(f"in-cluster config: {exc}",
                               "클러스터 내부 설정을 읽지 못했습니다(파드의 서비스 어카운트 토큰이 없습니다)") from None
        cfg.retries = RETRIES
        return Connection(client.ApiClient(cfg), "in-cluster", cfg.host, source)
    label = ", ".join(source.files)
    merged = os.pathsep.join(source.files)
    try:
        contexts, _ = config.list_kube_config_contexts(config_file=merged)
        name = context or _first_current_context(source.files)
        if context and context not in {c.get("name") for c in contexts or []}:
            raise ConnectError(*both("context {context} not found in {label}", "{label}에 {context:이라는} 컨텍스트가 없습니다",
                                     label=label, context=repr(context)))
        cfg = client.Configuration()
        # persist_config=False: the client would otherwise write refreshed tokens back into the
        # learner's kubeconfig, and the tutor never writes the learner's files.
        config.load_kube_config(config_file=merged, context=name, client_configuration=cfg, persist_config=False)
        cfg.retries = RETRIES
    except ConfigException as exc:
        raise ConnectError(f"kubeconfig {label}: {exc}",
                           f"kubeconfig {label}: 쿠버네티스 클라이언트가 이 설정을 쓰지 못했습니다") from None
    except ConnectError:
        raise
    except Exception as exc:  # noqa: BLE001 - a kubeconfig the client cannot use, for its own reasons
        first = (str(exc).strip().splitlines() or [""])[0]
        raise ConnectError(f"kubeconfig {label} cannot be used ({first})",
                           f"kubeconfig {label}: 쿠버네티스 클라이언트가 쓸 수 없는 파일입니다") from None
    return Connection(client.ApiClient(cfg), name or "", cfg.host, source)
