"""The lab's PKI, made fresh at every start: one CA and one leaf used for everything
(apiserver serving cert, admin client cert in system:masters, service-account signing key,
LWS webhook serving cert), as kwokctl does. Nothing here leaves the lab directory."""

from __future__ import annotations

import datetime as dt
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SANS_DNS = ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
            "kubernetes.default.svc.cluster.local"]
SANS_IP = ["127.0.0.1"]


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _pem_key(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                             serialization.NoEncryption())


def make_pki(out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)
    later = now + dt.timedelta(days=2)

    ca_key = _key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "lwstutor-lab-ca")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now).not_valid_after(later)
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False,
                                       encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))

    key = _key()
    leaf = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "system:masters"),
                                     x509.NameAttribute(NameOID.COMMON_NAME, "lab-admin")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(later)
            .add_extension(x509.SubjectAlternativeName(
                [x509.DNSName(d) for d in SANS_DNS] + [x509.IPAddress(ipaddress.ip_address(i)) for i in SANS_IP]),
                critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                  ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))

    files = {
        "ca.crt": ca.public_bytes(serialization.Encoding.PEM),
        "ca.key": _pem_key(ca_key),
        "admin.crt": leaf.public_bytes(serialization.Encoding.PEM),
        "admin.key": _pem_key(key),
    }
    paths = {}
    for name, data in files.items():
        p = out / name
        p.write_bytes(data)
        p.chmod(0o600)
        paths[name] = p
    return paths


def make_user(pki: Path, user: str, groups: tuple[str, ...] = ()) -> dict[str, Path]:
    """A client cert for `user` signed by the lab CA (for tests that run as a non-admin)."""
    ca = x509.load_pem_x509_certificate((pki / "ca.crt").read_bytes())
    ca_key = serialization.load_pem_private_key((pki / "ca.key").read_bytes(), password=None)
    key = _key()
    now = dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)
    names = [x509.NameAttribute(NameOID.ORGANIZATION_NAME, g) for g in groups]
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name(names + [x509.NameAttribute(NameOID.COMMON_NAME, user)]))
            .issuer_name(ca.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    crt_path, key_path = pki / f"{user}.crt", pki / f"{user}.key"
    crt_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(_pem_key(key))
    key_path.chmod(0o600)
    return {"crt": crt_path, "key": key_path}
