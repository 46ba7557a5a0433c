"""A route's request examples, as the server's OpenAPI documents them."""

from __future__ import annotations


def request_examples(spec: dict, method: str, path: str) -> list[dict]:
    """The examples of the body schema of ``method path`` ([] for a route
    that takes no body)."""
    body = spec["paths"][path][method].get("requestBody")
    if body is None:
        return []
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    return spec["components"]["schemas"][ref].get("examples", [])
