"""PTX pages' Semantics section (``ptx.pages.ptx_semantics``) matches what the evaluator can run."""

from __future__ import annotations

import pytest

from gpuisa.pages import build_page
from gpuisa.ptx import pages as ptx_pages
from gpuisa.ptx.semantics import UnsupportedInstruction, evaluate_ptx


def page_of(store, name):
    page = build_page(store, name, isa="ptx")
    assert page.get("semantics") == ptx_pages.ptx_semantics(name, page["category"])  # the builder's section
    return page


def test_covered_instruction_pages_have_semantics(store):
    sem = page_of(store, "fma")["semantics"]
    assert sem["fidelity"] == "exact" and sem["pseudocode"] is None and sem["description"]
    assert sem["source"].startswith("gpuisa PTX semantics")
    # the page's claim holds: fma.rn.f32 1*2+3 = 5.0 (0x40A00000)
    assert evaluate_ptx("fma.rn.f32 d, a, b, c;", {"a": 0x3F800000, "b": 0x40000000, "c": 0x40400000})[
        "outputs"]["d"] == 0x40A00000
    assert page_of(store, "sin")["semantics"]["fidelity"] == "approximate"
    assert page_of(store, "cvt")["semantics"]["fidelity"] == "exact"


def test_formerly_uncovered_instructions_now_evaluate(store):
    # every value-computing instruction of the catalog is covered; fns and vmad were the last ones
    for name in ("fns", "vmad"):
        sem = page_of(store, name)["semantics"]
        assert sem["fidelity"] == "exact" and sem["description"]
    # the PTX ISA's own example: in 0xaaaaaaaa the first set bit downwards from bit 2 is bit 1
    assert evaluate_ptx("fns.b32 d, m, 2, o;", {"m": 0xAAAAAAAA, "o": 0xFFFFFFFF})["outputs"]["d"] == 1


def test_unsupported_forms_say_so():
    with pytest.raises(UnsupportedInstruction):
        evaluate_ptx("fns.b32 d, a, b, c;", {"a": 1, "b": 40, "c": 1})  # base above 31: undefined
    with pytest.raises(UnsupportedInstruction):
        evaluate_ptx("ld.global.u32 d, [a];", {"a": 0})  # not a value-computing instruction


def test_instructions_without_a_value_have_no_semantics(store):
    page = page_of(store, "ld")
    assert "semantics" not in page
