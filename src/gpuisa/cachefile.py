"""The one safe writer of gpuisa's data folder: every file is written whole or not at all.

A file is written to a temporary name in its own folder -- ``.<name>.<pid>-<random>.gpuisa-tmp`` (a
dot-file with a suffix no loader reads) -- and renamed over the target, so a reader, or a process
killed half-way, only ever sees the old file or the new one.  Users: the store (its SQLite build),
``import-amd`` (the imported facts), the semantics and codec caches, the PTX forms cache.

* :func:`write_cache_file` -- caches: never an error (a cache that cannot be written is made again).
* :func:`atomic_write` -- data that must not be lost: raises ``OSError``; ``durable`` also fsyncs.
* :func:`atomic_path` -- for writers that need a path (SQLite): a temporary path renamed on success.
* :func:`clean_stale` -- temporaries left by killed processes (their pid is gone) are removed
  (:func:`clean_legacy`: those of older versions, by name and age).
* :func:`locked` -- the data folder's lock (fcntl), so imports and store builds queue.
* :func:`data_home` / :func:`cache_path` -- the one data folder (``GPUISA_HOME``, else the platform's user
  data folder; ``store.home_dir()``) and its ``cache`` folder, as strings (no pathlib: start-up).
* :func:`seal` / :func:`unseal` -- a cache file's bytes with a magic and a CRC-32 of the payload, so that a
  damaged or truncated file (or one of another format) is rebuilt rather than parsed.  The caches hold plain
  containers (``marshal`` of dicts, lists, strings, numbers: no code runs on loading, unlike ``pickle``);
  nothing in the user's data folder is unpickled.

(No imports at module level beyond ``os``: the PTX checker's start-up uses this module.)
"""

import os

from .errors import UserError

TMP_SUFFIX = ".gpuisa-tmp"
LOCK_NAME = ".gpuisa.lock"
DEFAULT_LOCK_TIMEOUT = 120.0  # seconds; GPUISA_LOCK_TIMEOUT overrides


def temp_name(path) -> str:
    """A fresh temporary name next to ``path`` that no loader reads (a dot-file ending .gpuisa-tmp)."""
    path = os.fspath(path)
    head, tail = os.path.split(path)
    return os.path.join(head, f".{tail}.{os.getpid()}-{os.urandom(4).hex()}{TMP_SUFFIX}")


