"""The whole kiosk under a serial flood (issue 13, item 7): a board on socket:// sends 20 000
lines of terminal escapes and then a dart; the dart counts, the kiosk's log holds a handful of
lines about it (it was one per bad line) and not one raw control character."""

from __future__ import annotations

import asyncio
import io
import logging
import socket
import threading

from kiosk.app import logs
from kiosk.app.root import build_kiosk
from kiosk.board import Profile, board_for
from kiosk.config import ConfigFile, check_values
from kiosk.darts.fleet import random_fleet
from kiosk.darts.kind import DARTS
from kiosk.darts.match import DartThrown, HouseRules, Place, Setup, Team
from kiosk.service import MatchUpdate, ServiceEvent

FOUR = board_for(Profile.FOUR_RING)
GARBAGE = b"\x1b[2J\x1b[31mPWNED\x07\r\n"


class FloodingBoard:
    """A board on a TCP port that, once told, floods and then sends one dart."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.go = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _peer = self.server.accept()
        with conn:
            self.go.wait(30)
            conn.sendall(GARBAGE * 20_000 + b"T20\n")
            self.go.clear()
            self.go.wait(30)  # hold the line until the test is done


def test_a_dart_after_a_flood_counts_and_the_log_stays_short(tmp_path):
    board = FloodingBoard()
    typed, problems = check_values(
        {
            "board.input": "serial",
            "rules.bull_off": "off",
            "board.port": f"socket://127.0.0.1:{board.port}",
            "kiosk.database": str(tmp_path / "k.db"),
        }
    )
    assert not problems
    out = io.StringIO()
    handler = logs.setup(level="INFO", stream=out, journal=True, environ={})
    counted: list[DartThrown] = []

    def listen(event: ServiceEvent) -> None:
        if isinstance(event, MatchUpdate):
            counted.extend(e for e in event.events if isinstance(e, DartThrown))

    async def play() -> None:
        kiosk = await build_kiosk(ConfigFile(None, typed), web=False)
        try:
            service = kiosk.service
            service.subscribe(listen)
            rules = HouseRules(bull_off=kiosk.settings.rules.bull_off)
            service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
            for team in (0, 1):
                service.submit(Place(team, random_fleet(FOUR, rules.fleet, service.rng)))
            for _ in range(200):
                if service.board_connected:
                    break
                await asyncio.sleep(0.05)
            board.go.set()
            for _ in range(600):
                if counted:
                    break
                await asyncio.sleep(0.05)
        finally:
            board.go.set()
            await kiosk.stop()

    try:
        asyncio.run(play())
    finally:
        logging.getLogger().removeHandler(handler)
    assert [d.cell.code for d in counted] == ["T20"]
    text = out.getvalue()
    bad = [line for line in text.splitlines() if "unreadable line" in line]
    # At most five samples per 10-s window, the rest summed up in one line a window: on a slow
    # machine the flood outlasts one window.
    windows = 1 + sum("more bad lines" in line for line in text.splitlines())
    assert 1 <= len(bad) <= 5 * windows, text[-2000:]
    # The caller's line about the dart itself (a hit or sunk when the random fleet lies on T20)
    # is the game's, not the flood's.
    # Besides the flood's samples and sums: the board connected, its dialect remembered, and the
    # line closed as the test ends.
    lines = [line for line in text.splitlines() if "dartship.caller:" not in line]
    assert len(lines) <= 3 + 6 * windows, text[-2000:]
    assert not {ch for ch in text if (ord(ch) < 32 and ch != "\n") or 127 <= ord(ch) < 160}
