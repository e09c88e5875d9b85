"""Bringing a database's schema to ``schema.tql``: the whole schema is compared, not type names.

The texts on the database side are what a TypeDB 3.12 server prints for ``Database.schema()``
(clauses one per line, sorted; functions as written).
"""

from __future__ import annotations

from rcaloop.knowledge import typeql
from rcaloop.knowledge.typedb_schema import parse, plan

HELD = """define

attribute name,
 value string;
attribute colour,
 value string @values("red");
entity person,
  owns colour,
  owns name @key;
fun count_people() -> integer: match $p isa person; return count;
"""


def test_the_server_print_of_our_own_schema_needs_nothing():
    printed = "define\n\n" + "\n".join(  # as the server prints it: one clause a line, clauses sorted
        f"{t.kind} {t.label},\n  " + ",\n  ".join(sorted(t.clauses.values())) + ";" if t.clauses
        else f"{t.kind} {t.label};"
        for t in parse(typeql.SCHEMA).types.values()
    ) + "\n" + "\n".join(parse(typeql.SCHEMA).functions.values())
    result = plan(typeql.SCHEMA, printed)
    assert not result.changes and result.destructive == () and result.kept == ()


def test_an_empty_database_gets_the_whole_schema_in_one_define():
    result = plan(typeql.SCHEMA, "")
    assert len(result.queries()) == 1 and result.queries()[0].startswith("define\n")
    assert {"incident", "knowledge-package", "remediation"} <= set(parse(result.queries()[0]).types)
    assert set(parse(result.queries()[0]).functions) == set(parse(typeql.SCHEMA).functions)


def test_an_added_owns_and_a_new_type_are_defined_even_though_every_old_label_exists():
    ours = HELD.replace("owns name @key;", "owns name @key, owns age;") + "attribute age, value integer;\n"
    result = plan(ours, HELD)
    assert result.define == ("entity person, owns age;", "attribute age, value integer;")
    assert result.redefine == () and result.destructive == ()


def test_changed_values_and_a_changed_function_are_redefined():
    ours = HELD.replace('@values("red")', '@values("red", "blue")').replace(
        "$p isa person;", "$p isa person, has name $n;")
    result = plan(ours, HELD)
    assert result.define == ()
    assert result.redefine == (
        'attribute colour value string @values("red", "blue");',
        "fun count_people() -> integer: match $p isa person, has name $n; return count;",
    )
    assert result.queries()[0].startswith("redefine\nattribute colour value string @values(")


def test_destructive_changes_are_refused_with_what_they_would_lose():
    ours = HELD.replace("attribute name,\n value string;", "attribute name, value integer;")
    ours = ours.replace("owns name @key;", "owns name;").replace("entity person,", "relation person, relates member,")
    assert plan(ours, HELD).destructive == ("name: 'value string' in the database, 'value integer' in the schema "
                                            "(another value type or supertype)",
                                            "person: entity in the database, relation in the schema")
    dropped = plan(HELD.replace("owns name @key;", "owns name;"), HELD)
    assert dropped.destructive == ("person: 'owns name @key' in the database holds @key, which 'owns name' in the "
                                   "schema drops",)


def test_what_the_database_holds_beyond_the_schema_is_kept():
    newer = HELD.replace("  owns name @key;",
                         "  owns name @key,\n  owns nickname;") + "attribute nickname, value string;\n"
    result = plan(HELD, newer)
    assert not result.changes and result.destructive == ()
    assert result.kept == ("person: owns nickname", "attribute nickname")
