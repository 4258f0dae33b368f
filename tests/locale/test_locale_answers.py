"""Typed and scripted answers in Russian: да/нет at yes/no questions, a choice named by its
Russian label; the stored answer stays the language-independent value, so a recording made
in one language replays in the other."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee import api
from referee.catalog import render, set_language
from referee.core.dice import KeyedDice
from referee.core.errors import AnswerError, ScriptError
from referee.core.questions import Choice, ChoiceQuestion, ConfirmQuestion, MultiChoiceQuestion
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort, SequencePort
from referee.render.display import value_from_label
from referee.render.json_out import result_json

MISSION = ChoiceQuestion(id="mission", text=Msg.of("waw.q.mission"),
                         choices=tuple(Choice(m, Msg.of(f"waw.mission.{m}"))
                                       for m in ("he", "smoke", "fascam", "chemical")),
                         default_value="he")
KINDS = MultiChoiceQuestion(id="kinds", text=Msg.of("waw.q.mission"),
                            choices=tuple(Choice(k, Msg.of(f"waw.kind.{k}"))
                                          for k in ("combat-vehicle", "infantry", "hq")))
COVER = ConfirmQuestion(id="cover", text=Msg.of("epic.q.cover", target="x"))

MIXED_STACK = {"mission": "he", "hex": "0914", "firepower": 4, "hit_number": 4,
               "terrain_defence": 1,
               "units": [{"name": "Iron Tank Platoon (invented)", "kind": "combat-vehicle"},
                         {"name": "Grey Rifle Platoon (invented)", "kind": "infantry"}]}


@pytest.fixture
def russian() -> Iterator[None]:
    set_language("ru")
    yield
    set_language("en")


@pytest.mark.parametrize("typed", ["Дымовая завеса", "дымовая завеса", "  ДЫМОВАЯ ЗАВЕСА ",
                                   "Smoke", "smoke"])
def test_a_choice_is_named_by_its_label_in_either_language(typed: str) -> None:
    assert MISSION.accept(value_from_label(MISSION, typed)) == "smoke"


def test_russian_labels_are_read_whatever_the_current_language(russian: None) -> None:
    assert MISSION.accept(value_from_label(MISSION, "Chemical strike")) == "chemical"
    set_language("en")
    assert MISSION.accept(value_from_label(MISSION, "Химическая атака")) == "chemical"


def test_an_unknown_label_is_still_refused_with_the_legal_values() -> None:
    with pytest.raises(AnswerError) as caught:
        MISSION.accept(value_from_label(MISSION, "Туман"))
    assert caught.value.msg.id == "answer.error.choice"


@pytest.mark.parametrize(("raw", "values"), [
    ("пехота, штаб", ("infantry", "hq")),
    (["боевая машина", "hq"], ("combat-vehicle", "hq")),
    ("боевая машина", ("combat-vehicle",)),
    ("infantry hq", ("infantry", "hq")),
])
def test_several_choices_by_their_russian_labels(raw: object, values: tuple[str, ...]) -> None:
    assert KINDS.accept(value_from_label(KINDS, raw)) == values


@pytest.mark.parametrize(("typed", "value"), [("да", True), ("Да", True), ("д", True),
                                              ("нет", False), ("НЕТ", False), ("н", False)])
def test_yes_and_no_in_russian(typed: str, value: bool) -> None:
    assert COVER.accept(typed) is value


def test_a_typed_russian_label_at_a_text_prompt(russian: None) -> None:
    port = SequencePort(["Дымовая завеса", "да"], KeyedDice(1))
    assert port.ask(MISSION) == "smoke"
    assert port.ask(COVER) is True


def test_a_script_may_answer_with_russian_labels() -> None:
    port = AnswerPort({"mission": "химическая атака", "kinds": ["пехота"]}, KeyedDice(1))
    assert port.ask(MISSION) == "chemical"
    assert port.ask(KINDS) == ("infantry",)


def test_a_bad_russian_answer_in_a_script_names_file_and_question(russian: None) -> None:
    port = AnswerPort({"mission": "Туман"}, KeyedDice(1), file="s.toml")
    with pytest.raises(ScriptError) as caught:
        port.ask(MISSION)
    assert render(caught.value.msg).startswith("s.toml, ")
    assert "'Туман' — не из списка: he, smoke, fascam, chemical" in render(caught.value.msg)


def test_a_whole_attack_answered_in_russian_resolves_as_with_values(russian: None) -> None:
    dice = {"attack": [4, 6, 2, 1], "defence": [3]}
    by_value = api.attack("waw", {**dice, "effect.grey-rifle-platoon-invented.first":
                                  "disorganize"}, declaration=MIXED_STACK)
    by_label = api.attack("waw", {**dice, "effect.grey-rifle-platoon-invented.first":
                                  "Дезорганизовано"}, declaration=MIXED_STACK)
    assert result_json(by_value, {}) == result_json(by_label, {})
    assert render(by_label.outcome) == ("гекс 0914 — Iron Tank Platoon (invented), Grey Rifle "
                                        "Platoon (invented): дезорганизовано (2 итоговых "
                                        "попадания)")


def test_epic_none_typed_in_russian(russian: None) -> None:
    result = api.attack("epic", {"attack-kind": "Только бросок на попадание", "weapons": 1,
                                 "weapon.1.shots": 2, "weapon.1.ap": "5+",
                                 "weapon.1.at": "нет", "action": "Double", "cover": "нет",
                                 "to-hit.weapon-1": [6, 1]})
    assert render(result.outcome) == "1 попадание AP и 0 попаданий AT"


def test_units_and_weapons_named_in_russian_keep_distinct_question_ids() -> None:
    from referee.rulesets.epic.declaration import weapon_key
    from referee.rulesets.waw.declaration import unit_key

    assert weapon_key("Тяжёлая пушка") != weapon_key("Автоган")
    assert unit_key("Танки «Сталь» (вымышленные)") == "танки-сталь-вымышленные"
    # names in Latin letters keep the ids they always had
    assert weapon_key("Heavy cannon") == "heavy-cannon"
    assert unit_key("Grey Platoon (invented)") == "grey-platoon-invented"
    assert unit_key("A_B") == "a-b"


def test_a_recording_with_russian_names_replays(tmp_path) -> None:
    """Question ids holding Cyrillic letters are quoted in the recorded script."""
    from referee.frontends.wrappers import ScriptingPort

    decl = {"mission": "he", "hex": "0914", "firepower": 2, "hit_number": 4,
            "terrain_defence": 0,
            "units": [{"name": "Стрелки «Гром» (вымышленные)", "kind": "infantry"}]}
    plan = api.plan_attack("waw", seed=3, declaration=decl)
    answers = {"attack": [5, 6], "effect.стрелки-гром-вымышленные.first": "Дезорганизовано"}
    port = ScriptingPort(AnswerPort(answers, plan.dice))
    record = tmp_path / "rec.toml"
    first = api.play(plan, port, record=record)
    replay_plan, replay_port = api.plan_script(record)
    again = api.play(replay_plan, replay_port)
    assert result_json(first, {}) == result_json(again, {})
    assert '"effect.стрелки-гром-вымышленные.first" = "disorganize"' in record.read_text("utf-8")
