"""Print plans: how an (instruction, encoding)'s fields become LLVM syntax, loaded for the decoder and encoder.

For each operand position a plan names the field that selects its register or value and how (kind, register
count, scale), token templates that modifier fields apply (``-{}``, ``|{}|``), modifier words per field value,
field values LLVM rejects, and whether a literal dword always follows.  Plans are plain JSON, built from
llvm-mc-22 at generation time (``python -m gpuisa.regen.plans``, ``regen/plans.py``).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"


@functools.lru_cache(maxsize=None)
def load_plans(arch_name: str, wave64: bool = False) -> dict[str, dict]:
    """The plans of an architecture; with ``wave64`` on an architecture that runs both wave sizes, the
    wave32 plans overlaid with those that print differently in wave64 (``plans_<arch>_wave64.json``: carry
    and condition masks as SGPR pairs, ``vcc``), less the forms LLVM rejects in wave64 (VOPD)."""
    path = DATA_DIR / f"plans_{arch_name}.json"
    if not path.exists():
        donor = DONOR.get(arch_name)
        return load_plans(donor, wave64) if donor else {}
    plans = json.loads(path.read_text())["plans"]
    w64 = DATA_DIR / f"plans_{arch_name}_wave64.json"
    if wave64 and w64.exists():
        plans = dict(plans)
        for key, plan in json.loads(w64.read_text())["plans"].items():
            if plan is None:
                plans.pop(key, None)
            else:
                plans[key] = plan
    return plans


# Architectures without an LLVM target of their own would use the plans of their predecessor (none now).
DONOR: dict[str, str] = {}
