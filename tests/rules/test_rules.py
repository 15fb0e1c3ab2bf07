"""Every rule: its documented bad examples are flagged, its good ones are not; plus the extra
CrowS-Pairs-like cases of cases.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from curate.benchmarks import all_rules, lint_target, own_codes
from curate.lint import LintSettings, lint_pairs
from curate.lint.rule import DatasetRule, Example, Rule

RULES = all_rules()
CASES = tomllib.loads((Path(__file__).parent / "cases.toml").read_text())


def _codes_for(examples: list[Example], rule: type[Rule]) -> list[set[str]]:
    """The codes ``rule`` reports for each example pair (or for the dataset, for dataset rules)."""
    settings = LintSettings(select=(rule.code,))
    pairs = [e.to_pair(i) for i, e in enumerate(examples)]
    items = {p.pair_id: e.item for p, e in zip(pairs, examples, strict=True) if e.item is not None}
    owner = own_codes().get(rule.code)  # a benchmark's own rule runs under its profile
    # a rule written for some languages runs on pairs of its first one (G004: French)
    language = rule.languages[0] if rule.languages else None
    findings = lint_pairs(pairs, settings, items=items, target=lint_target(owner, language))
    if issubclass(rule, DatasetRule):
        return [{f.code for f in findings}]
    return [{f.code for f in findings if f.pair_id == p.pair_id} for p in pairs]


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_is_documented(code: str) -> None:
    rule = RULES[code]
    assert rule.name == rule.name.lower() and " " not in rule.name
    assert rule.bad and rule.good, f"{code} needs bad and good example pairs"
    assert "Bad:" not in (rule.__doc__ or ""), f"{code}: examples belong in bad/good, not the docstring"
    text = rule.explanation()
    assert text.startswith("## What it does\n")
    for heading in ("## Example", "## Fix safety"):
        assert heading in text
    example = rule.bad[0]
    assert f'"{example.sent_more}" / "{example.sent_less}"' in text
    assert ("Safe automatic fix" in text) == rule.fixable


def test_rule_module_does_not_import_the_rules() -> None:
    """The registry lists the rules; the protocol module must not import it back (no cycle)."""
    import ast

    import curate.lint.rule as protocol

    tree = ast.parse(Path(protocol.__file__).read_text())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not any(name and name.startswith("curate.lint.rules") for name in imported)


@pytest.mark.parametrize("code", sorted(RULES))
def test_bad_examples_are_flagged(code: str) -> None:
    rule = RULES[code]
    for codes in _codes_for(list(rule.bad), rule):
        assert code in codes


@pytest.mark.parametrize("code", sorted(RULES))
def test_good_examples_pass(code: str) -> None:
    rule = RULES[code]
    for codes in _codes_for(list(rule.good), rule):
        assert code not in codes


def _case_params(kind: str) -> list:
    params = []
    for code, groups in CASES.items():
        for i, case in enumerate(groups.get(kind, [])):
            params.append(pytest.param(code, case, id=f"{code}-{kind}-{i}"))
    return params


def _example(case: dict) -> Example:
    annotations = case.get("annotations")
    return Example(
        case["more"],
        case["less"],
        case.get("bias", "race-color"),
        case.get("direction", "stereo"),
        annotations=tuple(tuple(a) for a in annotations) if annotations else None,
    )


@pytest.mark.parametrize(("code", "case"), _case_params("flag"))
def test_case_flagged(code: str, case: dict) -> None:
    assert code in _codes_for([_example(case)], RULES[code])[0]


@pytest.mark.parametrize(("code", "case"), _case_params("pass"))
def test_case_passes(code: str, case: dict) -> None:
    assert code not in _codes_for([_example(case)], RULES[code])[0]


def test_cases_name_existing_rules() -> None:
    """A case under an unknown code would silently never run."""
    assert set(CASES) <= set(RULES), sorted(set(CASES) - set(RULES))


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_has_flag_and_pass_cases(code: str) -> None:
    """Each rule is exercised on at least one pair it flags and one it passes, from its own
    examples or from cases.toml."""
    rule = RULES[code]
    extra = CASES.get(code, {})
    assert rule.bad or extra.get("flag"), f"{code} has no pair it must flag"
    assert rule.good or extra.get("pass"), f"{code} has no pair it must pass"
