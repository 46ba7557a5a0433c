"""The smokejumper web service: ``create_app(settings)`` builds the FastAPI
app; ``app`` is the one ``smokejumper serve`` runs (settings from the
SMOKEJUMPER_* environment variables)."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Literal

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel

import smokejumper
from smokejumper.cache import ResultCache
from swagger_ui_bundle import swagger_ui_path

from . import routes
from .guard import Guard
from .jobs import Jobs, router as jobs_router
from .observe import Metrics, ObserveMiddleware
from .problems import PROBLEM_JSON, BodyLimitMiddleware, ShedMiddleware, install_error_handlers, problem_responses
from .runner import Runner
from .settings import Settings

log = logging.getLogger("smokejumper.service")
STATIC_DIR = Path(__file__).resolve().parent / "static"


class Health(BaseModel):
    status: Literal["ok"]
    version: str


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    runner = Runner(settings.workers, settings.queue_limit, settings.grace_seconds)
    quick_runner = Runner(settings.quick_workers, settings.quick_queue_limit, settings.grace_seconds, lane="quick")
    cache = _open_cache(settings)
    jobs = Jobs(settings.job_workers, settings.max_jobs_queued, cache)
    guard = Guard(settings.api_keys, settings.rate_limit)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            jobs.close()
            runner.close()
            quick_runner.close()
            if cache:
                cache.close()

    app = FastAPI(
        title="smokejumper",
        version=smokejumper.__version__,
        description=(
            "Solvers for fire-themed tabletop games. Every error is "
            "`application/problem+json` with a one-line `detail` naming the field or cell. "
            f"Server caps per search: {settings.max_seconds:g} s, {settings.max_nodes} nodes, "
            f"{settings.max_memory_mb} MB; they override any limit a request asks for."
        ),
        lifespan=lifespan,
        responses=problem_responses(404),
        docs_url=None,  # served below from local files: the default loads them from a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.runner = runner
    app.state.quick_runner = quick_runner
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(ShedMiddleware, full_by_path={
        **{path: runner.full for path in routes.core_paths("search")},
        **{path: quick_runner.full for path in routes.core_paths("quick")}})
    metrics = Metrics(runner, quick_runner, cache, jobs)
    jobs.on_answer = metrics.searched
    app.state.metrics = metrics
    if settings.cors_origins:
        # Another site's page may call the API; its pages send JSON, may
        # name a search to watch, may send an API key and cancel its job,
        # and may read when to retry.
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type", "X-Search-Id", "Authorization", "X-API-Key"],
                           expose_headers=["Retry-After", routes.CACHE_WRITE_HEADER],
                           max_age=600)

    # Last, so outermost: it sees every answer, CORS's and errors' too.
    app.add_middleware(ObserveMiddleware, metrics=metrics)

    @app.get("/metrics", tags=["service"], summary="Prometheus metrics: requests, latency, queue, searches, cache",
             response_class=PlainTextResponse)
    async def prometheus() -> PlainTextResponse:
        return PlainTextResponse(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/healthz", response_model=Health, tags=["service"], summary="Liveness and version")
    async def healthz() -> Health:  # on the event loop: never waits behind a thread pool
        return Health(status="ok", version=smokejumper.__version__)

    app.include_router(routes.router(settings, runner, quick_runner, cache, metrics, guard))
    app.include_router(jobs_router(settings, jobs, guard))

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=app.openapi_url or "/openapi.json",
                                   title="smokejumper API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")
    _errors_only_as_problem_json(app)
    return app


def _open_cache(settings: Settings) -> ResultCache | None:
    """The result cache the settings name; a file that cannot be opened
    leaves the service answering without one, and the log says why."""
    if settings.cache is None:
        return None
    try:
        return ResultCache(settings.cache, settings.cache_max_mb)
    except ValueError as e:
        log.error("serving without a result cache: %s", e)
        return None


def _errors_only_as_problem_json(app: FastAPI) -> None:
    """FastAPI lists a ``responses`` model under application/json too;
    errors are only ever sent as application/problem+json. Also gives the
    games' same-named models short schema names (see _short_schema_names)."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = _short_schema_names(build())
            for item in schema.get("paths", {}).values():
                for op in item.values():
                    for status, response in op.get("responses", {}).items():
                        content = response.get("content", {})
                        if not status.startswith("2") and PROBLEM_JSON in content:
                            content.pop("application/json", None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _short_schema_names(schema: dict) -> dict:
    """Models of the same name in two games (``Position`` of two games) get
    FastAPI's long names, ``smokejumper__<game>__Position``; they get the
    game as a prefix instead (``<Game>Position``)."""
    components = schema.get("components", {}).get("schemas", {})
    rename: dict[str, str] = {}
    for name in components:
        parts = name.split("__")
        if len(parts) >= 3 and parts[0] == "smokejumper":
            short = parts[1].capitalize() + parts[-1]
            if short not in components and short not in rename.values():
                rename[name] = short
    if not rename:
        return schema
    prefix = "#/components/schemas/"

    def fix(node: object) -> object:
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str) and v.startswith(prefix) and v[len(prefix):] in rename:
                    v = prefix + rename[v[len(prefix):]]
                out[k] = fix(v)
            return out
        if isinstance(node, list):
            return [fix(v) for v in node]
        return node

    fixed = fix(schema)
    assert isinstance(fixed, dict)
    fixed["components"]["schemas"] = {rename.get(k, k): v for k, v in sorted(
        fixed["components"]["schemas"].items(), key=lambda kv: rename.get(kv[0], kv[0]))}
    return fixed


app = create_app()
