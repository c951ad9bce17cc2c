"""The playground's actions (decode, encode, evaluate; PTX check and evaluate), shared by the JSON API and the HTML
page, and its tabs (``Mode``: each ISA's ``playground`` hook in ``gpuisa.isas``).

Decoding and encoding come from ``gpuisa.codec`` and evaluation from ``gpuisa.semantics``; each is
looked up when a request needs it, so the server answers 404 with a clear message in a build
without that feature, and starts using it as soon as it is installed.  Every input is bounded here
(bytes, text length, lanes, operand count and size) before any feature code sees it.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Callable

from .. import archs
from ..errors import UserError
from ..features import optional_module

MAX_BYTES = 256  # decode: at most 64 dwords
MAX_HEX_CHARS = 2048
MAX_TEXT = 4096  # encode: assembly text
MAX_LINES = 64
MAX_LANES = 64  # wave64
MAX_OPERANDS = 16
MAX_NAME = 64

# feature -> (module that provides it, its function name), then the package-level spelling.
FEATURES = {
    "decode": (("gpuisa.codec", "decode"), ("gpuisa", "decode")),
    "encode": (("gpuisa.codec", "encode"), ("gpuisa", "encode")),
    "evaluate": (("gpuisa.semantics", "evaluate"), ("gpuisa", "evaluate")),
}
FEATURE_WHAT = {"decode": "decoding (gpuisa.codec)", "encode": "encoding (gpuisa.codec)",
                "evaluate": "evaluation (gpuisa.semantics)"}


_SEP = r"[\s,\[\]]*"
HEX_RE = re.compile(rf"{_SEP}(?:0[xX])?[0-9A-Fa-f]{{2}}(?:{_SEP}(?:0[xX])?[0-9A-Fa-f]{{2}})*{_SEP}")
BYTE_RE = re.compile(r"(?:0[xX])?([0-9A-Fa-f]{2})")


class FeatureMissing(LookupError):
    """A feature whose package is not installed yet (HTTP 404)."""


class BadInput(ValueError):
    """An input out of bounds or malformed (HTTP 422); the message says what is allowed."""


def resolve(feature: str):
    """The function implementing ``feature``, or None when its package is absent."""
    for module, attr in FEATURES[feature]:
        mod = optional_module(module)
        if mod is None:
            continue
        fn = getattr(mod, attr, None)
        if callable(fn):
            return fn
    return None


def available() -> dict[str, bool]:
    return {f: resolve(f) is not None for f in FEATURES}


def _need(feature: str):
    fn = resolve(feature)
    if fn is None:
        raise FeatureMissing(f"{FEATURE_WHAT[feature]} is not available in this installation yet")
    return fn


def native_arch(text) -> str:
    if not isinstance(text, str) or not text.strip() or len(text) > 32:
        raise BadInput("arch must be an architecture name such as rdna3 or a gfx target such as gfx1100")
    try:
        a = archs.resolve_arch(text)
    except archs.UnknownArch as exc:
        raise BadInput(str(exc)) from None
    if a.kind != "native":
        raise BadInput(f"{a.title} is a virtual ISA: decoding and encoding need a native architecture")
    return a.name


def codec_key(text: str) -> str:
    """The codec a valid ``arch`` (``native_arch``) runs: a processor's own where its feature flags set it apart
    from its generation (gfx1011's dot instructions), else the generation's."""
    return archs.codec_key(text)


def parse_hex(text) -> bytes:
    """The bytes of ``gpuisa decode HEX``: the CLI's own parser (bytes '05 00 39 d6', little-endian dwords
    '0xd6390005', one hex string), so the playground and the command line read an input alike."""
    from ..codec.cli import parse_hex as cli_parse_hex

    if not isinstance(text, str):
        raise BadInput("hex must be a string: bytes '05 00 39 d6', dwords '0xd6390005' or one hex string")
    if len(text) > MAX_HEX_CHARS:
        raise BadInput(f"hex is too long: at most {MAX_HEX_CHARS} characters ({MAX_BYTES} bytes)")
    try:
        data = cli_parse_hex(text.split())
    except UserError as exc:
        raise BadInput(str(exc)) from None
    if len(data) > MAX_BYTES:
        raise BadInput(f"at most {MAX_BYTES} bytes can be decoded at once")
    return data


def jsonable(value, depth: int = 0):
    """Results of feature code as plain JSON (dataclasses, bytes, numpy values, non-finite floats)."""
    if depth > 12:
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)}
    if isinstance(value, (bytes, bytearray)):
        return value.hex(" ")
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v, depth + 1) for v in value]
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return jsonable(value.tolist(), depth + 1)
    if hasattr(value, "to_json"):
        return jsonable(value.to_json(), depth + 1)
    return str(value)


def _feature_errors(what: str):
    """Errors of feature code that describe the input (not bugs) become BadInput."""
    return (UserError, ValueError, KeyError, LookupError, OverflowError)


def _is_codec(fn) -> bool:
    """Whether ``fn`` is gpuisa.codec's own (then the CLI's decoder, listing and assembler answer)."""
    return (getattr(fn, "__module__", "") or "").startswith("gpuisa.codec")


def _wave64(value) -> bool:
    if value in (None, False, "", "0", 0, "false", "off"):
        return False
    if value in (True, "1", 1, "true", "on"):
        return True
    raise BadInput("wave64 must be true or false")


def decode(arch, hex_text, wave64=False) -> dict:
    """``gpuisa decode --json``'s lines: the CLI's parser, decoder and listing."""
    a = native_arch(arch)
    data = parse_hex(hex_text)
    w64 = _wave64(wave64)
    fn = _need("decode")
    if not _is_codec(fn):  # a stand-in decoder (tests): its own answer
        try:
            return {"arch": a, "bytes": len(data), "wave64": w64, "instructions": jsonable(list(fn(a, data)))}
        except _feature_errors("decode") as exc:
            raise BadInput(f"cannot decode these bytes for {archs.by_name(a).title}: {exc}") from None
    import io
    import json

    from ..codec.listing import write_raw
    from ..codec.processor_codec import decoder_for

    buf = io.BytesIO()
    try:
        write_raw(buf, decoder_for(codec_key(arch), w64), data, True)
    except _feature_errors("decode") as exc:
        raise BadInput(f"cannot decode these bytes for {archs.by_name(a).title}: {exc}") from None
    lines = [json.loads(x) for x in buf.getvalue().decode().splitlines() if x.strip()]
    for line in lines:
        line["name"] = (line.get("text") or "").split(" ", 1)[0]
    return {"arch": a, "bytes": len(data), "wave64": w64, "instructions": lines}


def encode(arch, text, wave64=False) -> dict:
    """``gpuisa encode``: the CLI's assembler, every line; errors one line each."""
    a = native_arch(arch)
    if not isinstance(text, str) or not text.strip():
        raise BadInput("text must be assembly text, e.g. 'v_msad_u8 v5, v1, v2, v3'")
    if len(text) > MAX_TEXT or text.count("\n") >= MAX_LINES:
        raise BadInput(f"text is too long: at most {MAX_TEXT} characters and {MAX_LINES} lines")
    w64 = _wave64(wave64)
    fn = _need("encode")
    if not _is_codec(fn):  # a stand-in encoder (tests)
        try:
            data = fn(a, text)
        except _feature_errors("encode") as exc:
            raise BadInput(f"cannot encode this text for {archs.by_name(a).title}: {exc}") from None
        return {"arch": a, "bytes": len(data), "hex": bytes(data).hex(" ")}
    from ..codec.cli import assemble_lines

    lines = list(enumerate(text.split("\n"), 1))
    try:
        results, errors = assemble_lines(codec_key(arch), lines, w64)
    except _feature_errors("encode") as exc:
        raise BadInput(f"cannot encode this text for {archs.by_name(a).title}: {exc}") from None
    if errors:
        e = errors[0]
        raise BadInput(e.reason if len(lines) == 1 else f"line {e.line}: {e.reason}")
    data = b"".join(r.data for _, _, r in results)
    return {"arch": a, "bytes": len(data), "hex": data.hex(" "), "wave64": w64,
            "lines": [{"offset": o, "text": t, "hex": r.data.hex(" "), "encoding": r.encoding} for o, t, r in results]}


