"""The notify protocol against real datagram sockets: a socket file and an abstract name."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.app.sdnotify import Notifier


@pytest.fixture
def path_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(5)
    yield address, sock
    sock.close()


@pytest.fixture
def abstract_socket() -> Iterator[tuple[str, socket.socket]]:
    name = f"dartship-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(5)
    yield "@" + name, sock
    sock.close()


@pytest.fixture(params=["path", "abstract"])
def listener(request: pytest.FixtureRequest, path_socket, abstract_socket) -> tuple[str, socket.socket]:
    return path_socket if request.param == "path" else abstract_socket


def test_ready_with_status_is_one_datagram(listener) -> None:
    address, sock = listener
    assert Notifier(address).ready("kiosk running")
    assert sock.recv(4096) == b"READY=1\nSTATUS=kiosk running"


def test_watchdog_pings_arrive_one_by_one(listener) -> None:
    address, sock = listener
    notifier = Notifier(address)
    for _ in range(3):
        assert notifier.watchdog()
    assert [sock.recv(4096) for _ in range(3)] == [b"WATCHDOG=1"] * 3


def test_status_stopping_and_extend_timeout(listener) -> None:
    address, sock = listener
    notifier = Notifier(address)
    assert notifier.status("resuming game 3")
    assert notifier.stopping()
    assert notifier.extend_timeout(1.5)
    assert sock.recv(4096) == b"STATUS=resuming game 3"
    assert sock.recv(4096) == b"STOPPING=1"
    assert sock.recv(4096) == b"EXTEND_TIMEOUT_USEC=1500000"


def test_address_comes_from_notify_socket(monkeypatch, path_socket) -> None:
    address, sock = path_socket
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    assert Notifier().watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent(monkeypatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.active
    assert notifier.ready() is False
    assert notifier.watchdog() is False


def test_a_vanished_socket_is_not_fatal(tmp_path: Path) -> None:
    assert Notifier(str(tmp_path / "gone")).watchdog() is False
    assert Notifier("@dartship-nobody-listens-" + uuid.uuid4().hex).watchdog() is False


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),  # meant for another process
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_watchdog_seconds_is_half_of_watchdogsec(environ, expected) -> None:
    assert Notifier.watchdog_seconds(environ, pid=4242) == expected


def test_watchdog_seconds_reads_this_process(monkeypatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert Notifier.watchdog_seconds() == 5.0
