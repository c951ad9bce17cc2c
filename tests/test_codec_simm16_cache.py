"""The named-field immediate tables the encoder reads backwards (``codec.simm16``) are kept in the data
folder's cache: a later process reads them instead of making them again, and a damaged or stale file (made
from other sources) is made again, never trusted.  That a made table equals decoding all 65,536 values is
``test_codec_simm16_tables.py``'s."""

import os
import subprocess
import sys

import pytest

from gpuisa.cachefile import cache_path

CODE = """
import sys, json
from gpuisa.codec import simm16
from gpuisa.codec.decoder import get_decoder
d = get_decoder("rdna3", False)
key = next(k for k in d.plans if k.startswith("s_waitcnt|"))
for mode in sys.argv[1:]:  # (one line per mode: a table made now and the cached table, in this order)
    table = simm16._values("rdna3", False, key) if mode == "cached" else simm16._built_values(d, key)
    print(json.dumps(sorted([" ".join(k), v] for k, v in table.items())))
"""


def _run(home, *modes):
    env = dict(os.environ, GPUISA_HOME=str(home))
    out = subprocess.run([sys.executable, "-c", CODE, *modes], env=env, capture_output=True, text=True, check=True)
    return out.stdout


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("simm16")


def _file(home):
    folder = os.path.join(str(home), "cache")
    names = [n for n in os.listdir(folder) if n.startswith("simm16-rdna3-s_waitcnt")]
    assert len(names) == 1, names
    return os.path.join(folder, names[0])


def test_cached_table_equals_a_made_one_and_damage_is_remade(home):
    fresh, first = _run(home, "fresh", "cached").splitlines(keepends=True)  # a table made; made again, written
    assert '"vmcnt(0)"' in fresh or "vmcnt(0)" in fresh  # the table holds LLVM's spelling of the counters
    path = _file(home)
    second = _run(home, "cached")  # read back
    assert first == fresh and second == fresh
    with open(path, "r+b") as f:  # one byte changed: the seal's CRC refuses it, the table is made again
        f.seek(-3, os.SEEK_END)
        b = f.read(1)
        f.seek(-3, os.SEEK_END)
        f.write(bytes([b[0] ^ 0xFF]))
    assert _run(home, "cached") == fresh
    with open(path, "wb") as f:  # not a cache file at all
        f.write(b"garbage")
    assert _run(home, "cached") == fresh


def test_cache_path_is_under_the_one_cache_root(home, monkeypatch):
    monkeypatch.setenv("GPUISA_HOME", str(home))
    assert cache_path("simm16-x.marshal").startswith(os.path.join(str(home), "cache"))


def test_a_table_kept_from_other_sources_is_made_again(tmp_path, monkeypatch):
    from gpuisa.cachefile import write_stamped
    from gpuisa.codec import simm16
    from gpuisa.codec.decoder import get_decoder

    dec = get_decoder("rdna3", False)  # (the session's decoder and store; the cache file in a folder of its own)
    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    key = "s_delay_alu|SOPP"
    stamp = (simm16._sources(dec), "rdna3", False, key)
    assert any(name.endswith("rdna.py") for name, _, _ in stamp[0])  # (the printing rules' module among them)
    stale = ([[n, size + 1, t] for n, size, t in stamp[0]],) + stamp[1:]  # (as if a source had changed)
    path = cache_path("simm16-rdna3-s_delay_alu-SOPP.marshal")
    write_stamped(path, stale, {("bogus",): 1})
    simm16._values.cache_clear()
    try:
        assert simm16._values("rdna3", False, key) == simm16._built_values(dec, key)
    finally:
        simm16._values.cache_clear()
