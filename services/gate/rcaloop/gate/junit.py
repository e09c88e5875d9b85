"""JUnit XML for CI: one testcase per eval case, capture or release-gate metric."""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree import ElementTree as ET


@dataclass(frozen=True)
class JUnitCase:
    name: str
    classname: str
    failure: str | None = None
    time_s: float = 0.0


def render(suite: str, cases: list[JUnitCase]) -> str:
    failures = sum(1 for c in cases if c.failure)
    root = ET.Element("testsuites", name="rcaloop", tests=str(len(cases)), failures=str(failures))
    node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)), failures=str(failures), errors="0",
                         skipped="0")
    for c in cases:
        tc = ET.SubElement(node, "testcase", name=c.name, classname=c.classname, time=f"{c.time_s:.3f}")
        if c.failure:
            fail = ET.SubElement(tc, "failure", message=c.failure.splitlines()[0][:500] if c.failure else "")
            fail.text = c.failure
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
