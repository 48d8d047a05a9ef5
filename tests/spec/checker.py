"""Discord's own API spec judges the traffic: every REST request the bot sent through the emulator and every
answer the emulator gave, checked against the operation of tests/spec/openapi.json it belongs to.

The spec is read once a process; each operation's validators are built the first time it is met, over one
registry of the components, and kept. The answers' object schemas are closed (see `_closing`; where an `allOf`
merges two objects, `unevaluatedProperties: false` on the merge), so a field the spec does not declare is a
mismatch. The exceptions where the
prose docs win are tests/spec/exceptions.py; the rules a schema cannot say are tests/spec/rules.py.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from emulator.traffic import Exchange

from .rules import request_rule_problems

JSONDict = dict[str, Any]
SPEC = Path(__file__).with_name("openapi.json")
API_PREFIX = re.compile(r"^/api/v\d+")
METHODS = ("get", "put", "post", "patch", "delete")
# The exception "files[n] parts on callbacks and webhooks" (exceptions.py): these multipart schemas lack them.
FILES_UNDECLARED = {"create_interaction_response", "execute_webhook", "update_original_webhook_message",
                    "update_webhook_message"}
FILE_PART = re.compile(r"^files\[(\d+)\]$")
# A snowflake as JSON text: replaced by as many 1s, which every schema judges alike (same length, all digits).
SNOWFLAKE_TEXT = re.compile(rb'"[0-9]{15,20}"')


def _same_length(match: re.Match[bytes]) -> bytes:
    return b'"' + b"1" * (len(match.group()) - 2) + b'"'


@dataclass(frozen=True)
class Mismatch:
    """One thing Discord's spec (or its documented rules) refuses, named by route, field and rule."""

    where: str  # "request" or "response 200"
    method: str
    route: str
    field: str
    rule: str

    def __str__(self) -> str:
        return f"{self.method} {self.route} {self.where}: {self.field or '(body)'}: {self.rule}"


def _walk(node: Any) -> Iterator[JSONDict]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _is_object(schema: JSONDict) -> bool:
    kind = schema.get("type")
    return "properties" in schema and (kind == "object" or (isinstance(kind, list) and "object" in kind))


def _merges(spec: JSONDict) -> Iterator[tuple[JSONDict, list[JSONDict]]]:
    """Each node whose allOf merges more than one schema, with its branches (the nodes listed first: the caller
    may change them)."""
    for node in list(_walk(spec)):
        branches = node.get("allOf")
        if isinstance(branches, list) and len(branches) > 1:
            yield node, branches


def _close(spec: JSONDict) -> None:
    """Close every object schema; where an allOf merges objects, close the merge and open its parts."""
    schemas: JSONDict = spec["components"]["schemas"]
    merged: set[str] = set()
    for _node, branches in _merges(spec):
        for branch in branches:
            ref = branch.get("$ref", "")
            if ref.startswith("#/components/schemas/"):
                merged.add(ref.rsplit("/", 1)[1])
    for name in merged:  # the open copies, for allOf branches only
        schemas[f"{name}__open"] = copy.deepcopy(schemas[name])
    for node, branches in _merges(spec):
        for branch in branches:
            ref = branch.get("$ref", "")
            if ref.startswith("#/components/schemas/"):
                branch["$ref"] = ref + "__open"
            else:
                branch["__open"] = True
        node["unevaluatedProperties"] = False
    for name, schema in schemas.items():
        if name.endswith("__open"):
            for node in _walk(schema):
                node["__open"] = True
    for node in _walk(spec):
        if node.pop("__open", False):
            continue
        if _is_object(node) and "additionalProperties" not in node and "unevaluatedProperties" not in node:
            node[_closing(node)] = False
    # The nested parts of an open copy are closed again: only its own top level merges.
    for name in merged:
        for value in schemas[f"{name}__open"].get("properties", {}).values():
            for node in _walk(value):
                if _is_object(node) and "additionalProperties" not in node and "unevaluatedProperties" not in node:
                    node[_closing(node)] = False


