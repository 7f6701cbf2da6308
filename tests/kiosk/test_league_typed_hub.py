"""A hub's address as a bar owner types it: `https://` is a chore on a touchscreen."""

from __future__ import annotations

import pytest

from kiosk.config import check_values
from kiosk.league.membership import typed_hub


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("https://league.example.org", "https://league.example.org"),
        (" league.example.org/ ", "https://league.example.org"),
        ("league.example.org:8443/hub", "https://league.example.org:8443/hub"),
        ("127.0.0.1:8090", "http://127.0.0.1:8090"),
        ("10.0.0.5", "http://10.0.0.5"),
        ("[::1]:8090", "http://[::1]:8090"),
        ("localhost:8090", "http://localhost:8090"),
        ("hub.local", "http://hub.local"),
        ("leaguepi", "http://leaguepi"),
        ("http://league.example.org/", "http://league.example.org"),
        ("", ""),
    ],
)
def test_a_typed_address_gets_its_scheme(typed: str, address: str) -> None:
    assert typed_hub(typed) == address
    assert check_values({"league.hub": address})[1] == []


def test_an_address_with_another_scheme_is_left_for_the_check_to_refuse() -> None:
    assert typed_hub("ftp://league") == "ftp://league"
    assert check_values({"league.hub": typed_hub("ftp://league")})[1]
