"""User-facing errors: printed by the CLI as one line, exit code 2.

Every error meant for the user derives from :class:`UserError` (the data folder's :class:`StoreError`,
the AMD importer's ``XmlImportError``, the lock's ``LockTimeout``).  Anything the user typed that an
error message repeats goes through :func:`echo` (``repr``, shortened), and :func:`one_line` makes the
final message safe to print: no newlines or control characters, bounded length.
"""

MAX_MESSAGE = 500


class UserError(Exception):
    """A bad request from the user (what was wrong and what is allowed, in one line)."""


class StoreError(UserError):
    """The data folder cannot serve the request (unwritable and no temporary folder, a broken build)."""


def echo(value, limit: int = 60) -> str:
    """User input as it may appear inside an error: its ``repr``, at most ``limit`` characters."""
    text = repr(value if isinstance(value, str) else str(value))
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` with control characters escaped (one line) and at most ``limit`` characters."""
    text = str(message).encode("utf-8", "backslashreplace").decode("utf-8")  # (lone surrogates from argv)
    if not text.isprintable():  # (newlines, NEL, line/paragraph separators, other controls)
        text = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unexpected(exc: Exception) -> str:
    """One line for an error no command turned into a UserError (GPUISA_DEBUG=1 shows the traceback)."""
    if isinstance(exc, UnicodeDecodeError):
        return f"gpuisa: the input is not UTF-8 text ({exc.reason} at byte {exc.start})"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"gpuisa: {where}{exc.strerror or exc}"
    return f"gpuisa: internal error: {type(exc).__name__}: {exc} (GPUISA_DEBUG=1 shows where)"
