"""Registry of instruction-set architectures (ISAs): AMD's native ISA, NVIDIA's PTX, and room for more.

``archs.py`` knows the architectures (generations, gfx targets, features); this module knows the ISAs
they belong to (``Arch.isa`` is an ISA key here) and what each ISA can do.  Everything that offers a
choice of ISA reads it: the CLI's ``--isa`` choices, the web API's validation and OpenAPI enums, the
search, the documentation look-up and the Related sections, so a new ISA is one ``register`` call (see
ARCHITECTURE.md, "Adding an ISA").

Hooks are callables or ``"package.module:function"`` strings imported on first use: importing this
module imports nothing else of the package (the CLI builds its parsers from it at start-up).

Relations between two ISAs are registered as a pair and a hook; a page's Related section is what every
pair that includes its ISA answers (``related``), each entry naming the other ISA in ``isa``.
"""

from __future__ import annotations

from .errors import UserError

TYPE_CHECKING = False  # (not typing's: importing typing alone costs the CLI's start-up a few milliseconds)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Union

    Hook = Union[str, Callable[..., Any]]

# Capability names a hook may be registered under (``Isa.capabilities``):
#   eval     (args) -> int            ``gpuisa eval --isa KEY``: run one instruction's semantics
#   coverage (args) -> int            ``gpuisa coverage semantics --isa KEY``
#   doc      (store, opcode, arch)    ``gpuisa doc`` / ``/api/asm/KEY/OPCODE``: a compiler opcode's documentation
#   doc_opcodes (store) -> [opcode]   what the static export writes a ``doc`` file for (default: instruction names)
#   lsp      (lines, arch, cache)     ``gpuisa lsp``: the analyser of a document in this ISA (lsp.model.Analysis)
#   lsp_features () -> lsp.dialect.Dialect  what the language server's features do differently for this ISA
#                                     (hover words, completions, declarations; without it: labels and the doc hook)
#   encode, decode, check, timing     what the ISA offers (the AMD codec, the PTX checker, llvm-mca timing)
#   playground () -> [web.playground.Mode]  the playground page's tabs for this ISA (and their no-JS answers)
#   docs     (page) -> [{"title", "url"}]  the web page's links to the vendor's documents (addresses only)
#   target_text (page) -> str        the web page's targets in a line ("sm_20+"; default: the list)
CAPABILITIES = ("eval", "coverage", "doc", "doc_opcodes", "lsp", "lsp_features", "encode", "decode", "check", "timing",
                "playground", "docs", "target_text")


class UnknownIsa(UserError):
    """An ISA name that is not registered (one line, with the allowed keys)."""


