"""gpuisa: a cross-vendor GPU instruction-set reference and toolkit (AMD RDNA/CDNA, NVIDIA PTX).

The Python API is imported lazily so that ``import gpuisa`` stays cheap.
"""


def evaluate(*args, **kwargs):
    """Run an AMD instruction's pseudocode on a simulated wave (see gpuisa.semantics)."""
    from .semantics.wave import evaluate as _evaluate

    return _evaluate(*args, **kwargs)


def run(arch, program, state=None, wave=None, max_steps=10_000_000):
    """Run an AMD instruction sequence on one simulated wave; returns the final state (see gpuisa.semantics.program)."""
    from .semantics.program import run as _run

    return _run(arch, program, state, wave=wave, max_steps=max_steps)


def evaluate_ptx(text, inputs):
    """Run one PTX instruction on integer inputs (see gpuisa.ptx.semantics)."""
    from .ptx.semantics import evaluate_ptx as _evaluate_ptx

    return _evaluate_ptx(text, inputs)


def decode(arch, data, wave64=False):
    """Disassemble AMD machine code (see gpuisa.codec)."""
    from .codec.processor_codec import decoder_for

    return decoder_for(arch, wave64).decode(bytes(data))


def encode(arch, text, wave64=False):
    """Assemble AMD instructions in LLVM's syntax (see gpuisa.codec)."""
    from .codec.processor_codec import encode as _encode

    return _encode(arch, text, wave64)
