"""Every error class of the app lives in ``quiz.model.errors`` and derives from ``QuizError``:
this walks every module of the package and fails on an exception class defined anywhere else,
or defined there but not under the root."""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
from pathlib import Path

import quiz
from quiz.model import errors
from quiz.model.errors import QuizError

PACKAGE = Path(quiz.__file__).resolve().parent
SCRIPT_PACKAGES = ("quiz.ui.pages.",)  # Streamlit pages run when imported: read, not imported
SCRIPTS = ("quiz.__main__",)
BUILTIN_ERRORS = {name for name, value in vars(builtins).items()
                  if inspect.isclass(value) and issubclass(value, BaseException)}


def module_names() -> list[str]:
    """Every module of ``quiz`` (each ``.py`` file, the pages' folder has no ``__init__``) but
    the migration revisions (Alembic's scripts)."""
    names = (".".join(("quiz", *path.relative_to(PACKAGE).with_suffix("").parts)) for path in PACKAGE.rglob("*.py"))
    return sorted(name.removesuffix(".__init__") for name in names if ".migrations." not in name)


def is_script(name: str) -> bool:
    return name in SCRIPTS or name.startswith(SCRIPT_PACKAGES)


def imported_error_classes(name: str) -> list[type[BaseException]]:
    """The exception classes module ``name`` defines itself."""
    module = importlib.import_module(name)
    return [value for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name]


def source_error_classes(path: Path) -> list[str]:
    """The classes a source file defines on an exception base: a builtin exception, or a name
    that says it is an error."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            bases = {base.id if isinstance(base, ast.Name) else getattr(base, "attr", "") for base in node.bases}
            if bases & BUILTIN_ERRORS or any(base.endswith(("Error", "Exception")) for base in bases):
                found.append(node.name)
    return found


def defined_errors(name: str) -> list[str]:
    """The names of the exception classes module ``name`` defines."""
    if is_script(name):
        return source_error_classes(PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py"))
    return [cls.__name__ for cls in imported_error_classes(name)]


def test_every_module_is_walked() -> None:
    names = module_names()
    assert {"quiz.model.errors", "quiz.db.packs", "quiz.cli", "quiz.__main__", "quiz.ui.pages.practice"} <= set(names)


def test_no_exception_class_outside_the_errors_module() -> None:
    outside = {name: found for name in module_names() if name != errors.__name__
               for found in [defined_errors(name)] if found}
    assert outside == {}


def test_every_error_is_under_the_root() -> None:
    classes = imported_error_classes(errors.__name__)
    assert len(classes) > 20
    assert [cls.__name__ for cls in classes if not issubclass(cls, QuizError)] == []


def test_a_scripts_error_classes_are_found(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text("class Lost(RuntimeError):\n    pass\n\n\nclass Refused(errors.QuizError):\n    pass\n\n\n"
                      "class Plain:\n    pass\n", encoding="utf-8")
    assert source_error_classes(script) == ["Lost", "Refused"]
