"""The citation registry: which messages, RCAs and projects may be linked.

A pure model; ``registry_file.load_registry`` reads it from JSON. Every ``href`` the
parser produces comes from here, so only http(s) URLs are accepted.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator


def _http_url(value: str) -> str:
    if not value.startswith(("https://", "http://")) or any(c.isspace() or ord(c) < 32 for c in value):
        raise ValueError("must be an http(s) URL without spaces")
    return value


HttpUrl = Annotated[str, AfterValidator(_http_url)]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="ignore")


class MessageEntry(_Entry):
    author: str = Field(default="human", description="'bot' messages are linked; anything else is reduced to its label")
    url: HttpUrl | None = None
    source: str | None = Field(
        default=None, max_length=80,
        description="the collector a bot relays (alertmanager, loki, prometheus …): the message's evidence counts "
        "under its plane; without it a message adds no source group of its own",
    )


class RcaEntry(_Entry):
    url: HttpUrl | None = None
    destination: str | None = None
    posts: dict[str, HttpUrl] = Field(default_factory=dict, description="destination → URL of the post there")

    def url_for(self, destination: str | None) -> str | None:
        """The post in ``destination`` when there is one, else the RCA's own post."""
        if destination and destination in self.posts:
            return self.posts[destination]
        return self.url


class ProjectEntry(_Entry):
    code_url: HttpUrl | None = Field(default=None, description="template with {commit}, {path}, {line}")
    checkouts: list[str] = Field(default_factory=list, description="absolute local paths of checkouts")

    @field_validator("checkouts")
    @classmethod
    def _absolute(cls, paths: list[str]) -> list[str]:
        for p in paths:
            if not p.startswith("/") or p.rstrip("/") == "":
                raise ValueError(f"checkout {p!r} must be an absolute path other than /")
        return [p.rstrip("/") for p in paths]


class Registry(_Entry):
    messages: dict[str, MessageEntry] = Field(default_factory=dict)
    rcas: dict[str, RcaEntry] = Field(default_factory=dict)
    projects: dict[str, ProjectEntry] = Field(default_factory=dict)

    def checkouts(self) -> tuple[tuple[str, str], ...]:
        """(checkout path, project key) pairs; ``Resolver`` computes them once per parse."""
        return tuple((path, key) for key, p in self.projects.items() for path in p.checkouts)

    def url_prefixes(self) -> list[str]:
        """Every URL (or URL template prefix) an ``href`` may start with."""
        urls = [m.url for m in self.messages.values() if m.url]
        for r in self.rcas.values():
            urls += [u for u in (r.url, *r.posts.values()) if u]
        urls += [p.code_url.split("{", 1)[0] for p in self.projects.values() if p.code_url]
        return urls


EMPTY_REGISTRY = Registry()
