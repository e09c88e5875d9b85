"""Whether the signed-in reviewer of the current request is a lead (the nav shows the lead's link).

Set where the web UI reads the session (``ui._Ui.reviewer``), read by the page templates
(``is_lead()``): the role comes from the token behind the session, at every request.
"""

from __future__ import annotations

from contextvars import ContextVar

ROLE: ContextVar[str | None] = ContextVar("rcaloop_ui_role", default=None)


def is_lead() -> bool:
    return ROLE.get() == "lead"