class Isa:
    """One instruction set: what the CLI, the web API, the search and the Related sections need of it.

    key            the ``isa`` of its architectures, store rows and pages: amdgpu, ptx
    title          AMD GPU ISA
    short          AMD: how relation cards and section titles name this side
    vendor         AMD
    kind           native (machine code of generations) | virtual (one portable ISA)
    related_label  words for this ISA's entries in another page's Related section: "AMD instructions"
    aliases        other spellings accepted where a user names the ISA
    capabilities   CAPABILITIES name -> hook
    page           hook (store, name, arch, isa) -> page JSON (read back into the typed page, which checks it)
                   or an InstructionPage; the default builds it from the store
    builder        hook (store, row, arch) -> page.model.InstructionPage: the typed page of one store row
    instructions   hook (store) -> [{"name", "arch", "summary"}] for an ISA the store does not hold (None: it does)
    own_archs      architecture names outside archs.py (an ISA whose architectures archs.py does not list)
    suffixes       file name endings of its assembly files (the language server's choice of analyser)
    language_ids   editors' language ids of its assembly files
    """

    __slots__ = ("key", "title", "short", "vendor", "kind", "related_label", "aliases", "capabilities", "page",
                 "builder", "instructions", "own_archs", "suffixes", "language_ids")

    def __init__(self, key: str, title: str, short: str, vendor: str, kind: str, related_label: str, *,
                 aliases: tuple[str, ...] = (), capabilities: dict[str, Hook] | None = None,
                 page: Hook = "gpuisa.pages:build_page", builder: Hook | None = None,
                 instructions: Hook | None = None, own_archs: tuple[str, ...] = (), suffixes: tuple[str, ...] = (),
                 language_ids: tuple[str, ...] = ()):
        self.key, self.title, self.short, self.vendor, self.kind = key, title, short, vendor, kind
        self.related_label, self.aliases, self.capabilities = related_label, tuple(aliases), dict(capabilities or {})
        self.page, self.builder, self.instructions, self.own_archs = page, builder, instructions, tuple(own_archs)
        self.suffixes, self.language_ids = tuple(suffixes), tuple(language_ids)

    def __repr__(self) -> str:
        return f"Isa({self.key!r}, {self.title!r}, vendor={self.vendor!r}, kind={self.kind!r})"

    def arch_names(self) -> list[str]:
        """This ISA's architectures: archs.py's (oldest first), else ``own_archs``."""
        if self.own_archs:
            return list(self.own_archs)
        from . import archs

        return archs.generation_order([a.name for a in archs.ALL_ARCHS if a.isa == self.key])

    def can(self, capability: str) -> bool:
        return capability in self.capabilities

    def hook(self, capability: str) -> Callable[..., Any]:
        """The callable registered for ``capability`` (UserError where this ISA lacks it)."""
        if capability not in self.capabilities:
            have = ", ".join(keys(capability)) or "none"
            raise UserError(f"{capability} is not available for the {self.key} ISA (available for: {have})")
        return load(self.capabilities[capability])

    def build_page(self, store, name: str, arch: str | None = None) -> dict:
        return load(self.page)(store, name, arch, self.key)

    def pages_from_hook(self) -> bool:
        """Whether this ISA's pages come from its own ``page`` hook rather than the store's rows."""
        return self.page != "gpuisa.pages:build_page"


def load(hook: Hook) -> Callable[..., Any]:
    """A hook's callable: itself, or ``module:function`` imported now."""
    if callable(hook):
        return hook
    import importlib

    module, _, attr = hook.partition(":")
    return getattr(importlib.import_module(module), attr)


AMDGPU = Isa("amdgpu", "AMD GPU ISA", "AMD", "AMD", "native", "AMD instructions", aliases=("amd", "amdgcn"),
             capabilities={"eval": "gpuisa.semantics.cli:eval_amd", "coverage": "gpuisa.semantics.cli:coverage_amd",
                           "doc": "gpuisa.doclookup.amd:amd_doc", "doc_opcodes": "gpuisa.doclookup.export:amd_opcodes",
                           "lsp": "gpuisa.lsp.amd:analyse", "lsp_features": "gpuisa.lsp.amd_features:dialect",
                           "encode": "gpuisa.codec.cli:cmd_encode", "decode": "gpuisa.codec.cli:cmd_decode",
                           "timing": "gpuisa.timing:page_timing", "docs": "gpuisa.web.instruction:amd_doc_links",
                           "playground": "gpuisa.web.playground:amd_modes"},
             builder="gpuisa.page.amd:build", suffixes=(".s", ".asm", ".amdgcn", ".S"),
             language_ids=("amdgpu", "amdgcn", "asm", "gas"))
PTX = Isa("ptx", "PTX", "PTX", "NVIDIA", "virtual", "PTX concepts", aliases=("nvptx",),
          capabilities={"eval": "gpuisa.semantics.cli:eval_ptx", "coverage": "gpuisa.semantics.cli:coverage_ptx",
                        "doc": "gpuisa.doclookup.ptx:ptx_doc", "doc_opcodes": "gpuisa.doclookup.export:ptx_opcodes",
                        "lsp": "gpuisa.lsp.ptx:analyse", "lsp_features": "gpuisa.lsp.ptx_features:dialect",
                        "check": "gpuisa.ptx.check:check_instruction", "docs": "gpuisa.web.instruction:ptx_doc_links",
                        "playground": "gpuisa.web.playground:ptx_modes",
                        "target_text": "gpuisa.web.instruction:ptx_target_text"},
          builder="gpuisa.page.ptx:build", suffixes=(".ptx",), language_ids=("ptx",))

