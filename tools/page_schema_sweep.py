"""Every instruction page of every architecture in the store against the committed page schema.

    GPUISA_HOME=/tmp/gh python tools/page_schema_sweep.py [ARCH ...]

Builds each page (``pages.build_page``), validates it with ``jsonschema`` (draft 2020-12) against
``schema/instruction-page.schema.json`` and reads it back into the typed model (``page.codec.from_json``),
then prints: pages, schema errors, round-trip differences, CPU seconds of building and of validating.
Exit status 1 when any page fails.
"""

from __future__ import annotations

import json
import sys
import time

import jsonschema

from gpuisa.page.codec import from_json
from gpuisa.page.model import InstructionPage
from gpuisa.page.schema import SCHEMA_FILE
from gpuisa.pages import build_page
from gpuisa.store import Store


def main(argv: list[str]) -> int:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    store = Store()
    chosen = argv or [r["name"] for r in store.archs()]
    pages = failed = differ = 0
    build_s = check_s = 0.0
    for arch in chosen:
        for name in sorted(store.all_names(arch)):
            t0 = time.process_time()
            page = build_page(store, name, arch)
            t1 = time.process_time()
            errors = list(validator.iter_errors(page))
            same = from_json(InstructionPage, page).to_json() == page
            build_s, check_s = build_s + t1 - t0, check_s + time.process_time() - t1
            pages += 1
            if errors:
                failed += 1
                print(f"{arch} {name}: {errors[0].message[:200]}", file=sys.stderr)
            differ += not same
    print(f"pages {pages}, schema errors {failed}, round-trip differences {differ}, "
          f"cpu: build {build_s:.1f} s, validate {check_s:.1f} s")
    return 1 if failed or differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
