"""The encoder and decoder of a processor that differs from its generation (``processors.py``: gfx1011's dot
instructions, gfx1013's ray tracing): the generation's codec, the instructions the processor adds taken from
their donor architecture's codec (llvm-mc-22 gives the processor the donor's words and texts for them), the
instructions it lacks refused and decoded as invalid.

``encoder_for`` / ``decoder_for`` take any name ``archs.codec_key`` reads (rdna1, gfx1010, gfx1011) and give the
shared codec of the generation where the processor has no feature flags.
"""

from __future__ import annotations

from .. import archs
from .decoded import Decoded
from .decoder import Decoder, get_decoder
from .encoded import EncodeError
from .encoder import Encoder, get_encoder
from .processors import Variant, instruction_name, variant

_ENC: dict[tuple[str, bool], Encoder] = {}
_DEC: dict[tuple[str, bool], Decoder] = {}


class ProcessorEncoder(Encoder):
    def __init__(self, v: Variant, wave64: bool = False):
        super().__init__(v.arch, wave64)
        self.processor = v

    def encode_line(self, text: str):
        words = text.split()
        name = instruction_name(words[0]) if words else ""
        if name in self.processor.lacks:
            raise EncodeError(f"{name} is not on {self.processor.target} (its generation {self.arch} has it on "
                              "other processors)")
        donor = self.processor.adds.get(name)
        if donor is not None:
            return get_encoder(donor, self.wave64).encode_line(text)
        return super().encode_line(text)


class ProcessorDecoder(Decoder):
    """Decodes on the scalar path (the batch tables are the generation's; ``scalar_only`` sends the base class's
    stream methods to ``decode_at`` at each start): each position as the generation's decoder reads it, else as
    the donor's where the donor's instruction is one the processor adds."""

    scalar_only = True

    def __init__(self, v: Variant, wave64: bool = False):
        super().__init__(v.arch, wave64)
        self.processor = v

    def decode_at(self, buf: bytes, off: int) -> Decoded:
        d = super().decode_at(buf, off)
        if d.valid and instruction_name(d.name or "") in self.processor.lacks:
            return Decoded(off, bytes(buf[off:off + 4]), None, False,
                           error=f"{d.name} is not on {self.processor.target}")
        if d.valid:
            return d
        for donor in sorted(set(self.processor.adds.values())):
            other = get_decoder(donor, self.wave64).decode_at(buf, off)
            if other.valid and self.processor.adds.get(instruction_name(other.name or "")) == donor:
                return other
        return d


def encoder_for(arch: str, wave64: bool = False) -> Encoder:
    return _codec_for(arch, wave64, _ENC, ProcessorEncoder, get_encoder)


def decoder_for(arch: str, wave64: bool = False) -> Decoder:
    return _codec_for(arch, wave64, _DEC, ProcessorDecoder, get_decoder)


def _codec_for(arch: str, wave64: bool, made: dict, cls, shared):
    """The processor's own codec (one per process) where it has feature flags, else the generation's shared one."""
    key = archs.codec_key(arch)
    v = variant(key)
    if v is None:
        return shared(key, wave64)
    if (key, wave64) not in made:
        made[key, wave64] = cls(v, wave64)
    return made[key, wave64]


def encode(arch: str, text: str, wave64: bool = False) -> bytes:
    """Assemble one or more instructions (one per line; ``;``/``//`` comments) for ``arch`` or a processor."""
    from .encoder import encode_lines

    return encode_lines(encoder_for(arch, wave64), text)