def ptx_check(text, target=None, version=None) -> dict:
    """``gpuisa ptx check``: one PTX instruction against the catalog."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput("text must be one PTX instruction, e.g. 'vsub.u32.u32.u32 d, a, b;'")
    if len(text) > 512 or "\n" in text.strip():
        raise BadInput("text must be one PTX instruction of at most 512 characters")
    from ..ptx.check import check_instruction

    try:
        r = check_instruction(text.strip(), target or None, version or None)
    except (UserError, ValueError, KeyError) as exc:
        raise BadInput(str(exc).splitlines()[0] if str(exc) else "cannot check this instruction") from None
    return {"isa": "ptx", "text": text.strip(), **{k: r.get(k) for k in ("valid", "name", "form", "error",
                                                                         "min_target", "ptx_version")}}


def ptx_evaluate(text, operands=None) -> dict:
    """``gpuisa eval --isa ptx``: one PTX instruction on integer inputs."""
    check = ptx_check(text)
    if not check["valid"]:
        raise BadInput(f"not a valid PTX instruction: {check['error']}")
    operands = operands or {}
    if not isinstance(operands, dict) or len(operands) > MAX_OPERANDS:
        raise BadInput(f"operands must be an object of at most {MAX_OPERANDS} NAME: value pairs")
    inputs = {}
    for k, v in operands.items():
        if not isinstance(k, str) or not _OPERAND_NAME.fullmatch(k):
            raise BadInput(f"operand name {str(k)[:40]!r} is not allowed (letters, digits, '_')")
        v = _operand_value(k, v)
        if not isinstance(v, int):
            raise BadInput(f"PTX operand {k} takes one integer (decimal, 0x.., 0b..)")
        inputs[k] = v
    try:
        from ..ptx.semantics import evaluate_ptx
    except ImportError:
        raise FeatureMissing("PTX semantics are not available in this installation") from None
    try:
        res = evaluate_ptx(check["text"], inputs)
    except (ValueError, KeyError, UserError) as exc:
        raise BadInput(str(exc).splitlines()[0] if str(exc) else "cannot evaluate this instruction") from None
    return {"isa": "ptx", "text": check["text"], "form": check["form"], "result": jsonable(res)}


_OPERAND_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")


def _operand_value(name: str, v):
    if isinstance(v, bool) or v is None:
        raise BadInput(f"operand {name}: a number, a hex string or a list of at most {MAX_LANES} of them")
    if isinstance(v, int):
        if abs(v) >= 1 << 128:
            raise BadInput(f"operand {name}: integers are limited to 128 bits")
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, str):
        s = v.strip()
        if len(s) > 64:
            raise BadInput(f"operand {name}: values are at most 64 characters")
        try:
            return int(s, 0)
        except ValueError:
            try:
                return float(s)
            except ValueError:
                raise BadInput(f"operand {name}: {s!r} is not a number (decimal, 0x hex, or a float)") from None
    if isinstance(v, list):
        if not v or len(v) > MAX_LANES:
            raise BadInput(f"operand {name}: a list needs 1 to {MAX_LANES} values (one per lane)")
        return [_operand_value(name, x) for x in v if not isinstance(x, list) or _reject_nested(name)]
    raise BadInput(f"operand {name}: a number, a hex string or a list of at most {MAX_LANES} of them")


def _reject_nested(name: str):
    raise BadInput(f"operand {name}: lists cannot be nested")


def parse_operands_text(text: str) -> dict:
    """The playground form's 'S0=1 S1=0x10 S2=1,2,3' read by ``gpuisa eval``'s own parser (lists: one value per lane)."""
    from ..semantics.cli import parse_operands

    if len(text or "") > 1024:
        raise BadInput("operands are at most 1024 characters")
    try:
        return parse_operands((text or "").split())
    except UserError as exc:
        raise BadInput(str(exc)) from None


def evaluate(arch, name, lanes=1, operands=None, wave64=False) -> dict:
    a = native_arch(arch)
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.]{1,%d}" % MAX_NAME, name):
        raise BadInput(f"name must be an instruction name (letters, digits, '_', '.'; at most {MAX_NAME} characters)")
    if isinstance(lanes, bool) or not isinstance(lanes, int) or not 1 <= lanes <= MAX_LANES:
        raise BadInput(f"lanes must be an integer from 1 to {MAX_LANES}")
    w64 = _wave64(wave64)
    operands = operands or {}
    if not isinstance(operands, dict) or len(operands) > MAX_OPERANDS:
        raise BadInput(f"operands must be an object of at most {MAX_OPERANDS} NAME: value pairs")
    clean = {}
    for k, v in operands.items():
        if not isinstance(k, str) or not _OPERAND_NAME.fullmatch(k) or k in ("arch", "name", "lanes", "wave"):
            raise BadInput(f"operand name {str(k)[:40]!r} is not allowed (letters, digits, '_'; at most 32 characters)")
        clean[k] = _operand_value(k, v)  # names as the semantics engine spells them (S0, S1, ...)
    fn = _need("evaluate")
    kw = {"wave": 64} if w64 else {}
    try:
        result = fn(a, name.lower(), lanes=lanes, **kw, **clean)
    except (TypeError,) + _feature_errors("evaluate") as exc:
        raise BadInput(f"cannot evaluate {name} on {a}: {exc}") from None
    return {"arch": a, "name": name.lower(), "lanes": lanes, "wave64": w64, "result": jsonable(result)}


# -- the page's tabs: each ISA's modes, from the ISA registry's ``playground`` hooks --------------------------

@dataclasses.dataclass(frozen=True)
class Field:
    """One input of a tab's form.  ``name``: its parameter in the page's address and the no-JavaScript answer's
    ``pg`` key; ``kind``: text | textarea | number | checkbox | arch (the native architectures) | operands
    (``S0=1 S1=0x10``, sent as an object); ``body``: its key in the JSON the page's script posts (None: not
    sent, "": ``name``); ``only``: sent with that button's action alone.  Text between backquotes in ``label``
    is shown as code."""

    name: str
    label: str
    kind: str = "text"
    id: str = ""  # the element's id (default: name)
    body: str | None = ""
    default: str = ""
    placeholder: str = ""
    maxlength: int = 1024  # (number: the largest value)
    only: str = ""
    code: bool = True  # (typed in a monospaced font, not spell-checked)

    @property
    def dom_id(self) -> str:
        return self.id or self.name

    @property
    def body_key(self) -> str | None:
        return self.name if self.body == "" else self.body

    def label_parts(self) -> list[tuple[str, bool]]:
        """The label as (text, is code) pieces."""
        return [(t, i % 2 == 1) for i, t in enumerate(self.label.split("`")) if t]


@dataclasses.dataclass(frozen=True)
class Button:
    """A submit button; ``action`` (the form's ``action`` parameter) and ``api`` (default: the tab's) choose
    what it asks."""

    label: str
    action: str = ""
    api: str = ""


RESULTS = ("listing", "bytes", "verdict", "value")  # how a tab's answer is drawn (template and script alike)


@dataclasses.dataclass(frozen=True)
class Mode:
    """One tab of the playground page: ``?mode=KEY``; a filled ``field`` asks the server for ``answer(form)``
    (the no-JavaScript form; the page's script posts the same inputs to ``api``; a tab without one is answered
    by the server alone).  ``fields`` (default: one text input named ``field``), ``buttons`` (default: one
    titled ``title``) and ``result`` (one of RESULTS) are its form and how its answer is drawn; ``feature``: the
    FEATURES entry it needs (the page says when it is absent); ``command``: the command line it reads input as."""

    key: str
    title: str
    field: str
    answer: Callable[[dict], dict]
    fields: tuple[Field, ...] = ()
    buttons: tuple[Button, ...] = ()
    api: str = ""
    result: str = "value"
    feature: str = ""
    command: str = ""

    def __post_init__(self) -> None:
        if not self.fields:
            object.__setattr__(self, "fields", (Field(self.field, self.title),))
        if not self.buttons:
            object.__setattr__(self, "buttons", (Button(self.title),))
        if self.result not in RESULTS:
            raise ValueError(f"playground tab {self.key}: result {self.result!r} is not one of {', '.join(RESULTS)}")

    def missing(self) -> str:
        """What the page says when the tab's feature is absent ('' when present or none)."""
        if not self.feature or resolve(self.feature) is not None:
            return ""
        return f"{FEATURE_WHAT[self.feature][:1].upper()}{FEATURE_WHAT[self.feature][1:]} is not available " \
               "in this installation yet."


