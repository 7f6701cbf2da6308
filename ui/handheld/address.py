"""The kiosk's address on the bar's LAN, found without sending a packet."""

from __future__ import annotations

import contextlib
import ipaddress
import socket

# A UDP "connect" only asks the kernel for a route: nothing is sent. TEST-NET-1 is never routed
# anywhere real, but picks the interface of the default route.
_PROBE = ("192.0.2.1", 9)
FALLBACK = "127.0.0.1"


def lan_address(host: str = "0.0.0.0") -> str:
    """The address phones should use: the configured one if it is specific, else the LAN's."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host:
            return host  # a host name the owner chose (kiosk.local): trust it
        address = ipaddress.ip_address("0.0.0.0")
    if not address.is_unspecified:
        return str(address)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            found = probe.getsockname()[0]
    except OSError:
        return FALLBACK
    return found if found and found != "0.0.0.0" else FALLBACK


def url_host(address: str) -> str:
    """An address as it goes in a URL (IPv6 in brackets)."""
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(address).version == 6:
            return f"[{address}]"
    return address
