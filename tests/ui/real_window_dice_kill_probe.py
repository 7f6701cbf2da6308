"""Real dice typed in on the Express table, in a real window, the kiosk killed with SIGKILL and
started again (tests/ui/test_touch_express_dice_kill.py):

    python -m tests.ui.real_window_dice_kill_probe FOLDER WIDTH HEIGHT type|again STAGE OUT

`type`: over a database whose Express game has Ann (Battleship, ...) to attack Bo (Patrol Boat
in front), the kiosk from the composition root runs as `dartship run` runs it; Real dice, Ann's
Battleship, Bo's Patrol Boat and Roll are tapped, then faces on the panel, through Kivy's input
path, up to STAGE: `partial` (3 of the first roll's 8 dice), `rolled` (the first roll whole, one
hit, and 2 of the second roll's 7) or `sent` (the whole attack: four rolls, a miss, stored). It
prints one JSON line (what the window shows) and waits to be killed. `again`: the kiosk started
anew on that database; what the window shows first (OUT-again.png), then the rest of the attack
typed in by taps (`partial`, `rolled`), or Bo's attack chosen and Roll tapped (`sent`): one JSON
line.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kiosk.express.rules import Face, Ship
from tests.ui.real_window_lineup_kill_probe import print_now
from tests.ui.real_window_probe import reporting, window_kiosk

SEED = 23
PANEL = "0b1118"  # the real-dice panel's own background (ui/touch/express/real_dice.py)
HIT = Face.PATROL_BOAT  # Bo's Patrol Boat is the target
MISSES = (Face.SUBMARINE, Face.CARRIER, Face.DESTROYER, Face.BATTLESHIP)
FIRST = [HIT, *(MISSES[i % 4] for i in range(7))]  # one hit: the second roll throws 7 dice
TYPED = {
    "partial": FIRST[:3],
    "rolled": [*FIRST, Face.SUBMARINE, Face.CARRIER],
    "sent": [*FIRST, *[Face.SUBMARINE] * 21],  # then three rolls of 7 misses: the rolls run out
}


def prepare(db: Path) -> None:
    """Ann and Bo, the Admiral's game, Ann to attack first."""
    from kiosk.express.match import Setup
    from kiosk.express.wire import EXPRESS
    from kiosk.service import GameService
    from kiosk.store import Store

    b, d, c, s, p = (Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE, Ship.PATROL_BOAT)
    store = Store(db)
    GameService(store, follow_ups=False).new_game(
        EXPRESS, Setup.create(["Ann", "Bo"], seed=SEED, lines=[[b, c, d, s, p], [p, d, b, c, s]])
    )
    store.close()


def share(colour: str) -> float:
    """The share of the window's pixels in `colour` (the panel's: no other widget uses it)."""
    import numpy as np
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    width, height = Window.size
    pixels = np.frombuffer(glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE), np.uint8)
    pixels = pixels[: width * height * 3].reshape(-1, 3).astype(np.int16)
    wanted = np.array([int(colour[i : i + 2], 16) for i in (0, 2, 4)], np.int16)
    return float((np.abs(pixels - wanted) <= 2).all(axis=1).mean())


