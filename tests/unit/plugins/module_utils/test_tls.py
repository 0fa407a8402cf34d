# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""TLS settings take effect against a real HTTPS server with a self-signed certificate, also when
the environment names a CA bundle (REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE), as CI runners often do."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import ipaddress
import socket
import ssl
import threading

import pytest

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceClient, ServiceError

ANSWERS = {
    "POST /api/latest/login": (b'Set-Cookie: session=s1; HttpOnly\r\nSet-Cookie: XSRF-TOKEN="x1\\\\012"\r\n', b'{"id": "me"}'),
    "GET /api/latest/me": (b"", b'{"id": "me"}'),
}


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, u"127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key()).serial_number(1)
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(u"127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return str(cert_path), str(key_path)


def read_request(tls):
    """The whole request: the headers, then as many bytes as Content-Length says (unread bytes would reset the connection)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = tls.recv(65536)
        if not chunk:
            break
        data += chunk
    head, unused, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = tls.recv(65536)
        if not chunk:
            break
        body += chunk
    return head.decode("latin-1")


@pytest.fixture(scope="module")
def server(certificate):
    """An HTTPS server on 127.0.0.1 that answers a login and GET /me, one request per connection."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve():
        while True:
            try:
                connection, unused = listener.accept()
            except OSError:
                return
            try:
                with context.wrap_socket(connection, server_side=True) as tls:
                    request = read_request(tls)
                    headers, body = ANSWERS.get(" ".join(request.split(" ")[:2]), (b"", b"{}"))
                    tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n" + headers
                                + b"Content-Length: %d\r\n\r\n" % len(body) + body)
            except (ssl.SSLError, OSError):
                pass  # a client that does not trust the certificate hangs up

    threading.Thread(target=serve, daemon=True).start()
    yield "https://127.0.0.1:%d/api/latest" % listener.getsockname()[1]
    listener.close()


@pytest.fixture(params=["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"])
def bundle_in_environment(request, monkeypatch, certificate):
    """A CA bundle named in the environment, which does not hold the server's certificate."""
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(request.param, ssl.get_default_verify_paths().cafile or certificate[0] + ".missing")


def client(url, **options):
    return ServiceClient(url, username="dr@example.com", password="pw", retry_budget=0, **options)


def test_without_validation_a_self_signed_certificate_is_accepted(server, bundle_in_environment):
    assert client(server, validate_certs=False).get("/me") == {"id": "me"}


def test_a_ca_path_is_used(server, certificate, bundle_in_environment):
    assert client(server, ca_path=certificate[0]).get("/me") == {"id": "me"}


def test_an_untrusted_certificate_is_named_as_such(server, bundle_in_environment):
    with pytest.raises(ServiceError) as failure:
        client(server).get("/me")
    message = str(failure.value)
    assert server + "/login" in message
    assert "certificate verify failed" in message and "(SSLError)" in message
