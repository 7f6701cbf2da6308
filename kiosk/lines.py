"""What the three line protocols share (PROTOCOLS.md §3-5: `dartship referee`, `classic`,
`express`): one JSON object a line in, one JSON object a line out.

Each game's referee (`kiosk/<game>/referee.py`) and wire format (`kiosk/<game>/wire.py`) know
their own commands; this module reads a line into a command object, checks its fields, words the
answers every protocol gives to what it cannot understand, and runs the loop from standard input
to standard output.

Every line is untrusted (`untrusted_json`, which the phone API's bodies go through too): bytes
that are not UTF-8, a lone surrogate (raw or as a `\\ud800` escape), a number of more digits than
any game needs, NaN, nesting deeper than a command goes, or a line longer than any command are
refused with one `error`, like any other bad line. Standard input is read as bytes and standard
output written as UTF-8, whatever the locale says.
"""

from __future__ import annotations

import io
import json
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from kiosk.errors import RuleError
from kiosk.i18n import _, said_of
from kiosk.names import clean_name

if TYPE_CHECKING:
    from kiosk.config import ConfigFile
    from kiosk.service import GameService
    from kiosk.store import Store

Answer = dict[str, Any]

MAX_LINE = 64 * 1024  # a command is a few hundred bytes; a fleet of ten ships well under 1 KiB
MAX_DIGITS = 30  # a seed, a player, a count: no game needs a longer number
MAX_DEPTH = 16  # the deepest command nests four levels (express lines, a target)
_SURROGATE = re.compile("[\ud800-\udfff]")


class WireError(RuleError):
    """A line or a JSON command that cannot be understood; the message says what is wrong."""


def error(message: str) -> Answer:
    """The protocols' answer to anything refused."""
    return {"event": "error", "message": message}


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise WireError(_("a number of more than {digits} digits").format(digits=MAX_DIGITS))
    return int(text)


def _constant(name: str) -> float:
    raise WireError(_("{name} is not a JSON number").format(name=name))


def untrusted_json(data: str | bytes) -> Any:
    """JSON from a person or a script: the value, or WireError (not UTF-8, not JSON, a lone
    surrogate, a huge number, NaN, nested too deeply). No exception of any other kind."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise WireError(_("not UTF-8 (byte {offset})").format(offset=err.start)) from None
    if _SURROGATE.search(data):
        raise WireError(_("not UTF-8 (a lone surrogate)"))
    try:
        value = json.loads(data, parse_int=_number, parse_constant=_constant)
    except (json.JSONDecodeError, RecursionError) as err:
        raise WireError(_("bad JSON: {error}").format(error=err)) from None
    except ValueError as err:  # WireError from the hooks, or a float Python refuses
        raise WireError(said_of(err)) from None
    _check(value)
    return value


def _check(value: Any) -> None:
    """No lone surrogate in any string (`\\ud800` escapes), no nesting beyond MAX_DEPTH."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise WireError(_("nested more than {depth} levels deep").format(depth=MAX_DEPTH))
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise WireError(_("not UTF-8 (a lone surrogate)"))
        elif isinstance(item, dict):
            todo.extend((k, depth + 1) for k in item)
            todo.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            todo.extend((v, depth + 1) for v in item)


def command_of(line: str | bytes) -> dict[str, Any]:
    """The command object on one line, or WireError (see `untrusted_json`; not an object)."""
    obj = untrusted_json(line)
    if not isinstance(obj, dict):
        raise WireError(_('a command must be a JSON object like {"cmd": "state"}'))
    return obj


def command_name(obj: Mapping[str, Any]) -> str:
    """The command's "cmd", which every command must have."""
    name = obj.get("cmd")
    if not isinstance(name, str):
        raise WireError(_('every command needs "cmd", e.g. {"cmd": "state"}'))
    return name


