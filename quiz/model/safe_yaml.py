"""The one YAML loader of the app: libyaml's safe loader (CSafeLoader) where PyYAML was built
with it, else PyYAML's own safe loader. Content files and the string tables both read with it."""

from __future__ import annotations

import yaml

SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
