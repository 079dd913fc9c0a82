"""Header tags that set options (NOTATION.md §4): the spellings real writers use are read,
anything else is a warning that names the tag, never silently ignored."""

from __future__ import annotations

import pytest

from referee.adjudication import adjudicate
from referee.adjudication.verdict import Verdict


def verdict_for(tag: str) -> Verdict:
    return adjudicate(f"; {tag}\n\n 5 point match\n\n Game 1\n A : 0    B : 0\n").verdict


def header_warnings(verdict: Verdict) -> list[str]:
    return [w.message for w in verdict.warnings if w.code == "invalid_header"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("On", True), ("off", False), ("YES", True), ("No", False), ("true", True), ("False", False)],
)
def test_flag_tags_take_every_usual_spelling(value: str, expected: bool) -> None:
    verdict = verdict_for(f'[Crawford "{value}"]')
    assert verdict.options["crawford"] is expected
    assert header_warnings(verdict) == []


@pytest.mark.parametrize("tag", ["Crawford", "Jacoby", "Beaver"])
def test_an_unknown_flag_value_is_a_warning_naming_the_tag(tag: str) -> None:
    verdict = verdict_for(f'[{tag} "Maybe"]')
    [message] = header_warnings(verdict)
    assert f"[{tag} 'Maybe']" in message
    assert "On/Off" in message


def test_crawford_no_turns_crawford_off() -> None:
    # The tournament director's case: [Crawford "No"] used to leave Crawford on.
    assert verdict_for('[Crawford "No"]').options["crawford"] is False


def test_a_cube_limit_that_is_not_a_number_is_a_warning() -> None:
    verdict = verdict_for('[CubeLimit "lots"]')
    [message] = header_warnings(verdict)
    assert "CubeLimit" in message
    assert verdict.options["cube_limit"] == 64  # the default stands


def test_an_unknown_variation_is_a_verdict_not_an_error() -> None:
    text = '; [Variation "NackGammon"]\n\n 3 point match\n\n Game 1\n A : 0    B : 0\n'
    verdict = adjudicate(text).verdict
    assert not verdict.valid
    assert [e.code for e in verdict.games[0].errors] == ["unsupported_variant"]
