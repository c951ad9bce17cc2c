"""Diagnostics through the standard :mod:`logging` module: loggers named after the module (``gpuisa.store``,
``gpuisa.cachefile``, ...), shown on stderr by ``gpuisa -v`` (INFO) or ``-vv`` (DEBUG).

The command line's start-up imports no ``logging`` (about 10 ms): :func:`info` and :func:`debug` do nothing
until :func:`setup` ran or the host program imported ``logging`` itself (a library user, the web server),
in which case the records go through its configuration like any other library's.
"""

from __future__ import annotations

import sys

_ON = False
FORMAT = "gpuisa: %(levelname)s %(name)s: %(message)s"


def setup(verbosity: int) -> None:
    """Show the package's diagnostics on stderr: 1 = INFO, 2 or more = DEBUG (0 leaves logging alone)."""
    global _ON
    if verbosity <= 0:
        return
    import logging

    logger = logging.getLogger("gpuisa")
    if not any(getattr(h, "_gpuisa", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        handler._gpuisa = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbosity >= 2 else logging.INFO)
    logger.propagate = False
    _ON = True


def _log(level: int, name: str, msg: str, args: tuple) -> None:
    if not _ON and "logging" not in sys.modules:
        return
    import logging

    logging.getLogger(name).log(level, msg, *args)


def info(name: str, msg: str, *args) -> None:
    """``logging.getLogger(name).info(msg, *args)`` when logging is on (see the module's docstring)."""
    _log(20, name, msg, args)


def debug(name: str, msg: str, *args) -> None:
    """``logging.getLogger(name).debug(msg, *args)`` when logging is on."""
    _log(10, name, msg, args)
