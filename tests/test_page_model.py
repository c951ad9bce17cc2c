"""The typed page model on its own: renderers draw a page made by hand (no store, no feature package), the
JSON keeps optional sections out when absent, from_json refuses what the model does not have, and pages are
constructed only by the ISA builders."""

from __future__ import annotations

import ast
import io
import json
import re
from pathlib import Path

import pytest

from gpuisa.page import model as m
from gpuisa.page.codec import ModelError, from_json

SRC = Path(__file__).resolve().parents[1] / "src" / "gpuisa"


def native_page() -> m.InstructionPage:
    ops = [m.Operand("VDST", "write", "OPR_VGPR", "FMT_NUM_U32", 32, False, "", False),
           m.Operand("SRC0", "read", "OPR_SRC", None, None, False, "made-up note", True)]
    enc = m.Encoding("VOP3", 64, 7, "0x0000000000070000", "default",
                     [m.BitField("OP", 25, 16, 10), m.BitField("ENC", 31, 26, 6, None, 53, "110101"),
                      m.BitField("SPLIT", 40, 32, 9, [[40, 36], [34, 32]])], "v_made_up v0, v1", ops)
    return m.InstructionPage(
        name="v_made_up", vendor="AMD", isa="amdgpu", isa_kind="native", arch="rdna3", arch_title="RDNA3",
        category="VALU", subgroup=None, summary="A made-up instruction.", description=None, description_source=None,
        encodings=[enc], operands=ops, targets=["gfx1100"], flags={"IsBranch": False},
        generations={"rdna3": m.Generation("VOP3", 7, True), "rdna2": None}, generation_summary="Not in RDNA2.",
        sources=[m.Source("hand-made", "1", "for a test", False)],
        semantics=m.Semantics("hand-made", "untested", "no evaluator", "D = S0 ^ 1", None,
                              {"rdna4": m.SemanticsGeneration(False, "--- a\n+++ b")}),
        examples=[m.Example("v_made_up v0, v1", "00 11", "gfx1100", "made up", "VOP3")],
        related=[m.Relation("NVIDIA", "ptx", "xor", "xor.b32 d, a, 1;", "equivalent", None, None, None, None,
                            "made-up relation", m.Checked(10, 10, ["rdna3"], None), this_form="v_made_up d, a",
                            archs=["ptx"])],
        timing=m.Timing("model", "made-up model", "22", "gfx1100", "hand", "not a measurement", 4, 1.0, 1,
                        [m.TimingEntry("VOP3", 4, 1.0, 1, {"ALU": 1.0})], "VOP3"))


def virtual_page() -> m.InstructionPage:
    form = m.Form("made.type d, a;", {".type": [".u32", ".s32"]}, [m.FormOperand("d", "write", "reg", ".type", False)],
                  [], [".type"], "1.0", "sm_20", ["sm_20", "sm_90"], True, ["made.u32 r1, r2;"])
    return m.InstructionPage(
        name="made", vendor="NVIDIA", isa="ptx", isa_kind="virtual", arch="ptx", arch_title="PTX", category="integer",
        subgroup="made", summary="A made-up PTX instruction.", description=None, description_source=None,
        encodings=[], operands=[m.Operand("d", "write", "reg", ".type", None, False, "", False)], targets=["sm_20"],
        flags={}, generations={}, generation_summary="", sources=[m.Source("hand-made")], isa_note="virtual",
        family="made", forms=[form], ptx_version="1.0", min_target="sm_20")


def test_text_renderer_draws_a_hand_made_page():
    from gpuisa.render.text import render_page

    text = render_page(native_page())
    for expected in ("v_made_up  (GPU Native ISA, AMD; RDNA3", "Encoding VOP3 (64 bits) opcode 7", "40:36, 34:32",
                     "110101", "made-up note", "RDNA2 ", "absent", "D = S0 ^ 1", "00 11", "xor.b32 d, a, 1;",
                     "Timing (model, not measurement: made-up model)", "hand-made 1: for a test"):
        assert expected in text, expected
    ptx = render_page(virtual_page())
    assert "made.type d, a;" in ptx and ".u32, .s32" in ptx and "Encoding" not in ptx
    assert render_page(native_page().to_json()) == text  # a show --json page reads back into the same page


def test_rich_renderer_draws_a_hand_made_page():
    from rich.console import Console

    from gpuisa.render.terminal import print_page

    buf = io.StringIO()
    print_page(native_page(), Console(file=buf, width=200, color_system=None))
    out = buf.getvalue()
    assert "v_made_up" in out and "made-up note" in out and "D = S0 ^ 1" in out and "identifier 0x0000000000070000" in out


def test_json_leaves_absent_sections_out_and_reads_back():
    page = virtual_page().to_json()
    assert not {"semantics", "examples", "related", "timing", "aliases", "disagreements"} & set(page)
    assert page["description"] is None and "value_requirements" not in page["forms"][0]  # null vs left out
    full = native_page().to_json()
    assert full["encodings"][0]["fields"][0] == {"name": "OP", "hi": 25, "lo": 16, "width": 10}
    assert from_json(m.InstructionPage, json.loads(json.dumps(full))) == native_page()


@pytest.mark.parametrize("change,message", [
    (lambda p: p.update(extra=1), "key 'extra' is not in the page model"),
    (lambda p: p.pop("sources"), "key 'sources' missing"),
    (lambda p: p.update(isa_kind="hybrid"), "isa_kind: 'hybrid' is not one of"),
    (lambda p: p["encodings"][0].update(opcode="7"), "encodings[].opcode: int expected, not str"),
    (lambda p: p["timing"]["encodings"][0].update(latency=True), "an integer expected, not a boolean"),
])
def test_from_json_refuses_what_the_model_does_not_have(change, message):
    page = native_page().to_json()
    change(page)
    with pytest.raises(ModelError, match=re.escape(message)):
        from_json(m.InstructionPage, page)


def test_pages_are_built_only_by_the_isa_builders():
    """One place per ISA: InstructionPage(...) is called in page/amd.py and page/ptx.py and nowhere else."""
    callers = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "InstructionPage":
                callers.add(path.relative_to(SRC).as_posix())
    assert callers == {"page/amd.py", "page/ptx.py"}
