"""The ISA registry is the one seam: a toy third ISA registered here (two instructions, nothing else changed)
is offered by the CLI's ``--isa`` choices, answered by the web API's routes, listed in the OpenAPI enums,
found by the search, and related to PTX on both sides' pages -- and gone again once unregistered."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from gpuisa import isas
from gpuisa.errors import UserError

TOY = {"tadd": "adds two toy registers", "tmul": "multiplies two toy registers"}


def _page(store, name, arch, isa):
    from gpuisa.pages import NotFound

    if name not in TOY:
        raise NotFound(f"no instruction {name} in the toy ISA")
    return {"name": name, "vendor": "Toy Corp", "isa": isa, "isa_kind": "virtual", "arch": "toy", "arch_title": "Toy",
            "category": "arith", "subgroup": None, "summary": TOY[name], "description": None, "description_source": None,
            "encodings": [], "operands": [], "targets": ["toy1"], "flags": {}, "generations": {},
            "generation_summary": "", "sources": [{"source": "the toy test"}]}


def _instructions(store):
    return [{"name": n, "arch": "toy", "summary": s} for n, s in TOY.items()]


def _eval(args):
    vals = dict(x.split("=") for x in args.operands)
    print(f"{args.name} = {int(vals['a']) + int(vals['b']) if args.name == 'tadd' else int(vals['a']) * int(vals['b'])}")
    return 0


def _doc(store, opcode, arch):
    from gpuisa.doclookup import DocNotFound

    if opcode not in TOY:
        raise DocNotFound(f"no toy instruction {opcode}")
    return {"tooltip": TOY[opcode], "html": f"<p>{TOY[opcode]}</p>", "url": f"/isa/toy/{opcode}", "opcode": opcode,
            "instruction": opcode, "isa": "toy", "arch": "toy"}


def _relations(isa, name, arch):
    """tadd <-> PTX's add (either page asks)."""
    common = {"relation": "equivalent", "restriction": None, "domain": None, "error_bound": None, "sequence": None,
              "note": None, "checked": None}
    if isa == "toy" and name == "tadd":
        return [{"vendor": "NVIDIA", "isa": "ptx", "name": "add", "form": "add.u32 d, a, b;", "this_form": "tadd d, a, b",
                 "archs": ["ptx"], **common}]
    if isa == "ptx" and name == "add":
        return [{"vendor": "Toy Corp", "isa": "toy", "name": "tadd", "form": "tadd d, a, b", "this_form": "add.u32 d, a, b;",
                 "archs": ["toy"], **common}]
    return []


def _analyse(lines, arch, cache):
    """The toy's analyser: ``name:`` lines are labels, any other line one instruction."""
    from gpuisa.lsp.model import Analysis, Inst, Label, Problem

    an = Analysis("toy", lines)
    for i, text in enumerate(lines):
        words = text.split()
        if words and words[0].endswith(":"):
            an.labels[words[0][:-1]] = Label(words[0][:-1], i, text.index(words[0]))
        elif words:
            start = text.index(words[0])
            an.insts.append(Inst(i, start, start + len(words[0]), len(text.rstrip()), words[0], text.strip()))
            if words[0] not in TOY:
                an.problems.append(Problem(i, 0, len(text), "unknown toy instruction"))
    return an


def _lsp_features():
    """The toy's LSP dialect: its registers r0..r15 have hovers, its mnemonics are completed."""
    import re

    from lsprotocol import types as t

    from gpuisa.lsp.dialect import Dialect, items, typing_first

    class Toy(Dialect):
        def word_hover(self, an, word):
            return f"`{word}`: toy register" if re.fullmatch(r"r\d+", word) else None

        def complete(self, an, head, line, col):
            return items(sorted(TOY.items()), t.CompletionItemKind.Function) if typing_first(head) else []

    return Toy()


PLAYED: list = []  # the toy playground tab's answers asked for


def _playground():
    from gpuisa.web.playground import Button, Field, Mode

    fields = (Field("name", "Toy `t`-instruction", id="toy-name", placeholder="tmul", maxlength=8),
              Field("times", "Times", "number", id="toy-times", default="2", maxlength=9, code=False))
    return [Mode("toy", "Toy", "name", lambda pg: PLAYED.append((pg["name"], pg["times"], pg["action"])) or {"name": pg["name"]},
                 fields, (Button("Run toy", "run"), Button("Dry run", "dry")))]


TOY_ISA = isas.Isa("toy", "Toy ISA", "TOY", "Toy Corp", "virtual", "toy instructions", aliases=("toyisa",),
                   capabilities={"eval": _eval, "doc": _doc, "doc_opcodes": lambda store: sorted(TOY), "lsp": _analyse,
                                 "lsp_features": _lsp_features, "playground": _playground},
                   page=_page, instructions=_instructions, own_archs=("toy",), suffixes=(".toy",), language_ids=("toyasm",))


