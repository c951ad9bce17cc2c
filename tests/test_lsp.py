"""`gpuisa lsp` end to end: a real LSP client (pytest-lsp) over stdio on files real compilers emit.

AMD: `llc-22 -march=amdgcn -mcpu=gfx1100` on small LLVM IR written here; the inlay-hint bytes are
compared with `llvm-mc-22 -show-encoding` of the same file.  PTX: `nvcc -ptx` (or `llc-22
-march=nvptx64` where nvcc is absent).  Skipped without the tools, failed when CI=true.
Facts asserted are structural or hand-checked (v_msad_u8 is VOP3 opcode 569 on RDNA4: llvm-mc
bytes .. 39 d6), never exact operand syntax, which follows the regenerated AMD facts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from conftest import ROOT, need
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

# Encoder gaps seen on llc-22's gfx1100 output (codec issues): a diagnostic or byte mismatch on these is
# tolerated here, anything else fails.
KNOWN_GAPS = {
    "s_delay_alu": "instid0(...) | instskip(...) | instid1(...) joined with '|'",
    "s_waitcnt": "counter operands lgkmcnt()/vmcnt(): vmcnt(0) encodes as 0 (llvm-mc: 0x03f7 on gfx1100)",
    "global_load_b32": "64-bit VGPR address with 'off'", "global_store_b32": "64-bit VGPR address with 'off'",
    "s_waitcnt_depctr": "depctr_va_vdst(0) and the other depctr_* fields",
    "s_wait_alu": "depctr_va_sdst(0) and the other depctr_* fields", "s_barrier_wait": "-1",
    "global_wb": "scope:SCOPE_SYS", "global_inv": "scope:SCOPE_SYS", "buffer_wbl2": "sc0 sc1", "buffer_inv": "sc0 sc1",
}

LOOP_IR = """target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @scale(ptr addrspace(1) %p, i32 %n, float %f) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ %id, %entry ], [ %next, %loop ]
  %q = getelementptr float, ptr addrspace(1) %p, i32 %i
  %v = load volatile float, ptr addrspace(1) %q
  %m = fmul float %v, %f
  %c0 = fcmp ogt float %m, 1.0
  %s = select i1 %c0, float %m, float %v
  store volatile float %s, ptr addrspace(1) %q
  %next = add i32 %i, 64
  %c = icmp slt i32 %next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""

BIG_IR = """target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x float] undef, align 4
define amdgpu_kernel void @big(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %n, float %f, double %d) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr float, ptr addrspace(1) %p, i32 %id
  %v = load float, ptr addrspace(1) %g
  %l = getelementptr [256 x float], ptr addrspace(3) @lds, i32 0, i32 %id
  store float %v, ptr addrspace(3) %l
  call void @llvm.amdgcn.s.barrier()
  %x = sub i32 255, %id
  %l2 = getelementptr [256 x float], ptr addrspace(3) @lds, i32 0, i32 %x
  %w = load float, ptr addrspace(3) %l2
  %dv = fdiv float %v, %w
  %sq = call float @llvm.sqrt.f32(float %dv)
  %e = call float @llvm.exp2.f32(float %sq)
  %ext = fpext float %e to double
  %dm = fmul double %ext, %d
  %t = fptrunc double %dm to float
  %i64 = zext i32 %id to i64
  %m = mul i64 %i64, %n
  %mt = trunc i64 %m to i32
  %cv = sitofp i32 %mt to float
  %r = fadd float %t, %cv
  %old = atomicrmw add ptr addrspace(1) %q, i32 1 seq_cst
  %of = uitofp i32 %old to float
  %r2 = call float @llvm.maxnum.f32(float %r, float %of)
  %h = fptrunc float %r2 to half
  %h2 = fadd half %h, %h
  %hf = fpext half %h2 to float
  store float %hf, ptr addrspace(1) %g
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare float @llvm.sqrt.f32(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.maxnum.f32(float, float)
"""
# (IR, -mcpu): the loop on RDNA3, the mixed kernel (LDS, barrier, fdiv, f64, i64, atomics, f16) on four generations
COMPILED = [("loop", "gfx1100"), ("big", "gfx1100"), ("big", "gfx942"), ("big", "gfx1200"), ("big", "gfx1030")]

