"""The committed forms index (data/ptx/forms.marshal) holds what the family files say, corrected as the
validator corrects them on loading; it is used only when made from the family files present, and the
first `ptx check --file` in an empty data folder neither parses the family files nor writes a cache."""

from __future__ import annotations

import copy
import marshal
import os
import subprocess
import sys

from gpuisa.ptx import catalog, forms_index
from gpuisa.ptx.corrections import correct_forms


def test_index_is_up_to_date_and_holds_every_heads_forms():
    loaded = forms_index.load(full=True)
    assert loaded is not None, "stale: run python -m gpuisa.regen --steps ptxforms"
    ignored, blobs = loaded
    truth = catalog.forms_by_head()
    assert sorted(blobs) == sorted(truth)
    for head, forms in truth.items():
        exact, names, required, form_blobs = marshal.loads(blobs[head])
        fixed = correct_forms(copy.deepcopy(forms))
        assert list(zip(names, map(marshal.loads, form_blobs))) == fixed, head
        assert exact == any("values" in op for _, f in fixed for op in f["operands"]), head
        for (_, form), req in zip(fixed, required):  # every opcode the form takes has its required tokens
            lits = [e["lit"] for e in form["opcode"] if "lit" in e]
            assert set(req) == {t for lit in lits for t in lit.replace(".", " .").split()}, head
    assert ignored == catalog._read_ignored_tokens()
    # made again by the regen step (its own process): the same bytes
    out = subprocess.run([sys.executable, "-m", "gpuisa.regen.ptxforms", "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_index_of_other_sources_is_not_used(monkeypatch):
    key = forms_index.source_key()
    monkeypatch.setattr(catalog, "source_key", lambda: (key[0], key[1] + (("new.json", 1),), key[2]))
    assert forms_index.load(full=True) is None  # (other family files: found by the test above, not by a check)
    assert forms_index.load() is not None
    monkeypatch.setattr(catalog, "corrections_text", lambda: key[2] + "\n# an edited correction")
    assert forms_index.load() is None  # (other form corrections: every check sees it)
    monkeypatch.setattr(catalog, "INDEX_PATH", forms_index.INDEX_PATH + ".missing")
    assert forms_index.load() is None


def test_damaged_index_is_not_used(tmp_path, monkeypatch):
    good = open(forms_index.INDEX_PATH, "rb").read()
    for bad in (good[:-10], good[len(forms_index.GENERATED_BY):], good[:len(forms_index.GENERATED_BY) + 9]):
        path = tmp_path / "forms.marshal"
        path.write_bytes(bad)
        monkeypatch.setattr(catalog, "INDEX_PATH", str(path))
        assert forms_index.load() is None


def test_a_check_loads_only_the_forms_its_opcodes_can_take(tmp_path):
    code = """if 1:
        from gpuisa.ptx import catalog
        head = catalog.head_forms("ld")
        assert len(head) > 3 and all(f is None for f in head.forms)
        taken = [name for name, _ in head.taking({"ld", ".global", ".nc", ".u32"})]
        assert "ld.global.nc" in taken and len(taken) < len(head), taken
        assert sum(f is not None for f in head.forms) == len(taken)
        forms = catalog.forms_for_head("ld")  # all loaded, the same objects
        assert [id(f) for _, f in forms] == [id(f) for f in head.forms] and None not in head.forms
        assert catalog.families.cache_info().currsize == 0
        print("ok")
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "GPUISA_HOME": str(tmp_path / "home")})
    assert out.stdout.strip() == "ok", out.stdout + out.stderr


def test_first_check_in_an_empty_data_folder_uses_the_index(tmp_path):
    home = tmp_path / "home"
    src = tmp_path / "k.ptx"
    src.write_text(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                   ".reg .b32 %r<4>;\nadd.s32 %r1, %r2, %r3;\nadd.s33 %r1, %r2, %r3;\nret;\n}\n")
    code = ("import sys;from gpuisa.ptx.__main__ import main;from gpuisa.ptx import catalog;"
            "code=main(['check','--file',sys.argv[1]]);"
            "print(catalog.families.cache_info().currsize, code)")
    out = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True, text=True,
                         env={**os.environ, "GPUISA_HOME": str(home)})
    assert "k.ptx:8:" in out.stdout and "3 instructions, 1 invalid" in out.stdout
    assert out.stdout.strip().endswith("0 1"), out.stdout + out.stderr  # (family files never parsed)
    assert not home.exists()
