"""Regeneration: everything that probes an oracle (llvm-mc-22, llvm-mca-22, ptxas) and writes committed facts.

The runtime never imports this package.  ``python -m gpuisa.regen`` runs every generator in order
(``steps.py``); ``--check`` regenerates into a scratch copy of the package and fails on any difference.
"""
