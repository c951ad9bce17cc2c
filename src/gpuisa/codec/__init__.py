"""AMD GPU assembler and disassembler driven by the knowledge base (LLVM's syntax).

    gpuisa.codec.decode("rdna4", bytes.fromhex("050039d601050e00"))[0].text
    gpuisa.codec.encode("rdna3", "v_msad_u8 v5, v1, v2, s3").hex()
"""

from __future__ import annotations

from .decoder import Decoded, decode
from .encoder import Encoded, EncodeError, encode

__all__ = ["Decoded", "Encoded", "EncodeError", "decode", "encode"]