_ISAS: dict[str, Isa] = {i.key: i for i in (AMDGPU, PTX)}
# (isa a, isa b) -> hook (this isa, name, arch) -> entries naming the other ISA
_RELATIONS: dict[tuple[str, str], Hook] = {("amdgpu", "ptx"): "gpuisa.crossmap.pages:related"}


def all_isas() -> list[Isa]:
    return list(_ISAS.values())


def keys(capability: str | None = None) -> list[str]:
    """Registered ISA keys (those with ``capability`` where one is named), in registration order."""
    return [k for k, i in _ISAS.items() if capability is None or i.can(capability)]


def get(key: str) -> Isa:
    return _ISAS[key]


def resolve(text: str, capability: str | None = None) -> Isa:
    """A key or alias, case-insensitive; UnknownIsa (one line, the allowed keys) otherwise."""
    want = text.strip().lower()
    allowed = keys(capability)
    for k in allowed:
        if want == k or want in _ISAS[k].aliases:
            return _ISAS[k]
    what = f"ISA with {capability}" if capability else "ISA"
    raise UnknownIsa(f"unknown {what} {text[:40]!r} (allowed: {', '.join(allowed)})")


def of_arch(arch: str) -> Isa:
    """The ISA an architecture name belongs to."""
    for i in _ISAS.values():
        if arch in i.own_archs:
            return i
    from . import archs

    return _ISAS[archs.by_name(arch).isa]


def with_own_archs(arch: str) -> Isa | None:
    """The ISA whose own architectures (outside archs.py) include ``arch``; None for archs.py's."""
    want = arch.strip().lower()
    return next((i for i in _ISAS.values() if want in i.own_archs), None)



def register(isa: Isa, relations: dict[str, Hook] | None = None) -> Isa:
    """Add ``isa`` (and its relations: other ISA key -> hook (this isa, name, arch) -> entries)."""
    if isa.key in _ISAS:
        raise ValueError(f"ISA {isa.key!r} is registered already")
    _ISAS[isa.key] = isa
    for other, hook in (relations or {}).items():
        _RELATIONS[(isa.key, other)] = hook
    return isa


def unregister(key: str) -> None:
    _ISAS.pop(key, None)
    for pair in [p for p in _RELATIONS if key in p]:
        del _RELATIONS[pair]


class registered:
    """``register`` for the length of a ``with`` block (tests, plug-ins tried out): ``with registered(isa):``."""

    def __init__(self, isa: Isa, relations: dict[str, Hook] | None = None):
        self.isa, self.relations = isa, relations

    def __enter__(self) -> Isa:
        return register(self.isa, self.relations)

    def __exit__(self, *exc) -> None:
        unregister(self.isa.key)


def related(isa: str, name: str, arch: str | None = None) -> list[dict]:
    """Entries of every registered relation between ``isa`` and another ISA for instruction ``name``: each
    names the other side (``isa``, ``vendor``, ``name``, ``form``, ``this_form``, ``archs``) and the relation."""
    out: list[dict] = []
    for pair, hook in _RELATIONS.items():
        if isa in pair and all(k in _ISAS for k in pair):
            fn = _optional(hook)
            out += fn(isa, name, arch) if fn is not None else []
    return out


def _optional(hook: Hook) -> Callable[..., Any] | None:
    """A hook's callable; None where its module (a feature package left out of this build) is absent."""
    try:
        return load(hook)
    except ModuleNotFoundError as exc:
        module = hook.partition(":")[0] if isinstance(hook, str) else ""
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            return None
        raise


def related_isas(entries: list[dict]) -> list[Isa]:
    """The registered ISAs ``entries`` (a page's Related section) name, in registration order."""
    named = {e.get("isa") for e in entries if isinstance(e, dict)}
    return [i for k, i in _ISAS.items() if k in named]