def _evaluate_form(pg: dict) -> dict:
    try:
        lanes = int(pg["lanes"])
    except ValueError:
        raise BadInput(f"lanes must be an integer from 1 to {MAX_LANES}") from None
    return evaluate(pg["arch"], pg["name"], lanes, parse_operands_text(pg["operands"]), pg["wave64"])


def _ptx_form(pg: dict) -> dict:
    ops = parse_operands_text(pg["operands"])
    return ptx_evaluate(pg["ptx"], ops) if pg["action"] == "eval" else ptx_check(pg["ptx"])


def _arch(mode: str) -> Field:
    return Field("arch", "Architecture", "arch", id=f"arch-{mode}", default="rdna4", code=False)


def _wave(mode: str) -> Field:
    return Field("wave64", "wave64", "checkbox", id=f"wave-{mode}")


def amd_modes() -> list[Mode]:
    """The AMD GPU ISA's tabs (its ``playground`` hook)."""
    hex_field = Field("hex", "Machine code: bytes `05 00 39 d6`, dwords `0xd6390005` or one hex string",
                      placeholder="0xd6390005 0x000e0501", maxlength=MAX_HEX_CHARS)
    text = Field("text", "Assembly (LLVM syntax, one instruction a line)", "textarea",
                 placeholder="v_msad_u8 v5, v1, v2, s3", maxlength=MAX_TEXT)
    name = Field("name", "Instruction", placeholder="v_msad_u8", maxlength=MAX_NAME)
    lanes = Field("lanes", "Lanes", "number", default="1", maxlength=MAX_LANES, code=False)
    operands = Field("operands", "Operands", "operands", placeholder="S0=0x01020304 S1=0x01010101 S2=0")
    return [Mode("decode", "Decode", "hex", lambda pg: decode(pg["arch"], pg["hex"], pg["wave64"]),
                 (_arch("decode"), hex_field, _wave("decode")), api="/api/decode", result="listing",
                 feature="decode", command="gpuisa decode"),
            Mode("encode", "Encode", "text", lambda pg: encode(pg["arch"], pg["text"], pg["wave64"]),
                 (_arch("encode"), text, _wave("encode")), api="/api/encode", result="bytes", feature="encode",
                 command="gpuisa encode"),
            Mode("eval", "Evaluate", "name", _evaluate_form, (_arch("eval"), name, lanes, operands, _wave("eval")),
                 api="/api/eval", feature="evaluate", command="gpuisa eval")]