def _closing(node: JSONDict) -> str:
    """How to close an object schema. A plain one (its own `properties` only) takes `additionalProperties`:
    the same verdict as `unevaluatedProperties` there, without re-evaluating its subschemas (python-jsonschema
    does that for every unevaluated check, which made a test's check take seconds); one whose properties may also
    come from an applicator beside them (allOf, anyOf, oneOf, $ref, if) takes `unevaluatedProperties`."""
    applicators = ("allOf", "anyOf", "oneOf", "$ref", "if", "dependentSchemas")
    return "unevaluatedProperties" if any(key in node for key in applicators) else "additionalProperties"


def _apply_exceptions(spec: JSONDict, *, requests: bool) -> None:
    """tests/spec/exceptions.py, as the check applies them."""
    schemas: JSONDict = spec["components"]["schemas"]
    if requests:  # snowflakes accepted as numbers
        schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    for name in ("ApplicationCommandCreateRequest", "ApplicationCommandUpdateRequest"):  # nsfw on commands
        schemas[name]["properties"].setdefault("nsfw", {"type": ["boolean", "null"]})
    # a 429 body without code
    error = schemas["RatelimitedResponse"]
    error["allOf"] = [{"$ref": "#/components/schemas/Error__loose"}, *error["allOf"][1:]]
    loose = copy.deepcopy(schemas["Error"])
    loose["required"] = [r for r in loose.get("required", []) if r != "code"]
    schemas["Error__loose"] = loose


@dataclass
class Operation:
    id: str
    method: str
    path: str
    pattern: re.Pattern[str]
    query: dict[str, JSONDict]  # parameter name -> schema
    body: dict[str, JSONDict]  # content type -> schema
    responses: dict[str, JSONDict]  # status (or "4XX") -> schema, or {} for no body


