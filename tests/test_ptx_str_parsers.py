"""The PTX checker's hand-written readers (``str`` methods where regular expressions were: ``re`` is not
imported by ``ptx check --file`` on compiler output) give what the regular expressions give: each is
compared with its expression (written here, as the definition) on hand-picked and random texts."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpuisa.ptx import check, directives, match, operand_types

CORPUS = Path(__file__).parent / "data" / "ptx_corpus"
ALPHABET = ["a", "Z", "_", "$", "%", "0", "1", "9", ".", ":", " ", "\t", "\n", "(", ")", "[", "]", "<", ">", "{",
            "}", ",", "-", "+", "*", "x", "f", "F", "d", "D", "@", "!", "|", "é", "²", "٣", "\u00a0"]


def _texts(seed: int, words: list[str], n: int = 30000, most: int = 8):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(words) for _ in range(rng.randint(0, most)))


def test_operand_readers_same_as_their_patterns():
    suffix = re.compile(r"^(%?[A-Za-z_$][\w$]*)((?:\.[A-Za-z_][\w:]*)+)$")
    const = re.compile(r"^\([-+*/%()<>&|^~!\s\dxXa-fA-F.]*\)$")
    two = re.compile(r"[\w$%)\]]\s+[\w$%@(\[]")
    negative = re.compile(r"^(?!0[fFdD])\d")
    words = ALPHABET + ["%r1", "%tid", ".x", ".b0", ".L2::cache_hint", "0f3F80", "(4*2+1)", "r2"]
    for text in _texts(1, words):
        m = suffix.match(text)
        assert match.suffixed(text) == (m.groups() if m else None), text
        s = text.strip()  # (classify reads stripped operands: `$` of a pattern also takes a final newline)
        assert match.const_expr(s) == bool(const.match(s)), s
        assert match.two_words(s) == bool(two.search(s)), s
        assert match._negative_literal(text) == bool(negative.match(text)), text


def test_type_tokens_same_as_their_patterns():
    is_type = re.compile(r"^\.(?:pred|[usbf]\d+|bf16|bf16x2|f16x2|tf32|e\dm\d(?:x\d)?)$")
    type_token = re.compile(r"^\.(pred|[usbf](16|32|64)|bf16|f16x2|bf16x2)$")
    value_type = re.compile(r"^\.(pred|[usbf](8|16|32|64)|bf16|f16x2|bf16x2)$")
    words = [".", "u", "s", "b", "f", "e", "m", "x", "v", "pred", "bf16", "tf32", "8", "16", "32", "64", "2", "4", "٣"]
    for text in _texts(2, words, most=5):
        assert check._is_type(text) == bool(is_type.match(text)), text
        assert (text in operand_types.TYPE_TOKEN) == bool(type_token.match(text)), text
        assert (text in operand_types.VALUE_TYPE) == bool(value_type.match(text)), text


@pytest.mark.parametrize("bind, wide", [({".vec": ".v8", ".type": ".b32"}, True), ({".vec": ".v4", ".type": ".b64"}, True),
                                        ({".vec": ".v4", ".type": ".b32"}, False), ({".type": ".u32"}, False),
                                        ({".vec": ".v", ".type": ".f64", "x": 3}, False)])
def test_wide_access_reads_vector_and_type_widths(bind, wide):
    assert check._wide_access(bind) == wide


def test_declaration_readers_same_as_their_patterns():
    decl = re.compile(directives.DECL_PATTERN)
    func = re.compile(directives.FUNC_PATTERN)
    words = ALPHABET + [".visible", ".extern", ".weak", ".entry", ".func", ".funcx", "k_param_0", "%r", "<4>",
                        "[16]", ".param .u64 p", ".maxntid 128, 1, 1", ".align", "8", ".b32", ".shared::cta"]
    for text in _texts(3, words):
        m = decl.match(text)
        got = directives.decl_item(text)
        assert (got and (got["name"], got["range"])) == (m and (m.group("name"), m.group("range"))), text
        m = func.match(text)
        got = directives.func_header(text)
        keys = (1, 2, "ret", "name", "params", "rest")
        assert (got and [got[k] for k in keys]) == (m and [m.group(k) for k in keys]), text
        assert directives._is_version(text) == bool(re.match(r"^\d+\.\d+$", text)), text
        if text.startswith("."):
            assert directives.split_decl(text) == _split_decl_by_pattern(text), text


def test_header_and_version_readers_same_as_their_patterns_on_made_headers():
    """Headers made of their parts (linking words, kind, return and parameter lists, name, directives),
    each part sometimes damaged, so that most take each branch of the pattern."""
    func = re.compile(directives.FUNC_PATTERN)
    decl = re.compile(directives.DECL_PATTERN)
    rng = random.Random(5)
    pick = rng.choice
    hits = {"ret": 0, "params": 0, "none": 0, "range": 0}
    for _ in range(30000):
        parts = [pick(["", ".visible ", ".extern\t", ".weak  ", ".visible.", ".common "]) for _ in range(rng.randint(0, 2))]
        parts += [pick([".entry", ".func", ".funct", ".entr", "func"]), pick(["", " ", "\n"])]
        parts += [pick(["", "(.param .b32 r)", "()", "(a(b)", "(x", ") "]), pick(["", " "])]
        parts += [pick(["k", "_Z3fooPi", "$f", "%g", "9a", "é", ""]), pick(["", " ", "\t"])]
        parts += [pick(["", "(.param .u64 p, .reg .b32 q)", "(", "(())", "( )"]), pick(["", " .maxntid 1, 2, 3", " x"])]
        text = "".join(parts)
        m, got = func.match(text), directives.func_header(text)
        keys = (1, 2, "ret", "name", "params", "rest")
        assert (got and [got[k] for k in keys]) == (m and [m.group(k) for k in keys]), text
        hits["ret"] += bool(m and m.group("ret") is not None)
        hits["params"] += bool(m and m.group("params") is not None)
        hits["none"] += not m
        item = pick(["%r", "buf", "_", "$x", "9"]) + pick(["", " "]) + pick(["", "<4>", "< 12 >", "<>", "<4", "[2]",
                                                                           "[ n ][3]", "[a b]", "[2", " x"])
        item += pick(["", " ", "[1]"])
        m, got = decl.match(item), directives.decl_item(item)
        assert (got and (got["name"], got["range"])) == (m and (m.group("name"), m.group("range"))), item
        hits["range"] += bool(m and m.group("range"))
        version = pick(["", "1", "12", "٣"]) + pick(["", ".", ".."]) + pick(["", "0", "9", "x"])
        assert directives._is_version(version) == bool(re.match(r"^\d+\.\d+$", version)), version
    assert min(hits.values()) > 1000, hits  # (each branch taken often)


def _split_decl_by_pattern(text: str) -> tuple[list[str], str]:
    words, rest = [], text
    while rest.startswith("."):
        m = re.match(r"\.[\w:]+", rest)
        if not m:
            break
        words.append(m.group())
        rest = rest[m.end():].lstrip()
        if words[-1] == ".align":
            m = re.match(r"\d+", rest)
            words.append(m.group() if m else "")
            rest = rest[m.end():].lstrip() if m else rest
    return words, rest


def test_pragma_reader_same_as_its_pattern():
    pragma = re.compile(r'^\.pragma\s+"[^"]*"(\s*,\s*"[^"]*")*$')
    words = ['"', '"nounroll"', ",", " ", "\n", "a", "(", ";"]
    for text in _texts(4, words):
        stmt = ".pragma" + text
        assert directives.pragma_strings(stmt) == bool(pragma.match(stmt)), stmt


@pytest.mark.parametrize("name", ["mid.sm_90.ptx", "big.sm_90.ptx"])
def test_check_of_compiler_output_imports_no_regular_expressions(name):
    """`python -m gpuisa.ptx check --file` on nvcc output: neither re nor typing is imported (start-up), nor
    __future__ (the modules on the check's path do without `from __future__ import annotations`)."""
    code = ("import sys;from gpuisa.ptx.__main__ import main;code=main(['check','--file',sys.argv[1]]);"
            "print(code, 're' in sys.modules, 'typing' in sys.modules, '__future__' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(CORPUS / name)], capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == "0 False False False", out.stdout[-300:] + out.stderr[-300:]


@pytest.mark.parametrize("count", [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 2418, 9999, 10000, 10001, 23456])
def test_range_names_are_every_declared_name(count):
    """`.reg .b32 %r<n>` declares %r0 .. %r<n-1> (directives.range_names, built from digit tables)."""
    ranges = {"%r": (count, ".b32"), "%rd": (7, ".b64"), "%x1_": (count // 3, ".pred")}
    want = [f"{p}{i}" for p, (n, _) in ranges.items() for i in range(n)]
    assert directives.range_names(ranges) == want


def test_console_command_imports_neither_typing_nor_re():
    """`gpuisa ptx check --file` (the console script's main): gpuisa.cli and the PTX check import neither
    typing nor re (each costs milliseconds of a small kernel's ~25 ms; pip's wrapper script imports re itself)."""
    code = ("import sys;from gpuisa.cli import main;code=main(['ptx','check','--file',sys.argv[1]]);"
            "print(code, [m for m in ('re', 'typing') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code, str(CORPUS / "mid.sm_90.ptx")], capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == "0 []", out.stdout[-300:] + out.stderr[-300:]


def test_installed_launcher_imports_neither_typing_nor_re():
    """The `gpuisa` command pip installs is pyproject's script-files launcher (no [project.scripts] entry
    point, whose generated script imports re): run as that script, `ptx check --file` imports neither, nor
    functools (its collections import is ~10 M instructions)."""
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert "gpuisa" not in project["project"].get("scripts", {})
    (launcher,) = [p for p in project["tool"]["setuptools"]["script-files"] if Path(p).name == "gpuisa"]
    assert (root / launcher).read_text().startswith("#!python\n")  # (pip writes the interpreter's path here)
    out = subprocess.run([sys.executable, "-X", "importtime", str(root / launcher), "ptx", "check", "--file",
                          str(CORPUS / "mid.sm_90.ptx")], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.endswith(" instructions, 0 invalid\n"), out.stdout[-300:] + out.stderr[-300:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "gpuisa.ptx.check" in imported and not imported & {"re", "typing", "functools", "collections"}, \
        sorted(imported)


@pytest.mark.parametrize("args", [["--file", "k.ptx"], ["--file", "k.ptx", "--json"], ["--file", "missing.ptx"],
                                  ["--file", "k.ptx", "--target", "sm_9x"], ["add.s32 %r1, %r2;"], ["--fil", "k.ptx"],
                                  ["--help"]])
def test_launcher_runs_ptx_check_as_the_cli_does(tmp_path, args):
    """The launcher runs `ptx check` without importing gpuisa.cli (hotpath.run_ptx_check): output and exit code
    are those of cli.main (errors, argparse's forms, --help)."""
    (tmp_path / "k.ptx").write_text(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                                    ".reg .b32 %r<4>;\nadd.s32 %r1, %r2, %r3;\nadd.s33 %r1, %r2, %r3;\nret;\n}\n")
    launcher = Path(__file__).resolve().parents[1] / "scripts" / "gpuisa"
    env = {**os.environ, "GPUISA_HOME": str(tmp_path / "home")}
    ours = subprocess.run([sys.executable, str(launcher), "ptx", "check", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    cli = subprocess.run([sys.executable, "-c", "import sys;sys.argv[0]='gpuisa';from gpuisa.cli import main;main()",
                          "ptx", "check", *args], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert (ours.returncode, ours.stdout, ours.stderr) == (cli.returncode, cli.stdout, cli.stderr)
    assert ours.stdout or ours.stderr
