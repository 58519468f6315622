"""A fourth kind of card, true or false, written as edits to a copy of the package: its model in
``quiz.model.cards`` and one ``case`` per dispatch function, nothing else (and its untitled
heading in the string tables, which are data). ``tests/test_new_card_kind.py`` applies them and
runs the kind from form to feedback; it never ships."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "quiz"
DISPATCH_MODULES = ("content/card_kinds.py", "training/kinds.py", "report/card_words.py", "ui/card_views.py")
LOCALES = ("model/locales/en.yaml", "model/locales/ja.yaml")

MODEL_CLASS = '''

class TrueFalseCard(CardBase):
    """A statement to mark true or false (the fixture kind of tests/new_kind)."""

    kind: Literal["true_false"]
    statement: Text
    true: bool
    explanation: Text
'''

MODEL_EDITS = (  # (old, new) in quiz/model/cards.py
    ('CardKind = Literal["scenario", "floor_call", "knowledge", "judgement_call"]',
     'CardKind = Literal["scenario", "floor_call", "knowledge", "judgement_call", "true_false"]'),
    ("ScenarioCard | FloorCallCard | KnowledgeCard | JudgementCallCard, Field(",
     "ScenarioCard | FloorCallCard | KnowledgeCard | JudgementCallCard | TrueFalseCard, Field("),
    ("AnyCard = ScenarioCard | FloorCallCard | KnowledgeCard | JudgementCallCard\n",
     "AnyCard = ScenarioCard | FloorCallCard | KnowledgeCard | JudgementCallCard | TrueFalseCard\n"),
)

IMPORTS = {  # one line added after the module's docstring and __future__ import
    "content/card_kinds.py": "from quiz.model.cards import TrueFalseCard",
    "training/kinds.py": "from quiz.model.cards import TrueFalseCard\n"
                         "from quiz.training.answer_outcomes import KnowledgeOutcome, choice_record\n"
                         "from quiz.training.grading import KnowledgeGrade",
    "report/card_words.py": "from quiz.model.cards import TrueFalseCard",
    "ui/card_views.py": "import streamlit as st\n\nfrom quiz.model.cards import TrueFalseCard",
}

CASES: dict[str, dict[str, str]] = {  # module -> function -> its case for the new kind
    "content/card_kinds.py": {
        "check_card": "case TrueFalseCard():\n    return found",
        "default_verdict": "case TrueFalseCard():\n    return None",
        "practised_infraction": "case TrueFalseCard():\n    return None",
        "preview_answer": "case TrueFalseCard():\n    return \"\", str(card.true)",
    },
    "training/kinds.py": {
        "blank_answer": "case TrueFalseCard():\n    return None",
        "as_scenario": "case TrueFalseCard():\n    return None",
        "showing_of": "case TrueFalseCard():\n    return None",
        "answer_from_form": "case TrueFalseCard():\n"
                            "    choice = parts.get(\"choice\")\n"
                            "    return choice if choice in (\"true\", \"false\") else None",
        "answer_card": "case TrueFalseCard():\n"
                       "    chosen = given.chosen if isinstance(given.chosen, str) else None\n"
                       "    grade = KnowledgeGrade(chosen, str(card.true).lower())\n"
                       "    return KnowledgeOutcome(grade, choice_record(grade, given, content.fingerprint()))",
        "given_from_record": "case TrueFalseCard():\n"
                             "    choice = row[\"chosen_choice\"]\n"
                             "    return choice if isinstance(choice, str) else None",
        "shown_texts": "case TrueFalseCard():\n    return card.title, card.statement",
    },
    "report/card_words.py": {
        "choice_words": "case TrueFalseCard():\n    return str(choice_id)",
    },
    "ui/card_views.py": {
        "answer_form": "case TrueFalseCard():\n"
                       "    with st.form(form_key):\n"
                       "        st.radio(\"true or false\", [\"true\", \"false\"], index=None, key=f\"{form_key}-choice\")\n"
                       "        widgets.check_button(shell, card, form_key, submit_label)",
        "feedback": "case TrueFalseCard():\n"
                    "    assert isinstance(outcome, KnowledgeOutcome)\n"
                    "    (st.success if outcome.grade.correct else st.error)(f\"{card.true}\")\n"
                    "    st.markdown(escape_markdown(card.explanation.get(shell.language)))",
        "answer_summary": "case TrueFalseCard():\n    return escape_markdown(record.chosen_choice or \"—\")",
    },
}

STRINGS = {
    "model/locales/en.yaml": "card.untitled_true_false: True or false?\n",
    "model/locales/ja.yaml": "card.untitled_true_false: 正しいか誤りか\n",
}


def copy_package(into: Path) -> Path:
    """A copy of the package under ``into`` (the tree ``quiz`` imports from there)."""
    copy = into / "quiz"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def add_model(package: Path) -> None:
    """The kind's model and its name in the unions, and nothing else."""
    path = package / "model/cards.py"
    text = path.read_text(encoding="utf-8")
    for old, new in MODEL_EDITS:
        assert text.count(old) == 1, f"model/cards.py no longer has {old!r}: update tests/new_kind"
        text = text.replace(old, new)
    anchor = "\n\nCard = Annotated["
    assert text.count(anchor) == 1, "model/cards.py no longer defines Card: update tests/new_kind"
    path.write_text(text.replace(anchor, MODEL_CLASS + anchor), encoding="utf-8")


def add_cases(package: Path) -> None:
    """One case per dispatch function, before its ``case _:``; the strings of the kind."""
    for module, cases in CASES.items():
        path = package / module
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for function, case in cases.items():
            lines = _insert_case(lines, function, case, module)
        _insert_import(lines, IMPORTS[module])
        path.write_text("".join(lines), encoding="utf-8")
    for module, line in STRINGS.items():
        with (package / module).open("a", encoding="utf-8") as table:
            table.write(line)


def edited_files(original: Path, package: Path) -> set[str]:
    """The files of ``package`` that differ from ``original`` (relative paths)."""
    return {
        path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
        and path.read_bytes() != (original / path.relative_to(package)).read_bytes()
    }


def _insert_case(lines: list[str], function: str, case: str, module: str) -> list[str]:
    start = next((i for i, line in enumerate(lines) if re.match(rf"def {function}\(", line)), None)
    assert start is not None, f"{module} has no function {function}: update tests/new_kind"
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"[A-Za-z_@]", lines[i])), len(lines))
    fallback = next((i for i in range(start, end) if lines[i].strip() == "case _:"), None)
    assert fallback is not None, f"{module}.{function} has no `case _:`: update tests/new_kind"
    indent = lines[fallback][: len(lines[fallback]) - len(lines[fallback].lstrip())]
    added = [f"{indent}{line}\n" if line else "\n" for line in case.splitlines()]
    return lines[:fallback] + added + lines[fallback:]


def _insert_import(lines: list[str], imports: str) -> None:
    at = next(i for i, line in enumerate(lines) if line.startswith("from __future__")) + 1
    lines[at:at] = [f"{line}\n" for line in imports.splitlines()]
