"""The questions of the validation form and the values Label Studio stores for their answers.

These names are the contract between ``annotations/crows_validation.xml`` (control names and
choice aliases), the export parser and the vote. Aliases are short and stable so that a
reworded question in the form never changes stored annotations.
"""

from __future__ import annotations

from curate.pairs import BIAS_TYPES

#: Answers to "does sentence N demonstrate a stereotype, violate one, or neither?".
STEREOTYPE_LABELS: tuple[str, ...] = ("demonstrates", "violates", "neither")
MINIMAL_LABELS: tuple[str, ...] = ("yes", "no")
#: The nine CrowS-Pairs bias types plus "none" (the pair shows none of them).
BIAS_LABELS: tuple[str, ...] = (*BIAS_TYPES, "none")

#: Choice controls of the form -> the aliases they may store.
CHOICES: dict[str, tuple[str, ...]] = {
    "sentence1_stereotype": STEREOTYPE_LABELS,
    "sentence2_stereotype": STEREOTYPE_LABELS,
    "minimal": MINIMAL_LABELS,
    "bias_type": BIAS_LABELS,
}
#: Free-text controls: an optional corrected sentence 1 and sentence 2.
TEXTAREAS: tuple[str, ...] = ("correction1", "correction2")

#: The questions every usable annotation answers, in the order of the snapshot and the reports,
#: named by sentence role (sent_more / sent_less) rather than by on-screen position.
QUESTIONS: tuple[str, ...] = ("sent_more", "sent_less", "minimal", "bias_type")
QUESTION_LABELS: dict[str, tuple[str, ...]] = {
    "sent_more": STEREOTYPE_LABELS,
    "sent_less": STEREOTYPE_LABELS,
    "minimal": MINIMAL_LABELS,
    "bias_type": BIAS_LABELS,
}

#: Task data fields the form reads; a task lacking one is rejected by Label Studio on import.
FORM_FIELDS: tuple[str, ...] = ("sentence1", "sentence2", "diff_html", "findings_html")
#: Which pair field is shown as sentence 1.
SENTENCE_ROLES: tuple[str, ...] = ("sent_more", "sent_less")
