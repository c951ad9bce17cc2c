"""``gpuisa decode`` on compiler output, the first run in an empty data folder (from the committed base tables,
``codec/accel_base.py``): llc-22 objects of our own IR (``benchmarks/real_ir.py``) are written as llvm-objdump-22
writes them, and code of the kinds the base now covers beyond the batch tables' own words (named-field
immediates at their common values: ``s_waitcnt``, ``s_delay_alu``, ``s_wait_alu``; 16-bit immediates printed as
numbers: branches, ``s_nop``, ``s_wait_*cnt``; global/scratch memory with SADDR ``off`` or a low SGPR pair; the
constants of the forms that always read one, ``v_fmamk_f32``; a literal source of a one-dword form, written by the
C loop: ``v_xor_b32_e32 v1, 0x3ff, v2``; GFX10+ ``s_load`` at kernel-argument offsets with SOFFSET ``null``; NEG and
one-bit memory modifiers, OP_SEL_HI: ``v_fma_f32 v6, -v4, v3, v2``, ``buffer_inv sc0 sc1``, ``v_pk_mul_f16 v1, v2, s3``)
needs neither numpy, the batch decoder, the scalar decoder nor the store (``regen/accel.py``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import IN_CI, ROOT

from gpuisa import archs
from gpuisa.codec import accel

sys.path.insert(0, str(ROOT / "benchmarks"))
import real_ir  # noqa: E402

needs_accel = pytest.mark.skipif(accel.extension() is None and not IN_CI,
                                 reason="the C extension is not built (python setup.py build_ext --inplace)")
_HEAVY = {"numpy", "gpuisa.codec.batch_arch", "gpuisa.codec.decoder", "gpuisa.store", "sqlite3"}


def _tool(name: str) -> str:
    path = shutil.which(f"{name}-22")
    if path is None and not IN_CI:
        pytest.skip(f"{name}-22 not installed")
    assert path is not None, f"{name}-22 not installed"
    return path


def _first_run(arch: str, obj, home) -> tuple[str, set]:
    """``gpuisa decode --arch ARCH --file OBJ`` in the empty data folder ``home``: the listing and which heavy
    modules the process imported."""
    env = dict(os.environ, GPUISA_HOME=str(home), GPUISA_NO_ACCEL="0")
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "gpuisa.cli", "decode", "--arch", arch, "--file",
                        str(obj)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-500:]
    mods = {ln.rsplit("|", 1)[1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")}
    return r.stdout, mods & _HEAVY


def _objdump(target: str, obj) -> str:
    return subprocess.run([_tool("llvm-objdump"), "-d", f"--mcpu={target}", str(obj)], capture_output=True, text=True,
                          check=True).stdout


@needs_accel
@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna3", "cdna2"])
def test_first_run_on_an_llc_object_writes_objdumps_bytes(tmp_path, arch):
    target = archs.resolve_arch(arch).llvm_target
    ir = tmp_path / "k.ll"
    ir.write_text(real_ir.module(target, steps=40))
    obj = tmp_path / "k.o"
    subprocess.run([_tool("llc"), "-march=amdgcn", f"-mcpu={target}", "-filetype=obj", str(ir), "-o", str(obj)],
                   check=True, capture_output=True)
    theirs = _objdump(target, obj)
    assert theirs.count("// ") > 300
    ours, _ = _first_run(arch, obj, tmp_path / "home")
    assert ours == theirs


# (our own lines: the kinds of words the base covers beyond the batch tables' words, as compilers write them)
_COMMON = {
    "rdna3": ["s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(0)", "s_waitcnt vmcnt(5)", "s_waitcnt vmcnt(0) lgkmcnt(0)",
              "s_waitcnt expcnt(0) lgkmcnt(3)", "s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_2)",
              "s_delay_alu instid0(TRANS32_DEP_1)", "global_load_b32 v2, v[2:3], off", "global_load_b32 v1, v0, s[2:3]",
              "global_store_b32 v[4:5], v7, off", "global_load_b128 v[4:7], v0, s[6:7]", "s_nop 0", "s_nop 7",
              "s_cbranch_scc1 k", "s_cbranch_execz k", "s_branch k", "s_setprio 2", "v_fmamk_f32 v1, v2, 0x3fa00000, v3",
              "v_fmaak_f32 v4, v5, v6, 0xc2c80000", "v_xor_b32_e32 v1, 0x3ff, v2", "v_add_nc_u32_e32 v3, 0x1234, v4",
              "s_mov_b32 s0, 0x4f800000", "v_cmp_gt_f32_e32 vcc_lo, 0xf800000, v3", "v_add3_u32 v3, v3, v2, 0x7fff",
              "v_cmp_class_f32_e64 vcc_lo, v2, 0x260", "v_and_b32_e64 v5, s3, 0xffff0",
              "s_load_b128 s[8:11], s[4:5], 0x24", "s_load_b32 s4, s[0:1], null", "s_load_b64 s[0:1], s[4:5], 0x3c",
              "s_load_b32 s4, s[0:1], s5 offset:0x24", "s_load_b32 s4, s[0:1], s7", "v_fma_f32 v6, -v4, v3, v2",
              "v_fma_f32 v6, v4, -v3, -v2", "v_pk_mul_f16 v1, v2, s3", "v_pk_fma_f16 v1, v2, v3, v4 op_sel_hi:[0,1,1]",
              "s_endpgm"],
    "rdna4": ["s_wait_kmcnt 0x0", "s_wait_loadcnt 0x3", "s_wait_alu depctr_va_vcc(0)", "s_wait_alu depctr_sa_sdst(0)",
              "s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_1)", "global_load_b32 v2, v[2:3], off",
              "global_load_b32 v1, v0, s[2:3]", "global_store_b32 v[4:5], v7, off", "s_nop 3", "s_cbranch_vccnz k",
              "v_xor_b32_e32 v1, 0x3ff, v2", "v_add3_u32 v3, v3, v2, 0x7fff", "s_load_b128 s[8:11], s[4:5], 0x24",
              "s_load_b32 s5, s[0:1], 0x0", "s_load_b96 s[4:6], s[4:5], 0x34", "v_fma_f32 v6, -v4, v3, v2",
              "s_branch k", "s_endpgm"],
    "cdna3": ["s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(0)", "s_waitcnt vmcnt(9)", "s_waitcnt vmcnt(0) lgkmcnt(0)",
              "global_load_dword v6, v[2:3], off", "global_load_dword v0, v2, s[2:3]", "global_store_dword v[0:1], v2, off",
              "s_nop 1", "s_cbranch_execz k", "s_cbranch_scc0 k", "s_branch k", "v_fmamk_f32 v1, v2, 0x3fa00000, v3",
              "v_xor_b32_e32 v1, 0x3ff, v2",
              "v_add_u32_e32 v3, 0x1234, v4", "s_mov_b32 s1, 0xf800000", "v_lshl_add_u64 v[2:3], s[10:11], 0, v[0:1]",
              "v_lshl_add_u64 v[12:13], v[6:7], 3, v[40:41]", "v_lshlrev_b64 v[4:5], 2, v[10:11]",
              "v_fma_f32 v7, -v5, v3, v2", "buffer_inv sc0 sc1", "buffer_wbl2 sc0 sc1", "v_accvgpr_write_b32 a0, s4",
              "v_pk_fma_f16 v1, v1, s2, v1", "s_endpgm"],
}


@needs_accel
@pytest.mark.parametrize("arch", sorted(_COMMON))
def test_common_compiler_words_need_no_scalar_decoder(tmp_path, arch):
    target = archs.resolve_arch(arch).llvm_target
    src = tmp_path / "k.s"
    src.write_text(".text\n.globl k\n.type k,@function\nk:\n" + "".join(f"  {ln}\n" for ln in _COMMON[arch]))
    obj = tmp_path / "k.o"
    subprocess.run([_tool("llvm-mc"), "-arch=amdgcn", f"-mcpu={target}", "-filetype=obj", str(src), "-o", str(obj)],
                   check=True, capture_output=True)
    ours, heavy = _first_run(arch, obj, tmp_path / "home")
    assert ours == _objdump(target, obj)
    assert not heavy, heavy
    cache = tmp_path / "home" / "cache"
    assert not (cache.is_dir() and [p for p in os.listdir(cache) if p.startswith("decode-")])  # (nothing learned)


@needs_accel
def test_cdna_odd_start_of_an_aligned_pair_is_llvm_objdumps(tmp_path):
    """CDNA3's 64-bit VGPR operands are cut from the template key (even starts); an odd start (a note in LLVM's text)
    goes to the scalar path: each word as llvm-objdump-22 prints it, even among even ones of the same shape."""
    words = [0xD2080002, 0x0401000A, 0xD2080003, 0x0401000A, 0xD2080002, 0x0404000A, 0xD2080004, 0x0408000A,
             0xBF810000]  # (v_lshl_add_u64: v[2:3]; odd destination v3; odd source v1; v[4:5] ... v[2:3]; s_endpgm)
    src = tmp_path / "k.s"
    src.write_text(".text\n.globl k\n.type k,@function\nk:\n" + "".join(f"  .long {w:#x}\n" for w in words))
    obj = tmp_path / "k.o"
    subprocess.run([_tool("llvm-mc"), "-arch=amdgcn", "-mcpu=gfx942", "-filetype=obj", str(src), "-o", str(obj)],
                   check=True, capture_output=True)
    ours, _ = _first_run("cdna3", obj, tmp_path / "home")
    theirs = _objdump("gfx942", obj)
    assert ours == theirs and "Invalid register" in theirs and "v[4:5]" in theirs
