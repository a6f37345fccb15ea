"""Connection settings the kubectl way: --kubeconfig, --context, KUBECONFIG, in-cluster config.

The kubernetes client is imported here, lazily, so the first frame of the UI never waits for it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


class ConnectError(Exception):
    """The cluster cannot be reached or configured; the message says what to do."""


@dataclass
class Connection:
    api_client: object  # kubernetes.client.ApiClient
    context: str
    server: str


def _kubeconfig_path(kubeconfig: str | None) -> tuple[str, bool]:
    path = kubeconfig or os.environ.get("KUBECONFIG") or os.path.expanduser("~/.kube/config")
    return path, any(os.path.exists(p) for p in path.split(os.pathsep) if p)


def kubeconfig_missing(kubeconfig: str | None = None) -> str:
    """connect()'s first check, without importing the client: the error, or "" when a
    kubeconfig file (or the in-cluster config) is there to try."""
    path, have_file = _kubeconfig_path(kubeconfig)
    if have_file or (not kubeconfig and os.environ.get("KUBERNETES_SERVICE_HOST")):
        return ""
    return f"no kubeconfig at {path}. Pass --kubeconfig FILE or set KUBECONFIG."


def connect(kubeconfig: str | None = None, context: str | None = None) -> Connection:
    from kubernetes import client, config
    from kubernetes.config.config_exception import ConfigException

    path, have_file = _kubeconfig_path(kubeconfig)
    if not have_file and not kubeconfig and os.environ.get("KUBERNETES_SERVICE_HOST"):
        try:
            cfg = client.Configuration()
            config.load_incluster_config(client_configuration=cfg)
        except ConfigException as exc:
            raise ConnectError(f"in-cluster config: {exc}") from None
        return Connection(client.ApiClient(cfg), "in-cluster", cfg.host)
    if not have_file:
        raise ConnectError(kubeconfig_missing(kubeconfig))
    try:
        cfg = client.Configuration()
        config.load_kube_config(config_file=kubeconfig, context=context, client_configuration=cfg)
        contexts, active = config.list_kube_config_contexts(config_file=kubeconfig)
    except ConfigException as exc:
        raise ConnectError(f"kubeconfig {path}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - malformed kubeconfig YAML and the like
        raise ConnectError(f"kubeconfig {path}: {type(exc).__name__}: {exc}") from None
    name = context or (active or {}).get("name", "")
    if context and context not in {c.get("name") for c in contexts or []}:
        raise ConnectError(f"context {context!r} not found in {path}")
    return Connection(client.ApiClient(cfg), name, cfg.host)
