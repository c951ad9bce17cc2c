"""The typed instruction page: what ``gpuisa show`` prints, the web site draws and ``show --json`` writes.

One dataclass per section.  A page is built in one place per ISA (``page.amd``, ``page.ptx``); renderers
read these classes (or their JSON, ``to_json``) and never where a fact came from.  JSON keys are the field
names.  A field declared with ``optional()`` is left out of the JSON when it is None (a section the page
does not have); every other field is always written, None as null.  ``page.schema`` turns these classes
into the JSON schema of ``show --json`` (``schema/instruction-page.schema.json``).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field, fields
from typing import Any, Literal

OMIT = {"omit_none": True}


def optional() -> Any:
    """A field left out of the JSON when None (the page has no such section or detail)."""
    return field(default=None, metadata=OMIT)


IsaKind = Literal["native", "virtual"]


def isa_kind(value: str) -> IsaKind:
    """An architecture's kind as the model's type: native (machine code) or virtual (PTX)."""
    if value not in ("native", "virtual"):
        raise ValueError(f"isa_kind {value!r} is neither native nor virtual")
    return typing.cast(IsaKind, value)


@dataclass
class Source:
    """Where facts came from: a tool run, a document, the project itself."""
    source: str
    version: str | None = optional()
    note: str | None = optional()
    inferred: bool | None = optional()


@dataclass
class BitField:
    """One field of an encoding: most significant bit, least, width; every range when split; fixed value."""
    name: str
    hi: int
    lo: int
    width: int
    ranges: list[list[int]] | None = optional()
    value: int | None = optional()
    bits: str | None = optional()


@dataclass
class Operand:
    name: str
    role: str
    kind: str | None
    format: str | None
    size: int | None
    implicit: bool
    note: str
    inferred: bool


@dataclass
class Encoding:
    """One encoding of a native instruction: layout (``fields``), opcode, LLVM syntax, operands."""
    name: str
    width: int | None
    opcode: int | None
    identifier: str | None
    condition: str
    fields: list[BitField]
    syntax: str
    operands: list[Operand]


@dataclass
class Generation:
    """The instruction in another generation of the same ISA (None in ``generations`` when absent)."""
    encoding: str
    opcode: int | None
    layout_same: bool


@dataclass
class Disagreement:
    """A fact two sources state differently (an imported XML and the committed default); both kept."""
    what: str
    encoding: str
    xml: Any
    default: Any
    operand: str | None = optional()
    field: str | None = optional()
    default_source: str | None = optional()


@dataclass
class ValueRequirement:
    """What one value of a form's placeholder needs beyond the form: targets, ISA version."""
    targets: list[str] | None = optional()
    ptx_version: str | None = optional()


@dataclass
class FormOperand:
    name: str
    role: str
    kind: str
    type: str | None
    optional: bool


@dataclass
class Form:
    """One syntax form of a virtual-ISA instruction (PTX): its values, targets and ISA version."""
    syntax: str
    value_sets: dict[str, list[str]]
    operands: list[FormOperand]
    state_spaces: list[str]
    modifiers: list[str]
    ptx_version: str
    min_target: str
    targets: list[str]
    verified_by_ptxas: bool
    examples: list[str]
    value_requirements: dict[str, ValueRequirement] | None = optional()


@dataclass
class SemanticsGeneration:
    same: bool | None
    diff: str | None


@dataclass
class Semantics:
    """What the instruction computes: the source's pseudocode (loaded at run time) or the project's own
    description, how faithfully the evaluator runs it; with pseudocode (AMD): how other generations' text
    compares, the generation it is carried from and what is known to differ (``notes``)."""
    source: str
    fidelity: Literal["exact", "approximate", "untested", "unsupported"]
    reason: str
    pseudocode: str | None
    description: str | None
    generations: dict[str, SemanticsGeneration] | None = optional()
    inferred_from: str | None = optional()
    notes: list[str] | None = optional()


@dataclass
class Example:
    """An example line with its bytes and the oracle's verdict."""
    text: str
    bytes: str
    target: str
    verified_by: str
    encoding: str | None = optional()
    mode: str | None = optional()


@dataclass
class Sequence:
    side: str
    steps: list[str]


@dataclass
class Counterexample:
    inputs: dict[str, str] | None = optional()
    amd: dict[str, str] | None = optional()
    ptx: dict[str, str] | None = optional()
    arch: str | None = optional()
    outside: str | None = optional()
    against: str | None = optional()
    how: str | None = optional()


@dataclass
class Checked:
    """The prover's figures for a relation: random vectors run and agreed, on which architectures."""
    vectors: int
    agreed: int
    archs: list[str]
    counterexample: Counterexample | None


@dataclass
class Relation:
    """An instruction of another ISA related to this one (``name`` None: no single counterpart): ``isa``,
    ``vendor``, ``name``, ``form`` and ``archs`` name the other side, ``this_form`` the page's own form."""
    vendor: str
    isa: str
    name: str | None
    form: str | None
    relation: str
    restriction: str | None
    domain: dict[str, str] | None
    error_bound: str | None
    sequence: Sequence | None
    note: str | None
    checked: Checked | None
    this_form: str | None
    archs: list[str]


@dataclass
class TimingEntry:
    encoding: str
    latency: int
    rthroughput: float
    uops: int
    resources: dict[str, float]


@dataclass
class TimingMissing:
    encoding: str
    reason: str


@dataclass
class Timing:
    """A scheduling model's figures (not a measurement), per encoding; the first encoding's at the top."""
    source: str
    model: str
    llvm_version: str
    target: str
    generated_by: str
    note: str
    latency: int | None
    rthroughput: float | None
    uops: int | None
    encodings: list[TimingEntry]
    encoding: str | None = optional()
    missing: list[TimingMissing] | None = optional()


@dataclass
class InstructionPage:
    """One instruction of one architecture.

    Every page: identity (name, ISA, architecture), summary, encodings (empty for a virtual ISA),
    operands, targets, generations of the same ISA, sources.  Sections a page may have: aliases and
    disagreements (imported documents), the virtual ISA's forms, semantics, examples, related
    instructions of other ISAs, timing.
    """
    name: str
    vendor: str
    isa: str
    isa_kind: IsaKind
    arch: str
    arch_title: str
    category: str
    subgroup: str | None
    summary: str
    description: str | None
    description_source: str | None
    encodings: list[Encoding]
    operands: list[Operand]
    targets: list[str]
    flags: dict[str, bool]
    generations: dict[str, Generation | None]
    generation_summary: str
    sources: list[Source]
    aliases: list[str] | None = optional()
    disagreements: list[Disagreement] | None = optional()
    isa_note: str | None = optional()
    family: str | None = optional()
    forms: list[Form] | None = optional()
    ptx_version: str | None = optional()
    min_target: str | None = optional()
    semantics: Semantics | None = optional()
    examples: list[Example] | None = optional()
    related: list[Relation] | None = optional()
    timing: Timing | None = optional()

    def to_json(self) -> dict:
        from .codec import to_json

        return to_json(self)


# The sections a renderer draws after the common part, in page order (a page has each or not).
SECTIONS = ("forms", "semantics", "examples", "related", "timing")
# The keys every page has or may have before its sections (identity, encodings, operands, sources...).
COMMON = tuple(f.name for f in fields(InstructionPage) if f.name not in SECTIONS)
