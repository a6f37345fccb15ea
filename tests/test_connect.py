"""Finding the cluster the way kubectl does, in a temp root that stands in for the VM's /:
--kubeconfig, $KUBECONFIG (merged), ~/.kube/config, /etc/rancher/k3s/k3s.yaml, in-cluster.
What went wrong is read as the learner reads it (tutor/narration/connecting.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from tests import waits
from tutor.cluster.connect import ConnectError, NoCluster, Where, connect, find_kubeconfig
from tutor.narration.connecting import fixes, sentence, why_found


def told(error: ConnectError, lang: str = "en") -> str:
    """The message and its fixes, as the learner reads them."""
    label = {"en": "fix", "ko": "해결"}[lang]
    return "\n".join([sentence(error, lang), *(f"  {label}: {f}" for f in fixes(error))])


def refused(fn, error=ConnectError) -> str:
    """What the learner reads, in English, when `fn` finds no usable cluster."""
    with pytest.raises(error) as exc:
        fn()
    return told(exc.value)


def kubeconfig(path: Path, context: str = "default", server: str = "https://127.0.0.1:6443",
               current: bool = True) -> Path:
    """A kubeconfig shaped like k3s's (one cluster, user and context), with a token user."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"apiVersion": "v1", "kind": "Config",
           "clusters": [{"name": context, "cluster": {"server": server, "insecure-skip-tls-verify": True}}],
           "users": [{"name": context, "user": {"token": "t"}}],
           "contexts": [{"name": context, "context": {"cluster": context, "user": context}}]}
    if current:
        doc["current-context"] = context
    path.write_text(yaml.safe_dump(doc))
    return path


@pytest.fixture
def vm(tmp_path) -> Where:
    """An empty VM: root's home without .kube, no k3s file yet, no KUBECONFIG, not in a pod."""
    (tmp_path / "root").mkdir()
    return Where(environ={}, home=str(tmp_path / "root"), k3s=str(tmp_path / "etc/rancher/k3s/k3s.yaml"))


def test_a_stock_k3s_vm_connects_with_no_flags(vm):
    kubeconfig(Path(vm.k3s), server="https://127.0.0.1:6443")
    conn = connect(where=vm)
    assert conn.server == "https://127.0.0.1:6443" and conn.context == "default"
    assert conn.source.files == (vm.k3s,)
    why = why_found(conn.source, "en")
    assert "k3s's kubeconfig" in why and "$KUBECONFIG is unset" in why


def test_the_order_is_kubectls(vm, tmp_path):
    kubeconfig(Path(vm.k3s), "k3s")
    home = kubeconfig(Path(vm.home) / ".kube/config", "home")
    assert find_kubeconfig(where=vm).files == (str(home),)
    env = kubeconfig(tmp_path / "env.yaml", "env")
    with_env = Where(environ={"KUBECONFIG": str(env)}, home=vm.home, k3s=vm.k3s)
    assert find_kubeconfig(where=with_env).files == (str(env),)
    flag = kubeconfig(tmp_path / "flag.yaml", "flag")
    assert find_kubeconfig(str(flag), where=with_env).files == (str(flag),)
    assert connect(str(flag), where=with_env).context == "flag"


def test_kubeconfig_is_a_merged_path_list_and_the_first_current_context_wins(vm, tmp_path):
    a = kubeconfig(tmp_path / "a.yaml", "ctx-a", "https://127.0.0.1:1001")
    b = kubeconfig(tmp_path / "b.yaml", "ctx-b", "https://127.0.0.1:1002")
    where = Where(environ={"KUBECONFIG": f"{tmp_path / 'absent'}{os.pathsep}{a}{os.pathsep}{b}"},
                  home=vm.home, k3s=vm.k3s)
    conn = connect(where=where)
    assert conn.source.files == (str(a), str(b)) and "merged" in why_found(conn.source, "en")
    assert (conn.context, conn.server) == ("ctx-a", "https://127.0.0.1:1001")  # as kubectl: first file's
    assert connect(context="ctx-b", where=where).server == "https://127.0.0.1:1002"  # both files' contexts
    assert "context 'nope' not found" in refused(lambda: connect(context="nope", where=where))


def test_a_kubeconfig_that_names_no_file_does_not_fall_back(vm, tmp_path):
    kubeconfig(Path(vm.home) / ".kube/config")
    where = Where(environ={"KUBECONFIG": str(tmp_path / "gone")}, home=vm.home, k3s=vm.k3s)
    assert re.search(r"\$KUBECONFIG is .*gone, and no such file exists", refused(lambda: find_kubeconfig(where=where)))
    assert "given with --kubeconfig" in refused(lambda: find_kubeconfig(str(tmp_path / "typo"), where=vm))


