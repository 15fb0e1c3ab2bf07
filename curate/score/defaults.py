"""Defaults of scoring that the command line shows in its help.

A module of constants with no imports: ``curate score -h`` and a mistyped option of
``diff-report`` read them without importing the scoring stage (issue 31).
"""

from __future__ import annotations

#: Masked copies (or whole sentences, for the one-pass methods) per forward pass. 32 copies of
#: a CrowS-Pairs sentence (~16 tokens) make ~500 rows per matrix product: enough for a CPU
#: core's GEMM to run near its peak while the activations stay in cache (64 and 128 measured
#: slower on one core; benchmarks/bench_pll.py).
DEFAULT_BATCH_SIZE = 32
