"""Why a serial board cannot be read, in the owner's words and language.

pyserial's own texts are a programmer's, in English on a German or Finnish screen: an unplugged
USB cable is "device reports readiness to read but returned no data (device disconnected or
multiple access on port?)", a missing one "[Errno 2] could not open port /dev/ttyUSB0: [Errno 2]
No such file or directory: '/dev/ttyUSB0'". The screen shows these words; the journal keeps
pyserial's text beside them (the serial reader logs it).
"""

from __future__ import annotations

import errno

from kiosk.i18n import _


def _cause(err: BaseException) -> OSError | None:
    """The operating system's error under pyserial's (its socket:// wraps it as text)."""
    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno is not None:
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def not_opened(err: BaseException) -> str:
    """Why the port did not open."""
    cause = _cause(err)
    code = cause.errno if cause is not None else None
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return _("no such port: is the board plugged in?")
    if code in (errno.EACCES, errno.EPERM):
        return _("no permission: the kiosk's user must be in the dialout group")
    if code == errno.EBUSY:
        return _("another program holds the port")
    if code == errno.ECONNREFUSED:
        return _("nothing answers there: is the board's network bridge running?")
    if code in (errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ETIMEDOUT):
        return _("the board's network bridge cannot be reached")
    if cause is not None and cause.strerror:
        return cause.strerror
    return str(err) or type(err).__name__


def went_away(err: BaseException) -> str:
    """Why reading stopped: mostly a cable pulled out."""
    text = str(err)
    if "returned no data" in text or "socket disconnected" in text:
        return _("the cable was pulled out, or another program reads the port too")
    cause = _cause(err)
    if cause is not None and cause.errno in (errno.EIO, errno.ENODEV, errno.ENXIO):
        return _("the cable was pulled out")
    if cause is not None and cause.errno in (errno.ECONNRESET, errno.EPIPE):
        return _("the board's network bridge closed the connection")
    if cause is not None and cause.strerror:
        return cause.strerror
    return text or type(err).__name__
