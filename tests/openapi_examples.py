"""A route's request examples, as the server's OpenAPI documents them."""

from __future__ import annotations


def request_examples(spec: dict, method: str, path: str) -> list[dict]:
    """The examples of the body schema of ``method path``; for a GET, one
    query of its parameters' examples."""
    op = spec["paths"][path][method]
    body = op.get("requestBody")
    if body is None:
        return [{p["name"]: p["schema"]["examples"][0] for p in op.get("parameters", [])
                 if "examples" in p.get("schema", {})}]
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    return spec["components"]["schemas"][ref].get("examples", [])
