#!/usr/bin/env python3
"""Regenerate the editor screenshots of ``gpuisa lsp`` in docs/images/ (not run in CI).

Headless: Neovim (0.7+) runs inside a detached tmux session on a small AMDGPU file (made by
``llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100`` from a tiny kernel when llc is there, else a
stored copy of its output) and on a small PTX file, each with one deliberately wrong line.  The
script waits for the server's diagnostics, opens them in the location list, hovers on a mnemonic,
captures the pane with its colours (``tmux capture-pane -e``), turns the ANSI text into HTML and
photographs that with headless Chromium.

Needs: tmux, nvim, chromium (or chromium-browser / google-chrome), a monospace font (DejaVu Sans
Mono).  Usage, from the repository root::

    python tools/lsp_screenshot.py [--gpuisa .venv/bin/gpuisa] [--out docs/images]
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COLS, ROWS = 112, 40
SOCKET = f"gpuisa-shot-{os.getpid()}"  # a tmux server of our own, killed at the end

KERNEL_LL = """\
define amdgpu_kernel void @saxpy(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %px = getelementptr float, ptr addrspace(1) %x, i32 %id
  %py = getelementptr float, ptr addrspace(1) %y, i32 %id
  %vx = load float, ptr addrspace(1) %px
  %vy = load float, ptr addrspace(1) %py
  %m = fmul float %a, %vx
  %r = fadd float %m, %vy
  store float %r, ptr addrspace(1) %py
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""

# llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 output for KERNEL_LL, up to s_endpgm (used when llc is absent)
KERNEL_S = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
\t.amdhsa_code_object_version 6
\t.text
\t.globl\tsaxpy                           ; -- Begin function saxpy
\t.p2align\t8
\t.type\tsaxpy,@function
saxpy:                                  ; @saxpy
; %bb.0:
\ts_clause 0x1
\ts_load_b128 s[0:3], s[4:5], 0x0
\ts_load_b32 s4, s[4:5], 0x10
\tv_and_b32_e32 v0, 0x3ff, v0
\ts_delay_alu instid0(VALU_DEP_1)
\tv_lshlrev_b32_e32 v0, 2, v0
\ts_waitcnt lgkmcnt(0)
\ts_clause 0x1
\tglobal_load_b32 v1, v0, s[0:1]
\tglobal_load_b32 v2, v0, s[2:3]
\ts_waitcnt vmcnt(1)
\tv_mul_f32_e32 v1, s4, v1
\ts_waitcnt vmcnt(0)
\ts_delay_alu instid0(VALU_DEP_1)
\tv_add_f32_e32 v1, v1, v2
\tglobal_store_b32 v0, v1, s[2:3]
\ts_endpgm
"""

AMD_BAD_LINE = "\tv_add_f32_e32 v1, v1, v300          ; (deliberate error)"

PTX = """\
//
// saxpy, as nvcc would write it (trimmed)
//
.version 8.5
.target sm_90
.address_size 64

.visible .entry saxpy(
\t.param .u64 saxpy_param_0,
\t.param .u64 saxpy_param_1,
\t.param .f32 saxpy_param_2
)
{
\t.reg .b32 \t%r<5>;
\t.reg .f32 \t%f<5>;
\t.reg .b64 \t%rd<8>;

\tld.param.u64 \t%rd1, [saxpy_param_0];
\tld.param.u64 \t%rd2, [saxpy_param_1];
\tld.param.f32 \t%f1, [saxpy_param_2];
\tcvta.to.global.u64 \t%rd3, %rd2;
\tcvta.to.global.u64 \t%rd4, %rd1;
\tmov.u32 \t%r1, %tid.x;
\tmul.wide.s32 \t%rd5, %r1, 4;
\tadd.s64.sat \t%rd6, %rd4, %rd5;         // (deliberate error)
\tadd.s64 \t%rd7, %rd3, %rd5;
\tld.global.f32 \t%f2, [%rd6];
\tld.global.f32 \t%f3, [%rd7];
\tfma.rn.f32 \t%f4, %f1, %f2, %f3;
\tst.global.f32 \t[%rd7], %f4;
\tret;
}
"""

INIT_LUA = r"""
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.swapfile = false
vim.opt.termguicolors = true
vim.opt.background = "dark"
vim.opt.laststatus = 2
vim.opt.shortmess:append("I")
vim.cmd("syntax on")
local hl = {
  Normal = "guifg=#d4d4d4 guibg=#1e1e1e", LineNr = "guifg=#5a5a5a guibg=#1e1e1e",
  SignColumn = "guibg=#1e1e1e", NormalFloat = "guifg=#d4d4d4 guibg=#2a2d3a",
  FloatBorder = "guifg=#7aa2f7 guibg=#2a2d3a", Comment = "guifg=#6a9955",
  StatusLine = "gui=NONE guifg=#1e1e1e guibg=#7aa2f7", StatusLineNC = "gui=NONE guifg=#9a9a9a guibg=#333333",
  DiagnosticError = "guifg=#f14c4c", DiagnosticVirtualTextError = "guifg=#f14c4c guibg=#3a2020",
  DiagnosticUnderlineError = "gui=undercurl guisp=#f14c4c", QuickFixLine = "guibg=#2a2d3a",
  CursorLine = "guibg=#2a2d3a", Search = "guibg=#444400", markdownError = "guifg=#d4d4d4 guibg=NONE",
  Identifier = "guifg=#9cdcfe", Statement = "guifg=#c586c0", PreProc = "guifg=#c586c0", Type = "guifg=#4ec9b0",
  Constant = "guifg=#b5cea8", Number = "guifg=#b5cea8", String = "guifg=#ce9178", Special = "guifg=#d7ba7d",
  Label = "guifg=#dcdcaa", Directory = "guifg=#9cdcfe", NonText = "guifg=#444444", EndOfBuffer = "guifg=#444444",
  Underlined = "gui=underline guifg=#7aa2f7", ModeMsg = "guifg=#d4d4d4", Title = "gui=bold guifg=#d4d4d4",
}
for group, spec in pairs(hl) do vim.cmd("highlight " .. group .. " " .. spec) end
vim.diagnostic.config({ virtual_text = { prefix = "●" }, underline = true, signs = true })
vim.lsp.handlers["textDocument/hover"] = vim.lsp.with(vim.lsp.handlers.hover, { border = "rounded", max_width = 100 })
vim.api.nvim_create_autocmd("BufReadPost", { pattern = { "*.s", "*.ptx" }, callback = function(args)
  local id = vim.lsp.start_client({ name = "gpuisa", cmd = { vim.env.GPUISA_LSP_BIN, "lsp" },
    root_dir = vim.fn.getcwd(), init_options = { arch = "rdna3" } })
  vim.lsp.buf_attach_client(args.buf, id)
end })
"""

# --- ANSI (tmux capture-pane -e) to HTML -------------------------------------------------------

BASE16 = ["#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
          "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
DEFAULT_FG, DEFAULT_BG = "#d4d4d4", "#1e1e1e"


def _256(n: int) -> str:
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


RESET = {"fg": None, "bg": None, "sp": None, "b": False, "i": False, "u": 0, "r": False}


def _color(args: list[int]) -> tuple[str | None, int]:
    """The colour of an extended 38/48/58 parameter list (after the 38), and how many numbers it used."""
    if args[:1] == [5] and len(args) >= 2:
        return _256(args[1]), 2
    if args[:1] == [2] and len(args) >= 4:
        return "#%02x%02x%02x" % tuple(args[1:4]), 4
    return None, len(args)


def _sgr(st: dict, params: str) -> None:
    """Apply one SGR sequence (its parameters, as in ESC [ params m) to the state st."""
    parts = params.split(";") if params else ["0"]
    k = 0
    while k < len(parts):
        if ":" in parts[k]:  # sub-parameters: 4:3 (curly underline), 38:2::r:g:b
            sub = [int(x) if x else 0 for x in parts[k].split(":")]
            if sub[0] == 4:
                st["u"] = sub[1] if len(sub) > 1 else 1
            elif sub[0] in (38, 48, 58):
                rest = sub[1:]
                if rest[:1] == [2] and len(rest) == 5:  # 38:2:<colourspace>:r:g:b
                    rest = [2] + rest[2:]
                st[{38: "fg", 48: "bg", 58: "sp"}[sub[0]]] = _color(rest)[0]
            k += 1
            continue
        c = int(parts[k] or 0)
        if c in (38, 48, 58):
            rest = [int(x or 0) for x in parts[k + 1:k + 5]]
            if rest[:1] == [5]:
                rest = rest[:2]
            colour, used = _color(rest)
            st[{38: "fg", 48: "bg", 58: "sp"}[c]] = colour
            k += 1 + used
            continue
        if c == 0:
            st.update(RESET)
        elif c in (1, 3, 7):
            st[{1: "b", 3: "i", 7: "r"}[c]] = True
        elif c == 4:
            st["u"] = 1
        elif c in (22, 23, 27):
            st[{22: "b", 23: "i", 27: "r"}[c]] = False
        elif c == 24:
            st["u"] = 0
        elif 30 <= c <= 37:
            st["fg"] = BASE16[c - 30]
        elif 90 <= c <= 97:
            st["fg"] = BASE16[c - 90 + 8]
        elif 40 <= c <= 47:
            st["bg"] = BASE16[c - 40]
        elif 100 <= c <= 107:
            st["bg"] = BASE16[c - 100 + 8]
        elif c in (39, 49, 59):
            st[{39: "fg", 49: "bg", 59: "sp"}[c]] = None
        k += 1


def ansi_to_html(text: str, cols: int) -> str:
    out, st = [], dict(RESET)  # capture-pane -e carries attributes over from one line to the next
    for line in text.split("\n"):
        spans, width = [], 0
        for m in re.finditer(r"\x1b\[([0-9;:]*)m|([^\x1b]+)|\x1b.", line):
            if m.group(2) is not None:
                chunk = m.group(2)
                width += len(chunk)
                fg, bg = st["fg"] or DEFAULT_FG, st["bg"] or DEFAULT_BG
                if st["r"]:
                    fg, bg = bg, fg
                css = f"color:{fg};background:{bg}"
                if st["b"]:
                    css += ";font-weight:bold"
                if st["i"]:
                    css += ";font-style:italic"
                if st["u"]:
                    style = "wavy" if st["u"] == 3 else "solid"
                    css += f";text-decoration:underline {style} {st['sp'] or fg}"
                spans.append(f'<span style="{css}">{html.escape(chunk)}</span>')
            elif m.group(1) is not None:
                _sgr(st, m.group(1))
        if width < cols:
            spans.append(f'<span style="background:{DEFAULT_BG}">{" " * (cols - width)}</span>')
        out.append("<div>" + "".join(spans) + "</div>")
    return "".join(out)


PAGE = """<!doctype html><meta charset="utf-8"><style>
html,body{{margin:0;background:#1e1e1e}}
.bar{{font:13px/16px 'DejaVu Sans',sans-serif;color:#bbbbbb;background:#2d2d2d;padding:6px 12px;height:16px}}
pre{{margin:0;padding:8px 12px;font:14.95px/19px 'DejaVu Sans Mono',monospace;color:{fg};background:{bg}}}
pre div{{display:flex;height:19px}} pre span{{white-space:pre;flex:none}}
</style><div class="bar">{title}</div><pre>{body}</pre>"""


def render(ansi: str, title: str, png: Path, browser: str, tmp: Path) -> None:
    page = tmp / (png.stem + ".html")
    if os.environ.get("GPUISA_SHOT_DEBUG"):
        (png.parent / (png.stem + ".ansi")).write_text(ansi)
    rows = ansi.rstrip("\n").split("\n")
    page.write_text(PAGE.format(fg=DEFAULT_FG, bg=DEFAULT_BG, title=html.escape(title),
                                body=ansi_to_html("\n".join(rows), COLS)), encoding="utf-8")
    width = COLS * 9 + 24  # DejaVu Sans Mono at 14.95px: 9px a cell, so cells meet on whole pixels
    height = len(rows) * 19 + 16 + 28
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                    f"--user-data-dir={tmp / 'chrome'}", f"--screenshot={png}",
                    f"--window-size={width},{height}", page.as_uri()],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


# --- driving Neovim in tmux --------------------------------------------------------------------

def tmux(*args: str, capture: bool = False) -> str:
    r = subprocess.run(["tmux", "-L", SOCKET, *args], check=True, text=True,
                       stdout=subprocess.PIPE if capture else subprocess.DEVNULL)
    return r.stdout if capture else ""


def pane(escapes: bool = False) -> str:
    return tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", "shot", capture=True)


def wait_for(pred, what: str, timeout: float = 60.0) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if pred(pane()):
            return
        time.sleep(0.3)
    sys.stderr.write(pane())
    raise SystemExit(f"timed out waiting for {what}")


def keys(*ks: str, pause: float = 0.4) -> None:
    for k in ks:
        tmux("send-keys", "-t", "shot", k)
        time.sleep(pause)


def ex(command: str) -> None:
    keys(":" + command, "Enter")


def shoot(path: Path, init: Path, hover_line: int, hover_word: str, wait_text: str, above: int) -> str:
    """Open path in nvim, wait for diagnostics, list them, hover on hover_word at hover_line (1-based),
    with `above` lines of the file shown above it."""
    tmux("new-session", "-d", "-s", "shot", "-x", str(COLS), "-y", str(ROWS), "-c", str(path.parent),
         f"nvim -u {init} {path.name}")
    try:
        tmux("set-option", "-t", "shot", "status", "off")
        wait_for(lambda s: path.name in s, "nvim")
        ex("lua vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)")
        wait_for(lambda s: "●" in s, "diagnostics")
        ex("lua vim.diagnostic.setloclist({ open = true })")
        ex("resize 4")
        ex("wincmd p")
        ex(f"call cursor({hover_line}, 1) | call search('{hover_word}', 'c', line('.'))")
        keys("zt", f"{above}\x19")  # lines of context above the cursor (Ctrl-Y scrolls)
        ex("lua vim.lsp.buf.hover()")
        wait_for(lambda s: wait_text in s, "hover")
        time.sleep(0.5)
        return pane(escapes=True)
    finally:
        tmux("kill-session", "-t", "shot")


def amd_source(tmp: Path) -> list[str]:
    llc = shutil.which("llc-22") or shutil.which("llc")
    text = KERNEL_S
    if llc:
        (tmp / "k.ll").write_text(KERNEL_LL)
        r = subprocess.run([llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", str(tmp / "k.ll"), "-o", "-"],
                           text=True, capture_output=True)
        if r.returncode == 0 and "s_endpgm" in r.stdout:
            text = r.stdout[:r.stdout.index("s_endpgm") + len("s_endpgm")] + "\n"
    lines = text.splitlines()
    lines = [l for l in lines if not l.strip().startswith(".amdhsa_code_object_version")]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parent.parent
    ap.add_argument("--gpuisa", default=str(root / ".venv" / "bin" / "gpuisa"))
    ap.add_argument("--out", default=str(root / "docs" / "images"))
    args = ap.parse_args()
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    for tool, found in (("tmux", shutil.which("tmux")), ("nvim", shutil.which("nvim")), ("chromium", browser)):
        if not found:
            raise SystemExit(f"{tool} is needed")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["GPUISA_LSP_BIN"] = str(Path(args.gpuisa).resolve())
    with tempfile.TemporaryDirectory(prefix="gpuisa-shot-") as t:
        tmp = Path(t)
        init = tmp / "init.lua"
        init.write_text(INIT_LUA)
        # a tmux server in the foreground (-D): no daemon(), which fails where /dev/null is not a device
        server = subprocess.Popen(["tmux", "-D", "-L", SOCKET], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        time.sleep(1)
        try:
            # AMDGPU: the wrong line goes just before the last v_add, the hover is on v_mul_f32_e32 below it
            lines = amd_source(tmp)
            i_mul = next(i for i, l in enumerate(lines) if "v_mul_f32" in l)
            lines.insert(i_mul, AMD_BAD_LINE)
            src = tmp / "saxpy.s"
            src.write_text("\n".join(lines) + "\n")
            ansi = shoot(src, init, i_mul + 2, "v_mul_f32_e32", "v_mul_f32", 10)
            render(ansi, "Neovim — gpuisa lsp — saxpy.s (gfx1100 / RDNA3): hover and diagnostics",
                   out / "lsp-neovim-amdgpu.png", browser, tmp)
            # PTX
            src = tmp / "saxpy.ptx"
            src.write_text(PTX)
            n = PTX.splitlines().index(next(l for l in PTX.splitlines() if l.startswith("\tfma.rn.f32"))) + 1
            ansi = shoot(src, init, n, "fma", "fma", 14)
            render(ansi, "Neovim — gpuisa lsp — saxpy.ptx (PTX 8.5, sm_90): hover and diagnostics",
                   out / "lsp-neovim-ptx.png", browser, tmp)
        finally:
            subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    for p in sorted(out.glob("lsp-neovim-*.png")):
        print(p, p.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
