"""Lint quality on a review set: does `curate lint` flag the pairs the reviewers call defective?

Runs the lint (default selection, or --select/--extend-select/--ignore/--preset like
`curate lint`) on the pairs of a review-set file and prints pair-level precision, recall and F1
against the reviewers' majority (ties left out), recall per defect group (perturbation, surface,
labels) and per label, and per rule the pairs it flags, the share the majority calls defective
and its top disagreements. The last line is `recall=0.xx precision=0.xx f1=0.xx flagged=N`.

The sentences come from the upstream CrowS-Pairs CSV when it is found (beside the review file,
or --crows PATH), since it is the source of truth and holds the validators' bias-type labels the
L rules read; otherwise from the review records themselves (the L rules then see no labels).

Run: python benchmarks/lint_quality.py ../shared/data/crows_pairs_review_dev.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curate.datasets import read_pairs  # noqa: E402
from curate.errors import CurateError  # noqa: E402
from curate.lint import LintSettings, lint_pairs  # noqa: E402
from curate.lint.presets import preset_settings  # noqa: E402
from curate.lint.quality import format_quality, measure, read_reviews, with_upstream  # noqa: E402

UPSTREAM_NAME = "crows_pairs_anonymized.csv"


def _codes(values: list[str] | None) -> tuple[str, ...] | None:
    if values is None:
        return None
    return tuple(c.strip() for v in values for c in v.split(",") if c.strip())


def _settings(args: argparse.Namespace) -> LintSettings:
    settings = preset_settings(args.preset) if args.preset else LintSettings()
    return settings.with_overrides(
        select=_codes(args.select),
        extend_select=settings.extend_select + (_codes(args.extend_select) or ()),
        ignore=settings.ignore + (_codes(args.ignore) or ()),
    )


def _upstream(review_path: Path, given: Path | None) -> Path | None:
    if given is not None:
        return given
    candidates = (review_path.parent / UPSTREAM_NAME, REPO / "data/raw" / UPSTREAM_NAME)
    return next((c for c in candidates if c.exists()), None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("review", type=Path, help="review-set JSON lines file")
    parser.add_argument("--select", action="append", help="rule codes or prefixes (like lint)")
    parser.add_argument("--extend-select", action="append", help="codes or prefixes to add")
    parser.add_argument("--ignore", action="append", help="codes or prefixes to skip")
    parser.add_argument("--preset", help="a named selection (see `curate rules --presets`)")
    parser.add_argument("--crows", type=Path, help=f"upstream {UPSTREAM_NAME} (default: found)")
    parser.add_argument("--top", type=int, default=3, help="disagreements listed per rule")
    parser.add_argument("--missed", type=int, default=0, help="missed defective pairs listed")
    args = parser.parse_args(argv)
    try:
        reviews = read_reviews(args.review)
        upstream = _upstream(args.review, args.crows)
        if upstream is not None:
            reviews = with_upstream(reviews, read_pairs(upstream))
        settings = _settings(args)
        findings = lint_pairs([r.pair for r in reviews], settings)
    except (CurateError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    quality = measure(reviews, findings)
    source = upstream.name if upstream else "the review records (no validator labels)"
    print(f"sentences from {source}")
    print(format_quality(quality, reviews, findings, top=args.top, show_missed=args.missed), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