CUDA = """extern "C" __global__ void scale(float *p, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = p[i]; p[i] = v > 1.0f ? v * f : v; }
}
"""
NVPTX_IR = LOOP_IR.replace("amdgcn-amd-amdhsa", "nvptx64-nvidia-cuda").replace("amdgpu_kernel", "ptx_kernel") \
    .replace("llvm.amdgcn.workitem.id.x", "llvm.nvvm.read.ptx.sreg.tid.x").replace("addrspace(1) %q", "%q") \
    .replace("ptr addrspace(1) %p, i32 %i", "ptr %p, i32 %i").replace("(ptr addrspace(1) %p", "(ptr %p")

WORK = Path(tempfile.mkdtemp(prefix="gpuisa-lsp-"))
SERVER_ENV = dict(os.environ)
SERVER_ENV.setdefault("GPUISA_HOME", str(WORK / "home"))
SERVER_ENV["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + SERVER_ENV.get("PYTHONPATH", "")


def _run(cmd: list[str], **kw) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    assert r.returncode == 0, f"{' '.join(cmd)} failed: {r.stderr[-2000:]}"
    return r.stdout


@pytest.fixture(scope="module")
def amd_file() -> Path:
    need(shutil.which("llc-22") is not None, "llc-22 not installed (apt-get install -y llvm-22)")
    (WORK / "loop.ll").write_text(LOOP_IR)
    out = WORK / "loop.s"
    _run(["llc-22", "-march=amdgcn", "-mcpu=gfx1100", str(WORK / "loop.ll"), "-o", str(out)])
    return out


def _llc_amd(ir_name: str, cpu: str) -> Path:
    need(shutil.which("llc-22") is not None, "llc-22 not installed (apt-get install -y llvm-22)")
    src = WORK / f"{ir_name}.ll"
    src.write_text(LOOP_IR if ir_name == "loop" else BIG_IR)
    out = WORK / f"{ir_name}_{cpu}.s"
    if not out.exists():
        _run(["llc-22", "-march=amdgcn", f"-mcpu={cpu}", str(src), "-o", str(out)])
    return out


@pytest.fixture(scope="module")
def ptx_file() -> Path:
    out = WORK / "scale.ptx"
    r = None
    if shutil.which("nvcc"):
        (WORK / "scale.cu").write_text(CUDA)
        r = subprocess.run(["nvcc", "-ptx", str(WORK / "scale.cu"), "-o", str(out)], capture_output=True, text=True,
                           timeout=300)
    if r is None or r.returncode != 0 or not out.is_file():
        # no nvcc, or one without a host compiler: LLVM's NVPTX back end is the other PTX producer
        need(shutil.which("llc-22") is not None, "neither nvcc nor llc-22 installed (PTX generator)")
        (WORK / "scale_nv.ll").write_text(NVPTX_IR.replace(" volatile", ""))
        _run(["llc-22", "-march=nvptx64", "-mcpu=sm_80", str(WORK / "scale_nv.ll"), "-o", str(out)])
    return out


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "gpuisa.cli", "lsp"], server_env=SERVER_ENV))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(t.InitializeParams(capabilities=t.ClientCapabilities(),
                                                           initialization_options={"docsUrl": "http://docs.test",
                                                                                   "arch": "rdna4"}))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(uri=uri, language_id="asm", version=1, text=path.read_text() if text is None else text)))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    while uri not in client.diagnostics:
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


async def _change(client: LanguageClient, uri: str, text: str, version: int) -> list[t.Diagnostic]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [t.TextDocumentContentChangeWholeDocument(text=text)]))
    while uri not in client.diagnostics:
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


def _line_of(text: str, pattern: str) -> tuple[int, str]:
    for n, line in enumerate(text.splitlines()):
        if re.search(pattern, line):
            return n, line
    raise AssertionError(f"no line matching {pattern!r} in the compiler's output")


