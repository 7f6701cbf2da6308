"""The games this kiosk hosts, in the order Home offers them: THE one list a new game extends.

Each entry is a game's name (the one the store keeps with each of its games) and the module of
its room (`kiosk/<game>/room.py`, whose `ROOM` says everything else: its kind, participants,
line protocol, screens, phone routes and Stats page; see docs/design.md, "Adding a game").
Only names: nothing is imported until a game is first needed, so `dartship referee` never pays
for the dice game's odds.
"""

from __future__ import annotations

HOSTED: dict[str, str] = {
    "darts": "kiosk.darts.room",
    "classic": "kiosk.classic.room",
    "express": "kiosk.express.room",
}
