"""Discord's published OpenAPI specification (spec/openapi.json.gz, spec/README.md) as the
double's referee: the operation a request names (method and path), its path and query
parameters, its JSON body or a multipart body's payload_json, and the double's own answer
(status and JSON body), each checked against the specification's schemas.

Validators are built once per process and kept per schema, so a request costs one validation.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators  # type: ignore[import-untyped]
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).with_name("spec") / "openapi.json.gz"
_URI = "https://discord.com/api/v10/openapi.json"
_JSON = "application/json"
_MULTIPART = "multipart/form-data"
_MESSAGE_CHARS = 300
"""Where jsonschema's message quotes a long value, only its start is useful."""


@dataclass(frozen=True)
class Problem:
    """One thing Discord would refuse: the field (dotted path in the body, or `path`, `query.x`,
    `status`), and why."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


@dataclass(frozen=True)
class Operation:
    """One method on one path of the specification."""

    method: str
    template: str
    pointer: str
    """JSON pointer to the operation in the specification."""
    document: Mapping[str, Any]
    path_parameters: Mapping[str, str]
    query_parameters: Mapping[str, str]
    """Name -> JSON pointer to the parameter's schema."""

    @property
    def name(self) -> str:
        return f"{self.document.get('operationId', '?')} ({self.method} {self.template})"


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    regex = "".join(
        f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") else re.escape(p) for p in parts
    )
    return re.compile(regex + "$")


def _literal_segments(template: str) -> int:
    return sum(1 for s in template.split("/") if s and not s.startswith("{"))


