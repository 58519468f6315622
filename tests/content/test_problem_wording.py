"""Content problems said in the reader's language: pydantic's errors and
PyYAML's problems as wordings whose English is exactly the message they always were."""

from __future__ import annotations

import re
from enum import Enum
from typing import Annotated, Any, Callable, Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator
from pydantic.dataclasses import dataclass as pydantic_dataclass

from quiz.content.loader import load_content
from quiz.content.schema_problems import SCHEMA_ERRORS, pydantic_findings, schema_wording
from quiz.content.snapshot import Snapshot
from quiz.content.yaml_source import YAML_TEXTS, parse_yaml, yaml_wording
from quiz.model.errors import InvalidContentError, YamlProblem
from quiz.model.safe_yaml import SafeLoader, safe_load
from quiz.model.words import UNTRANSLATED, Wording

ENGLISH_WORDS = re.compile(r"[A-Za-z]+(?: [A-Za-z]+){2,}")  # three English words in a row: a sentence left


def untranslated(wording: Wording) -> bool:
    """Whether any part of ``wording`` is said only in English."""
    return wording.key == UNTRANSLATED or any(
        isinstance(value, Wording) and untranslated(value) for _, value in wording.values)


class Inner(BaseModel):
    x: int


@pydantic_dataclass
class Pair:
    x: int


class Colour(Enum):
    RED = "red"
    BLUE = "blue"
    GREEN = "green"


