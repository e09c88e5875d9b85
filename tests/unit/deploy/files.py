"""The deployment files as one tree a rule reads: the repository's, or a copy a test broke on purpose."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
DEPLOY_FILES = ("deploy", "docker-compose.yml", "Dockerfile", ".dockerignore")
"""What is copied for a rule to read: everything an operator deploys with."""


@dataclass
class Deploy:
    root: Path

    @classmethod
    def copy(cls, target: Path) -> Deploy:
        """A copy of the deployment files under ``target``, to break one on purpose."""
        for name in DEPLOY_FILES:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name)
            elif source.exists():
                shutil.copy(source, target / name)
        return cls(target)

    def edit(self, path: str, old: str, new: str, count: int = 1) -> None:
        """Replace ``old`` (which must be there) in one file: the defect a test puts back."""
        file = self.root / path
        text = file.read_text()
        assert old in text, f"{path} no longer holds {old!r}: update the test's defect"
        file.write_text(text.replace(old, new, count))

    # -- parsed views ------------------------------------------------------------------------------------------
    def yaml_files(self) -> list[Path]:
        return sorted([*(self.root / "deploy").rglob("*.yaml"), *(self.root / "deploy").rglob("*.yml"),
                       self.root / "docker-compose.yml"])

    @cached_property
    def k8s(self) -> list[dict]:
        """Every Kubernetes object of ``deploy/k8s`` (kustomizations aside), with the file it is in."""
        docs = []
        for file in sorted((self.root / "deploy" / "k8s").rglob("*.yaml")):
            if file.name == "kustomization.yaml":
                continue
            for doc in yaml.safe_load_all(file.read_text()):
                if doc:
                    doc.setdefault("metadata", {})
                    docs.append({**doc, "_file": str(file.relative_to(self.root))})
        return docs

    def objects(self, kind: str) -> list[dict]:
        return [d for d in self.k8s if d.get("kind") == kind]

    def obj(self, kind: str, name: str) -> dict | None:
        return next((d for d in self.objects(kind) if d["metadata"].get("name") == name), None)

    @cached_property
    def compose(self) -> dict:
        return yaml.safe_load((self.root / "docker-compose.yml").read_text())

    def rcaloop_containers(self) -> list[tuple[dict, dict]]:
        """(workload, container) for every container running an rcaloop image."""
        return [(d, c) for d in self.objects("Deployment") + self.objects("StatefulSet")
                for c in d["spec"]["template"]["spec"]["containers"] if "rcaloop" in c.get("image", "")]

    def rcaloop_compose_services(self) -> dict[str, dict]:
        return {name: svc for name, svc in self.compose["services"].items() if "build" in svc}

    @cached_property
    def dockerfile(self) -> list[tuple[str, str]]:
        """(instruction, arguments) per instruction, continuation lines joined, comments dropped."""
        text = re.sub(r"\\\n", " ", (self.root / "Dockerfile").read_text())
        lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "") for line in lines]

    def dockerignore(self) -> list[str] | None:
        file = self.root / ".dockerignore"
        if not file.exists():
            return None
        return [line.strip() for line in file.read_text().splitlines() if line.strip() and not line.startswith("#")]