def test_in_a_pod_without_files_it_is_the_in_cluster_config(vm):
    where = Where(environ={"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, home=vm.home, k3s=vm.k3s)
    assert find_kubeconfig(where=where).files == ()
    assert "in-cluster config" in refused(lambda: connect(where=where))  # no service account token here


def test_no_cluster_at_all_is_one_line_pointing_to_the_demo(vm):
    said = refused(lambda: find_kubeconfig(where=vm), NoCluster)
    assert "\n" not in said and "lwstutor demo" in said and vm.k3s in said


def test_a_broken_kubeconfig_names_the_file(vm):
    Path(vm.k3s).parent.mkdir(parents=True)
    Path(vm.k3s).write_text("clusters: [\n")
    assert f"kubeconfig {vm.k3s}" in refused(lambda: connect(where=vm))


K3S_FIXES = ("sudo $(command -v lwstutor)",
             "mkdir -p ~/.kube && sudo cp {k3s} ~/.kube/config && sudo chown $USER ~/.kube/config",
             "mkdir -p ~/.kube && sudo k3s kubectl config view --raw > ~/.kube/config")


def assert_k3s_unreadable_message(message: str, k3s: str) -> None:
    assert f"cannot read {k3s}, k3s's kubeconfig: permission denied" in message
    for fix in K3S_FIXES:
        assert fix.format(k3s=k3s) in message, fix


def test_an_unreadable_k3s_file_says_so_with_the_fixes(vm):
    """Root reads a 0600 file, so the denial comes from an injected opener that raises what
    open() raises for a user who may not read the file."""
    kubeconfig(Path(vm.k3s))

    def denied(path, mode):
        raise PermissionError(13, "Permission denied", path)

    where = Where(environ={}, home=vm.home, k3s=vm.k3s, opener=denied)
    with pytest.raises(ConnectError) as exc:
        find_kubeconfig(where=where)
    assert_k3s_unreadable_message(told(exc.value), vm.k3s)
    korean = told(exc.value, "ko")
    assert "k3s의 kubeconfig" in korean and "root로 실행" in korean and "sudo k3s kubectl config view --raw" in korean


def test_an_unreadable_k3s_file_for_real():
    """The real EACCES: a 0600 root file read by uid 65534 (a forked child drops to it when the
    tests run as root; otherwise the file is made mode 000 for the current user)."""
    root = Path(tempfile.mkdtemp(prefix="lwstutor-k3s-"))
    try:
        root.chmod(0o755)  # the child may traverse it, not read the file
        where = Where(environ={}, home=str(root / "home"), k3s=str(root / "k3s.yaml"))
        kubeconfig(Path(where.k3s)).chmod(0o600 if os.geteuid() == 0 else 0)
        message = _find_as_another_user(where) if os.geteuid() == 0 else _find(where)
        assert_k3s_unreadable_message(message, where.k3s)
        assert "mode 0600" in message or "mode 0000" in message
    finally:
        Path(root / "k3s.yaml").chmod(0o600)
        for p in sorted(root.rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
        root.rmdir()


def _find(where: Where) -> str:
    try:
        find_kubeconfig(where=where)
    except ConnectError as exc:
        return told(exc)
    return "found"


def _find_as_another_user(where: Where) -> str:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to nobody, try, report, leave without running pytest's exit
        try:
            os.close(read)
            os.setgid(65534)
            os.setuid(65534)
            os.write(write, _find(where).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        out = fh.read()
    os.waitpid(pid, 0)
    return out


# --- through the command line --------------------------------------------------------------------

# Runs `lwstutor` with the k3s path moved into the temp root (HOME moves the home).
IN_ROOT = ("import sys, tutor.cluster.connect as c; c.K3S_KUBECONFIG = sys.argv.pop(1); "
           "from tutor.cli import main; sys.exit(main(sys.argv[1:]))")


def lwstutor_in(vm: Where, *argv: str):
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")}
    return subprocess.run([sys.executable, "-c", IN_ROOT, vm.k3s, *argv], capture_output=True, text=True,
                          timeout=waits.PROCESS, stdin=subprocess.DEVNULL, env={**env, "HOME": vm.home})


@pytest.mark.parametrize(("lang", "words"), [("en", "no cluster found"), ("ko", "클러스터를 찾지 못했습니다")])
def test_lwstutor_with_no_cluster_says_so_in_one_line(vm, lang, words):
    res = lwstutor_in(vm, "--lang", lang)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and words in res.stderr and "lwstutor demo" in res.stderr


def test_lwstutor_on_an_unreadable_k3s_file_stops_before_the_ui_with_the_fixes(vm):
    """The same message from the command as from find_kubeconfig; the file is a directory here,
    which open() refuses for root too (a permission denial is tested above)."""
    Path(vm.k3s).mkdir(parents=True)
    res = lwstutor_in(vm, "--lang", "en")
    assert res.returncode == 2 and f"cannot connect: the kubeconfig {vm.k3s} is a directory, not a file" in res.stderr
    assert "Traceback" not in res.stderr


def test_doctor_on_a_stock_k3s_vm_says_which_file_and_why(vm):
    kubeconfig(Path(vm.k3s), server="https://127.0.0.1:9")  # nothing listens there
    res = lwstutor_in(vm, "doctor", "--json", "--lang", "en")
    out = json.loads(res.stdout)
    # Nothing answers: exit 2 as for every command, the error as JSON, and the report still made.
    assert res.returncode == 2 and out["kubeconfig"]["files"] == [vm.k3s] and out["error"]["kind"] == "refused"
    assert "k3s's kubeconfig" in out["kubeconfig"]["why"]
    first = out["checks"][0]
    assert first["id"] == "kubeconfig" and vm.k3s in first["title"] and "k3s's kubeconfig" in first["title"]
    assert out["checks"][1]["id"] == "cluster" and not out["checks"][1]["ok"]


# --- Korean is all Korean ----------------------------------------------------------------------

def english_left(text: str, *typed: str) -> list[str]:
    """Latin words of three letters or more left in a Korean message once what stays as typed
    (paths, commands, names, kubeconfig's own keys) is taken out."""
    for t in typed:
        text = text.replace(t, " ")
    text = re.sub(r"\S*/\S*|'[^']*'|\$\w+|--[\w-]+", " ", text)
    allowed = {"kubeconfig", "lwstutor", "demo", "YAML", "clusters", "users", "contexts", "root", "sudo", "mode"}
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed and not w.isupper()]


def _korean_error(fn) -> str:
    with pytest.raises(ConnectError) as exc:
        fn()
    korean = told(exc.value, "ko")
    assert re.search("[\uac00-\ud7a3]", korean), korean
    return korean


def test_a_dangling_or_unreadable_kubeconfig_is_all_korean_in_korean(vm, tmp_path):
    dangling = tmp_path / "dangling"
    dangling.symlink_to("nowhere")
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("clusters: [\n\t:")
    not_a_map = tmp_path / "list.yaml"
    not_a_map.write_text("- 1\n")
    for path, said in ((dangling, "파일이나 디렉터리가 없습니다"), (loop, "심볼릭 링크가 순환합니다"),
                       (bad_yaml, "올바른 YAML이 아닙니다"), (not_a_map, "kubeconfig 형식이 아닙니다")):
        korean = _korean_error(lambda p=path: find_kubeconfig(str(p), where=vm))
        assert said in korean and str(path) in korean and not english_left(korean, str(path)), korean
    korean = _korean_error(lambda: find_kubeconfig(str(tmp_path / "typo"), where=vm))
    assert "--kubeconfig" in korean and not english_left(korean, str(tmp_path / "typo")), korean


def test_a_context_that_is_not_there_and_no_in_cluster_config_are_all_korean_in_korean(vm):
    path = kubeconfig(Path(vm.home) / ".kube/config")
    korean = _korean_error(lambda: connect(context="nope", where=vm))
    assert "nope" in korean and not english_left(korean, str(path), "nope"), korean
    where = Where(environ={"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, home=str(Path(vm.home) / "none"), k3s=vm.k3s)
    korean = _korean_error(lambda: connect(where=where))
    assert not english_left(korean), korean
    korean = _korean_error(lambda: find_kubeconfig(where=Where(environ={}, home=str(Path(vm.home) / "none"),
                                                                 k3s=vm.k3s)))
    assert not english_left(korean), korean


def test_doctor_json_says_why_that_kubeconfig_in_the_learners_language(vm):
    kubeconfig(Path(vm.k3s), server="https://127.0.0.1:9")  # nothing listens there
    out = json.loads(lwstutor_in(vm, "doctor", "--json", "--lang", "ko", "--kubeconfig", vm.k3s).stdout)
    assert out["kubeconfig"]["why"] == "--kubeconfig로 지정함" and out["kubeconfig"]["files"] == [vm.k3s]
    assert out["error"]["kind"] == "refused" and not english_left(out["error"]["message"], "https://127.0.0.1:9")