@pytest.fixture
def toy():
    with isas.registered(TOY_ISA, relations={"ptx": _relations}) as i:
        yield i
    assert "toy" not in isas.keys()


def test_registry_lookups(toy):
    assert isas.keys()[-1] == "toy" and "toy" in isas.keys("eval") and "toy" not in isas.keys("coverage")
    assert isas.resolve("ToyISA") is toy and isas.of_arch("toy") is toy and toy.arch_names() == ["toy"]
    assert isas.resolve("amd").key == "amdgpu" and "rdna4" in isas.get("amdgpu").arch_names()
    with pytest.raises(UserError, match="allowed: amdgpu, ptx, toy"):
        isas.resolve("sass")
    with pytest.raises(UserError, match="coverage is not available for the toy ISA"):
        toy.hook("coverage")
    with pytest.raises(ValueError):
        isas.register(TOY_ISA)


def test_language_server_sees_it(toy):
    from gpuisa.lsp.model import language_of

    assert language_of("file:///k/add.toy") == "toy" and language_of("untitled:1", "toyasm") == "toy"
    assert language_of("file:///k/loop.s") == "amdgpu" and language_of("file:///k/a.ptx", "asm") == "ptx"
    an = isas.get(language_of("file:///k/add.toy")).hook("lsp")(["tadd r1, r2", "tsub r1, r2"], None, {})
    assert [(p.line, p.message) for p in an.problems] == [(1, "unknown toy instruction")]


def test_language_server_features_through_its_hooks(toy, store, monkeypatch):
    """The LSP features know no ISA by name: the toy's diagnostics come from its analyser, its mnemonic's hover
    from its ``doc`` hook, its registers' hovers and its completions from its ``lsp_features`` dialect."""
    from gpuisa import doclookup
    from gpuisa.lsp import features

    monkeypatch.setitem(doclookup._stores, None, store)  # (the look-up's store: the session's)
    an = toy.hook("lsp")(["loop:", "  tadd r1, r2", "  tsub r1, r2"], None, {})
    assert [(d.range.start.line, d.message) for d in features.diagnostics(an)] == [(2, "unknown toy instruction")]
    md = features.hover(an, 1, 3, "http://docs").contents.value
    assert md.startswith(TOY["tadd"]) and md.endswith("[gpuisa reference: tadd](http://docs/isa/toy/tadd)")
    assert features.hover(an, 1, 8, "x").contents.value == "`r1`: toy register"
    assert features.hover(an, 2, 3, "x") is None  # tsub: the doc hook knows no such instruction
    assert [i.label for i in features.completion(an, 1, 4)] == ["tadd", "tmul"] and not features.completion(an, 1, 9)
    assert features.definition(an, "file:///k/a.toy", 0, 2).range.start.line == 0
    assert features.signature_help(an, 1, 9) is None  # the toy's documentation has no signatures
    with isas.registered(isas.Isa("toy4", "Toy 4", "T4", "Toy Corp", "virtual", "toy4", own_archs=("toy4",),
                                  capabilities={"lsp": _analyse})):  # no lsp_features: the base dialect
        an.lang = "toy4"
        assert features.hover(an, 1, 8, "x") is None and features.completion(an, 1, 4) == []


def test_cli_isa_choices_see_it(toy, capsys):
    from gpuisa.cli import make_parser

    p = make_parser()
    assert p.parse_args(["show", "tadd", "--isa", "toy"]).isa == "toy"
    assert p.parse_args(["doc", "tadd", "--isa", "toy"]).isa == "toy"
    with pytest.raises(SystemExit):  # the toy has no coverage hook: not offered
        p.parse_args(["coverage", "semantics", "--isa", "toy"])
    args = p.parse_args(["eval", "tmul", "a=6", "b=7", "--isa", "toy"])
    assert args.func(args) == 0 and capsys.readouterr().out == "tmul = 42\n"


def test_cli_refuses_it_once_unregistered(capsys):
    from gpuisa.cli import make_parser

    with pytest.raises(SystemExit) as exc:
        make_parser().parse_args(["show", "tadd", "--isa", "toy"])
    assert exc.value.code == 2 and "invalid choice: 'toy'" in capsys.readouterr().err


