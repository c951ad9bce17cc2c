"""Where a register may be used, as ptxas 13 has it (measured): after its declaration and inside
the `{ }` block that declares it.

Compilers declare a function's registers at its top, visible everywhere in it; those cost
nothing here.  Declarations inside a nested block (nvcc's inline-asm blocks: `{ .reg .pred %p; … }`)
or after the function's first instruction are recorded with where they are visible, and at the
end of the function the uses of those names only are found in its text and checked.
"""


class Visibility:
    """The register declarations of one function that are not visible everywhere in it."""

    def __init__(self):
        self.early: set = set()  # names and range prefixes declared at the top: visible everywhere
        self.early_ranges: dict = {}  # range prefix declared at the top -> count
        self.decls: list = []  # [name, range count or None, start offset, end offset or None]
        self.blocks: list = []  # the declarations of each open nested block

    @classmethod
    def begun(cls, regs: dict, ranges: dict, open_blocks: int) -> "Visibility":
        """The record of a function started at its first late or nested declaration: the registers
        declared before it (all at the top: visible everywhere) and the nested blocks open there."""
        vis = cls()
        vis.early.update(regs)
        for prefix, (count, _) in ranges.items():
            vis.early.add(prefix)
            vis.early_ranges[prefix] = count
        vis.blocks = [[] for _ in range(open_blocks)]
        return vis

    def declare(self, name: str, count: int | None, off: int, nested: bool, late: bool) -> None:
        if not nested and not late:
            self.early.add(name)
            if count is not None:
                self.early_ranges[name] = max(count, self.early_ranges.get(name, 0))
            return
        decl = [name, count, off, None]
        self.decls.append(decl)
        if nested and self.blocks:
            self.blocks[-1].append(decl)

    def open_block(self) -> None:
        self.blocks.append([])

    def close_block(self, off: int) -> None:
        for decl in self.blocks.pop() if self.blocks else []:
            decl[3] = off

    def _early_range(self, name: str) -> bool:
        """Whether a top-level range declares the name too (`%r1` of `%r<38>`): visible everywhere."""
        stem = name.rstrip("0123456789")
        return stem != name and int(name[len(stem):]) < self.early_ranges.get(stem, 0)

    def errors(self, code: str, start: int, end: int, used: set) -> list[tuple[int, str]]:
        """(offset, message) of each use of a recorded name outside where it is visible."""
        out: list[tuple[int, str]] = []
        by_name: dict = {}
        for decl in self.decls:
            if decl[0] not in self.early and not self._early_range(decl[0]):
                by_name.setdefault(decl[0], []).append(decl)
        # most names (inline-asm temporaries) appear only where they are declared: a C-level count of
        # the text inside their declarations' reach against the whole function settles it
        exact = {n: d for n, d in by_name.items() if d[0][1] is None and n in used and
                 code.count(n, start, end) != sum(code.count(n, x[2], x[3] or end) for x in d)}
        ranged = {n: d for n, d in by_name.items() if d[0][1] is not None}
        for decls in list(exact.values()) + list(ranged.values()):
            decls.sort(key=lambda d: d[2])
        starts = {n: [d[2] for d in decls] for n, decls in {**exact, **ranged}.items()}
        # one pass over the function for all the names: exact ones, then ranges (prefix + number); not
        # after a `.` (`mul.lo` is no use of an inline-asm `lo`)
        if not exact and not ranged:
            return out
        import re  # (functions with nested or late declarations only: not at start-up)

        alternatives = [re.escape(n) + r"()" for n in sorted(exact, key=len, reverse=True)] + [
            re.escape(n) + r"(\d+)" for n in sorted(ranged, key=len, reverse=True)]
        if not alternatives:
            return out
        rx = re.compile(r"(?<![\w$%.])(?:" + "|".join(f"({a})" for a in alternatives) + r")(?![\w$<])")
        names = list(sorted(exact, key=len, reverse=True)) + list(sorted(ranged, key=len, reverse=True))
        reported = set()
        for m in rx.finditer(code, start, end):
            k = next(i for i in range(len(names)) if m.group(2 * i + 1) is not None)
            name = names[k]
            num = m.group(2 * k + 2)
            if name in reported or _visible(by_name[name], starts[name], m.start(), int(num) if num else None, end):
                continue
            reported.add(name)
            out.append((m.start(), f"`{m.group()}` is used outside the block that declares it, or before"
                                   " its declaration"))
        return out


def _visible(decls: list, starts: list, at: int, num: int | None, end: int) -> bool:
    """Whether a declaration made before ``at`` is still visible there (the nearest first: blocks
    follow each other, so that is nearly always the one)."""
    import bisect  # (functions with nested or late declarations only: not at start-up)

    for i in range(bisect.bisect_right(starts, at) - 1, -1, -1):
        d = decls[i]
        if at <= (d[3] if d[3] is not None else end) and (num is None or num < d[1]):
            return True
    return False
