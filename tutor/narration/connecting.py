"""Which kubeconfig the tutor uses and why, and why it found no usable cluster
(tutor/cluster/connect.py: Source, and ConnectError's code and facts), said to the learner, with
the commands that fix it. The Korean says as much as the English: a library's text (the client's,
the YAML parser's) is said in Korean where we know its sentence, and kept as it is where we do not;
the fixes are commands, the same in both languages."""

from __future__ import annotations

import re
from typing import Callable

from tutor.cluster.connect import ConnectError, Source
from tutor.i18n.bilingual import Words, pick, say, system_reason
from tutor.i18n.particles import fill

COPY_TO = "~/.kube/config"


def sentence(error: ConnectError, lang: str) -> str:
    """What is wrong, in `lang`, in one line."""
    if error.code == "no-context":
        return say(lang, "context {context} not found in {label}", "{label}에 {context:이라는} 컨텍스트가 없습니다",
                   label=error.facts["label"], context=repr(error.facts["context"]))
    return pick(_WORDS[error.code](**error.facts), lang)


def fixes(error: ConnectError) -> tuple[str | Words, ...]:
    """The commands that fix it, when there are some: a command with a placeholder is a pair
    (English, Korean), so that the placeholder is in the learner's language."""
    path = error.facts.get("path", "")
    if error.code == "env-no-file":
        return "unset KUBECONFIG", ("export KUBECONFIG=<your kubeconfig>", "export KUBECONFIG=<내 kubeconfig 파일>")
    if error.code == "unreadable":
        return (f"sudo chown $USER {path}",
                ("lwstutor --kubeconfig <a file you can read>", "lwstutor --kubeconfig <읽을 수 있는 파일>"))
    if error.code == "k3s-unreadable":
        return ("sudo $(command -v lwstutor)",
                f"mkdir -p ~/.kube && sudo cp {path} {COPY_TO} && sudo chown $USER {COPY_TO}",
                f"mkdir -p ~/.kube && sudo k3s kubectl config view --raw > {COPY_TO}")
    return ()


def found(source: Source, lang: str) -> str:
    """The files used, and why those: "~/.kube/config (kubectl's default: $KUBECONFIG is unset)"."""
    where = ", ".join(source.files) or say(lang, "in-cluster config", "클러스터 내부 설정")
    return f"{where} ({why_found(source, lang)})"


def why_found(source: Source, lang: str) -> str:
    """Why those files: kubectl's order, as it applied here."""
    merged = len(source.files) > 1
    return pick({
        "--kubeconfig": ("given with --kubeconfig", "--kubeconfig로 지정함"),
        "$KUBECONFIG": ("from $KUBECONFIG" + (", merged" if merged else ""), "$KUBECONFIG에서" + (", 합쳐서" if merged else "")),
        "home": ("kubectl's default: $KUBECONFIG is unset", "kubectl의 기본값: $KUBECONFIG가 설정되지 않음"),
        "k3s": (f"k3s's kubeconfig: $KUBECONFIG is unset and {source.missing} does not exist",
                f"k3s의 kubeconfig: $KUBECONFIG가 설정되지 않았고 {source.missing} 파일도 없음"),
        "in-cluster": ("running in a pod: no kubeconfig file found", "파드 안에서 실행 중: kubeconfig 파일이 없음"),
    }[source.found_by], lang)


# --- what is wrong, by its code: (English, Korean) from its facts ---------------------------------

def _not_given(kubeconfig: str) -> Words:
    return (f"no kubeconfig at {kubeconfig} (given with --kubeconfig)",
            f"{kubeconfig}에 kubeconfig가 없습니다(--kubeconfig로 지정됨)")


def _env_no_file(env: str) -> Words:
    return f"$KUBECONFIG is {env}, and no such file exists", f"$KUBECONFIG가 {env}인데, 그런 파일이 없습니다"


def _no_cluster(home_config: str, k3s: str) -> Words:
    looked = f"--kubeconfig, $KUBECONFIG, {home_config}, {k3s}"
    return (f"no cluster found: no {looked} or in-cluster config. "
            "To watch the lab being done without a cluster: lwstutor demo",
            f"클러스터를 찾지 못했습니다: {looked}, 클러스터 내부 설정이 모두 없습니다. "
            "클러스터 없이 실습 과정을 보려면: lwstutor demo")


def _cannot_read(path: str, not_utf8: bool = False, errno: int | None = None, reason: str | None = None) -> Words:
    en, ko = ("not UTF-8 text", "UTF-8 텍스트가 아닙니다") if not_utf8 else system_reason(errno, reason)
    return f"cannot read the kubeconfig {path}: {en}", f"kubeconfig {path}: 읽을 수 없습니다({ko})"


def _directory(path: str) -> Words:
    return f"the kubeconfig {path} is a directory, not a file", f"kubeconfig {path}: 파일이 아니라 디렉터리입니다"


def _not_a_file(path: str) -> Words:
    return (f"the kubeconfig {path} is not a regular file (a FIFO, socket or device)",
            f"kubeconfig {path}: 일반 파일이 아닙니다 (FIFO, 소켓 또는 장치 파일)")


