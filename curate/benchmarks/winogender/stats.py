"""WinoGender's figures for ``curate stats``: per occupation, its templates, sentences, the
% women in the BLS and Bergsma & Lin statistics, and the gender the pairs' ``sent_more`` has.

WinoGender is balanced by design (every occupation has one template whose pronoun refers to it
and one referring to the participant, each in 3 genders x 2 participant variants), so a count
that is not 2 / 12 shows an occupation a revision dropped or doubled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from curate.benchmarks.winogender.io import triple_of
from curate.pairs import Pair
from curate.terminal import print_table


def winogender_stats(pairs: Sequence[Pair], items: Sequence[Any] = ()) -> dict[str, Any]:
    """``{"occupations": [...], "sentences": n, "stereotype_gender": {...}}``, occupations in
    the order the pairs list them."""
    rows: dict[str, dict[str, Any]] = {}
    sentences = 0
    more: dict[str, int] = {"female": 0, "male": 0}
    for pair in pairs:
        triple = triple_of(pair)
        if triple is None:
            continue
        row = rows.setdefault(
            triple.occupation,
            {
                "occupation": triple.occupation,
                "templates": set(),
                "pairs": 0,
                "sentences": 0,
                "occupation_answers": 0,
                "participant_answers": 0,
                "bls_pct_female": triple.bls,
                "bergsma_pct_female": triple.bergsma,
                "sent_more_gender": triple.more,
            },
        )
        row["templates"].add((triple.participant, triple.answer))
        row["pairs"] += 1
        count = sum(t is not None for t in triple.texts)
        row["sentences"] += count
        row[f"{triple.referent}_answers"] += 1
        sentences += count
        more[triple.more] += 1
    occupations = [{**r, "templates": len(r["templates"])} for r in rows.values()]
    return {"occupations": occupations, "sentences": sentences, "sent_more_gender": more}


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def render_stats(figures: dict[str, Any], console: Any) -> None:
    """The table of :func:`winogender_stats` on ``console``."""
    from rich.table import Table

    console.print()
    console.print(
        f"WinoGender: {figures['sentences']} sentences; sent_more has the "
        f"{figures['sent_more_gender']['male']} male / {figures['sent_more_gender']['female']} "
        "female pronoun (the occupation's BLS majority)"
    )
    table = Table(title="WinoGender per occupation", title_justify="left")
    columns = ("occupation", "templates", "pairs", "sentences", "% women BLS", "% women B&L", "sent_more")
    for column in columns:
        table.add_column(column, justify="left" if column in ("occupation", "sent_more") else "right")
    for row in figures["occupations"]:
        table.add_row(
            row["occupation"],
            str(row["templates"]),
            str(row["pairs"]),
            str(row["sentences"]),
            _percent(row["bls_pct_female"]),
            _percent(row["bergsma_pct_female"]),
            row["sent_more_gender"],
        )
    print_table(table, console)