def shown(app: Any, kiosk: Any) -> dict[str, Any]:
    """What the window shows of the table and the panel, and what the store holds."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from kiosk.express.match import QueueDice
    from kiosk.express.rolls import last_attack
    from kiosk.express.wire import EXPRESS
    from ui.touch.express import typed_dice

    screen = app.sm.current_screen
    match = EXPRESS.in_play(kiosk.service)
    report: dict[str, Any] = {"screen": screen.name, "window": list(Window.size)}
    if screen.name != "express" or match is None:
        return report
    panel = screen.real_panel
    on_window = panel.parent is not None and panel.get_root_window() is not None
    entry = screen.entry
    kept = typed_dice.recall(kiosk.service.store, kiosk.service.game, match.version)
    report.update(
        {
            "labels": [w.text for w in app.root.walk() if isinstance(w, Label) and w.opacity > 0 and w.text],
            "panel": on_window,
            "panel_share": share(PANEL),
            "title": panel.title.text if on_window else None,
            "panel_dice": [d.face.value for d in panel.entered.children if getattr(d, "face", None)][::-1]
            if on_window
            else [],
            "entered": [f.value for f in entry.entered] if entry is not None else None,
            "wanted": entry.wanted if entry is not None else None,
            "current": entry.current if entry is not None else None,
            "rolls": [[f.value for f in r.faces] for r in entry.rolls] if entry is not None else None,
            "kept": [f.value for f in kept.faces] if kept is not None else None,
            "real_on": screen.real_on,
            "attacker": screen.attacker.value if screen.attacker else None,
            "target": [screen.target.side, screen.target.ship.value] if screen.target else None,
            "prompt": screen.prompt.text,
            "turn": match.turn,
            "version": match.version,
            "log": [type(c).__name__ for c in match.log],
            "queued": [[f.value for f in c.faces] for c in match.log if isinstance(c, QueueDice)],
            "thrown": [f.value for r in last_attack(match) for f in r.faces],
            "tray": [d.face.value for d in screen.tray.rolling[: screen.tray.in_play] if d.face is not None],
            "seed_shown": any(str(SEED) in w for w in (panel.title.text, screen.prompt.text)),
        }
    )
    return report


async def main(folder: Path, width: int, height: int, phase: str, stage: str, out: Path) -> None:
    db = folder / "kiosk.db"
    if phase == "type":
        prepare(db)
    kiosk = await window_kiosk(db, width, height)
    async with reporting(kiosk) as (app, frames, report):
        from ui.touch.express.look import face_name
        from ui.touch.fingers import photograph, press, tap_at

        async def tap(widget: Any) -> None:
            tap_at(*widget.to_window(*widget.center))
            await frames.wait(2)

        async def type_faces(faces: list[Face]) -> None:
            for face in faces:
                press(None, face_name(face))
                await frames.wait(2)

        await frames.wait()
        app._hide_toast()  # the board's "connected" notice
        await frames.wait(3)
        screen = app.sm.current_screen
        if phase == "type":
            await tap(screen.real_button)
            await tap(screen.rows[0].tiles[Ship.BATTLESHIP])
            await tap(screen.rows[1].tiles[Ship.PATROL_BOAT])
            await tap(screen.roll_button)
            await type_faces(TYPED[stage])
            await frames.wait(6)
            if screen.playback.busy:  # `sent`: the attack shown beat by beat, to its end
                for _wait in range(600):
                    await frames.wait(2)
                    if not screen.playback.busy:
                        break
            app._hide_toast()
            await frames.wait(3)
            report.update(shown(app, kiosk))
            photograph(f"{out}-typed.png")
            print_now(report)
            await asyncio.sleep(3600)  # the test kills the kiosk here, with SIGKILL
            return
        report["again"] = shown(app, kiosk)
        photograph(f"{out}-again.png")
        typed: list[str] = []
        if screen.entry is not None:
            while screen.entry is not None:
                await type_faces([Face.SUBMARINE])
                typed.append(Face.SUBMARINE.value)
            for _wait in range(600):
                await frames.wait(2)
                if not screen.playback.busy:
                    break
        elif stage == "sent" and app.sm.current == "express":
            # Bo attacks: the Battleship at Ann's front ship, then Roll.
            match = screen.match
            me = match.turn
            ship = next(s for s in match.line(me) if not match.setup.ship(s).roll_first)
            target = match.targets(ship)[0]
            await tap(screen.rows[me].tiles[ship])
            await tap(screen.rows[target.side].tiles[target.ship])
            await tap(screen.roll_button)
            await frames.wait(3)
        report["typed_after"] = typed
        report["after"] = shown(app, kiosk)
        photograph(f"{out}-after.png")


if __name__ == "__main__":
    asyncio.run(
        main(
            Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], Path(sys.argv[6])
        )
    )
