"""Print plans: how an (instruction, encoding)'s fields become LLVM syntax, loaded for the decoder and encoder.

For each operand position a plan names the field that selects its register or value and how (kind, register
count, scale), token templates that modifier fields apply (``-{}``, ``|{}|``), modifier words per field value,
field values LLVM rejects, and whether a literal dword always follows.  The files are compact JSON, built from
llvm-mc-22 at generation time (``python -m gpuisa.regen.plans``, ``regen/plans.py``); ``load_plans`` reads one
architecture's file once into the typed records of ``plan_types.py`` (``Plan``, ``OperandPlan``,
``ModifierPlan``, ``ReturnPlan``), checking its shape: a damaged file is one ``PlanFileError`` naming the plan
and the key.  The records are kept in the data folder's cache (``plan_cache.py``), quicker to read than the JSON.
"""

from __future__ import annotations

import functools
from pathlib import Path

from . import plan_cache
from .plan_types import (
    EMPTY_TABLE,
    JsonRecord,
    ModifierPlan,
    OperandPlan,
    Plan,
    PlanFileError,
    ReturnPlan,
    check_keys,
    plan_from_json,
    read_plan_file,
    read_record,
)

__all__ = ["DATA_DIR", "DONOR", "EMPTY_TABLE", "JsonRecord", "ModifierPlan", "OperandPlan", "Plan", "PlanFileError",
           "ReturnPlan", "check_keys", "load_plans", "plan_from_json", "read_plan_file", "read_record"]

DATA_DIR = Path(__file__).parent / "data"


def _read_plans(path: Path) -> dict[str, Plan | None]:
    """A plan file's records: from the data folder's cache of them (``plan_cache.py``) where it holds this
    file's, else read from the JSON and cached."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise PlanFileError(f"{path.name}: not readable ({e.strerror})") from None
    plans = plan_cache.load(path.name, data)
    if plans is None:
        plans = read_plan_file(path.name, data)
        plan_cache.store(path.name, data, plans)
    return plans


@functools.lru_cache(maxsize=None)
def load_plans(arch_name: str, wave64: bool = False, syntax16: str | None = None) -> dict[str, Plan]:
    """The plans of an architecture, by ``"name|ENCODING"``; with ``wave64`` on an architecture that runs both
    wave sizes, the wave32 plans overlaid with those that print differently in wave64
    (``plans_<arch>_wave64.json``: carry and condition masks as SGPR pairs, ``vcc``), less the forms LLVM
    rejects in wave64 (VOPD).  ``syntax16`` (true16 or fake16: the 16-bit register syntax LLVM 22 does not
    default to, ``archs.syntax16_mode``) overlays ``plans_<arch>_<syntax16>.json`` on those (in wave64
    ``plans_<arch>_<syntax16>_wave64.json``, made against the wave64 plans)."""
    if syntax16 is not None:
        plans = dict(load_plans(arch_name, wave64))
        extra = DATA_DIR / f"plans_{arch_name}_{syntax16}{'_wave64' if wave64 else ''}.json"
        for key, plan in (_read_plans(extra) if extra.exists() else {}).items():
            if plan is None:
                plans.pop(key, None)
            else:
                plans[key] = plan
        return plans
    path = DATA_DIR / f"plans_{arch_name}.json"
    if not path.exists():
        donor = DONOR.get(arch_name)
        return load_plans(donor, wave64) if donor else {}
    if wave64 and (DATA_DIR / f"plans_{arch_name}_wave64.json").exists():
        plans = dict(load_plans(arch_name))
        for key, plan in _read_plans(DATA_DIR / f"plans_{arch_name}_wave64.json").items():
            if plan is None:
                plans.pop(key, None)
            else:
                plans[key] = plan
        return plans
    return {key: p for key, p in _read_plans(path).items() if p is not None}


# Architectures without an LLVM target of their own would use the plans of their predecessor (none now).
DONOR: dict[str, str] = {}