class Spec:
    """The spec, read and closed; an operation's validators are built on first use and kept."""

    def __init__(self, path: Path = SPEC) -> None:
        raw = json.loads(path.read_text(encoding="utf-8"))
        # Requests are held to their schemas' types, limits, enums and required fields, and left open: Discord
        # ignores a field it does not take (discord.py sends `tts` on every edit). Answers are closed.
        self.request_spec = copy.deepcopy(raw)
        _apply_exceptions(self.request_spec, requests=True)
        self.response_spec = raw
        _apply_exceptions(self.response_spec, requests=False)
        _close(self.response_spec)
        self.request_registry = Registry().with_resource(
            "urn:discord:request", Resource.from_contents(self.request_spec, default_specification=DRAFT202012))
        self.response_registry = Registry().with_resource(
            "urn:discord:response", Resource.from_contents(self.response_spec, default_specification=DRAFT202012))
        self.operations: dict[str, list[Operation]] = {m.upper(): [] for m in METHODS}
        for path_name, item in raw["paths"].items():
            for method in METHODS:
                if method in item:  # requests read from the open copy, answers from the closed one
                    request_op = self.request_spec["paths"][path_name][method]
                    self.operations[method.upper()].append(self._operation(path_name, method, request_op,
                                                                           item[method]))
        for ops in self.operations.values():  # literal segments before parameters: @original before {message_id}
            ops.sort(key=lambda op: (op.path.count("{"), -len(op.path)))
        self._validators: dict[tuple[str, str], Draft202012Validator] = {}
        self._verdicts: dict[tuple[Any, ...], list[Mismatch]] = {}

    def _operation(self, path: str, method: str, request_op: JSONDict, op: JSONDict) -> Operation:
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
        query = {p["name"]: p.get("schema", {}) for p in request_op.get("parameters", []) if p.get("in") == "query"}
        body = {kind: c.get("schema", {})
                for kind, c in (request_op.get("requestBody") or {}).get("content", {}).items()}
        responses: dict[str, JSONDict] = {}
        for status, answer in op.get("responses", {}).items():
            ref = answer.get("$ref", "")
            if ref.startswith("#/components/responses/"):
                answer = self.response_spec["components"]["responses"][ref.rsplit("/", 1)[1]]
            schema = (answer.get("content") or {}).get("application/json", {}).get("schema")
            responses[status] = schema if schema is not None else {}
        return Operation(op["operationId"], method.upper(), path, pattern, query, body, responses)

    def find(self, method: str, path: str) -> Operation | None:
        path = API_PREFIX.sub("", path)
        return next((op for op in self.operations.get(method, []) if op.pattern.match(path)), None)

    def validator(self, op: Operation, key: str, schema: JSONDict, *, request: bool) -> Draft202012Validator:
        cached = self._validators.get((op.id, key))
        if cached is None:
            base = "urn:discord:request" if request else "urn:discord:response"
            resolved = _rebase(schema, base)
            cached = Draft202012Validator(resolved, registry=self.request_registry if request
                                          else self.response_registry)
            self._validators[(op.id, key)] = cached
        return cached

    # -- checking one exchange ------------------------------------------------------------------------

    def check(self, ex: Exchange) -> list[Mismatch]:
        op = self.find(ex.method, ex.path)
        if op is None:
            return [Mismatch("request", ex.method, ex.route, "", "no such route and method in Discord's API")]
        # The same exchange up to its ids has the same verdict: every test's bot start sends the same command
        # tree (a deep oneOf per option), the check's costliest traffic, so it is judged once a process.
        body = json.dumps(ex.body, sort_keys=True, default=str).encode()
        key = (ex.method, op.id, ex.status, ex.multipart, tuple(ex.parts), repr(sorted(ex.query.items())),
               hashlib.sha1(SNOWFLAKE_TEXT.sub(_same_length, body)).digest(),
               hashlib.sha1(SNOWFLAKE_TEXT.sub(_same_length, ex.response)).digest(), ex.response_type)
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = self.check_request(op, ex) + self.check_response(op, ex)
        return found

    def check_request(self, op: Operation, ex: Exchange) -> list[Mismatch]:
        found: list[Mismatch] = []

        def miss(field: str, rule: str) -> None:
            found.append(Mismatch("request", ex.method, op.path, field, rule))

        for name, values in ex.query.items():
            schema = op.query.get(name)
            if schema is None:
                miss(f"?{name}", "query parameter not declared")
                continue
            for value in values:
                problem = _query_problem(value, schema)
                if problem:
                    miss(f"?{name}", problem)
        if ex.body is None and not ex.parts:
            return found
        if ex.multipart:
            kind = "multipart/form-data"
            body = dict(ex.body) if isinstance(ex.body, dict) else ex.body
            files = [p for p in ex.parts if FILE_PART.match(p)]
            for part in ex.parts:
                if part != "payload_json" and not FILE_PART.match(part):
                    miss(part, "multipart part is neither payload_json nor files[n]")
            if isinstance(body, dict) and op.id not in FILES_UNDECLARED:
                body.update({part: "" for part in files})
            if isinstance(ex.body, dict):  # a callback's message is its `data`
                message = ex.body.get("data") if op.id == "create_interaction_response" else ex.body
                for problem_field, rule in _file_mapping(message if isinstance(message, dict) else {}, files):
                    miss(problem_field, rule)
        else:
            kind = "application/json"
            body = ex.body
        schema = op.body.get(kind)
        if schema is None:
            if body not in ({}, None):
                miss("", f"{kind} body on an operation that takes none")
            return found
        for error in self.validator(op, "request:" + kind, schema, request=True).iter_errors(body):
            miss(_field(error), _rule(error))
        if isinstance(ex.body, dict):
            for problem_field, rule in request_rule_problems(op.id, ex.body):
                miss(problem_field, rule)
        return found

    def check_response(self, op: Operation, ex: Exchange) -> list[Mismatch]:
        where = f"response {ex.status}"
        status = str(ex.status)
        schema = op.responses.get(status)
        if schema is None and ex.status >= 400:
            schema = op.responses.get(f"{status[0]}XX")
        if schema is None:
            return [Mismatch(where, ex.method, op.path, "", f"status {ex.status} not declared "
                             f"(declared: {', '.join(op.responses)})")]
        if not schema:
            if ex.response:
                return [Mismatch(where, ex.method, op.path, "", "a body where the spec declares none")]
            return []
        if "json" not in ex.response_type:
            return [Mismatch(where, ex.method, op.path, "", f"{ex.response_type or 'no'} body, not JSON")]
        data = json.loads(ex.response)
        return [Mismatch(where, ex.method, op.path, _field(e), _rule(e))
                for e in self.validator(op, where, schema, request=False).iter_errors(data)]