def require(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """`obj[key]`, which must be there and of this type (a bool is no int)."""
    if key not in obj:
        raise WireError(_("{key!r} is missing").format(key=key))
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise WireError(_("{key!r} has the wrong type").format(key=key))
    return value


def name_list(value: Any, key: str) -> list[str]:
    """`value` as a list of names (`kiosk.names.clean_name`), or WireError naming `key`."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise WireError(_("{key!r} must be a list of names").format(key=key))
    names = [clean_name(n) for n in value]
    if None in names:
        raise WireError(_("{key!r}: a name needs something visible").format(key=key))
    return [n for n in names if n is not None]


class _TooLong:
    """A line longer than MAX_LINE (read and dropped, never held in memory whole)."""


def _lines(stdin: Iterable[str | bytes]) -> Iterator[str | bytes | _TooLong]:
    readline = getattr(stdin, "readline", None)
    if readline is None:
        yield from stdin
        return
    while True:
        line = readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
            while line and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
                line = readline(MAX_LINE + 1)
            yield _TooLong()
            continue
        yield line


def _written(answer: Answer) -> str:
    # No lone surrogate can reach an answer (every line is checked), but whatever happens the
    # output stays valid UTF-8.
    text = json.dumps(answer, ensure_ascii=False)
    return text.encode("utf-8", "replace").decode("utf-8")


def serve(
    stdin: Iterable[str | bytes],
    stdout: TextIO,
    handle_line: Callable[[str], list[Answer]],
    *,
    first: Sequence[Answer] = (),
) -> int:
    """Answer every non-blank line until the end of input (status 0), flushing after each. A
    line that is not UTF-8 or too long is answered with an error without reaching the game; a
    failure of the game's code is an error answer too (its traceback on standard error).
    `first`: what the game did by itself on resuming, written before any line is read."""
    if first:
        for answer in first:
            stdout.write(_written(answer) + "\n")
        stdout.flush()
    for line in _lines(stdin):
        answers: list[Answer]
        if isinstance(line, _TooLong):
            answers = [error(_("a line of more than {size} bytes").format(size=MAX_LINE))]
        elif not line.strip():
            continue
        else:
            try:
                text = line.decode("utf-8") if isinstance(line, bytes) else line
                answers = handle_line(text)
            except UnicodeDecodeError as err:
                answers = [error(_("not UTF-8 (byte {offset})").format(offset=err.start))]
            except Exception:  # never a crash: the line is refused, the game goes on
                traceback.print_exc(file=sys.stderr)
                answers = [error(_("the referee failed on this line"))]
        for answer in answers:
            stdout.write(_written(answer) + "\n")
        stdout.flush()
    return 0


def stdio() -> tuple[BinaryIO, TextIO]:
    """Standard input as bytes and standard output as UTF-8, whatever the locale."""
    out = io.TextIOWrapper(
        sys.stdout.buffer, encoding="utf-8", errors="replace", newline="\n", write_through=True
    )
    return sys.stdin.buffer, out


def read_config(path: str | None) -> ConfigFile | None:
    """A line protocol's config file, or None after printing what is wrong with it."""
    from kiosk import config

    try:
        return config.read(path)
    except config.ConfigError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return None


def with_store(name: str, db: str | None, play: Callable[[Store | None], int]) -> int:
    """A line protocol's run: with `--db`, the store opened first and closed after; a file that
    cannot be used (or whose last game cannot be read back) is said in one line, status 2."""
    from kiosk.store import Store, StoreError
    from kiosk.tenant import DatabaseLock

    store = None
    lock = None
    try:
        if db:
            lock = DatabaseLock(db, f"dartship {name}")  # not while a kiosk plays on it
            store = Store(db)
        return play(store)
    except StoreError as err:
        print(f"dartship {name}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if store is not None:
            store.close()
        if lock is not None:
            lock.release()


def scripted(db: str | None, venue: str, play: Callable[[GameService], int]) -> int:
    """A game's line protocol through the service: in memory, or with `--db` every answer
    committed first and the venue's game resumed."""
    from kiosk.service import GameService

    def with_service(store: Store | None) -> int:
        service = GameService(store, venue=venue, follow_ups=False)
        service.resume(finished_within=None)  # finished or not: `state` answers as before
        return play(service)

    return with_store(venue, db, with_service)
