"""Every engine keys its actions one way (rules.model.Action): ``ACTIONS`` maps an action type to its options and
its rule, ``ACTION_OPTIONS`` is derived from it, and the engine's ``actions`` and outcome ``RECORDS`` name the
same types."""

from __future__ import annotations

from dataclasses import fields
from importlib import import_module

import pytest

from rules import registry
from rules.model import Action, action_options


@pytest.mark.parametrize("system", registry.system_ids())
def test_every_engine_has_one_actions_table_of_one_shape(system: str) -> None:
    module = import_module(registry.SYSTEMS[system])
    actions = module.ACTIONS
    assert isinstance(actions, dict) and actions
    for kind, action in actions.items():
        assert isinstance(action, Action) and callable(action.run), kind
        assert isinstance(action.options, tuple) and all(isinstance(o, str) for o in action.options), kind
        assert "type" not in action.options and len(set(action.options)) == len(action.options), kind
    assert action_options(actions) == module.ACTION_OPTIONS
    assert module.ENGINE.actions == frozenset(actions)
    assert set(registry.outcome_records(system)) == set(actions)


@pytest.mark.parametrize("system", registry.system_ids())
def test_every_engine_reads_its_rules_context_from_context_py_with_the_same_fields(system: str) -> None:
    package = registry.SYSTEMS[system].rsplit(".", 1)[0]
    ctx = import_module(f"{package}.context").Ctx
    assert [f.name for f in fields(ctx)][:3] == ["catalog", "rulings", "dice"]
