"""Every failing input benchmarks/fuzz.py found, replayed: our usage error or a parse, never
another exception (the cases live in tests/fuzz_corpus/, named ``<target>--<hash>.<suffix>``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import test_fuzz, test_fuzz_readers, test_fuzz_surfaces
from tests.support.fuzzing import CORPUS

REPLAYERS = {**test_fuzz.REPLAYERS, **test_fuzz_surfaces.REPLAYERS, **test_fuzz_readers.REPLAYERS}
CASES = sorted(CORPUS.glob("*")) if CORPUS.is_dir() else []


def test_every_case_has_a_replayer() -> None:
    unknown = sorted({p.name.split("--", 1)[0] for p in CASES} - set(REPLAYERS))
    assert not unknown, f"corpus cases of unknown targets: {unknown}"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_corpus_case(path: Path) -> None:
    REPLAYERS[path.name.split("--", 1)[0]](path)