def _pos(line: int, col: int) -> t.Position:
    return t.Position(line=line, character=col)


def _doc(uri: str) -> t.TextDocumentIdentifier:
    return t.TextDocumentIdentifier(uri=uri)


def _mnemonic(line: str) -> str:
    return line.split(";")[0].split()[0]


# -- AMD --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ir_name,cpu", COMPILED)
async def test_amd_llc_output_has_no_errors_beyond_known_encoder_gaps(client, ir_name, cpu):
    amd_file = _llc_amd(ir_name, cpu)
    uri = await _open(client, amd_file)
    lines = amd_file.read_text().splitlines()
    errors = [d for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error]
    unexpected = [(d.range.start.line, lines[d.range.start.line].strip(), d.message) for d in errors
                  if _mnemonic(lines[d.range.start.line]) not in KNOWN_GAPS]
    assert not unexpected


async def test_amd_hover_on_mnemonic_gives_target_opcode_operands_fidelity_and_link(client, amd_file):
    uri = await _open(client, amd_file)
    n, line = _line_of(amd_file.read_text(), r"^\s*v_mul_f32_e32 ")
    col = line.index("v_mul")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, col + 2)))
    md = h.contents.value
    assert "v_mul_f32" in md and "RDNA3" in md and "VOP2 opcode" in md
    assert "operands:" in md and "semantics:" in md
    assert "](http://docs.test/isa/rdna3/v_mul_f32)" in md
    assert (h.range.start.character, h.range.end.character) == (col, col + len("v_mul_f32_e32"))


async def test_amd_hover_on_register_and_modifier(client, amd_file):
    uri = await _open(client, amd_file)
    text = amd_file.read_text()
    n, line = _line_of(text, r"s_load_b128 s\[4:7\]")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, line.index("s[4:7]") + 1)))
    assert "4 consecutive scalar registers" in h.contents.value
    n, line = _line_of(text, r"global_load_b32 .* glc")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, line.index(" glc") + 2)))
    assert h.contents.value.startswith("`glc`")
    n, line = _line_of(text, r"exec_lo")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, line.index("exec_lo") + 1)))
    assert "execution mask" in h.contents.value


async def test_amd_diagnostics_as_you_type_range_the_bad_token(client, amd_file):
    text = amd_file.read_text()
    uri = await _open(client, amd_file)
    n, line = _line_of(text, r"^\s*v_mul_f32_e32 ")
    lines = text.splitlines()
    lines[n] = "\tv_mul_f32_e32 v4, s7, bogus"
    diags = await _change(client, uri, "\n".join(lines), 2)
    mine = [d for d in diags if d.range.start.line == n]
    assert len(mine) == 1 and mine[0].severity == t.DiagnosticSeverity.Error
    assert "'bogus'" in mine[0].message
    assert (mine[0].range.start.character, mine[0].range.end.character) == (23, 28)
    lines[n] = "\tv_frobnicate_f32 v4, s7, v3"
    diags = await _change(client, uri, "\n".join(lines), 3)
    mine = [d for d in diags if d.range.start.line == n]
    assert mine and (mine[0].range.start.character, mine[0].range.end.character) == (1, 17)
    diags = await _change(client, uri, text, 4)  # fixed again
    assert not [d for d in diags if d.range.start.line == n]