def ptx_modes() -> list[Mode]:
    """PTX's tab (its ``playground`` hook): check, or evaluate, a statement."""
    fields = (Field("ptx", "PTX instruction", body="text", placeholder="vsub.u32.u32.u32 d, a, b;", maxlength=512),
              Field("operands", "Inputs (for Evaluate)", "operands", id="ptx-operands", placeholder="a=7 b=3",
                    only="eval"))
    return [Mode("ptx", "PTX", "ptx", _ptx_form, fields,
                 (Button("Check", "check"), Button("Evaluate", "eval", "/api/ptx/eval")), api="/api/ptx/check",
                 result="verdict", command="gpuisa ptx check")]


def modes() -> dict[str, Mode]:
    """Every registered ISA's tabs, in registration order (the first is the page's default)."""
    from .. import isas

    out: dict[str, Mode] = {}
    for key in isas.keys("playground"):
        for m in isas.get(key).hook("playground")():
            out.setdefault(m.key, m)
    return out


def form_state(params) -> dict:
    """The page's state (``pg``) from its address's parameters: the tab, every tab's field values (the first
    tab's defaults where absent) and the chosen button's action; where the tab's field is filled, the server's
    answer (``result``) or its one-line error (``error``, ``status`` 404/422): the no-JavaScript playground."""
    tabs = modes()
    mode = params.get("mode", "")
    chosen = tabs.get(mode) or next(iter(tabs.values()))
    pg: dict = {"mode": chosen.key}
    for m in tabs.values():
        for f in m.fields:
            if f.name not in pg:
                v = params.get(f.name, f.default)
                pg[f.name] = v in ("1", "on", "true") if f.kind == "checkbox" else v
    actions = [b.action for b in chosen.buttons]
    pg["action"] = params.get("action") if params.get("action") in actions else actions[0]
    try:
        if pg.get(chosen.field):
            pg["result"] = chosen.answer(pg)
    except FeatureMissing as exc:
        pg["error"], pg["status"] = str(exc), 404
    except BadInput as exc:
        pg["error"], pg["status"] = str(exc), 422
    return pg
