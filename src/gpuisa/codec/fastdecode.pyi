"""Types of the C accelerator of ``gpuisa decode`` (``fastdecode.c``; ``accel.py`` drives it)."""

from typing import Any, Callable

MAXC: int

class Tables:
    def __init__(self, spec: dict[str, Any]) -> None: ...
    def listing(self, data: bytes, address: int, labels: list[tuple[int, bytes]] | None,
                plain: list[tuple[int, bytes]] | None, resolver: Any,
                write: Callable[[memoryview], object] | None = ...) -> bytes | None: ...
    def stats(self) -> dict[str, int]: ...
