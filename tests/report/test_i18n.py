"""String tables: complete in both languages, and every key the UI uses exists."""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter
from typing import get_args, get_type_hints

import pytest

from quiz.model.words import Wording, pick_language, strings, t

ROOT = Path(__file__).resolve().parents[2]


def test_both_tables_have_the_same_keys():
    assert set(strings("ja")) == set(strings("en"))


def test_every_static_key_used_by_the_ui_exists():
    used = set()
    for path in [ROOT / "app.py", *(ROOT / "quiz" / "ui").rglob("*.py")]:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_.]+)["']""", path.read_text(encoding="utf-8")))
    assert len(used) > 50
    assert sorted(used - set(strings("en"))) == []


@pytest.mark.parametrize("prefix", ["scope.", "mark.", "part.", "chart."])
def test_dynamic_key_families_exist(prefix):
    assert any(key.startswith(prefix) for key in strings("en"))


def test_placeholders_are_filled():
    assert t("progress.days", "en", n=4) == "4 days"
    assert t("progress.days", "ja", n=4) == "4日"


def test_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        t("no.such.key", "en")


@pytest.mark.parametrize(
    ("requested", "locale", "expected"),
    [("en", "ja-JP", "en"), (None, "ja-JP", "ja"), (None, "en-US", "en"), (None, None, "ja"), ("xx", "fr", "en")],
)
def test_pick_language(requested, locale, expected):
    assert pick_language(requested, locale) == expected


def placeholders(text: str) -> set[str] | None:
    """The ``{name}`` placeholders of a text; None for a text that is no format string (a
    brace of its own, as in ``',' or '}'``): ``t`` shows a text without values as written,
    so a brace in it (``{ }``) is no placeholder either."""
    try:
        return {name for _, name, _, _ in Formatter().parse(text) if name and name.isidentifier()}
    except ValueError:
        return None


def test_both_tables_say_each_problem_with_the_same_placeholders():
    """A problem's wording (``problem.*``) fills the same values in Japanese as in English."""
    keys = [key for key in strings("en") if key.startswith("problem.")]
    assert len(keys) > 200
    differing = [key for key in keys if placeholders(strings("ja")[key]) != placeholders(strings("en")[key])]
    assert differing == []
    singulars = [key for key in keys if key.endswith(".one")]
    assert [key for key in singulars if placeholders(strings("en")[key]) != placeholders(strings("en")[key[:-4]])] == []


# The families of wordings whose keys the code builds (``Wording(f"problem.what.{what}")``), each
# with every key the code can build in it.
def wording_families() -> dict[str, set[str]]:
    from quiz.content.schema_problems import FIELD_TYPES, SCHEMA_ERRORS
    from quiz.content.yaml_source import NODE_KINDS, YAML_TEXTS
    from quiz.model.rulesets import Ruleset
    from quiz.model.text import LANGUAGES

    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "quiz").rglob("*.py"))
    kinds = set(get_args(get_type_hints(Ruleset.known)["kind"]))
    kinds |= set(re.findall(r"""unknown_id\(\s*["'](\w+)["']""", code))
    kinds |= set(re.findall(r"""self\.known\(.*["'](\w+)["']\)$""", code, re.MULTILINE))
    return {
        "problem.what.": kinds,
        "problem.language.": set(LANGUAGES),
        "problem.yaml.says.": {key for _, key in YAML_TEXTS},
        "problem.yaml.node.": set(NODE_KINDS),
        "problem.schema.": set(SCHEMA_ERRORS) | {"too_long_more"},
        "problem.schema.field_type.": set(FIELD_TYPES),
    }


def test_every_wording_the_code_names_is_in_both_tables():
    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "quiz").rglob("*.py"))
    used = set(re.findall(r"""["'](problem\.[A-Za-z_.]*[A-Za-z_])["']""", code))
    built = set(re.findall(r"""f["'](problem\.[A-Za-z_.]*\.)\{""", code))
    families = wording_families()
    assert built == set(families)  # a new family of built keys is listed above
    used |= {prefix + name for prefix, names in families.items() for name in names}
    assert len(used) > 200
    assert sorted(used - set(strings("en"))) == []
    assert sorted(used - set(strings("ja"))) == []
    assert len(families["problem.what."]) >= 8


def test_a_wording_is_said_in_each_language_and_nests():
    unknown = Wording("problem.unknown", what=Wording("problem.what.penalty"), id="'match_loss'")
    assert unknown.say("en") == str(unknown) == "unknown penalty 'match_loss'"
    assert unknown.say("ja") == "罰則 'match_loss' はありません"
    joined = Wording.joined([Wording("problem.fact.negation_only_bool"), unknown])
    assert joined.english == "negation is only for a true/false fact; unknown penalty 'match_loss'"
    assert joined.say("ja") == "negation は true/false の事実にだけ書けます。罰則 'match_loss' はありません"
    assert Wording.untranslated("Input should be a valid URL").say("ja") == "（英語のみ）Input should be a valid URL"
    assert Wording.untranslated("Input should be a valid URL").english == "Input should be a valid URL"
    assert hash(unknown) == hash(Wording("problem.unknown", what=Wording("problem.what.penalty"), id="'match_loss'"))


def test_the_no_line_choice_of_a_judgement_call_says_no_line_comes_near():
    """CONTENT.md revision 3: a judgement call asks which line comes nearest. Its "none" choice is
    right only where no line is near, so it must not read as "no listed infraction covers this"
    (true of every judgement call: the document decides none of them)."""
    keys = ("answer.no_listed_infraction", "feedback.judgement_right_none", "feedback.judgement_wrong_none")
    for key in keys:
        assert "comes near" in t(key, "en") and "cover" not in t(key, "en"), key
        assert "近い規定" in t(key, "ja") and "当たら" not in t(key, "ja"), key
    assert "no line comes near" in t("feedback.left_to_judge", "en")
    assert "近い規定がない" in t("feedback.left_to_judge", "ja")



@pytest.mark.parametrize("stem", ["カテゴリ", "ユーザ", "サーバ", "メモリ", "エディタ"])
def test_a_japanese_loanword_is_spelt_one_way(stem):
    """カテゴリ and カテゴリー were both used; a word is written one way throughout."""
    texts = " ".join(text for text in strings("ja").values() if isinstance(text, str))
    with_mark, without = len(re.findall(stem + "ー", texts)), len(re.findall(stem + "(?!ー)", texts))
    assert not (with_mark and without), (stem, with_mark, without)


@pytest.mark.parametrize("stage", ["rules", "report"])
def test_the_core_s_words_are_in_the_string_tables_not_inline(stage):
    """Words were once translated three ways. What the rules and the reports say comes
    from the string tables; no ``Text(ja=..., en=...)`` or ``{"ja": ...}`` literal is left."""
    inline = re.compile(r"""Text\(\s*ja\s*=|\{\s*["']ja["']\s*:""")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "quiz" / stage).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if inline.search(line)]
    assert found == []


def test_the_rules_templates_keep_their_spaces():
    """Joining words such as " and " are written with their spaces: the tables keep them."""
    assert t("condition.and_last", "en") == " and " and t("condition.or_last", "en") == " or "
    assert t("condition.item_separator", "en") == "; "