def test_web_routes_openapi_and_search_see_it(toy, store):
    from starlette.testclient import TestClient

    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        page = c.get("/api/show", params={"name": "tmul", "isa": "toy"})
        assert page.status_code == 200 and page.json()["summary"] == TOY["tmul"] and page.json()["url"] == "/isa/toy/tmul"
        assert c.get("/api/show", params={"name": "tsub", "isa": "toy"}).status_code == 404
        assert c.get("/api/show", params={"name": "tadd", "isa": "sass"}).status_code == 422
        doc = c.get("/api/asm/toy/tadd")
        assert doc.status_code == 200 and doc.json()["tooltip"] == TOY["tadd"]
        spec = c.get("/api/openapi.json").json()["paths"]
        enum = {p["name"]: p["schema"].get("enum") for p in spec["/api/show"]["get"]["parameters"]}
        assert enum["isa"] == ["amdgpu", "ptx", "toy"]
        assert [p["schema"]["enum"] for p in spec["/api/asm/{isa}/{opcode}"]["get"]["parameters"]
                if p["name"] == "isa"] == [["amdgpu", "ptx", "toy"]]
        assert "toy" in [p for p in spec["/api/search"]["get"]["parameters"] if p["name"] == "isa"][0]["schema"]["enum"]
        hits = c.get("/api/search", params={"q": "tadd"}).json()
        assert hits[0] == {"name": "tadd", "arch": "toy", "isa": "toy", "summary": TOY["tadd"], "url": "/isa/toy/tadd"}
        words = c.get("/api/search", params={"q": "toy registers", "isa": "toy"}).json()
        assert sorted(h["name"] for h in words) == ["tadd", "tmul"]
        assert all(h["isa"] == "ptx" for h in c.get("/api/search", params={"q": "add", "isa": "ptx"}).json())
        # relations between any two ISAs: PTX's add page relates to the toy's tadd (text, JSON and cards)
        add = c.get("/api/show", params={"name": "add", "isa": "ptx"}).json()
        assert [(e["isa"], e["name"]) for e in add["related"] if e["isa"] == "toy"] == [("toy", "tadd")]
        html = c.get("/isa/ptx/add").text
        assert "Counterparts in " in html and "TOY" in html and "<code>tadd</code>" in html
    from gpuisa.page.codec import from_json
    from gpuisa.page.model import Relation
    from gpuisa.render.section_related import text_lines

    toy_page = SimpleNamespace(isa="toy", related=[from_json(Relation, e) for e in _relations("toy", "tadd", None)])
    assert text_lines(toy_page)[0] == "Related PTX concepts:"