def _too_large(path: str, size: int) -> Words:
    return (f"the kubeconfig {path} is {size} bytes, too large for a kubeconfig",
            f"kubeconfig {path}: 크기가 {size}바이트로, kubeconfig로 보기에 너무 큽니다")


def _mode(mode: int | None, uid: int | None) -> Words:
    if mode is None:
        return "mode ?", "권한 ?"
    owner = "root" if uid == 0 else f"uid {uid}"
    return f"mode {mode:04o}, owner {owner}", f"권한 {mode:04o}, 소유자 {owner}"


def _unreadable(path: str, mode: int | None, uid: int | None) -> Words:
    en, ko = _mode(mode, uid)
    return f"cannot read the kubeconfig {path}: permission denied ({en})", f"kubeconfig {path}: 읽을 권한이 없습니다 ({ko})"


def _k3s_unreadable(path: str, mode: int | None, uid: int | None) -> Words:
    en, ko = _mode(mode, uid)
    return (f"cannot read {path}, k3s's kubeconfig: permission denied ({en}). "
            "Run lwstutor as root, or copy the file for yourself (one of these):",
            f"k3s의 kubeconfig {path}: 읽을 권한이 없습니다 ({ko}). "
            "lwstutor를 root로 실행하거나, 파일을 내 것으로 복사하세요 (아래 중 하나):")


def _not_yaml(path: str, line: int | None, problem: str | None) -> Words:
    # The Korean keeps the line, not the parser's English ("found character '\t' that cannot
    # start any token"): the line is where to look, and the sentence would be English in Korean.
    where, where_ko = (f"line {line}: ", f"({line}번째 줄)") if line is not None else ("", "")
    return (f"the kubeconfig {path} is not valid YAML ({where}{problem or 'a YAML error'})",
            f"kubeconfig {path}: 올바른 YAML이 아닙니다{where_ko}")


def _not_a_kubeconfig(path: str) -> Words:
    return (f"the kubeconfig {path} is not a kubeconfig (expected a mapping with clusters, users and contexts)",
            f"kubeconfig {path}: kubeconfig 형식이 아닙니다 (clusters, users, contexts가 있는 매핑이어야 합니다)")


def _in_cluster(error: str) -> Words:
    return f"in-cluster config: {error}", "클러스터 내부 설정을 읽지 못했습니다(파드의 서비스 어카운트 토큰이 없습니다)"


# What the kubernetes client says of a kubeconfig it refuses (kubernetes/config/kube_config.py's
# ConfigException texts), in Korean with its facts kept: the key, the entry, the file.
_CLIENT_SAYS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"Expected key (?P<key>\S+) in (?P<where>\S+)$"), "{where}에 {key:이} 없습니다"),
    (re.compile(r"Expected object with name (?P<name>\S+) in (?P<where>\S+) list$"),
     "{where} 목록에 이름이 {name}인 항목이 없습니다"),
    (re.compile(r"Expected only one object with name (?P<name>\S+) in (?P<where>\S+) list$"),
     "{where} 목록에 이름이 {name}인 항목이 여럿입니다"),
    (re.compile(r"Expected all values in (?P<where>\S+) list to have 'name' key$"),
     "{where} 목록에 name이 없는 항목이 있습니다"),
    (re.compile(r"Expected (?P<where>\S+) to be a list$"), "{where:은} 목록이어야 합니다"),
    (re.compile(r"No configuration found\.?$"), "설정이 하나도 없습니다"),
    (re.compile(r"(?P<where>\S+) file is empty$"), "{where} 파일이 비어 있습니다"),
]


def client_says_ko(error: str) -> str:
    """The client's refusal in Korean: ours where we know its sentence, else its own words kept."""
    for pattern, ko in _CLIENT_SAYS:
        if (m := pattern.search(error)) is not None:
            return fill(ko, **m.groupdict())  # Korean only: the English is the client's own sentence
    return f"쿠버네티스 클라이언트가 이 설정을 쓰지 못했습니다: {error}"


def _client_refused(label: str, error: str) -> Words:
    return f"kubeconfig {label}: {error}", f"kubeconfig {label}: {client_says_ko(error)}"


def _client_failed(label: str, error: str) -> Words:
    return (f"kubeconfig {label} cannot be used ({error})",
            f"kubeconfig {label}: 쿠버네티스 클라이언트가 쓸 수 없는 파일입니다({error})")


# each takes the error's facts by name (ConnectError's keywords)
_WORDS: dict[str, Callable[..., Words]] = {
    "not-given": _not_given, "env-no-file": _env_no_file, "no-cluster": _no_cluster, "cannot-read": _cannot_read,
    "directory": _directory, "not-a-file": _not_a_file, "too-large": _too_large, "unreadable": _unreadable,
    "k3s-unreadable": _k3s_unreadable, "not-yaml": _not_yaml, "not-a-kubeconfig": _not_a_kubeconfig,
    "in-cluster": _in_cluster, "client-refused": _client_refused, "client-failed": _client_failed}