def is_temp_name(name: str) -> bool:
    return name.startswith(".") and name.endswith(TMP_SUFFIX)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path, data: bytes, durable: bool = False, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` (its folder made first) whole or not at all; ``OSError`` if it cannot."""
    path = os.fspath(path)
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    tmp = temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise
    if durable:
        _fsync_dir(folder)


def data_home() -> str:
    """The data folder: ``$GPUISA_HOME``, else the platform's user data folder for gpuisa."""
    env = os.environ.get("GPUISA_HOME")
    if env:
        return env
    import platformdirs

    return platformdirs.user_data_dir("gpuisa", appauthor=False)


def cache_path(name: str) -> str:
    """A file of the data folder's ``cache`` folder (the one cache root)."""
    return os.path.join(data_home(), "cache", name)


_SEAL = b"gpuisa-cache1\n"


def seal(payload: bytes) -> bytes:
    """``payload`` as a cache file: a magic, the payload's CRC-32 (4 bytes, little-endian), the payload."""
    import zlib

    return _SEAL + zlib.crc32(payload).to_bytes(4, "little") + payload


def unseal(data: bytes) -> bytes | None:
    """The payload of a file written by :func:`seal`, or None where the file is not one or is damaged."""
    import zlib

    n = len(_SEAL)
    if data[:n] != _SEAL or len(data) < n + 4:
        return None
    payload = data[n + 4:]
    return payload if zlib.crc32(payload) == int.from_bytes(data[n:n + 4], "little") else None


def read_sealed(path) -> bytes | None:
    """A sealed cache file's payload; None where it is missing, unreadable, of another format or damaged."""
    try:
        with open(path, "rb") as fh:
            payload = unseal(fh.read())
    except OSError:
        return None
    if payload is None:
        from .logs import debug

        debug(__name__, "cache file %s is damaged or of another format: rebuilt", path)
    return payload


def write_cache_file(path, data: bytes) -> bool:
    """Write a cache file through :func:`atomic_write`; False where it cannot be written (a read-only home)."""
    try:
        atomic_write(path, data)
        return True
    except OSError as exc:
        from .logs import debug

        debug(__name__, "cache file %s not written (%s): it is made again next time", path, exc)
        return False


def read_stamped(path, stamp):
    """The value :func:`write_stamped` kept at ``path`` under ``stamp`` (compared with ``==``); None where the
    file is missing, damaged, of another format or made under another stamp (the caller makes it again)."""
    import marshal

    payload = read_sealed(path)
    if payload is None:
        return None
    try:
        got = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return got[1] if isinstance(got, tuple) and len(got) == 2 and got[0] == stamp else None


def write_stamped(path, stamp, value) -> bool:
    """Keep ``value`` (anything ``marshal`` writes) at ``path`` under ``stamp``, sealed; False where the data
    folder cannot be written (the process keeps what it made)."""
    import marshal

    return write_cache_file(path, seal(marshal.dumps((stamp, value))))


class atomic_path:  # noqa: N801 (used as a context manager, like open)
    """``with atomic_path(target) as tmp:`` write ``tmp`` (a path); renamed over ``target`` on success,
    removed (with SQLite's -journal/-wal companions) on any failure."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self.tmp = temp_name(self.path)

    def __enter__(self) -> str:
        folder = os.path.dirname(self.path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        return self.tmp

    def __exit__(self, exc_type, exc, tb) -> None:
        done = False
        try:
            if exc_type is None:
                os.replace(self.tmp, self.path)
                done = True
        finally:
            for extra in ("-journal", "-wal", "-shm") if done else ("", "-journal", "-wal", "-shm"):
                _unlink(self.tmp + extra)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: alive
    return True


def clean_stale(folder) -> list[str]:
    """Remove temporaries (and their SQLite companions) whose writing process is gone; names removed."""
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        base = name
        for extra in ("-journal", "-wal", "-shm"):
            if base.endswith(extra):
                base = base[: -len(extra)]
        if not is_temp_name(base):
            continue
        try:
            pid = int(base[: -len(TMP_SUFFIX)].rsplit(".", 1)[1].split("-", 1)[0])
        except (ValueError, IndexError):
            continue
        if not _pid_alive(pid):
            try:
                os.unlink(os.path.join(folder, name))
                removed.append(name)
            except OSError:
                pass
    return removed


def clean_legacy(folder, match, age: float = 600.0) -> None:
    """Temporaries of older gpuisa versions (no pid in their name; ``match(name)``): removed once old."""
    import time

    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        if match(e.name):
            try:
                if time.time() - e.stat().st_mtime > age:
                    os.unlink(e.path)
            except OSError:
                pass


def writable_folder(folder) -> bool:
    """``folder`` exists (made now if need be) and this process may create files in it."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def own_folder(folder) -> bool:
    """``folder`` is a real folder (no link) owned by this user: safe to share files through."""
    import stat

    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == getattr(os, "getuid", lambda: st.st_uid)()


class LockTimeout(UserError):
    """Another gpuisa process held the data folder's lock for longer than the timeout."""


def lock_timeout() -> float:
    try:
        return max(0.0, float(os.environ.get("GPUISA_LOCK_TIMEOUT", DEFAULT_LOCK_TIMEOUT)))
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT


class locked:  # noqa: N801
    """``with locked(folder, what):`` the folder's exclusive lock (``.gpuisa.lock``, fcntl), waiting up to
    :func:`lock_timeout` seconds, then :class:`LockTimeout`.  Where the lock file cannot be made (a
    read-only folder) nothing is locked: nothing can be written there either.  Re-entrant per process."""

    _held: dict[str, int] = {}

    def __init__(self, folder, what: str = "update", timeout: float | None = None):
        self.folder = os.path.abspath(os.fspath(folder))
        self.what = what
        self.timeout = lock_timeout() if timeout is None else timeout
        self.fd: int | None = None

    def __enter__(self) -> "locked":
        import time

        try:
            import fcntl
        except ImportError:  # (no fcntl on this system: nothing is locked)
            return self
        if self.folder in self._held:
            self._held[self.folder] += 1
            return self
        try:
            os.makedirs(self.folder, exist_ok=True)
            self.fd = os.open(os.path.join(self.folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return self  # read-only: no writer can get in either
        deadline = time.monotonic() + self.timeout
        delay = 0.01
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(self.fd)
                    self.fd = None
                    raise LockTimeout(f"another gpuisa process is updating {self.folder} (waited "
                                      f"{self.timeout:g} s to {self.what}; GPUISA_LOCK_TIMEOUT sets the wait)") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.2)
            except OSError:
                break  # a file system without locks: proceed unlocked
        self._held[self.folder] = 1
        return self

    def __exit__(self, *exc) -> None:
        if self.folder not in self._held:
            return
        self._held[self.folder] -= 1
        if self._held[self.folder] == 0:
            del self._held[self.folder]
            if self.fd is not None:
                os.close(self.fd)  # (closing releases the flock)
                self.fd = None
