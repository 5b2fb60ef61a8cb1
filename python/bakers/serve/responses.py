"""The answers of `bakers serve`'s API: JSON, with the page's security headers, and its
errors in one shape, ``{"error": "...", "status": N}`` (and any extra fields)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse

__all__ = ["HEADERS", "MAX_MESSAGE", "error", "ok"]

# The page loads nothing but its own files: no CDN, and it works offline.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

#: The longest error message sent back (one quoting a huge token is cut).
MAX_MESSAGE = 300


def _cut(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """Return the error answer ``{"error": message, "status": status, **extra}``."""
    extra = {key: _cut(value) if isinstance(value, str) else value
             for key, value in extra.items()}
    return JSONResponse({"error": _cut(message), "status": status, **extra},
                        status_code=status, headers=HEADERS)


def ok(data: Mapping[str, Any]) -> JSONResponse:
    """Return the answer ``data`` (status 200)."""
    return JSONResponse(dict(data), headers=HEADERS)
