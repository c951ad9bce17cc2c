"""The typed plan and named-table records: every committed file loads into them, a damaged file is one
error naming the key, the data folder's cache of the records gives the same records as the JSON."""

from __future__ import annotations

import json

import pytest

from gpuisa import archs
from gpuisa.codec import named as named_mod
from gpuisa.codec import plan_cache
from gpuisa.codec import plans as plans_mod
from gpuisa.errors import UserError

ARCHS = [a.name for a in archs.AMD_ARCHS if (plans_mod.DATA_DIR / f"plans_{a.name}.json").exists()]


def _plan_file(arch: str) -> tuple[str, dict]:
    path = plans_mod.DATA_DIR / f"plans_{arch}.json"
    return path.name, json.loads(path.read_text())


@pytest.mark.parametrize("arch", ARCHS)
def test_every_plan_file_loads_into_records(arch):
    name, doc = _plan_file(arch)
    got = plans_mod.read_plan_file(name, json.dumps(doc).encode())
    assert set(got) == set(doc["plans"])
    for key, raw in doc["plans"].items():
        plan = got[key]
        assert isinstance(plan, plans_mod.Plan)
        assert (plan.word, plan.mnemonic, plan.size) == (raw["w"], raw["m"], raw["size"])
        assert plan.encode_word == raw.get("e", raw["w"])
        assert len(plan.operands) == len(raw["ops"])
        for op, sp in zip(plan.operands, raw["ops"], strict=True):
            assert (op.text, op.kind, op.field, op.count) == (sp.get("t", ""), sp.get("k"), sp.get("f", ""), sp.get("n", 1))
            assert (op.reg_class, op.scale, dict(op.tables)) == (sp.get("c", "v"), sp.get("s", 1), sp.get("table", {}))
        assert set(plan.modifiers) == set(raw.get("mods", {}))
        assert (plan.returning is None) == ("ret" not in raw)


@pytest.mark.parametrize("arch", ARCHS)
def test_every_named_file_loads_into_records(arch):
    path = plans_mod.DATA_DIR / f"named_{arch}.json"
    doc = json.loads(path.read_text())
    named = named_mod.named_from_json(path.name, doc)
    for key, entries in doc.get("counts", {}).items():
        assert [(c.operand, list(c.regs)) for c in named.counts[key]] == [(e["op"], e["n"]) for e in entries]
    for key, form in doc.get("lds_forms", {}).items():
        assert (named.lds_forms[key].field, named.lds_forms[key].drop) == (form["f"], form["drop"])
    for key, z in doc.get("vopd_zero", {}).items():
        assert named.vopd_zero[key].template == z["t"]
    assert dict(named.hwreg) == doc.get("hwreg", {})


def _damaged_plan(change) -> bytes:
    name, doc = _plan_file("rdna3")
    key = "v_add_f32|VOP2"
    change(doc["plans"][key])
    return json.dumps(doc).encode()


@pytest.mark.parametrize("change, words", [
    (lambda p: p.pop("w"), ["v_add_f32|VOP2", "'w'", "missing"]),
    (lambda p: p.update(w="12"), ["v_add_f32|VOP2", "'w'", "int", "str"]),
    (lambda p: p.update(zz=1), ["v_add_f32|VOP2", "unknown key 'zz'"]),
    (lambda p: p["ops"][1].update(n="2"), ["v_add_f32|VOP2 ops[1]", "'n'"]),
    (lambda p: p["ops"][0].update(q=1), ["v_add_f32|VOP2 ops[0]", "unknown key 'q'"]),
])
def test_a_damaged_plan_file_is_one_line_naming_the_key(change, words):
    with pytest.raises(plans_mod.PlanFileError) as err:
        plans_mod.read_plan_file("plans_rdna3.json", _damaged_plan(change))
    msg = str(err.value)
    assert isinstance(err.value, UserError) and "\n" not in msg and msg.startswith("plans_rdna3.json")
    for w in words:
        assert w in msg, msg
    with pytest.raises(plans_mod.PlanFileError, match="not a plan file"):
        plans_mod.read_plan_file("plans_rdna3.json", b"{")


def test_a_damaged_named_file_is_one_line_naming_the_key():
    doc = json.loads((plans_mod.DATA_DIR / "named_rdna3.json").read_text())
    key = next(iter(doc["counts"]))
    doc["counts"][key][0].pop("op")
    with pytest.raises(plans_mod.PlanFileError, match=r"named_rdna3.json counts\..*'op' missing"):
        named_mod.named_from_json("named_rdna3.json", doc)
    with pytest.raises(plans_mod.PlanFileError, match="unknown key 'nonsense'"):
        named_mod.named_from_json("named_rdna3.json", {"nonsense": {}})


def test_the_records_cache_gives_the_json_records(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    name, doc = _plan_file("cdna3")
    data = (plans_mod.DATA_DIR / name).read_bytes()
    assert plan_cache.load(name, data) is None
    from_json = plans_mod.read_plan_file(name, data)
    plan_cache.store(name, data, from_json)
    assert plan_cache.load(name, data) == from_json
    assert plan_cache.load(name, data + b" ") is None  # (another file: not its records)
    cache = next((tmp_path / "cache").glob("typed-plans_cdna3*"))
    cache.write_bytes(cache.read_bytes()[:-10])  # damaged: ignored, made again
    assert plan_cache.load(name, data) is None


def test_plans_are_shared_and_read_only():
    plans = plans_mod.load_plans("rdna3")
    a, b = plans["v_add_f32|VOP2"], plans["v_sub_f32|VOP2"]
    assert a.operands[0] is b.operands[0]  # equal operands are one object
    with pytest.raises(AttributeError):
        a.operands[0].count = 2  # type: ignore[misc]
    bare = next(p for p in plans.values() if not p.modifiers)
    with pytest.raises(TypeError):
        bare.modifiers["x"] = None  # type: ignore[index]  (the shared empty table)