def _rebase(schema: JSONDict, base: str) -> JSONDict:
    """An operation's schema with its local refs pointed at the registry's copy of the spec."""
    text = json.dumps(schema).replace('"#/components/', f'"{base}#/components/')
    rebased: JSONDict = json.loads(text)
    return rebased


def _query_problem(value: str, schema: JSONDict) -> str | None:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "$ref" in schema:
        return None if re.fullmatch(r"\d+", value) else f"{value!r} is not a snowflake"
    if "boolean" in kinds:
        return None if value.lower() in ("true", "false", "1", "0") else f"{value!r} is not a boolean"
    if "integer" in kinds:
        if not re.fullmatch(r"-?\d+", value):
            return f"{value!r} is not an integer"
        number = int(value)
        if "minimum" in schema and number < schema["minimum"]:
            return f"{number} is below {schema['minimum']}"
        if "maximum" in schema and number > schema["maximum"]:
            return f"{number} is above {schema['maximum']}"
    return None


def _file_mapping(payload: JSONDict, files: list[str]) -> list[tuple[str, str]]:
    """reference.mdx "Uploading Files": each `files[n]` part is named by the attachment whose id is n."""
    problems: list[tuple[str, str]] = []
    attachments = payload.get("attachments")
    ids = {str(a.get("id")) for a in attachments or [] if isinstance(a, dict)}
    for part in files:
        index = FILE_PART.match(part)
        if attachments is not None and index and index.group(1) not in ids:
            problems.append((part, "file part without an attachment of its index in `attachments`"))
    parts = {FILE_PART.match(p).group(1) for p in files if FILE_PART.match(p)}  # type: ignore[union-attr]
    for n, attachment in enumerate(attachments or []):
        ident = str(attachment.get("id")) if isinstance(attachment, dict) else ""
        if ident.isdigit() and len(ident) < 5 and ident not in parts:  # an index, not an uploaded file's snowflake
            problems.append((f"attachments[{n}].id", f"names files[{ident}], which the request does not carry"))
    return problems


def _field(error: ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path.lstrip(".")


def _refutes(error: ValidationError) -> bool:
    """An error that says the branch was not meant: the value's JSON type, or its `type` field's value."""
    path = list(error.relative_path)
    return (not path and error.validator == "type") or (path == ["type"] and error.validator in ("enum", "const"))


def _rule(error: ValidationError) -> str:
    if error.context:  # a oneOf/anyOf: name the branch whose `type` fitted, else the one that came closest
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
        fitting = [errs for errs in branches.values() if not any(_refutes(e) for e in errs)]
        chosen = min(fitting or list(branches.values()), key=len)
        if len(fitting) == 1 or len(branches) == 1:
            return "; ".join(f"{_rule(e)} (at {_field(e) or '(body)'})" for e in chosen[:3])
    return f"{error.validator}: {error.message[:300]}"


@cache
def spec() -> Spec:
    """The one Spec of this process."""
    return Spec()
