"""The StereoSet lint profile: the shared rules that fit its design, and its own.

A StereoSet item keeps the target group fixed and swaps an *attribute*: the stereotype and the
anti-stereotype options are opposites by design (Nadeem et al. 2021: "fat" vs "skinny" is the
point). So the CrowS-Pairs rules whose premise is a *group* swapped under the same claim report
false findings by construction on every item; they are off here, each with the reason
``curate lint`` prints.
"""

from __future__ import annotations

from curate.benchmarks.spec import LintProfile

#: Shared rule code -> why StereoSet's design breaks its premise.
OFF: dict[str, str] = {
    "S002": "the options are an attribute and its opposite by design, not a polarity flip",
    "S004": "the swapped words are attributes, not groups, so they need not fit the domain",
    "S005": "the swapped words are attributes, not groups, so no group is replaced by a non-group",
    "S006": "the swapped words are attributes, not group counterparts",
    "L003": "every item is 'stereo' by construction (stereotype vs anti-stereotype option)",
}

PROFILE = LintProfile(select=("ALL",), off=OFF, rules=())
