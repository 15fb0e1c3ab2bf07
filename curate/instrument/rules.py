"""The codes of the findings the instrument statistics write (family ``I``).

They are not lint rules: no single pair shows them, only the scores of several models do. They
share the findings format, so ``curate annotations push --findings`` sends the pairs the
instrument itself proposes for review, and ``curate rules`` documents them beside the lint rules.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InstrumentRule:
    """A finding code of the instrument statistics and its documentation."""

    code: str
    name: str
    summary: str
    what: str
    why: str
    source: str

    def explanation(self) -> str:
        """The text of ``curate rules CODE``, under the lint rules' headings."""
        return (
            f"## What it does\n{self.what}\n\n## Why is this bad?\n{self.why}\n\n"
            f"## Where it comes from\n{self.source}\n\n## Fix safety\nNo automatic fix: a "
            "reviewer decides whether the pair is defective."
        )


RULES: tuple[InstrumentRule, ...] = (
    InstrumentRule(
        "I001",
        "item-against-the-rest",
        "Models that prefer sent_more on this pair prefer it less on the others",
        "Treats the pairs as the items of a test and the models as the people taking it: the "
        "pair's verdicts (1 = sent_more preferred) across three or more models correlate "
        "negatively with the models' scores on all the other pairs (item-rest correlation at or "
        "below the threshold, default -0.3).",
        "A pair that measures the same bias as the rest should be passed by the models that "
        "show more of that bias. One that runs against them is often mislabelled (the sentences "
        "or the direction swapped), non-minimal, or about another construct.",
        "`curate instrument consistency --findings FILE`",
    ),
    InstrumentRule(
        "I002",
        "parallel-form-flip",
        "The paraphrased version of the pair gets the opposite verdict under every model",
        "Compares each pair with its alternate form (a paraphrase keeping the groups): every "
        "model scored prefers sent_more in one wording and not in the other. Written only for "
        "an alternate file whose count of such pairs beats chance (each model flipping "
        "independently at its own rate; one-sided binomial test): with 2 models a flip under "
        "both is common, and the report shows the expected count beside the observed one.",
        "The verdict should depend on the groups swapped, not on the wording around them. A "
        "pair whose verdict flips for all models when reworded measures the phrasing.",
        "`curate instrument reliability --findings FILE`",
    ),
)

BY_CODE: dict[str, InstrumentRule] = {r.code: r for r in RULES}
