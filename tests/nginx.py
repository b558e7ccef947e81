"""A real nginx (Debian's package) in front of web processes, with the site configuration the
deployment page ships (``deploy/nginx.conf``) and a self-signed certificate made by ``openssl``.

The shipped file is used as it stands except for what names the machine: the upstream's
addresses, the public name's certificate, and the ports it listens on (loopback, free ports).
Without ``nginx`` or ``openssl`` the tests that need them are skipped, or fail when
``BORDSPEL_REQUIRE_NGINX=1`` (as in CI).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.live import free_port

SITE = Path(__file__).parent.parent / "deploy" / "nginx.conf"
NAME = "games.example.org"
UPSTREAM = [
    "    server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;\n",
    "    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s;\n",
]
MAIN = """daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
worker_processes 1;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    include {root}/site.conf;
}}
"""
"""The main file around the site's: everything under the test's own directory."""


def missing() -> str:
    """What is missing to run nginx here ("" when nothing is)."""
    absent = [program for program in ("nginx", "openssl") if shutil.which(program) is None]
    return f"no {' or '.join(absent)} (apt-get install nginx-light openssl)" if absent else ""


def require() -> None:
    """Skip the test without nginx (fail under ``BORDSPEL_REQUIRE_NGINX=1``)."""
    absent = missing()
    if absent and os.environ.get("BORDSPEL_REQUIRE_NGINX") == "1":
        pytest.fail(f"{absent} (BORDSPEL_REQUIRE_NGINX=1)")
    if absent:
        pytest.skip(absent)


def site_configuration(upstream: list[int], port: int, plain_port: int, certificate: Path, key: Path) -> str:
    """``deploy/nginx.conf`` for this machine: its upstream, listening ports and certificate."""
    text = SITE.read_text(encoding="utf-8")
    live = f"/etc/letsencrypt/live/{NAME}"
    servers = "".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;\n" for port in upstream)
    for old, new in [
        ("".join(UPSTREAM), servers),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;"),
        ("listen 80;", f"listen 127.0.0.1:{plain_port};"),
        (f"{live}/fullchain.pem", str(certificate)),
        (f"{live}/privkey.pem", str(key)),
    ]:
        assert old in text, f"deploy/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


class Nginx:
    """nginx on free loopback ports in front of the web processes on ``upstream`` ports: the
    HTTPS address in :attr:`url`, the certificate to trust in :attr:`certificate`."""

    def __init__(self, upstream: list[int]) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="bordspel-nginx-"))
        self.root.chmod(0o755)  # nginx's workers (nobody, under root) read the certificate
        self.certificate, self.key = self.root / "cert.pem", self.root / "key.pem"
        self._make_certificate()
        self.port, self.plain_port = free_port(), free_port()
        site = site_configuration(upstream, self.port, self.plain_port, self.certificate, self.key)
        (self.root / "site.conf").write_text(site, encoding="utf-8")
        (self.root / "nginx.conf").write_text(MAIN.format(root=self.root), encoding="utf-8")
        command = ["nginx", "-p", str(self.root), "-c", str(self.root / "nginx.conf"), "-e", "stderr"]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE)
        self.url = f"https://127.0.0.1:{self.port}"
        self._wait_until_listening()

    def _make_certificate(self) -> None:
        names = f"subjectAltName=DNS:{NAME},IP:127.0.0.1"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={NAME}"]
            + ["-addext", names, "-keyout", str(self.key), "-out", str(self.certificate)],
            check=True,
            capture_output=True,
        )
        self.key.chmod(0o644)

    def _wait_until_listening(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                assert self.process.stderr is not None
                raise AssertionError(f"nginx ended: {self.process.stderr.read().decode()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("nginx does not listen")

    def stop(self) -> None:
        """Stop nginx (it ends its workers) and remove its directory."""
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)
