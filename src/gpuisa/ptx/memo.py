"""``cached``: functools.lru_cache as the PTX checker uses it, without importing functools.

``functools`` imports ``collections`` (about 10 M instructions, 2 ms: a tenth of ``gpuisa ptx check
--file`` on a 2,500-instruction kernel, measured with callgrind), and nothing else on the check path
needs either.  Same use as ``functools.lru_cache(maxsize=N)`` on functions of hashable positional
arguments: results are kept by the arguments; at ``maxsize`` entries the memo is emptied (the callers'
keys are few: opcodes, opcode heads, and no-argument loaders); ``cache_info().currsize`` and
``cache_clear()`` as lru_cache has them.  mypy reads it as lru_cache itself.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing's import costs the check's start-up)
if TYPE_CHECKING:
    from functools import lru_cache as cached
else:
    class _CacheInfo:
        __slots__ = ("currsize",)

        def __init__(self, currsize: int):
            self.currsize = currsize

    class _Memo1(dict):
        """The memo of a one-argument function, called as the function: a hit is dict's own look-up (no
        Python frame: the memos of opcode tokens and targets are hit thousands of times a file)."""

        __call__ = dict.__getitem__

        def __missing__(self, arg):
            if self.maxsize is not None and len(self) >= self.maxsize:
                self.clear()
            value = self[arg] = self.fn(arg)
            return value

        def cache_info(self) -> _CacheInfo:
            return _CacheInfo(len(self))

        def cache_clear(self) -> None:
            self.clear()

    def cached(maxsize=128):
        """A decorator memoising a function by its positional arguments (at most ``maxsize`` kept, None: no bound)."""
        def decorate(fn):
            if fn.__code__.co_argcount == 1 and not fn.__code__.co_flags & 0x0C:  # (one argument, no *args/**kw)
                wrapper = _Memo1()
                wrapper.fn, wrapper.maxsize = fn, maxsize
            else:
                wrapper = _many(fn, maxsize)
            wrapper.__wrapped__ = fn
            for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
                setattr(wrapper, attr, getattr(fn, attr))
            return wrapper

        return decorate

    def _many(fn, maxsize):
        memo: dict = {}

        def wrapper(*args):
            try:
                return memo[args]
            except KeyError:
                pass
            if maxsize is not None and len(memo) >= maxsize:
                memo.clear()
            value = memo[args] = fn(*args)
            return value

        wrapper.cache_info = lambda: _CacheInfo(len(memo))
        wrapper.cache_clear = memo.clear
        return wrapper
