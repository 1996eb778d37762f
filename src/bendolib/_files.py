"""Files written atomically: a temporary file beside the target, renamed over it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from typing import BinaryIO


def new_file_mode(target: str) -> int:
    """The permission bits a rewritten ``target`` gets: its own, or what the umask allows."""
    try:
        return os.stat(target).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(
    target: str,
    write: Callable[[BinaryIO], object],
    *,
    prefix: str = ".bendolib-",
    suffix: str = ".tmp",
    durable: bool = True,
) -> None:
    """
    Write ``target`` through ``write(stream)`` to a temporary file in its folder, then
    rename it over ``target``: a failure or Ctrl-C leaves any existing file as it was and
    nothing behind.  The new file gets the old one's permissions, or the umask's (not the
    0600 of a temporary file).  ``durable`` syncs the data to disk before the rename.
    Raises ``OSError``; callers turn it into their own library error.
    """
    mode = new_file_mode(target)
    handle, temporary = tempfile.mkstemp(
        dir=os.path.dirname(target) or ".", prefix=prefix, suffix=suffix
    )
    try:
        with os.fdopen(handle, "w+b") as stream:
            write(stream)
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
