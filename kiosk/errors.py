"""The kiosk's one exception tree (gpiozero's `exc.py` in spirit): every error the kiosk, its
hardware and its faces raise on purpose is a `DartshipError`.

```
DartshipError
├── RuleError (also a ValueError)      what a player or a device asked that the rules refuse now;
│   │                                  the game is unchanged, the message says why
│   ├── CellError                      a cell code that is not a cell of this board
│   ├── PlacementError                 a ship or fleet that breaks a placement rule (every game)
│   ├── WireError                      a protocol line or JSON command that cannot be understood
│   ├── NotSaved                       the store could not keep the command: nothing done, paused
│   └── ... each game's own (classic: AlreadyFiredError..., Express: ExpressRuleError...)
├── ReplayError (also a RuntimeError)  a stored command log that no longer replays
├── StoreError (also a RuntimeError)   a database file that cannot be used
├── ConfigError (also a ValueError)    a config that cannot be used (every bad key)
├── BoardMapError (also a ValueError)  a board map file that cannot be used
├── BackupError, StartError            the shell's (kiosk/app) own
```

A front end catches `RuleError` for everything a command can be refused for; it never needs to
add `ValueError`. The built-in second base keeps what callers outside the kiosk (and older code)
catch working.

This module imports nothing of the kiosk, so any module may import it.
"""

from __future__ import annotations


class DartshipError(Exception):
    """The root of every exception the kiosk raises on purpose."""


class RuleError(DartshipError, ValueError):
    """A command the rules do not allow now; the game is unchanged. The message says why."""


class AlreadyDone(RuleError):
    """A command refused because what it asks was done already another way (a camera scorer's
    takeout of a visit a tap on a screen ended): the game is unchanged and nothing is wrong, so an
    input nobody waits on is not told as a refusal. The message says what happened, for the
    journal."""


class ReplayError(DartshipError, RuntimeError):
    """A stored command log no longer replays: the game cannot be rebuilt exactly."""


class CellError(RuleError):
    """A cell code that is not a cell of this board. The message names the bad token."""


class PlacementError(RuleError):
    """A ship or fleet that breaks a placement rule. The message says which rule and which ship."""
