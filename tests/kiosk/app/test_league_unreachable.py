"""Why the hub cannot be reached, said so that a bar owner knows what to check: each cause made
for real (nothing listening, a name no one has, a hub that hangs up, one that never answers, TLS
spoken to a plain server, a hub whose certificate no one signed), through the pairing the
Settings screen and `dartship league join` run, in English and German."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from pathlib import Path

import pytest

from kiosk.app import league
from kiosk.i18n import set_language


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _why(hub: str) -> str:
    try:
        await league.pair(hub, "ABCDEFGHJKMN", "Kiosk")
    except Exception as err:  # aiohttp's errors, OSError, TimeoutError: what pair raises then
        return league.why_unreachable(err)
    raise AssertionError("paired with no hub")


# A self-signed certificate for 127.0.0.1 (valid to 2126; `openssl req -x509 -newkey rsa:2048
# -nodes -days 36500 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1`): a hub set up
# with its own certificate, which no authority the kiosk trusts has signed.
UNTRUSTED = Path(__file__).parent / "data" / "untrusted-hub"


@contextlib.asynccontextmanager
async def _server(handle, tls: ssl.SSLContext | None = None):
    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=tls)
    try:
        yield f"127.0.0.1:{server.sockets[0].getsockname()[1]}"
    finally:
        server.close()


async def _hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.read(100)
    writer.close()


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await asyncio.sleep(30)
    writer.close()


def test_nothing_listening_is_named_in_the_kiosks_language():
    assert (
        asyncio.run(_why(f"http://127.0.0.1:{_closed_port()}")) == "nothing answers at that address and port"
    )
    set_language("de")
    assert asyncio.run(_why(f"http://127.0.0.1:{_closed_port()}")) == (
        "unter dieser Adresse und diesem Port antwortet nichts"
    )


def test_a_name_no_one_has():
    assert asyncio.run(_why("http://no-such-hub.invalid")) == "no computer has that name on this network"


def test_a_hub_that_hangs_up():
    async def run() -> str:
        async with _server(_hang_up) as where:
            return await _why(f"http://{where}")

    assert asyncio.run(run()) == "it hung up before answering"


def test_a_hub_that_never_answers(monkeypatch):
    monkeypatch.setattr(league, "TIMEOUT_SECONDS", 0.5)

    async def run() -> str:
        async with _server(_silent) as where:
            return await _why(f"http://{where}")

    assert asyncio.run(run()) == "no answer within 0 s"  # 0.5 s, shown to the second


async def _plain(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    await writer.drain()
    writer.close()


def test_tls_spoken_to_a_plain_server():
    async def run(handle) -> str:
        async with _server(handle) as where:
            return await _why(f"https://{where}")

    assert asyncio.run(run(_plain)) == "the secure connection failed"
    assert asyncio.run(run(_hang_up)) == "it hung up before answering"  # reset during the handshake


def test_a_hub_whose_certificate_no_one_signed():
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(UNTRUSTED.with_suffix(".crt"), UNTRUSTED.with_suffix(".key"))

    async def run() -> str:
        async with _server(_plain, tls) as where:
            return await _why(f"https://{where}")

    assert asyncio.run(run()) == "its certificate is not trusted"
    set_language("de")
    assert asyncio.run(run()) == "seinem Zertifikat wird nicht vertraut"


def test_any_other_error_in_its_own_words():
    assert league.why_unreachable(OSError(5, "Input/output error")) == "[Errno 5] Input/output error"
    assert league.why_unreachable(RuntimeError()) == "RuntimeError"
