"""What it takes to bring a TypeDB database's schema to ``schema.tql`` (pure).

The whole schema is compared, not just its type names: each type's definition is read as
its clauses (``value string @values(…)``, ``owns x @key``, ``plays r:x``, ``relates y``)
and each function as its text, from our ``schema.tql`` and from the schema the server
prints (``Database.schema()``, the same TypeQL). The plan says what to do:

* **define** what is missing — a new type, a new clause of an existing type, a new function;
* **redefine** what changed and can be changed in place — an attribute's ``@values``, a
  clause's annotations, a function's body (TypeDB refuses to ``define`` an existing
  function or a different annotation);
* **refuse** what is destructive — a type of another kind, another value type or supertype,
  an annotation the database holds that the schema dropped (each needs a migration);
* **keep** what the database holds beyond the schema (a newer release's types or clauses):
  removing them would lose data, and an older replica must keep running beside a newer one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_STATEMENT_START = re.compile(r"^[ \t]*(attribute|entity|relation|fun)\s", re.M)
_COMMENT = re.compile(r"#[^\n]*")
_FUN_NAME = re.compile(r"fun\s+([A-Za-z_][\w-]*)\s*\(")


@dataclass(frozen=True)
class TypeDef:
    kind: str
    label: str
    clauses: dict[str, str]
    """Clause head (``value``, ``sub``, ``owns x``, ``plays r:x``, ``relates y``) → the clause as written."""


@dataclass(frozen=True)
class Schema:
    types: dict[str, TypeDef] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)
    """Function name → its definition, whitespace collapsed."""


@dataclass(frozen=True)
class SchemaPlan:
    define: tuple[str, ...] = ()
    """Statements of one ``define`` query: additions only."""
    redefine: tuple[str, ...] = ()
    """One ``redefine`` query each: changed annotations and function bodies."""
    destructive: tuple[str, ...] = ()
    """Why the schema can't be applied in place (each needs a migration)."""
    kept: tuple[str, ...] = ()
    """What the database holds beyond the schema; left as it is."""

    @property
    def changes(self) -> bool:
        return bool(self.define or self.redefine)

    def queries(self) -> list[str]:
        """The queries of one schema transaction, in order (defines first: a redefined function may use them)."""
        out = ["define\n" + "\n".join(self.define)] if self.define else []
        return out + [f"redefine\n{statement}" for statement in self.redefine]


def parse(text: str) -> Schema:
    """A ``define`` text (ours, or the server's print of a database's schema) as types and functions."""
    body = _COMMENT.sub("", text)
    body = re.sub(r"^\s*define\b", "", body.strip())
    starts = [m.start() for m in _STATEMENT_START.finditer(body)]
    types: dict[str, TypeDef] = {}
    functions: dict[str, str] = {}
    for i, start in enumerate(starts):
        statement = " ".join(body[start : starts[i + 1] if i + 1 < len(starts) else len(body)].split())
        if statement.startswith("fun "):
            name = _FUN_NAME.match(statement)
            if name:
                functions[name.group(1)] = statement
            continue
        parts = _top_level_split(statement.rstrip(";").strip())
        kind, label, *rest = parts[0].split()
        clauses = {_head(c): c for c in (_clause(p) for p in [" ".join(rest), *parts[1:]]) if c}
        types[label] = TypeDef(kind, label, clauses)
    return Schema(types, functions)


def plan(ours: str, theirs: str) -> SchemaPlan:
    """What brings the database's schema (``theirs``, as the server prints it) to ``ours``."""
    want, have = parse(ours), parse(theirs)
    define: list[str] = []
    redefine: list[str] = []
    destructive: list[str] = []
    kept: list[str] = []
    for label, wanted in want.types.items():
        held = have.types.get(label)
        if held is None:
            define.append(_statement(wanted.kind, label, list(wanted.clauses.values())))
            continue
        if held.kind != wanted.kind:
            destructive.append(f"{label}: {held.kind} in the database, {wanted.kind} in the schema")
            continue
        added: list[str] = []
        for head, clause in wanted.clauses.items():
            old = held.clauses.get(head)
            if old is None:
                added.append(clause)
            elif old != clause:
                statement, refusal = _change(wanted.kind, label, old, clause)
                if statement:
                    redefine.append(statement)
                else:
                    destructive.append(refusal)
        if added:
            define.append(_statement(wanted.kind, label, added))
        kept += [f"{label}: {clause}" for head, clause in held.clauses.items() if head not in wanted.clauses]
    kept += [f"{held.kind} {label}" for label, held in have.types.items() if label not in want.types]
    for name, text in want.functions.items():
        if name not in have.functions:
            define.append(text)
        elif have.functions[name] != text:
            redefine.append(text)
    kept += [f"fun {name}" for name in have.functions if name not in want.functions]
    return SchemaPlan(tuple(define), tuple(redefine), tuple(destructive), tuple(kept))


def _change(kind: str, label: str, old: str, new: str) -> tuple[str, str]:
    """(the ``redefine`` statement of a changed clause, "") or ("", why the change is destructive)."""
    old_base, old_annotations = _split_annotations(old)
    new_base, new_annotations = _split_annotations(new)
    if old_base != new_base:
        return "", f"{label}: '{old}' in the database, '{new}' in the schema (another value type or supertype)"
    dropped = sorted(set(_annotation_names(old_annotations)) - set(_annotation_names(new_annotations)))
    if dropped:
        return "", f"{label}: '{old}' in the database holds {', '.join(dropped)}, which '{new}' in the schema drops"
    return f"{kind} {label} {new};", ""


def _statement(kind: str, label: str, clauses: list[str]) -> str:
    head = f"{kind} {label}"
    value = next((c for c in clauses if c.startswith("value ")), None)
    if value:  # an attribute's value type goes first: ``attribute x, value string``
        clauses = [value, *(c for c in clauses if c is not value)]
    return ", ".join([head, *clauses]) + ";"


def _head(clause: str) -> str:
    words = clause.split()
    if words[0] in ("value", "sub") or words[0].startswith("@"):
        return words[0]
    return f"{words[0]} {words[1]}"


def _clause(text: str) -> str:
    """A clause with its whitespace and annotation order normalised (the server prints them sorted)."""
    text = " ".join(text.split())
    text = re.sub(r"\(\s*", "(", re.sub(r"\s*\)", ")", re.sub(r"\s*,\s*", ", ", text)))
    base, annotations = _split_annotations(text)
    return " ".join([base, *sorted(annotations)]).strip()


def _split_annotations(clause: str) -> tuple[str, list[str]]:
    at = clause.find("@")
    if at < 0:
        return clause.strip(), []
    return clause[:at].strip(), [a.strip() for a in re.findall(r"@[\w-]+(?:\([^)]*\))?", clause[at:])]


def _annotation_names(annotations: list[str]) -> list[str]:
    return [a.split("(")[0] for a in annotations]


def _top_level_split(text: str) -> list[str]:
    """Split on commas outside parentheses and string literals."""
    parts: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif not quoted and depth == 0 and ch == ",":
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]
