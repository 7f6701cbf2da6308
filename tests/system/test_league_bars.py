"""One league across three bars, every part a real process: a hub (`dartship hub`) on a
throwaway PostgreSQL, set up with `dartship hub admin`; three kiosks that joined it with
`dartship league join` and run as `dartship run --headless --simulator`, each with its own folder
and port, played by phones over HTTP only (docs/handheld-api.md): the dart game phones-only (the
throw pad of the host's desk scores the simulator board), a classic duel in a phone's room,
classic solo, and the daily challenge. Their sync tasks send every finished game by themselves;
the hub's table, ratings and daily board are then checked against a recomputation from what the
phones played, and each kiosk's Stats -> League page is rendered from its own database.

Battleship Express has no phone pages (phones cannot play it at all: it is played on the
touchscreen), so its league path is covered where it runs, in tests/hub/test_kiosks.py."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path

from openskill.models import PlackettLuce

from tests.system import phone_plays as play
from tests.system.league_bars import ENV, BarKiosk, HubProcess, League, wait_until


def _expected_table(games: list[tuple[list[list[str]], int]]) -> list[tuple[str, int, int, int]]:
    """(player, games, wins, points) as the league counts them (3 a win, 0 a loss; ties: more
    wins, fewer games, the name)."""
    played: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for sides, winner in games:
        for side, players in enumerate(sides):
            for player in players:
                played[player][0] += 1
                played[player][1] += side == winner
    rows = [(p, g, w, 3 * w) for p, (g, w) in played.items()]
    return sorted(rows, key=lambda r: (-r[3], -r[2], r[1], r[0].casefold()))


def _expected_ratings(games: list[tuple[list[list[str]], int]]) -> dict[str, tuple[float, float]]:
    model = PlackettLuce()
    state: dict[str, object] = {}
    for sides, winner in games:
        teams = [
            [state.setdefault(p.casefold(), model.rating(name=p.casefold())) for p in side] for side in sides
        ]
        rated = model.rate(teams, ranks=[0.0 if s == winner else 1.0 for s in range(len(sides))])
        for side, team in zip(sides, rated, strict=True):
            for player, new in zip(side, team, strict=True):
                state[player.casefold()] = new
    return {k: (round(r.mu, 3), round(r.sigma, 3)) for k, r in state.items()}  # type: ignore[attr-defined]


def test_three_bars_play_on_phones_and_the_hub_counts_them(database, tmp_path):
    artefacts = Path(os.environ.get("DARTSHIP_ARTEFACTS", tmp_path))
    artefacts.mkdir(parents=True, exist_ok=True)
    hub = HubProcess(database)
    kiosks: list[BarKiosk] = []
    try:
        league = League(hub, "Harbour League", ("The Anchor", "The Crown"))
        extra = '[rules]\nbull_off = "normal"\n'
        anchor = BarKiosk(tmp_path / "anchor", hub.url, league.code("The Anchor"), extra)
        anchor2 = BarKiosk(tmp_path / "anchor2", hub.url, league.code("The Anchor"), extra)
        crown = BarKiosk(tmp_path / "crown", hub.url, league.code("The Crown"), extra)
        kiosks = [anchor, anchor2, crown]
        assert "joined Harbour League" in anchor.joined and "The Anchor" in anchor.joined
        anchor.start("Anna,Ben;Cleo")
        anchor2.start("Anna,Ben;Cleo")  # its dart game is left unfinished: never sent
        crown.start("Dee,Ann;Bo", "Gulls,Crabs")
        for kiosk in kiosks:  # the boards (with the league's daily seeds) fetched at the start
            wait_until(kiosk.boards_fetched, f"{kiosk.folder.name}'s boards")

        rng = random.Random(24)
        play.darts(anchor, winner=0)
        play.darts(crown, winner=1)
        play.duel(anchor2, "Dee", "Ann", winner=0)
        solo = play.solo(anchor2, "Ann", rng)
        shots = {"Anna": play.daily(anchor, "Anna", rng), "Dee": play.daily(crown, "Dee", rng)}

        sent = {"anchor": 2, "anchor2": 2, "crown": 2}
        for kiosk in kiosks:
            wait_until(
                lambda k=kiosk: k.outbox().get("sent", 0) == sent[k.folder.name],
                f"{kiosk.folder.name}'s outbox sent",
            )
            assert kiosk.outbox().get("pending", 0) == 0 and kiosk.outbox().get("refused", 0) == 0
        at_hub = hub.games()
        assert sorted((kind, venue) for _u, kind, venue in at_hub) == [
            ("classic", "The Anchor"),
            ("classic", "The Anchor"),
            ("classic", "The Anchor"),
            ("classic", "The Crown"),
            ("darts", "The Anchor"),
            ("darts", "The Crown"),
        ]
        assert len({u for u, _k, _v in at_hub}) == len(at_hub)

        # The table: every game people played on every side (not solo, not the daily).
        counted = [([["Anna", "Ben"], ["Cleo"]], 0), ([["Dee", "Ann"], ["Bo"]], 1), ([["Dee"], ["Ann"]], 0)]
        table = hub.api(f"/leagues/{league.id}")
        assert [(r["player"], r["games"], r["wins"], r["points"]) for r in table["rows"]] == _expected_table(
            counted
        )
        assert [r["rank"] for r in table["rows"]] == list(range(1, 7))

        # Ratings per kind, recomputed here with openskill from what the phones played.
        for kind, games in (("darts", counted[:2]), ("classic", counted[2:])):
            rated = hub.api(f"/leagues/{league.id}/ratings/{kind}")["rows"]
            assert {r["key"]: (r["mu"], r["sigma"]) for r in rated} == _expected_ratings(games), kind
        classic = {r["player"]: r["rating"] for r in hub.api(f"/leagues/{league.id}/ratings/classic")["rows"]}
        assert classic["Dee"] > classic["Ann"]

        # The daily board: both bars' challenges on the league's one fleet, fewest shots first.
        daily = hub.api(f"/leagues/{league.id}/daily?date={date.today().isoformat()}")["rows"]
        assert [(r["player"], r["venue"], r["shots"]) for r in daily] == sorted(
            [("Anna", "The Anchor", shots["Anna"]), ("Dee", "The Crown", shots["Dee"])],
            key=lambda r: (r[2], r[0]),
        )
        assert solo["winner"] is not None

        # Each kiosk's Stats -> League page, from its own database: the boards its sync task
        # fetched when it started again after the evening (the next morning, say).
        evening_over = datetime.now(UTC).isoformat(timespec="seconds")
        time.sleep(1.1)  # the boards' time is kept to the second
        for kiosk in kiosks:
            kiosk.stop()
            kiosk.start()
            wait_until(lambda k=kiosk: (k.boards_fetched() or "") > evening_over, "the morning's boards")
            kiosk.stop()
        expected_daily = sorted(((r["player"], r["venue"], r["shots"]) for r in daily), key=lambda r: r[2])
        for kiosk in kiosks:
            shot = artefacts / f"league_{kiosk.folder.name}.png"
            done = subprocess.run(
                [sys.executable, "-m", "tests.system.league_screen", str(kiosk.db), hub.url, str(shot)],
                capture_output=True,
                text=True,
                env=ENV,
                timeout=120,
            )
            assert done.returncode == 0, done.stderr[-3000:]
            lines = done.stdout.splitlines()
            assert "Harbour League" in done.stdout and "updated just now" in lines, done.stdout
            # The page's texts: the table's column, then the daily board's (one player may be
            # first on both).
            board = next(n for n, line in enumerate(lines) if line.startswith("Daily challenge"))
            for rank, (player, games_, wins, points) in enumerate(_expected_table(counted), start=1):
                at = lines.index(f"{rank}. {player}", 0, board)
                assert lines[at + 1 : at + 4] == [str(games_), str(wins), str(points)], lines[at : at + 4]
            for rank, (player, venue, count) in enumerate(expected_daily, start=1):
                at = lines.index(f"{rank}. {player}", board)
                assert lines[at + 1 : at + 3] == [venue, str(count)]
    finally:
        for kiosk in kiosks:
            kiosk.stop()
        hub.stop()
