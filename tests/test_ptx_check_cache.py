"""The validator's caches (per statement, per operand shape, per opcode, the forms cache on disk) never
change a verdict: expectations from the PTX grammar and ISA versions, not from earlier output."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from gpuisa.ptx.check import check_instruction
from gpuisa.ptx.frontend import check_file


def test_same_shape_other_registers_and_errors_keep_their_own_text():
    # two accepted instructions of one shape (opcode and operand kinds/selectors), other registers
    assert check_instruction("vadd.u32.u32.u32 r1, r2.b0, r3;")["valid"]
    assert check_instruction("vadd.u32.u32.u32 %r7, %q.b0, x9;")["valid"]
    # a rejected one of a near shape names its own bad part (not a cached text)
    r = check_instruction("vadd.u32.u32.u32 r1, [r2], r3;")
    assert not r["valid"] and "operand a" in r["error"] and "`[r2]`" in r["error"]
    r = check_instruction("vadd.u32.u32.u32 r1, [r5], r3;")
    assert not r["valid"] and "operand a" in r["error"] and "`[r5]`" in r["error"] and "[r2]" not in r["error"]


def test_selector_validity_is_per_value_not_per_shape():
    # .b3 is a byte selector, .b4 is not (vadd's .asel = { .b0, .b1, .b2, .b3, .h0, .h1 })
    assert check_instruction("vadd.s32.u32.u32 r1, r2.b3, r3;")["valid"]
    r = check_instruction("vadd.s32.u32.u32 r1, r2.b4, r3;")
    assert not r["valid"] and r["error"].startswith("vadd: `.b4` is not a valid .asel for operand a")


def test_immediates_are_part_of_the_shape():
    # shl's shift amount is a .u32 register or immediate; the instruction text differs only there
    assert check_instruction("shl.b32 r1, r2, 3;")["valid"]
    assert check_instruction("shl.b32 r1, r2, r3;")["valid"]
    assert check_instruction("shl.b32 r1, r2, 3;") == check_instruction("shl.b32 r1, r2, 3;")


def test_repeated_lines_follow_the_version_directive():
    # dp4a came with PTX ISA 5.0: the same line is valid before any .version and not under .version 4.3
    line = "dp4a.u32.u32 r1, r2, r3, r4;"
    res = check_file("\n".join([line, line, ".version 4.3", line, line]))
    assert [r["valid"] for r in res] == [True, True, False, False]
    assert [r["line"] for r in res] == [1, 2, 4, 5]
    assert "needs PTX ISA .version 5.0 or later (got 4.3)" in res[2]["error"]


def _forms_in_subprocess(home: str, heads: list[str]) -> dict:
    code = ("import json,sys;from gpuisa.ptx import catalog;"
            f"print(json.dumps({{h: catalog.forms_for_head(h) for h in {heads!r}}}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "GPUISA_HOME": home, "GPUISA_PTX_FORMS_INDEX": "off"})
    return json.loads(out.stdout)


def test_forms_cache_matches_the_family_files_and_is_rebuilt_when_they_change(tmp_path):
    from gpuisa.ptx import catalog

    heads = ["vadd", "ld", "tcgen05", "mma"]
    import copy

    from gpuisa.ptx.corrections import correct_forms

    # parsed from the json files, with the measured corrections the validator applies on loading
    truth = {h: [[n, f] for n, f in correct_forms(copy.deepcopy(catalog.forms_by_head()[h]))] for h in heads}
    cold = _forms_in_subprocess(str(tmp_path), heads)  # writes the cache
    cache = tmp_path / "cache" / "ptx-forms.marshal"
    assert cache.is_file()
    warm = _forms_in_subprocess(str(tmp_path), heads)  # reads it
    assert cold == truth and warm == truth
    # a cache written for other family files is not used: rewrite it with a stale key
    import marshal

    from gpuisa.cachefile import seal, unseal

    key, (ignored, blobs) = marshal.loads(unseal(cache.read_bytes()))  # (cachefile.write_stamped's layout)
    blobs["vadd"] = marshal.dumps([])
    cache.write_bytes(seal(marshal.dumps((key[:3] + ((("stale.json", 1, 1),),), (ignored, blobs)))))
    assert _forms_in_subprocess(str(tmp_path), heads) == truth
    # nor a damaged one (a byte changed, the file cut short), nor one of another format (a bare marshal
    # dump, as older versions wrote): each is made again from the family files
    good = cache.read_bytes()
    for bad in (good[:-100] + bytes([good[-100] ^ 1]) + good[-99:], good[: len(good) // 2],
                marshal.dumps((key, (ignored, {"vadd": marshal.dumps([])})))):
        cache.write_bytes(bad)
        assert _forms_in_subprocess(str(tmp_path), heads) == truth
        assert unseal(cache.read_bytes()) is not None  # (rewritten whole)


def test_forms_cache_lives_in_the_data_folder(tmp_path):
    """One cache root: the data folder's ``cache`` (``store.home_dir()``), whatever XDG_CACHE_HOME says."""
    env = {**os.environ, "GPUISA_HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "xdg"),
           "GPUISA_PTX_FORMS_INDEX": "off"}  # (the data folder's cache: used when the committed index is stale)
    code = "from gpuisa.ptx import catalog; catalog.forms_for_head('vadd'); print(catalog.forms_cache_path())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == str(tmp_path / "home" / "cache" / "ptx-forms.marshal")
    assert (tmp_path / "home" / "cache" / "ptx-forms.marshal").is_file() and not (tmp_path / "xdg").exists()
    env.pop("GPUISA_HOME")
    code = "from gpuisa.ptx import catalog; from gpuisa.store import home_dir; print(catalog.forms_cache_path(), home_dir())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    path, home = out.split()
    assert path == os.path.join(home, "cache", "ptx-forms.marshal")  # (without GPUISA_HOME: the platform's)


def test_negative_literals_agree_with_ptxas():
    """`-1` is a number wherever an immediate may stand; `-r2` negates a register (only where allowed)."""
    from conftest import need

    from gpuisa.ptx import ptxas

    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed")
    texts = ["add.s32 r1, r2, -1;", "add.s32 r1, r2, - 1;", "mov.b32 r1, -1;", "add.s32 r1, r2, -0x10;",
             "fns.b32 r1, r2, 31, -3;", "add.f32 f1, f2, -1.5;", "mov.u32 r1, -r2;", "add.f32 f1, f2, -0f3F800000;"]
    theirs = ptxas.verdicts(tool, texts, "sm_90", "8.0", None)
    for text, errs in zip(texts, theirs):
        assert check_instruction(text, "sm_90", "8.0")["valid"] == (not errs), (text, errs)


def test_vmad_negation_rule_agrees_with_ptxas():
    from conftest import need

    from gpuisa.ptx import ptxas

    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed")
    texts = ["vmad.s32.s32.s32 r1, -r2, -r3, r4;", "vmad.s32.s32.s32 r1, -r2, r3, -r4;",
             "vmad.s32.s32.s32 r1, r2, -r3, -r4;", "vmad.s32.s32.s32 r1, -r2, -r3, -r4;",
             "vmad.s32.s32.s32 r1, r2, r3, -r4;", "vmad.u32.u32.u32 r1, -r2.b0, r3, r4;"]
    theirs = ptxas.verdicts(tool, texts, "sm_90", "8.0", None)
    assert [not e for e in theirs] == [True, False, False, True, True, True]  # the facts this rule encodes
    for text, errs in zip(texts, theirs):
        assert check_instruction(text, "sm_90", "8.0")["valid"] == (not errs), (text, errs)
