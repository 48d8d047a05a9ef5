"""A system's ``sheet.yaml``: every field of its character sheet, with meaning, range and template value.

The engine's first check of a sheet, the bot's ``/character template`` and ``/help topic:characters`` all
read this one description. It must describe exactly the fields the engine reads, and its template values
must make a valid sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from content.errors import ContentError
from content.schema import Strict, require, validate
from rules.sheet_spec import ItemSource, SheetField, SheetSpec

FILE = "sheet.yaml"
ItemsList = Literal["", "weapons", "armour", "horses", "shields", "skills"]
Kind = Literal["text", "number", "decimal", "choice", "flag", "scores", "items", "item", "kept"]
LIMIT = 1_000_000  # no range reaches past this


class FieldEntry(Strict):
    kind: Kind
    label: str = Field(min_length=1, max_length=40)
    meaning: str = Field(default="", max_length=300)
    required: bool = False
    default: Any = None
    low: float | None = Field(default=None, ge=-LIMIT, le=LIMIT)
    high: float | None = Field(default=None, ge=-LIMIT, le=LIMIT)
    choices: list[str] = Field(default_factory=list, max_length=50)
    items: ItemsList = ""
    names: list[str] = Field(default_factory=list, max_length=100)
    closed: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> FieldEntry:
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError("low is above high")
        if self.kind in ("items", "item") and not self.items:
            raise ValueError(f"a field of kind {self.kind} names its pack list in 'items'")
        if self.kind == "kept" and (self.required or self.default is not None):
            raise ValueError("a kept field is the bot's: it has no default and is not required")
        if self.required and self.default is None:
            raise ValueError("a required field needs a default for the template")
        return self


class SheetFile(Strict):
    source: str = Field(min_length=1)
    aliases: dict[str, str] = Field(default_factory=dict)
    did_you_mean: dict[str, str] = Field(default_factory=dict)
    fields: dict[str, FieldEntry] = Field(min_length=1)


def build_sheet_spec(system: str, doc: Any, engine_fields: Iterable[str],
                     fill: Callable[[str, FieldEntry], Mapping[str, Any]] | None = None) -> SheetSpec:
    """The spec from ``sheet.yaml``; it must describe exactly ``engine_fields``. ``fill`` gives, per field,
    values that live in another pack file (a range, the choices) so that each number has one home."""
    file = f"{system}/{FILE}"
    require(doc, file, "fields")
    model = validate(SheetFile, doc, file)
    wanted = list(engine_fields)
    missing = [name for name in wanted if name not in model.fields]
    if missing:
        raise ContentError(file, field="fields", message=f"does not describe {', '.join(missing)}")
    extra = [name for name in model.fields if name not in wanted]
    if extra:
        raise ContentError(file, field="fields", message=f"describes {', '.join(extra)}, which the engine "
                                                         f"does not read")
    out: list[SheetField] = []
    for name, entry in model.fields.items():
        values: dict[str, Any] = {
            "name": name, "kind": entry.kind, "label": entry.label, "meaning": entry.meaning,
            "required": entry.required, "default": entry.default, "low": entry.low, "high": entry.high,
            "choices": tuple(entry.choices), "items": entry.items, "names": tuple(entry.names),
            "closed": entry.closed,
        }
        if fill is not None:
            values.update(fill(name, entry))
        spec_field = SheetField(**values)
        if spec_field.kind in ("number", "decimal", "scores") and (spec_field.low is None or spec_field.high is None):
            raise ContentError(file, name, "low", "a number field needs low and high")
        if spec_field.kind == "choice" and not spec_field.choices:
            raise ContentError(file, name, "choices", "a choice field lists its choices")
        out.append(spec_field)
    for alias, target in model.aliases.items():
        if target not in model.fields or alias in model.fields:
            raise ContentError(file, field=f"aliases.{alias}", message="must name a field, and not be one")
    for tried, meant in model.did_you_mean.items():
        if meant not in model.fields:
            raise ContentError(file, field=f"did_you_mean.{tried}", message="must name a field")
    return SheetSpec(system=system, fields=tuple(out), aliases=dict(model.aliases),
                     hints={k.lower(): v for k, v in model.did_you_mean.items()})


def template_sheet(spec: SheetSpec) -> dict[str, Any]:
    """The sheet the template holds as shipped: every player field with its template value."""
    return {f.name: f.default for f in spec.player_fields() if f.default is not None}


def check_template(spec: SheetSpec, pack: ItemSource) -> None:
    """The template values must make a sheet that passes the spec's own check."""
    problems = spec.problems(template_sheet(spec), pack)
    if problems:
        raise ContentError(f"{spec.system}/{FILE}", field="default", message=f"the template is not valid: "
                                                                             f"{'; '.join(problems)}")
