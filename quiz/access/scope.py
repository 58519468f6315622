"""``Supervisor`` and ``Scope``, kept in ``quiz.model.scope`` (plain types) so that the db and
report stages below and beside ``quiz.access`` can take a Scope too; named here as well."""

from quiz.model.scope import ROLES as ROLES
from quiz.model.scope import Role as Role
from quiz.model.scope import Scope as Scope
from quiz.model.scope import Supervisor as Supervisor
