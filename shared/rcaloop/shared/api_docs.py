"""The API docs page (``/docs``) with Swagger UI served from this package, not from a CDN.

FastAPI's default page loads its script and style from another host, so offline (or behind
a strict proxy) it is blank. The assets ship here (swagger-ui-dist, Apache-2.0, licence
beside them) and are served under ``/docs/assets/``.
"""

from __future__ import annotations

from pathlib import Path

ASSETS = Path(__file__).resolve().parent / "static" / "swagger-ui"
FILES = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}


def install_api_docs(app) -> None:
    """Serve ``/docs`` (Swagger UI over ``app.openapi_url``) with local assets only."""
    from fastapi.openapi.docs import get_swagger_ui_html  # noqa: PLC0415 - only HTTP hosts need it
    from fastapi.responses import FileResponse, JSONResponse  # noqa: PLC0415

    @app.get("/docs", include_in_schema=False)
    async def docs():
        return get_swagger_ui_html(
            openapi_url=app.openapi_url,
            title=f"{app.title} API",
            swagger_js_url="/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/docs/assets/swagger-ui.css",
            swagger_favicon_url="/docs/assets/favicon-32x32.png",
        )

    @app.get("/docs/assets/{name}", include_in_schema=False)
    async def asset(name: str):
        media = FILES.get(name)
        if media is None:
            return JSONResponse({"error": {"code": "not_found", "message": "no such asset"}}, status_code=404)
        return FileResponse(ASSETS / name, media_type=media, headers={"Cache-Control": "max-age=3600"})