@pytest.mark.parametrize("ir_name,cpu", COMPILED)
async def test_amd_inlay_hints_match_llvm_mc(client, ir_name, cpu):
    need(shutil.which("llvm-mc-22") is not None, "llvm-mc-22 not installed (apt-get install -y llvm-22)")
    amd_file = _llc_amd(ir_name, cpu)
    uri = await _open(client, amd_file)
    text = amd_file.read_text()
    lines = text.splitlines()
    hints = await client.text_document_inlay_hint_async(t.InlayHintParams(
        _doc(uri), t.Range(_pos(0, 0), _pos(len(lines), 0))))
    by_line = {h.position.line: h.label for h in hints}
    assert len(by_line) >= 10
    mc = _run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-show-encoding", str(amd_file)])
    truth = [m.group(1) for m in re.finditer(r"; encoding: \[([^\]]*)\]", mc)]
    insts = [n for n, x in enumerate(lines) if re.match(r"^\s+[a-z]\w*", x)]  # directives start with '.'
    assert len(insts) == len(truth)
    checked = 0
    for n, enc in zip(insts, truth):
        if n not in by_line or "A" in enc or _mnemonic(lines[n]) in KNOWN_GAPS:
            continue
        want = " ".join(f"{int(b, 16):02x}" for b in enc.split(","))
        assert by_line[n].split("  ")[0] == want, lines[n]
        checked += 1
    assert checked >= 10


async def test_amd_branch_hints_carry_the_label_offset(client, amd_file):
    need(shutil.which("llvm-objdump-22") is not None, "llvm-objdump-22 not installed (apt-get install -y llvm-22)")
    uri = await _open(client, amd_file)
    lines = amd_file.read_text().splitlines()
    hints = await client.text_document_inlay_hint_async(t.InlayHintParams(
        _doc(uri), t.Range(_pos(0, 0), _pos(len(lines), 0))))
    by_line = {h.position.line: h.label for h in hints}
    obj = WORK / "loop.o"
    _run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", str(amd_file), "-o", str(obj)])
    dump = _run(["llvm-objdump-22", "-d", str(obj)])
    truth = [int(m.group(1), 16).to_bytes(4, "little").hex(" ")
             for m in re.finditer(r"s_c?branch\w*\s+\d+\s+// [0-9A-F]+: ([0-9A-F]{8})", dump)]
    branches = [n for n, x in enumerate(lines) if re.match(r"^\s+s_c?branch\w*\s+\.L", x)]
    assert branches and len(branches) == len(truth)
    assert [by_line[n] for n in branches] == truth


async def test_amd_completion_is_filtered_by_target(client, amd_file):
    from gpuisa.doclookup import default_store

    st = default_store()
    only_cdna = sorted(set(st.all_names("cdna3")) - set(st.all_names("rdna3")))
    uri = await _open(client, amd_file)
    lines = amd_file.read_text().splitlines()
    lines.insert(12, "\tv_m")
    await _change(client, uri, "\n".join(lines), 5)
    got = await client.text_document_completion_async(t.CompletionParams(_doc(uri), _pos(12, 4)))
    labels = {i.label for i in got.items}
    assert "v_msad_u8" in labels and "v_mul_f32_e32" in labels
    assert only_cdna and not labels & set(only_cdna)
    await _change(client, uri, amd_file.read_text(), 6)


async def test_amd_signature_help_counts_operands(client, amd_file):
    uri = await _open(client, amd_file)
    n, line = _line_of(amd_file.read_text(), r"^\s*v_mul_f32_e32 ")
    col = line.index(",") + 2  # inside the second operand
    sig = await client.text_document_signature_help_async(t.SignatureHelpParams(_doc(uri), _pos(n, col)))
    assert sig.active_parameter == 1
    assert sig.signatures[0].label.startswith("v_mul_f32_e32 ")
    assert len(sig.signatures[0].parameters) == 3


async def test_amd_definition_and_symbols(client, amd_file):
    uri = await _open(client, amd_file)
    text = amd_file.read_text()
    n, line = _line_of(text, r"s_cbranch_\w+ \.LBB")
    label = line.split()[-1]
    loc = await client.text_document_definition_async(t.DefinitionParams(_doc(uri), _pos(n, line.index(label) + 2)))
    target, _ = _line_of(text, rf"^{re.escape(label)}:")
    assert loc.range.start.line == target
    syms = await client.text_document_document_symbol_async(t.DocumentSymbolParams(_doc(uri)))
    kernel = next(s for s in syms if s.name == "scale")
    assert kernel.detail == "kernel" and label in {c.name for c in kernel.children}


