"""Whole games played on a headless kiosk the way phones play them (docs/handheld-api.md): the
dart game from the two teams' phones and the host's desk's throw pad (manual scoring on a
simulator board), classic solo, a classic duel in a phone's room, the daily challenge. Each
returns what the phones were shown at the end."""

from __future__ import annotations

import random
import time

from tests.system.league_bars import SQUARES, BarKiosk, Phone, squares, wait_until
from tests.system.test_kiosk_headless import JETS, SHARKS

FLEETS = (SHARKS, JETS)


def darts(kiosk: BarKiosk, winner: int) -> dict:
    """The headless kiosk's dart game (its teams from `BarKiosk.start`), phones-only: each team
    places on its phone, the bull-off goes to team 0 (both phones say who was closer), `winner`
    throws at the other's ships and the other team misses; each visit ends with Next from the
    thrower's phone. The final public view."""
    phones = (Phone(), Phone())
    for team in (0, 1):
        phones[team].ok(f"{kiosk.team_api(team)}/fleet", {"ships": FLEETS[team]})

    def view() -> dict:
        return Phone().ok(f"{kiosk.web}/api/game")["view"]

    wait_until(lambda: view()["state"]["phase"] == "bull_off", "the bull-off")
    for cell in ("S20", "T3"):
        assert kiosk.desk("throw", cell=cell) == 200
    wait_until(lambda: view()["bull_off"]["undecided"], "who was closer?")
    for team in (0, 1):
        phones[team].ok(f"{kiosk.team_api(team)}/closer", {"team": 0})
    targets = [cell for ship in FLEETS[1 - winner] for cell in ship]
    for _dart in range(400):
        state = wait_until(
            lambda: s if (s := view()["state"])["phase"] in ("throwing", "takeout", "over") else None,
            "a turn",
        )
        if state["phase"] == "over":
            break
        if state["phase"] == "takeout":
            phones[state["turn"]].ok(f"{kiosk.team_api(state['turn'])}/next", {})
            wait_until(lambda: view()["state"]["phase"] != "takeout", "the next visit")
            continue
        before = sum(state["darts"])
        cell = targets.pop(0) if state["team"] == winner else "MISS"
        assert kiosk.desk("throw", cell=cell) == 200
        wait_until(lambda b=before: sum(view()["state"]["darts"]) > b, f"dart {cell}")
    final = view()
    assert final["state"]["phase"] == "over" and final["state"]["winner"] == winner, final["state"]
    return final


def _settled(phone: Phone, url: str) -> dict:
    """The classic view once it is the phone's player's turn or the game is over."""
    return wait_until(
        lambda: v if (v := phone.ok(url)["view"])["winner"] is not None or v["turn"] == v["you"] else None,
        "the phone's turn",
    )


def solo(kiosk: BarKiosk, name: str, rng: random.Random) -> dict:
    """A classic solo game against the kiosk's easy computer, the phone firing in a random
    order until someone wins. The final view."""
    phone = Phone()
    phone.ok(f"{kiosk.web}/api/classic/play/solo", {"level": "easy", "name": name})
    order = SQUARES[:]
    rng.shuffle(order)
    view = _settled(phone, f"{kiosk.web}/api/classic/play")
    while view["winner"] is None:
        phone.ok(f"{kiosk.web}/api/classic/play/fire", {"cell": order.pop()})
        view = _settled(phone, f"{kiosk.web}/api/classic/play")
    return view


def duel(kiosk: BarKiosk, owner_name: str, friend_name: str, winner: int) -> dict:
    """A classic duel in the owner's phone room: the owner opens a solo table and its room, the
    friend joins by the link and says Ready, the owner starts the duel. The players collude so
    that `winner` wins: it fires at the squares the other's phone shows as its own fleet, the
    other fires at water. The final view (the owner's)."""
    owner, friend = Phone(), Phone()
    owner.ok(f"{kiosk.web}/api/classic/play/solo", {"level": "easy", "name": owner_name})
    link = owner.ok(f"{kiosk.web}/api/classic/play/room", {})["room"]["link"]
    token = link.rsplit("/", 1)[1]
    room = f"{kiosk.web}/api/classic/r/{token}"
    friend.ok(room)
    friend.ok(f"{room}/ready", {"name": friend_name})
    owner.ok(f"{kiosk.web}/api/classic/play/duel", {"name": owner_name})
    pages = ((owner, f"{kiosk.web}/api/classic/play"), (friend, room))
    fleets = [[sq for ship in phone.ok(url)["view"]["fleet"] for sq in squares(ship)] for phone, url in pages]
    targets = [fleets[1 - winner][:], [sq for sq in SQUARES if sq not in fleets[winner]]]
    for _shot in range(400):
        view = owner.ok(pages[0][1])["view"]
        if view["winner"] is not None:
            break
        side = view["turn"]
        phone, url = pages[side]
        aims = targets[0] if side == winner else targets[1]
        status, answer = phone.call(f"{url}/fire", {"cell": aims.pop(0)})
        if status == 409:  # the other's answer still on its way
            time.sleep(0.05)
            continue
        assert status == 200, answer
    view = owner.ok(pages[0][1])["view"]
    assert view["winner"] == winner and view["mode"] == "duel", view
    return view


def daily(kiosk: BarKiosk, name: str, rng: random.Random) -> int:
    """Today's challenge on a phone, the name given at the start, fired in a random order until
    every ship is sunk: the number of shots."""
    phone = Phone()
    phone.ok(f"{kiosk.web}/api/classic/daily/start", {"name": name})
    order = SQUARES[:]
    rng.shuffle(order)
    shots = 0
    view = phone.ok(f"{kiosk.web}/api/classic/daily")["view"]
    while view["winner"] is None:
        view = phone.ok(f"{kiosk.web}/api/classic/daily/fire", {"cell": order.pop()})["view"]
        shots += 1
    assert view["winner"] == 0
    return shots
