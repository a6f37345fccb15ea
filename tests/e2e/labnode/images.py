"""The lab's container images, built without a registry as OCI image archives for
`ctr images import`:

- busybox:1.36 (named docker.io/library/busybox:1.36, as the lab's manifests say `busybox:1.36`)
  from Debian's busybox-static binary, with one symlink per applet like the upstream image;
- the pod sandbox image, from the node build's static `pause` program.

Each archive is one uncompressed layer written deterministically (fixed mtimes and owners), so
the same inputs give the same image digest.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import tarfile
from pathlib import Path

BUSYBOX_IMAGE = "docker.io/library/busybox:1.36"
BUSYBOX_BINARY = Path("/bin/busybox")  # Debian's busybox-static
PAUSE_IMAGE = "lwstutor.local/pause:1"  # our own program: named so nobody mistakes it for upstream's
PATH_ENV = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

OCI_LAYER = "application/vnd.oci.image.layer.v1.tar"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"


def _add(tar: tarfile.TarFile, name: str, data: bytes | None = None, mode: int = 0o644,
         kind: bytes = tarfile.REGTYPE, link: str = "") -> None:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.mtime, info.uid, info.gid = kind, mode, 0, 0, 0
    info.linkname = link
    if data is not None:
        info.size = len(data)
    tar.addfile(info, io.BytesIO(data) if data is not None else None)


def _layer(files: list[tuple]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for entry in files:
            _add(tar, *entry[:1], **entry[1])
    return buf.getvalue()


def busybox_layer(binary: Path = BUSYBOX_BINARY) -> bytes:
    applets = subprocess.run([str(binary), "--list-full"], capture_output=True, text=True,
                             check=True).stdout.split()
    files: list[tuple] = [(d, {"kind": tarfile.DIRTYPE, "mode": 0o755})
                          for d in ("bin", "etc", "root", "usr", "usr/bin", "usr/sbin", "sbin", "var", "home")]
    files += [("tmp", {"kind": tarfile.DIRTYPE, "mode": 0o1777})]
    files += [("bin/busybox", {"data": binary.read_bytes(), "mode": 0o755})]
    files += [("etc/passwd", {"data": b"root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n"}),
              ("etc/group", {"data": b"root:x:0:\nnobody:x:65534:\n"})]
    for path in sorted(set(applets)):
        if path != "bin/busybox":
            depth = path.count("/")
            files.append((path, {"kind": tarfile.SYMTYPE, "mode": 0o777, "link": "../" * depth + "bin/busybox"}))
    return _layer(files)


def pause_layer(binary: Path) -> bytes:
    return _layer([("pause", {"data": binary.read_bytes(), "mode": 0o755})])


def _blob(blobs: dict[str, bytes], data: bytes, media_type: str) -> dict:
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    blobs[digest] = data
    return {"mediaType": media_type, "digest": digest, "size": len(data)}


def write_archive(out: Path, name: str, layer: bytes, config: dict) -> Path:
    """Writes an OCI image layout tar holding one single-layer image called `name`."""
    blobs: dict[str, bytes] = {}
    layer_desc = _blob(blobs, layer, OCI_LAYER)
    image_config = {"architecture": "amd64", "os": "linux", "config": config,
                    "rootfs": {"type": "layers", "diff_ids": [layer_desc["digest"]]},
                    "history": [{"created_by": "lwstutor tests/e2e/labnode/images.py"}]}
    config_desc = _blob(blobs, json.dumps(image_config, sort_keys=True).encode(), OCI_CONFIG)
    manifest = {"schemaVersion": 2, "mediaType": OCI_MANIFEST, "config": config_desc, "layers": [layer_desc]}
    manifest_desc = _blob(blobs, json.dumps(manifest, sort_keys=True).encode(), OCI_MANIFEST)
    manifest_desc["annotations"] = {"io.containerd.image.name": name,
                                    "org.opencontainers.image.ref.name": name.rsplit(":", 1)[1]}
    index = {"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [manifest_desc]}
    tmp = out.with_suffix(".tmp")
    with tarfile.open(tmp, "w") as tar:
        _add(tar, "oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode())
        _add(tar, "index.json", json.dumps(index, sort_keys=True).encode())
        _add(tar, "blobs", kind=tarfile.DIRTYPE, mode=0o755)
        _add(tar, "blobs/sha256", kind=tarfile.DIRTYPE, mode=0o755)
        for digest, data in sorted(blobs.items()):
            _add(tar, f"blobs/sha256/{digest.split(':', 1)[1]}", data)
    tmp.replace(out)
    return out


def build_images(bin_dir: Path, out_dir: Path) -> list[Path]:
    """The busybox and pause archives, built once per node binary cache (they depend only on
    Debian's busybox binary and our pause build)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    busybox = out_dir / "busybox.oci.tar"
    pause = out_dir / "pause.oci.tar"
    if not busybox.exists():
        write_archive(busybox, BUSYBOX_IMAGE, busybox_layer(), {"Env": [PATH_ENV], "Cmd": ["sh"]})
    if not pause.exists():
        write_archive(pause, PAUSE_IMAGE, pause_layer(bin_dir / "pause"), {"Entrypoint": ["/pause"]})
    return [busybox, pause]