async def test_amd_target_from_first_line_comment(client):
    path = WORK / "hand.asm"
    path.write_text("; arch: rdna4\nv_msad_u8 v5, v1, v2, s3\n")
    uri = await _open(client, path)
    assert not [d for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error]
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(1, 3)))
    assert "RDNA4" in h.contents.value and "VOP3 opcode 569" in h.contents.value
    hints = await client.text_document_inlay_hint_async(t.InlayHintParams(_doc(uri), t.Range(_pos(0, 0), _pos(2, 0))))
    assert hints and hints[0].label.startswith("05 00 39 d6")


async def test_amd_target_from_initialization_options(client):
    path = WORK / "bare.s"
    path.write_text("v_msad_u8 v5, v1, v2, s3\n")
    uri = await _open(client, path)
    assert not client.diagnostics[uri]
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(0, 3)))
    assert "RDNA4" in h.contents.value and "VOP3 opcode 569" in h.contents.value


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "gpuisa.cli", "lsp", "--arch", "gfx942"], server_env=SERVER_ENV))
async def cdna3_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(t.InitializeParams(capabilities=t.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def test_amd_target_from_the_command_line(cdna3_client):
    path = WORK / "bare3.s"
    path.write_text("v_msad_u8 v5, v1, v2, s3\n")
    uri = await _open(cdna3_client, path)
    h = await cdna3_client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(0, 3)))
    assert "CDNA3" in h.contents.value and "VOP3 opcode 484" in h.contents.value
    assert "(http://127.0.0.1:8000/isa/cdna3/v_msad_u8)" in h.contents.value


async def test_amd_file_without_any_target_says_how_to_name_one():
    from gpuisa.lsp import amd

    an = amd.analyse(["v_msad_u8 v5, v1, v2, s3"], None, {})
    assert an.arch is None and [p.severity for p in an.problems] == ["information"]
    assert ".amdgcn_target" in an.problems[0].message


# -- PTX --------------------------------------------------------------------------------------------------

async def test_ptx_compiler_output_is_valid_and_target_checked(client, ptx_file):
    text = ptx_file.read_text()
    uri = await _open(client, ptx_file)
    assert not [d for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error]
    lines = text.splitlines()
    n, line = _line_of(text, r"^\s*ld\.global")
    lines[n] = line.replace("ld.global", "ld.global.foo", 1)
    diags = await _change(client, uri, "\n".join(lines), 2)
    bad = [d for d in diags if d.range.start.line == n]
    assert bad and "`.foo`" in bad[0].message
    assert lines[n][bad[0].range.start.character:bad[0].range.end.character] == ".foo"
    lines[n] = line
    v, _ = _line_of(text, r"^\.target ")
    lines[v] = ".target sm_50"
    lines.insert(n + 1, "\tredux.sync.add.s32 %r1, %r1, -1;")
    diags = await _change(client, uri, "\n".join(lines), 3)
    bad = [d for d in diags if d.range.start.line == n + 1]
    assert bad and "sm_50" in bad[0].message
    await _change(client, uri, text, 4)


async def test_ptx_hover_opcode_modifier_register(client, ptx_file):
    text = ptx_file.read_text()
    uri = await _open(client, ptx_file)
    n, line = _line_of(text, r"^\s*ld\.global")
    col = line.index("ld.global")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, col)))
    assert "**ld" in h.contents.value and "PTX ISA" in h.contents.value and "docs.test/isa/ptx/" in h.contents.value
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, col + 5)))
    assert h.contents.value.startswith("`.global`: state space")
    reg = re.search(r"%r\d+", text).group(0)
    n2, line2 = _line_of(text, re.escape(reg) + r"\b")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n2, line2.index(reg) + 1)))
    assert "virtual register" in h.contents.value and "`.b32`" in h.contents.value