class Spec:
    """The specification with its operations indexed by path, and validators built on demand
    and kept (one per schema) for the life of the process."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        dispatched = _faster(document)
        self._strict = Registry().with_resource(
            _URI, DRAFT202012.create_resource(_field_errors_as_documented(dispatched))
        )
        self._lenient = Registry().with_resource(
            _URI, DRAFT202012.create_resource(_numbers_as_ids(dispatched))
        )
        self._validators: dict[tuple[str, bool], Draft202012Validator] = {}
        self._classes = {lenient: _validator_class() for lenient in (False, True)}
        routes = []
        for template, item in document["paths"].items():
            at = f"/paths/{_escape(template)}"
            for method, op in item.items():
                if method == "parameters":
                    continue
                # Each parameter's schema by name; the operation's own override the path's.
                where: dict[str, dict[str, str]] = {"path": {}, "query": {}}
                for owner, params in ((at, item), (f"{at}/{method}", op)):
                    for i, p in enumerate(params.get("parameters", [])):
                        if p["in"] in where:
                            where[p["in"]][p["name"]] = f"{owner}/parameters/{i}/schema"
                operation = Operation(
                    method=method.upper(),
                    template=template,
                    pointer=f"{at}/{method}",
                    document=op,
                    path_parameters=where["path"],
                    query_parameters=where["query"],
                )
                routes.append((_template_pattern(template), operation))
        # `/webhooks/{id}/{token}/messages/@original` before `.../messages/{message_id}`.
        routes.sort(key=lambda r: -_literal_segments(r[1].template))
        # Candidates by method and first segment: a request is matched against a handful.
        self._routes: dict[tuple[str, str], list[tuple[re.Pattern[str], Operation]]] = {}
        for pattern, operation in routes:
            key = (operation.method, operation.template.split("/")[1])
            self._routes.setdefault(key, []).append((pattern, operation))

    @functools.cached_property
    def locales(self) -> frozenset[str]:
        """Discord's locales (AvailableLocalesEnum), the keys of every `*_localizations`."""
        choices = self.document["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]
        return frozenset(c["const"] for c in choices)

    def operation(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation `method path` (without the /api/v10 prefix) names, and its path
        parameters; None if the specification has none."""
        for pattern, op in self._routes.get((method.upper(), path.split("/")[1]), ()):
            match = pattern.match(path)
            if match is not None:
                return op, match.groupdict()
        return None

    # -- requests --------------------------------------------------------------------------

    def request_problems(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        content_type: str | None,
        body: Any,
    ) -> list[Problem]:
        """What Discord's schemas refuse in a request; `body` is the parsed JSON body, or a
        multipart body's payload_json (None without a body)."""
        found = self.operation(method, path)
        if found is None:
            return [Problem("path", f"the specification has no operation {method} {path}")]
        op, values = found
        problems = []
        for name, value in values.items():
            pointer = op.path_parameters[name]
            problems += self._parameter_problems(pointer, value, f"path.{name}")
        for name, value in query.items():
            if name not in op.query_parameters:
                problems.append(Problem(f"query.{name}", f"not a parameter of {op.name}"))
            else:
                pointer = op.query_parameters[name]
                problems += self._parameter_problems(pointer, value, f"query.{name}")
        return problems + self._body_problems(op, content_type, body)

    def _parameter_problems(self, pointer: str, value: str, field: str) -> list[Problem]:
        schema = self._resolve(self._at(pointer))
        coerced = _coerce(value, schema)
        if coerced is None:
            return [Problem(field, f"{value!r} is not of type {schema.get('type')!r}")]
        return _problems(self._validator(pointer, lenient=True).iter_errors(coerced), field)

    def _resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        while "$ref" in schema:
            schema = self._at(schema["$ref"].removeprefix("#"))
        return schema

    def _at(self, pointer: str) -> Any:
        node: Any = self.document
        for token in pointer.strip("/").split("/"):
            key = token.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        return node

    def _body_problems(self, op: Operation, content_type: str | None, body: Any) -> list[Problem]:
        request = op.document.get("requestBody")
        if request is None:
            if body is not None:
                return [Problem("body", f"{op.name} takes no body")]
            return []
        if body is None:
            return [Problem("body", f"{op.name} requires a body")] if request.get(
                "required") else []
        media = _MULTIPART if (content_type or "").startswith("multipart/") else _JSON
        if media not in request["content"]:
            return [Problem("body", f"{op.name} does not take {media}")]
        pointer = f"{op.pointer}/requestBody/content/{_escape(media)}/schema"
        return _problems(self._validator(pointer, lenient=True).iter_errors(body), "")

    # -- responses -------------------------------------------------------------------------

    def response_problems(
        self, method: str, path: str, status: int, content_type: str | None, body: bytes
    ) -> list[Problem]:
        """What in an answer of the double Discord's specification does not promise."""
        found = self.operation(method, path)
        if found is None:
            return []  # already a problem of the request
        op = found[0]
        responses = op.document["responses"]
        key = next(
            (k for k in (str(status), f"{status // 100}XX", "default") if k in responses), None
        )
        if key is None:
            return [Problem("status", f"{status} is not a documented answer of {op.name}")]
        response = self._resolve(responses[key])
        pointer = f"{op.pointer}/responses/{key}"
        if "$ref" in responses[key]:
            pointer = responses[key]["$ref"].removeprefix("#")
        schema = response.get("content", {}).get(_JSON)
        if schema is None:
            return [Problem("body", f"{status} of {op.name} has no body")] if body else []
        if content_type != _JSON:
            return [Problem("content-type", f"{content_type!r} where {_JSON} is documented")]
        pointer += f"/content/{_escape(_JSON)}/schema"
        errors = self._validator(pointer, lenient=False).iter_errors(json.loads(body))
        return _problems(errors, "")

    def _validator(self, pointer: str, *, lenient: bool) -> Draft202012Validator:
        key = (pointer, lenient)
        validator = self._validators.get(key)
        if validator is None:
            registry = self._lenient if lenient else self._strict
            validator = self._classes[lenient]({"$ref": f"{_URI}#{pointer}"}, registry=registry)
            self._validators[key] = validator
        return validator


def _faster(document: Mapping[str, Any]) -> dict[str, Any]:
    """The specification with the same verdicts, checked several times faster (jsonschema
    tries every branch of a oneOf and builds an error for each one that fails):
    - a oneOf of distinct constants (button styles, locales...) becomes an enum;
    - a oneOf of null and one schema becomes `x-null-or` (null, or that schema);
    - a union of component (or callback, option...) kinds, each requiring its own distinct
      values of the `type` property, becomes `x-kind`: a value is checked against the one kind
      its `type` names, as Discord tells them apart (at most one kind can match anyway), and
      an error names the field within that kind."""
    copy = json.loads(json.dumps(document))
    schemas = copy["components"]["schemas"]

    def kinds(branches: list[Any]) -> list[list[Any]] | None:
        """[[type values, $ref], ...] when every branch is a kind told by `type`."""
        found = []
        for branch in branches:
            ref = branch.get("$ref", "") if isinstance(branch, dict) else ""
            target = schemas.get(ref.removeprefix("#/components/schemas/"))
            if len(branch) != 1 or not ref.startswith("#/components/schemas/") or not target:
                return None
            kind = target.get("properties", {}).get("type", {})
            values = kind.get("enum") or ([kind["const"]] if "const" in kind else None)
            if not values or "type" not in target.get("required", ()):
                return None
            found.append([values, ref])
        every = [json.dumps(v) for values, _ in found for v in values]
        return found if len(every) == len(set(every)) else None

    def never_null(branch: Any) -> bool:
        """A $ref to a schema whose type excludes null (so oneOf [null, it] is null-or-it)."""
        target = schemas.get(str(branch.get("$ref", "")).removeprefix("#/components/schemas/"))
        kinds = (target or {}).get("type")
        return isinstance(kinds, str | list) and "null" not in (
            [kinds] if isinstance(kinds, str) else kinds)

    def simplify(node: dict[str, Any]) -> None:
        for union in ("oneOf", "anyOf"):
            branches = node.get(union)
            if not isinstance(branches, list):
                continue
            values = [b["const"] for b in branches if "const" in b]
            found = kinds(branches)
            if union == "oneOf" and len(values) == len(branches) == len(
                {json.dumps(v) for v in values}
            ):
                node["enum"] = values
            elif len(branches) == 2 and branches[0] == {"type": "null"} and never_null(
                branches[1]
            ):
                node[_NULL_OR] = branches[1]
            elif found is not None:
                node[_KIND] = found
            else:
                continue
            del node[union]

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            for value in node.values():
                visit(value)
            simplify(node)

    visit(copy)
    return copy  # type: ignore[no-any-return]


def _null_or(
    validator: Draft202012Validator, schema: Any, instance: Any, _: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if instance is not None:
        yield from validator.descend(instance, schema)


def _kind(
    validator: Draft202012Validator, kinds: list[list[Any]], instance: Any, _: Any
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not of type 'object'")
        return
    if "type" not in instance:
        yield ValidationError("'type' is a required property")
        return
    for values, ref in kinds:
        if instance["type"] in values:
            yield from validator.descend(instance, {"$ref": ref})
            return
    known = [v for values, _ in kinds for v in values]
    yield ValidationError(f"{instance['type']!r} is not one of {known}", path=["type"])


def _validator_class() -> type[Draft202012Validator]:
    """A validator class knowing `x-null-or` and `x-kind`, which remembers the objects it
    found valid against each `$ref`: a table's buttons, the bot's user, an embed's footer
    are sent again at every edit, and answered back."""
    valid: set[str] = set()
    plain = Draft202012Validator.VALIDATORS["$ref"]

    def ref(
        validator: Draft202012Validator, to: str, instance: Any, schema: Any
    ) -> Iterator[ValidationError]:
        if not isinstance(instance, dict):
            yield from plain(validator, to, instance, schema)
            return
        key = to + json.dumps(instance)
        if key in valid:
            return
        failed = False
        for error in plain(validator, to, instance, schema):
            failed = True
            yield error
        if not failed:
            if len(valid) > _REMEMBERED:
                valid.clear()
            valid.add(key)

    return validators.extend(  # type: ignore[no-any-return]
        Draft202012Validator, {"$ref": ref, _NULL_OR: _null_or, _KIND: _kind}
    )


_NULL_OR, _KIND = "x-null-or", "x-kind"
_REMEMBERED = 20_000


def _numbers_as_ids(document: Mapping[str, Any]) -> dict[str, Any]:
    """The specification for requests: Discord reads an id sent as a JSON number as well as a
    string (discord.py sends attachment ids as numbers); its answers always use strings."""
    schemas = dict(document["components"]["schemas"])
    schemas["SnowflakeType"] = {
        "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]
    }
    return {**document, "components": {**document["components"], "schemas": schemas}}


def _field_errors_as_documented(document: Mapping[str, Any]) -> dict[str, Any]:
    """The specification for answers, with the codes of a form body's field errors as strings
    ("BASE_TYPE_MAX_LENGTH"), as Discord sends them and its error reference documents (the
    schema reuses the integer-coded top-level Error there)."""
    schemas = dict(document["components"]["schemas"])
    field_error = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }
    inner = schemas["InnerErrors"]
    schemas["InnerErrors"] = {
        **inner,
        "properties": {"_errors": {**inner["properties"]["_errors"], "items": field_error}},
    }
    return {**document, "components": {**document["components"], "schemas": schemas}}


def _coerce(value: str, schema: Mapping[str, Any]) -> Any:
    """A query or path parameter as the JSON value its schema describes, or None."""
    kinds = schema.get("type", "string")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds:
        return value
    if "boolean" in kinds and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if ("integer" in kinds or "number" in kinds) and re.fullmatch(r"-?\d+", value):
        return int(value)
    return None


def _problems(errors: Iterator[ValidationError], prefix: str) -> list[Problem]:
    found = []
    for error in errors:
        for leaf in _meant(error):
            where = ".".join(str(p) for p in leaf.absolute_path)
            field = ".".join(p for p in (prefix, where) if p) or "body"
            message = _message(leaf)
            if len(message) > _MESSAGE_CHARS:
                message = message[: _MESSAGE_CHARS - 1] + "…"
            found.append(Problem(field, message))
    return found


def _message(error: ValidationError) -> str:
    """jsonschema's message, with the count instead of the whole value for a size limit."""
    bound = {"maxLength": "at most", "minLength": "at least", "maxItems": "at most",
             "minItems": "at least", "maxProperties": "at most"}.get(str(error.validator))
    if bound is None or not isinstance(error.instance, (str, list, dict)):
        return error.message
    unit = "characters" if isinstance(error.instance, str) else "items"
    return f"{len(error.instance)} {unit}, {bound} {error.validator_value} allowed"


def _meant(error: ValidationError) -> list[ValidationError]:
    """The errors a person would fix. In a oneOf/anyOf of components (or of null and an
    object), the branch meant is the one whose kind matches: its `type` property, or its JSON
    type; the union's own error stays when no single branch is meant."""
    if not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = [subs for subs in branches.values() if not any(_other_kind(s) for s in subs)]
    if len(meant) != 1:
        return [error]
    return [leaf for sub in meant[0] for leaf in _meant(sub)]


def _other_kind(error: ValidationError) -> bool:
    """The error says the value is another kind of thing than this branch describes."""
    if error.validator == "type" and not error.relative_path:
        return True
    return list(error.relative_path) == ["type"] and error.validator in ("enum", "const")


@functools.cache
def spec() -> Spec:
    """The specification kept in the tests, read once per process."""
    with gzip.open(SPEC_FILE, "rb") as f:
        return Spec(json.load(f))
