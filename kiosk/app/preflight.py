"""What `dartship run` would trip over that no key shows on its own: a host name that does not
resolve or is not this machine's, a port only root may use, a board map that cannot be read, a
database file the store would refuse.

`dartship config check` lists these with the other problems (a config that passes the check
runs). `dartship run` never stops for them: the web server, the board factory and the
composition root each fall back to the key's default and log why (`dartship doctor` says more:
who holds a port, who may write the database).
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from kiosk import store_faults
from kiosk.config import Problem, Settings
from kiosk.i18n import _
from kiosk.store import SCHEMA_VERSION


def problems(settings: Settings) -> list[Problem]:
    return [*web_problems(settings), *board_map_problems(settings), *database_problems(settings)]


def resolve_host(host: str) -> str:
    """The address `host` names (OSError, a `socket.gaierror`, when it names none)."""
    return str(socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][4][0])


def host_problem(host: str) -> str | None:
    """Why the phone page could not listen on `host` (None: it can)."""
    try:
        address = resolve_host(host)
    except OSError as err:
        return _("{host} does not resolve to an address ({error})").format(host=host, error=err)
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((address, 0))
    except OSError as err:
        named = host if address == host else f"{host} ({address})"
        return _("{host} is not an address of this machine ({error})").format(
            host=named, error=err.strerror or err
        )
    return None


def web_problems(settings: Settings) -> list[Problem]:
    web = settings.web
    if not web.enabled:
        return []
    found: list[Problem] = []
    problem = host_problem(web.host)
    if problem is not None:
        found.append(Problem("web.host", problem))
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("0.0.0.0", web.port))
    except OSError as err:
        # A port in use is a fact of the moment (the running kiosk holds it): run falls back and
        # doctor names the holder. A port only root may open stays wrong.
        if err.errno == errno.EACCES:
            found.append(
                Problem(
                    "web.port", _("port {port} needs root (ports below 1024): use 8080").format(port=web.port)
                )
            )
    return found


def board_map_problems(settings: Settings) -> list[Problem]:
    if not settings.board.map:
        return []
    from hardware import boardmap

    try:
        loaded = boardmap.load(Path(settings.board.map).expanduser())
    except boardmap.BoardMapError as err:
        return [Problem("board.map", problem) for problem in err.problems]
    return [Problem("board.map", problem) for problem in loaded.problems]


def database_problems(settings: Settings) -> list[Problem]:
    """Only a database the config names: the default one is `doctor`'s to judge (run has
    nothing to fall back to from there)."""
    if not settings.kiosk.database:
        return []
    path = settings.database_path()
    if path.is_dir():
        return [Problem("kiosk.database", _("{path} is a folder, not a database file").format(path=path))]
    refusal = store_faults.refusal(store_faults.inspect(path, SCHEMA_VERSION), path, SCHEMA_VERSION)
    return [Problem("kiosk.database", refusal)] if refusal else []
