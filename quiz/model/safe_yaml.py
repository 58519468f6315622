"""The one YAML loader of the app: libyaml's safe loader (CSafeLoader) where PyYAML was built
with it, else PyYAML's own safe loader. Content files and the string tables both read with it."""

from __future__ import annotations

from typing import Any

import yaml

SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """One YAML document of ``text``, read with ``SafeLoader`` (no tag makes an object)."""
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - CSafeLoader/SafeLoader only
