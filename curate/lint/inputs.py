"""Rules that need a column not every dataset shape has, and skipping them in the open.

Most rules read only the two sentences and the labels, which every shape has. A rule that reads
the validators' ``annotations`` can say nothing about a five-column revision or a StereoSet file:
there the column is *absent* (unknown for every pair), which is not the same as an *empty* cell
in a file that has the column (that pair simply has no annotations, and the rule passes it).
So an absent column skips the rule for the whole run, and the run says so once, instead of
reporting a clean bill of health the rule never checked.

The table below is the one place that knows which rule needs which column; it lives beside the
engine (not on the rule classes) so that rules stay pure checks of one pair.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from curate.lint.rule import Rule
from curate.lint.rules import all_rules
from curate.lint.settings import LintSettings, selected_codes

#: Rule code -> the :class:`~curate.pairs.Pair` fields it reads beyond sentences and labels.
NEEDED_FIELDS: dict[str, tuple[str, ...]] = {
    "L001": ("annotations",),  # label-support: the validators' bias-type labels
}


@dataclass(frozen=True)
class SkippedRule:
    """A selected rule that cannot run on this input, and the columns the input lacks."""

    code: str
    name: str
    missing: tuple[str, ...]
    #: The columns that would hold the missing fields, as the input's benchmark names them.
    columns: tuple[str, ...] = ()

    def note(self) -> str:
        columns = ", ".join(repr(c) for c in self.columns or self.missing)
        return (
            f"skipped {self.code} {self.name}: the input has no {columns} column, "
            "so the rule cannot check any pair"
        )


def skip_unavailable(
    settings: LintSettings,
    fields: Collection[str],
    column_of: Callable[[str], str] = str,
    rules: Mapping[str, type[Rule]] | None = None,
) -> tuple[LintSettings, tuple[SkippedRule, ...]]:
    """The settings without the selected rules whose columns the input lacks (``fields``: the
    Pair fields the input has, :attr:`curate.formats.Dataset.fields`), and those rules
    (``column_of``: the column of a field in the input's benchmark, for the note; ``rules``:
    every rule the run knows, :meth:`curate.lint.profiles.LintTarget.rules`; default: the
    shared ones)."""
    rules = all_rules() if rules is None else rules
    skipped = tuple(
        SkippedRule(code, rules[code].name, missing, tuple(map(column_of, missing)))
        for code in selected_codes(settings, rules)
        if (missing := tuple(f for f in NEEDED_FIELDS.get(code, ()) if f not in fields))
    )
    if not skipped:
        return settings, ()
    ignore = settings.ignore + tuple(s.code for s in skipped)
    return settings.with_overrides(ignore=ignore), skipped
