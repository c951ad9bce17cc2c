"""AMD GPU assembler and disassembler driven by the knowledge base (LLVM's syntax).

    gpuisa.codec.decode("rdna4", bytes.fromhex("050039d601050e00"))[0].text
    gpuisa.codec.encode("rdna3", "v_msad_u8 v5, v1, v2, s3").hex()

Names are resolved lazily: ``gpuisa.codec.pages`` (the Examples section's facts, read for every AMD
page ``gpuisa show`` draws) must not pay for importing the decoder and encoder.
"""

from __future__ import annotations

__all__ = ["Decoded", "Encoded", "EncodeError", "decode", "encode"]

_WHERE = {"Decoded": "decoder", "decode": "decoder", "Encoded": "encoder", "EncodeError": "encoder", "encode": "encoder"}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(name)