def test_its_pages_from_the_hook_render_as_html_and_in_the_cli(toy, store, capsys, monkeypatch):
    """A registered ISA whose pages come from its ``page`` hook (not the store): the typed page the hook's
    JSON is read back into is drawn by the HTML route, ``show --isa toy`` (text and JSON) and ``--arch toy``."""
    from starlette.testclient import TestClient

    from gpuisa import cli
    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        r = c.get("/isa/toy/tadd")
        assert r.status_code == 200 and TOY["tadd"] in r.text and "<code>tadd</code>" in r.text
        assert "Counterparts in PTX" in r.text  # its relation to PTX's add, as a card
        assert 'id="docs"' not in r.text  # the toy registers no vendor documents
        assert c.get("/isa/toy/tsub").status_code == 404 and c.get("/isa/toy").status_code == 404
        home = c.get("/").text
        assert "Toy ISA (virtual ISA, toy)" not in home  # the home page lists the store's architectures only
        assert "PTX (virtual ISA, ptx)" in home and "AMD GPU ISA (native ISA, amdgpu)" in home
        found = c.get("/search", params={"q": "toy registers", "isa": "toy"})
        assert found.status_code == 200 and '<option value="toy" selected>Toy ISA</option>' in found.text
        assert "/isa/toy/tadd" in found.text and "/isa/toy/tmul" in found.text
        assert "/isa/toy/" not in c.get("/search", params={"q": "tadd", "isa": "ptx"}).text
        assert c.get("/search", params={"q": "tadd", "isa": "sass"}).status_code == 422
    monkeypatch.setattr(cli, "open_store", lambda: store)
    assert cli.main(["show", "tmul", "--isa", "toy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"] == TOY["tmul"] and out["isa"] == "toy" and out["targets"] == ["toy1"]
    assert cli.main(["show", "tadd", "--arch", "toy"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("tadd  (GPU Virtual ISA, Toy Corp; Toy; arith)") and "Related PTX concepts:" in text
    assert cli.main(["show", "tsub", "--isa", "toy"]) == 2
    assert capsys.readouterr().err.strip().endswith("no instruction tsub in the toy ISA")


def test_playground_tabs_come_from_the_registry(toy, store):
    """The playground page's tabs are every registered ISA's modes; the toy's tab has the form its hook gives
    (fields, buttons; no API, so no script takes it over) and the server answers it."""
    import re

    from starlette.testclient import TestClient

    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        page = c.get("/playground").text
        tabs = [t.split('"')[0] for t in page.split('role="tab" href="?mode=')[1:]]
        assert tabs == ["decode", "encode", "eval", "ptx", "toy"] and ">Toy</a>" in page
        form = re.search(r'<form class="pg" id="pg-toy"[^>]*>.*?</form>', page, re.S).group(0)
        assert " hidden>" in form.split("\n")[0] and "data-api" not in form.split("\n")[0]
        assert "Toy <code>t</code>-instruction" in form and 'id="toy-name"' in form and 'placeholder="tmul"' in form
        assert re.search(r'<input name="times" id="toy-times" type="number" min="1" max="9" value="2"', form)
        assert '<button type="submit" name="action" value="run">Run toy</button>' in form and ">Dry run<" in form
        assert 'id="hex"' not in form and 'name="arch"' not in form
        r = c.get("/playground", params={"mode": "toy", "name": "tmul", "times": "3", "action": "dry"})
        assert r.status_code == 200 and PLAYED == [("tmul", "3", "dry")]
        form = re.search(r'<form class="pg" id="pg-toy"[^>]*>.*?</form>', r.text, re.S).group(0)
        assert 'value="tmul"' in form and 'value="3"' in form and " hidden>" not in form.split("\n")[0]
        assert '<dt>name</dt><dd>tmul</dd>' in r.text  # (its answer, drawn as a value)
        assert c.get("/playground", params={"mode": "nonsense"}).status_code == 200  # the first tab, decode


def test_relations_of_an_absent_feature_package_are_none(toy):
    """A relation hook whose module is not part of this build answers nothing (the page has no Related
    section); an ImportError inside an existing module is a bug and propagates."""
    from gpuisa.page.related import related

    with isas.registered(isas.Isa("toy2", "Toy 2", "T2", "Toy Corp", "virtual", "toy2 instructions", own_archs=("toy2",)),
                         relations={"toy": "gpuisa_absent_package.relations:related"}):
        assert isas.related("toy2", "tadd") == [] and related("toy2", "tadd", None) is None
    with isas.registered(isas.Isa("toy3", "Toy 3", "T3", "Toy Corp", "virtual", "toy3 instructions", own_archs=("toy3",)),
                         relations={"toy": "gpuisa.web.site:no_such_function"}):
        with pytest.raises(AttributeError):
            isas.related("toy3", "tadd")


def test_web_refuses_it_once_unregistered(store):
    from starlette.testclient import TestClient

    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        assert c.get("/api/show", params={"name": "tadd", "isa": "toy"}).status_code == 422
        assert c.get("/api/asm/toy/tadd").status_code == 404
        assert c.get("/api/search", params={"q": "tadd", "isa": "toy"}).status_code == 422
        assert not [h for h in c.get("/api/search", params={"q": "tadd"}).json() if h["isa"] == "toy"]


def test_builtin_hooks_resolve():
    """Every hook of the built-in ISAs names a callable that exists (a renamed function fails here)."""
    for i in isas.all_isas():
        assert i.arch_names() and set(i.capabilities) <= set(isas.CAPABILITIES)
        for hook in (*i.capabilities.values(), i.page, i.builder):
            assert callable(isas.load(hook)), (i.key, hook)
    assert [e["name"] for e in isas.related("amdgpu", "v_mad_i32_i24", "rdna3.5")] == ["mad24"]
    assert "v_mad_i32_i24" in [e["name"] for e in isas.related("ptx", "mad24")]


def test_static_doc_export_sees_it(toy, store, tmp_path):
    import json

    from gpuisa.doclookup.export import export_docs

    export_docs(tmp_path, store)
    assert json.loads((tmp_path / "api/asm/index.json").read_text())["toy"] == ["tadd", "tmul"]
    assert json.loads((tmp_path / "api/asm/toy/tmul.json").read_text())["tooltip"] == TOY["tmul"]


def test_cli_search_isa_filter(cli_env):
    import json

    from conftest import run_cli

    both = json.loads(run_cli(["search", "add", "--json", "--limit", "500"], cli_env).stdout)
    assert {"amdgpu", "ptx"} <= {r["isa"] for r in both}
    for isa in ("ptx", "amdgpu"):
        r = run_cli(["search", "add", "--isa", isa, "--json", "--limit", "500"], cli_env)
        rows = json.loads(r.stdout)
        assert rows and {x["isa"] for x in rows} == {isa}
        assert len(rows) >= len([x for x in both if x["isa"] == isa])  # none of its matches crowded out
    assert json.loads(run_cli(["search", "add", "--isa", "ptx", "--json"], cli_env).stdout)[0]["name"] == "add"
    r = run_cli(["search", "add", "--isa", "sass"], cli_env)
    assert r.returncode == 2 and "invalid choice: 'sass'" in r.stderr and "Traceback" not in r.stderr