class Kind(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["a"]


class Other(BaseModel):
    kind: Literal["b"]


class Checked(BaseModel):
    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> Checked:
        if self.low >= self.high:
            raise InvalidContentError(Wording("problem.parameter.bounds", low=self.low, high=self.high))
        return self


class Plain(BaseModel):
    x: int

    @model_validator(mode="after")
    def _never(self) -> Plain:
        raise ValueError("a library's own words")


# One input per pydantic error type the tables word: (type, annotation, input).
SAMPLES: list[tuple[str, Any, Any]] = [
    ("missing", Kind, {}),
    ("extra_forbidden", Kind, {"kind": "a", "colour": "blue"}),
    ("value_error", Checked, {"low": 5, "high": 1}),
    ("model_type", Inner, 3),
    ("dataclass_type", Pair, 3),
    ("none_required", None, 1),
    ("string_type", str, 3),
    ("string_too_short", Annotated[str, Field(min_length=2)], "a"),
    ("string_too_short", Annotated[str, Field(min_length=1)], ""),
    ("string_too_long", Annotated[str, Field(max_length=1)], "ab"),
    ("string_too_long", Annotated[str, Field(max_length=3)], "abcd"),
    ("string_pattern_mismatch", Annotated[str, Field(pattern=r"^[a-z]+$")], "A"),
    ("int_type", int, [1]),
    ("int_parsing", int, "x"),
    ("int_from_float", int, 2.5),
    ("float_type", float, [1]),
    ("float_parsing", float, "x"),
    ("bool_type", bool, [1]),
    ("bool_parsing", bool, "x"),
    ("list_type", list[int], 3),
    ("tuple_type", tuple[int, int], 3),
    ("dict_type", dict[str, int], 3),
    ("set_type", set[int], 3),
    ("too_short", Annotated[list[int], Field(min_length=2)], [1]),
    ("too_short", Annotated[tuple[int, ...], Field(min_length=3)], (1,)),
    ("too_short", Annotated[dict[str, int], Field(min_length=2)], {"a": 1}),
    ("too_long", Annotated[list[int], Field(max_length=1)], [1, 2]),
    ("too_long", Annotated[list[int], Field(max_length=2)], [1, 2, 3]),
    ("too_long", Annotated[dict[str, int], Field(max_length=1)], {"a": 1, "b": 2}),  # "not more"
    ("literal_error", Literal["a", "b", "c"], "z"),
    ("literal_error", Literal["a", "b"], "z"),
    ("literal_error", Literal["a"], "z"),
    ("literal_error", Literal[1, 2], 3),
    ("enum", Colour, "pink"),
    ("greater_than", Annotated[int, Field(gt=1)], 1),
    ("greater_than_equal", Annotated[int, Field(ge=1)], 0),
    ("less_than", Annotated[int, Field(lt=1)], 1),
    ("less_than_equal", Annotated[int, Field(le=3)], 4),
    ("multiple_of", Annotated[int, Field(multiple_of=3)], 4),
    ("union_tag_invalid", Annotated[Kind | Other, Field(discriminator="kind")], {"kind": "c"}),
    ("union_tag_not_found", Annotated[Kind | Other, Field(discriminator="kind")], {}),
]
OUR_ENGLISH = {"missing": "required field is missing", "extra_forbidden": "unknown field"}  # the loader's own


def pydantic_error(annotation: Any, value: Any) -> Any:
    with pytest.raises(ValidationError) as raised:
        TypeAdapter(annotation).validate_python(value)
    (item,) = raised.value.errors(include_url=False)
    return item


@pytest.mark.parametrize(("kind", "annotation", "value"), SAMPLES)
def test_a_pydantic_error_is_worded_in_both_languages_and_its_english_is_pydantics(kind, annotation, value):
    item = pydantic_error(annotation, value)
    assert item["type"] == kind
    wording = schema_wording(item)
    assert wording.english == OUR_ENGLISH.get(kind, item["msg"])
    assert not untranslated(wording)
    assert not ENGLISH_WORDS.search(wording.say("ja")), wording.say("ja")


def test_every_worded_pydantic_error_type_has_a_sample():
    assert {kind for kind, _, _ in SAMPLES} == SCHEMA_ERRORS - {"model_attributes_type"}


def test_an_error_type_not_in_the_tables_is_said_in_pydantics_english_and_marked_in_japanese():
    item = pydantic_error(Annotated[float, Field(allow_inf_nan=False)], float("inf"))
    assert item["type"] == "finite_number" and item["type"] not in SCHEMA_ERRORS
    wording = schema_wording(item)
    assert wording.english == "Input should be a finite number"
    assert wording.say("ja") == "（英語のみ）Input should be a finite number"


def test_a_validators_own_error_is_worded_and_a_plain_value_error_falls_back():
    worded = schema_wording(pydantic_error(Checked, {"low": 5, "high": 1}))
    assert worded.english == "Value error, between needs a low and a higher high bound, not [5, 1]"
    assert worded.say("ja") == "値が正しくありません: between には小さい値と、それより大きい値を書いてください（[5, 1] は使えません）"
    plain = schema_wording(pydantic_error(Plain, {"x": 1}))
    assert plain.english == "Value error, a library's own words"
    assert plain.say("ja") == "値が正しくありません: （英語のみ）a library's own words"


def test_pydantic_findings_word_each_field_once():
    with pytest.raises(ValidationError) as raised:
        Kind.model_validate({"colour": 1})
    findings = pydantic_findings(raised.value)
    assert [(loc, wording.english, wording.say("ja")) for loc, wording in findings] == [
        (("kind",), "required field is missing", "必須の項目がありません"),
        (("colour",), "unknown field", "不明な項目です"),
    ]


# Broken YAML: what PyYAML (libyaml, and its own parser without libyaml) says about it.
BROKEN_YAML = [
    'a: "abc\nb: 1\n', "a: b: c\n", "a:\n  b: 1\n c: 2\n", "a:\n\tb: 1\n", "a: [1, 2\nb: 3\n", "a: {x: 1\nb: 3\n",
    "a: [1, 2", "a: @b\n", 'a: "\\q"\n', "a: 1\n- b\n", "a: 1\nb\nc: 2\n", "a: 1\n---\nb: 2\n", "a: &x 1\nb: &x 2\n",
    "a: *x\n", "a: !x!y 1\n", "a: |x\n  b\n", "%FOO\n---\na: 1\n", "%YAML 2.0\n---\na: 1\n", "a: &\n", "- a\nb: 1\n",
    "a: 1\n...\nb\n", "a: !<x 1\n", "a: !!str%zz 1\n", "[", "{", "a: b\x00\n", "a: *!\n",
    'a: !!python/object/apply:os.system ["x"]\n', "? [1]\n: 2\n", "a: !!map [1]\n", "a: !!omap {a: 1}\n",
    "a: !!pairs [1]\n", "a: !foo 1\n",
]


# The app's one safe load (libyaml's safe loader where PyYAML has it) and PyYAML's own.
SAFE_LOADS = (safe_load, yaml.safe_load)


def said_by(load: Callable[[str], Any], text: str) -> list[str]:
    """The texts PyYAML says about ``text`` that a problem repeats: what is wrong, and the
    construct it was in (a refused tag: what is wrong only)."""
    try:
        load(text)
    except yaml.constructor.ConstructorError as error:
        return [error.problem or ""]
    except yaml.MarkedYAMLError as error:
        return [re.sub(r"^while (scanning|parsing) ", "", said) for said in (error.problem, error.context) if said]
    except yaml.YAMLError as error:
        return [str(error)]
    return []


@pytest.mark.parametrize("load", SAFE_LOADS)
def test_what_pyyaml_says_about_broken_yaml_is_worded_and_its_english_is_pyyamls(load):
    said = [text for case in BROKEN_YAML for text in said_by(load, case)]
    assert len(said) > 40
    for text in said:
        wording = yaml_wording(text)
        assert wording.english == text
        assert not untranslated(wording), text
        if load is safe_load and SafeLoader is not yaml.SafeLoader:  # PyYAML's own parser (no libyaml) quotes its token names: '<block end>'
            assert not ENGLISH_WORDS.search(wording.say("ja")), wording.say("ja")


def test_every_pattern_of_the_yaml_table_matches_a_text_pyyaml_says():
    said = {text for load in SAFE_LOADS for case in BROKEN_YAML for text in said_by(load, case)}
    unused = [key for pattern, key in YAML_TEXTS if not any(pattern.fullmatch(text) for text in said)]
    # the rest are said by libyaml or PyYAML for inputs too odd for this list (a tab in an indent, ...)
    assert len(unused) < 12, unused


def test_a_yaml_text_not_in_the_table_is_said_in_english_and_marked_in_japanese():
    wording = yaml_wording("found something new")
    assert (wording.english, wording.say("ja")) == ("found something new", "（英語のみ）found something new")


@pytest.mark.parametrize(("text", "line", "english", "japanese"), [
    ("cards:\n  - id: 'x\n    kind: scenario\n", 2,
     "invalid YAML: a quoted scalar that starts on line 2 is not closed (found unexpected end of stream)",
     "YAML の書き方に誤りがあります: 2行目から始まる引用符で囲んだ文字列が閉じていません（ファイルが途中で終わっています）"),
    ("a:\n  b: 1\n c: 2\n", 3,
     "invalid YAML: did not find expected key (a block mapping that starts on line 1)",
     "YAML の書き方に誤りがあります: キーがあるはずの位置にありません（字下げを確かめてください）"
     "（1行目から始まるマッピング（キー: 値））"),
    ("a: b: c\n", 1, "invalid YAML: mapping values are not allowed in this context",
     "YAML の書き方に誤りがあります: ここには「キー: 値」を書けません（「:」の後の空白や字下げを確かめてください）"),
    ("a: &x 1\nb: *x\n", 2, "YAML aliases (*name) are not allowed", "YAML のエイリアス（*名前）は使えません"),
    ("a: !!map [1]\n", 1, "unsafe or unknown YAML tag refused: expected a mapping node, but found sequence",
     "安全でないか不明な YAML のタグは使えません: マッピングがあるはずの位置に リスト があります"),
    ("[" * 120, 1, "nesting deeper than 100", "入れ子が 100 段より深くなっています"),
])
def test_a_yaml_problem_is_said_in_both_languages(text, line, english, japanese):
    with pytest.raises(YamlProblem) as raised:
        parse_yaml(text)
    assert (raised.value.line, raised.value.message, raised.value.wording.say("ja")) == (line, english, japanese)
    assert str(raised.value) == f"line {line}: {english}"


@pytest.mark.parametrize("text", ["a: !!int x\n", "day: 2001-02-30\n", "a: !!float x\n", "a: !!bool x\n",
                                  "a: !!timestamp x\n"])
def test_a_typed_value_yaml_cannot_build_is_a_problem_not_a_crash(text):
    with pytest.raises(YamlProblem) as raised:
        parse_yaml(text)
    assert raised.value.message.startswith("a value cannot be read (check dates and !!tags): ")
    assert raised.value.wording.say("ja").startswith("値を読み取れません")


def test_a_snapshot_keeps_each_problems_wording(tmp_path):
    (tmp_path / "rulesets").mkdir()
    card = tmp_path / "cards" / "yugioh-ocg" / "broken.yaml"
    card.parent.mkdir(parents=True)
    card.write_text("cards:\n  - id: x\n    kind: scenario\n    colour: blue\n", encoding="utf-8")
    content = load_content(tmp_path / "rulesets", [tmp_path / "cards"], base=tmp_path)
    assert content.problems
    again = Snapshot.model_validate_json(Snapshot.of(content).model_dump_json()).content()
    assert again.problems == content.problems
    assert [p.wording.say("ja") for p in again.problems] == [p.wording.say("ja") for p in content.problems]
