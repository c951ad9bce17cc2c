"""Build hook: the wheel ships a ready SQLite store built from the committed facts."""

import sys
from pathlib import Path

from setuptools import setup
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


setup(cmdclass={"build_py": BuildPyWithStore})
