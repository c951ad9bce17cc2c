"""Build hooks: the wheel ships a ready SQLite store built from the committed facts, and the C accelerator of
``gpuisa decode`` (``gpuisa/codec/fastdecode.c``) where a C compiler is there: it is an optional extension,
so ``pip install .`` without a compiler still works (the decode then runs its numpy path)."""

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPyWithStore(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return  # editable checkouts build the store on first use, into the user cache
        lib = Path(self.build_lib)
        sys.path.insert(0, str(lib))
        try:
            from gpuisa.store import build

            build(lib / "gpuisa" / "data" / "gpuisa.sqlite")
        except Exception as exc:  # the store is then built on first use, into the user cache
            print(f"warning: prebuilt store skipped: {exc}", file=sys.stderr)
        finally:
            sys.path.remove(str(lib))


FASTDECODE = Extension("gpuisa.codec.fastdecode", ["src/gpuisa/codec/fastdecode.c", "src/gpuisa/codec/fastdecode_tables.c",
                        "src/gpuisa/codec/fastdecode_input.c"],
                       depends=["src/gpuisa/codec/fastdecode.h"], optional=True, extra_compile_args=["-O2"])

setup(cmdclass={"build_py": BuildPyWithStore}, ext_modules=[FASTDECODE])