async def test_ptx_completion_signature_definition_symbols(client, ptx_file):
    text = ptx_file.read_text()
    uri = await _open(client, ptx_file)
    lines = text.splitlines()
    n, _ = _line_of(text, r"^\s*ret;")
    lines.insert(n, "\tld.")
    await _change(client, uri, "\n".join(lines), 5)
    got = await client.text_document_completion_async(t.CompletionParams(_doc(uri), _pos(n, 4)))
    labels = {i.label for i in got.items}
    assert {".global", ".shared", ".v4"} <= labels
    lines[n] = "\t"
    await _change(client, uri, "\n".join(lines), 6)
    got = await client.text_document_completion_async(t.CompletionParams(_doc(uri), _pos(n, 1)))
    assert {"ld", "vsub", "mma"} <= {i.label for i in got.items}
    v, _ = _line_of(text, r"^\.target ")
    lines[v] = ".target sm_60"  # mnemonics are filtered by the file's target: no clusters, no mma before sm_70
    await _change(client, uri, "\n".join(lines), 7)
    got = {i.label for i in (await client.text_document_completion_async(t.CompletionParams(_doc(uri), _pos(n, 1)))).items}
    assert {"ld", "vsub"} <= got and not {"mma", "barrier.cluster"} & got
    await _change(client, uri, text, 8)
    m, line = _line_of(text, r"^\s*setp\.")
    sig = await client.text_document_signature_help_async(t.SignatureHelpParams(_doc(uri), _pos(m, line.index(",") + 2)))
    assert sig.active_parameter == 1 and sig.signatures[0].label.startswith("setp")
    b, line = _line_of(text, r"bra(\.uni)?\s+\$L")
    label = line.split()[-1].rstrip(";")
    loc = await client.text_document_definition_async(t.DefinitionParams(_doc(uri), _pos(b, line.index(label) + 2)))
    assert text.splitlines()[loc.range.start.line].startswith(label + ":")
    syms = await client.text_document_document_symbol_async(t.DocumentSymbolParams(_doc(uri)))
    assert any(s.name == "scale" and s.detail == "kernel" for s in syms)


@pytest.fixture(scope="module")
def ptx_llc_file() -> Path:
    need(shutil.which("llc-22") is not None, "llc-22 not installed (apt-get install -y llvm-22)")
    (WORK / "loop_nv.ll").write_text(NVPTX_IR)
    out = WORK / "loop_nv.ptx"
    _run(["llc-22", "-march=nvptx64", "-mcpu=sm_80", str(WORK / "loop_nv.ll"), "-o", str(out)])
    return out


async def test_ptx_from_llc_nvptx(client, ptx_llc_file):
    text = ptx_llc_file.read_text()
    uri = await _open(client, ptx_llc_file)
    assert not [d for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error]
    n, line = _line_of(text, r"^\s*ld\.volatile\.global")
    h = await client.text_document_hover_async(t.HoverParams(_doc(uri), _pos(n, line.index("ld.") + 1)))
    assert h.contents.value.startswith("**ld") and "PTX ISA 7.0" in h.contents.value  # the file's .version
    b, line = _line_of(text, r"bra\s+\$L")
    label = line.split()[-1].rstrip(";")
    loc = await client.text_document_definition_async(t.DefinitionParams(_doc(uri), _pos(b, line.index(label) + 1)))
    assert loc.range.start.line < b  # a backward branch: the loop header
    syms = await client.text_document_document_symbol_async(t.DocumentSymbolParams(_doc(uri)))
    assert [s.name for s in syms] == ["scale"] and label in {c.name for c in syms[0].children}


async def test_completion_context_in_process():
    """What is being typed decides the list: a mnemonic after labels or a guard, else operands/modifiers."""
    from gpuisa.lsp import amd, features, ptx

    an = amd.analyse(["; arch: rdna3", "\ts_load_b64 s[0:1", "loop: v_ms"], None, {})
    assert "glc" in {i.label for i in features.completion(an, 1, 17)}
    assert "v_msad_u8" in {i.label for i in features.completion(an, 2, 10)}
    an = ptx.analyse([".version 8.0", ".target sm_90", "\t@%p1 bra.u"])
    items = features.completion(an, 2, 11)
    assert [i.label for i in items] == [".uni"] and items[0].text_edit.range.start.character == 9
