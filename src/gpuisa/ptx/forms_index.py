"""The committed per-head forms index: what ``gpuisa ptx check`` loads, without a cache to build first.

    made by: python -m gpuisa.regen --steps ptxforms      (gpuisa.regen.ptxforms [--check])

``data/ptx/forms.marshal`` holds, for every opcode head ('ld', 'vadd', 'cp'), the head's
(instruction name, form) list as the validator uses it (the family files' forms with
``corrections.correct_forms`` applied), each head marshalled on its own so that a check unpacks
only the heads its file uses, and within a head each form marshalled on its own (``head_entry``),
next to the form's required opcode tokens, so that a check unpacks only the forms whose opcode
literals its instructions have (``catalog.HeadForms``); and the measured ignored-token sequences.  It is made from the
family files (``data/ptx/*.json``), ``measured/ptxas.json`` and ``corrections.py``, and names
them (``source_key``: the files with their sizes, and the text of the form corrections).  A process
whose form corrections differ (corrections.py edited before this step is run again) does not use it
and falls back to the data folder's forms cache (``catalog._forms_cache``), which is made from the
family files themselves; the family files' names and sizes are not looked at by every check (a
stat of each of ~180 files: ~2 M instructions, ~2% of a 2,500-instruction kernel's check) but by
``load(full=True)``, the test ``tests/test_ptx_forms_index.py`` (which compares the whole content
with the family files) and ``regen --check`` in CI: edit a family file, run this step.

Why a committed file: the first ``ptx check --file`` after installing (an empty data folder, as in
a fresh CI container) would otherwise parse every family file (~0.15 s, more than ptxas takes on a
small kernel).  marshal (plain containers only: str, int, bool, None, list, dict, bytes) is read
from the package's own folder, never from a user-writable path.  Within a head, equal strings are
one object (``regen/ptxforms.py``), which marshal writes once and refers to: what it writes then depends on
the content (and the Python version's marshal), not on how the objects were made.
The first line is text: the command that made the file.
"""

from __future__ import annotations

# (what every check reads of the index, and what it is made and keyed by, is in catalog: one module fewer
# to import, ~0.7 M instructions of a check's start-up; here: the regen step's head entries)
from .catalog import (  # noqa: F401
    CORRECTIONS_PATH,
    DATA_PATH,
    INDEX_PATH,
    exact_immediates,
    required_tokens,
    source_key,
)
from .catalog import INDEX_FORMAT as FORMAT  # noqa: F401
from .catalog import INDEX_GENERATED_BY as GENERATED_BY  # noqa: F401
from .catalog import corrections_text as _corrections_text  # noqa: F401
from .catalog import load_index as load  # noqa: F401

MARSHAL_VERSION = 4


def head_entry(forms: list, blobs: list) -> tuple:
    """A head's entry in the index: (whether some form takes only listed immediates, the instruction
    names, each form's required opcode tokens, each form's marshalled bytes (``blobs``))."""
    return (exact_immediates(forms), tuple(n for n, _ in forms), tuple(required_tokens(f) for _, f in forms),
            tuple(blobs))
